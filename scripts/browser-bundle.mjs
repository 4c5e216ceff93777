// The one way code of ours is bundled for a browser or a Web Worker: the validator's and the
// language server's `browser` exports (dist/browser.mjs), and the site's scripts
// (site/scripts/assets.ts). ES module, minified, workspace packages from their sources.
import { build } from 'esbuild';

/**
 * A browser build reaches no Node built-in: the validator's browser export is its library
 * (src/library.ts), and the language server's shared code imports only that; Node's files,
 * processes and threads stay behind the Node entry points (the CLI, the server's command.ts).
 * An import of one fails the build, naming the module that made it.
 */
/** @type {import('esbuild').Plugin} */
export const noNodeBuiltins = {
  name: 'no-node-built-ins',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^node:/ }, (args) => ({
      errors: [
        { text: `${args.path} is Node's, and a browser build reaches no Node built-in (imported by ${args.importer})` },
      ],
    }));
  },
};

/** esbuild options every browser build shares; `options` adds to or overrides them. */
export function browserBuild(options) {
  return build({
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    conditions: ['source', 'browser'],
    minify: true,
    legalComments: 'none',
    sourcemap: false,
    logLevel: 'warning',
    ...options,
    plugins: [noNodeBuiltins, ...(options.plugins ?? [])],
    // SVC_MANIFEST_BUNDLE marks a bundle, as the Node bundles do (development-only checks are
    // left out of bundles by it).
    define: { SVC_MANIFEST_BUNDLE: 'true', ...(options.define ?? {}) },
  });
}
