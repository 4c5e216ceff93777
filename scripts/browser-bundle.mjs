// The one way code of ours is bundled for a browser or a Web Worker: the validator's and the
// language server's `browser` exports (dist/browser.mjs), and the site's scripts
// (site/scripts/assets.ts). ES module, minified, workspace packages from their sources.
import { build } from 'esbuild';

/**
 * Node built-ins that the validator's and the server's library still import (the CLI's files,
 * which the library's index re-exports; `svc-manifest git`'s child process; "Convert to YAML"
 * asking whether the YAML file exists on disk). Until those imports move behind the Node entry
 * points (issue #32), a browser build gets stand-ins: `existsSync` answers "no such file" (a
 * browser has none), and every other function throws if it is ever called, which the
 * playground's tests would see as an error. Tree-shaking drops most of them.
 */
const THROWING_FUNCTIONS = {
  'node:child_process': ['spawn', 'spawnSync', 'execFile', 'execFileSync'],
  'node:fs': [
    'accessSync',
    'closeSync',
    'openSync',
    'readFileSync',
    'readSync',
    'realpathSync',
    'statSync',
    'fstatSync',
    'writeSync',
    'unlinkSync',
    'writeFileSync',
    'readdirSync',
    'lstatSync',
    'mkdirSync',
    'rmSync',
    'renameSync',
  ],
  'node:path': ['basename', 'dirname', 'extname', 'isAbsolute', 'join', 'relative', 'resolve'],
  'node:url': ['pathToFileURL'],
  'node:os': ['availableParallelism'],
  'node:worker_threads': [],
};
const OTHER_EXPORTS = {
  'node:fs': 'export function existsSync() { return false; }\nexport const constants = {};',
  'node:path': "export const delimiter = ':';\nexport const sep = '/';",
  'node:url': 'export function fileURLToPath(url) { return decodeURIComponent(new URL(String(url)).pathname); }',
  'node:worker_threads':
    "export class Worker { constructor() { throw new Error('node:worker_threads Worker is not available in a browser'); } }\nexport const parentPort = null;\nexport const workerData = undefined;\nexport const isMainThread = true;",
};

function standIn(module) {
  const throwing = (THROWING_FUNCTIONS[module] ?? []).map(
    (name) => `export function ${name}() { throw new Error('${module} ${name}() is not available in a browser'); }`,
  );
  return [...throwing, OTHER_EXPORTS[module] ?? ''].join('\n');
}

/** @type {import('esbuild').Plugin} */
export const nodeStandIns = {
  name: 'node-stand-ins',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^node:/ }, (args) => {
      if (!(args.path in THROWING_FUNCTIONS)) return { errors: [{ text: `${args.path} has no browser stand-in (imported by ${args.importer})` }] };
      return { path: args.path, namespace: 'node-stand-in' };
    });
    esbuild.onLoad({ filter: /.*/, namespace: 'node-stand-in' }, (args) => ({ contents: standIn(args.path), loader: 'js' }));
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
    plugins: [nodeStandIns, ...(options.plugins ?? [])],
    // process-io.ts (the CLI's, re-exported by the validator's index) reads process.platform at
    // load time; SVC_MANIFEST_BUNDLE marks a bundle, as the Node bundles do (issue #32 leaves
    // development-only checks out of bundles by it).
    define: { 'process.platform': JSON.stringify('browser'), SVC_MANIFEST_BUNDLE: 'true', ...(options.define ?? {}) },
  });
}
