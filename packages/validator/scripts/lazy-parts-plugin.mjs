// An esbuild plugin for bundles of the validator (the CLI's, the language server's and the
// applier's): the modules below, which many runs never use, are bundled but run only when a
// bundle first reads one of their exports. The sources import them as usual; only the bundle is
// lazy, so the library's layers know nothing of it. `svc-manifest validate svc.yaml` then never
// runs the TOML parser's or the svc_version 1 validator's module code, nor the `yaml` library's
// when the simple reader reads the file (simple-yaml.ts), nor a formatter it was not asked for,
// nor Node's child_process (which loads Node's streams and sockets).
//
// Each import of such a module resolves to a small CommonJS stand-in whose exports are getters;
// the first getter read `require()`s the module, which esbuild compiles to a call that runs the
// module's top-level code once, then. The stand-in lists the module's export names, read at
// build time (a relative module's with esbuild itself, a package's or a built-in's by loading it).
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const requireHere = createRequire(import.meta.url);

/** The validator's modules loaded on first use, relative to its src/. */
const LAZY_MODULES = [
  'document/parse-toml.ts',
  'document/yaml-library.ts',
  'generated/validators-v1.ts',
  'formatters/json.ts',
  'formatters/sarif.ts',
  'formatters/github.ts',
  'inputs/walk.ts',
].map((file) => join(SOURCE, file));
/** Packages and built-ins loaded on first use. */
const LAZY_PACKAGES = ['toml-eslint-parser', 'node:child_process'];

const NAMESPACE = 'svc-manifest-lazy';

async function exportNames(target) {
  if (!target.startsWith(SOURCE + sep)) return Object.keys(requireHere(target));
  const result = await build({
    entryPoints: [target],
    bundle: false,
    write: false,
    metafile: true,
    format: 'esm',
    logLevel: 'silent',
  });
  return Object.values(result.metafile.outputs).flatMap((output) => output.exports);
}

export const lazyParts = {
  name: 'svc-manifest-lazy-parts',
  setup(pluginBuild) {
    // A module listed above that no import reaches (renamed, moved, or its importers gone) would
    // silently be loaded eagerly again under its new name: the build fails instead.
    const reached = new Set();
    pluginBuild.onStart(() => reached.clear());
    pluginBuild.onEnd((result) => {
      if (result.errors.length > 0) return;
      const unreached = [...LAZY_MODULES, ...LAZY_PACKAGES].filter((target) => !reached.has(target));
      if (unreached.length > 0)
        return {
          errors: unreached.map((target) => ({
            text: `lazy-parts-plugin: no import reaches ${target}; update LAZY_MODULES or LAZY_PACKAGES`,
          })),
        };
    });
    pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
      // The stand-in's own require reaches the real module (resolved as esbuild would).
      if (args.pluginData === NAMESPACE) return undefined;
      if (args.namespace === NAMESPACE) {
        if (args.path.startsWith(SOURCE + sep)) return { path: args.path };
        return pluginBuild.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: NAMESPACE });
      }
      if (LAZY_PACKAGES.includes(args.path)) {
        reached.add(args.path);
        return { path: args.path, namespace: NAMESPACE };
      }
      if (!args.path.startsWith('.')) return undefined;
      const target = normalize(join(args.resolveDir, args.path.replace(/\.js$/, '.ts')));
      if (!LAZY_MODULES.includes(target)) return undefined;
      reached.add(target);
      return { path: target, namespace: NAMESPACE };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => {
      const names = await exportNames(args.path);
      const getters = names.map(
        (name) => `  ${JSON.stringify(name)}: { enumerable: true, get: () => load()[${JSON.stringify(name)}] },`,
      );
      return {
        contents: [
          'let loaded;',
          `const load = () => (loaded ??= require(${JSON.stringify(args.path)}));`,
          'Object.defineProperties(exports, {',
          ...getters,
          '});',
        ].join('\n'),
        loader: 'js',
        resolveDir: args.path.startsWith(SOURCE) ? dirname(args.path) : SOURCE,
      };
    });
  },
};
