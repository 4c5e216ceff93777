// Bundles the extension for the .vsix, so it needs no node_modules at run time:
//   src/extension.ts          -> dist/extension.js  (the client; `vscode` stays external)
//   @svc-manifest/lsp         -> dist/server.js     (its runLanguageServer: the language server, a dependency of this
//                                                    package, with the validator and schemas inlined)
// Both are CommonJS for Node >= 20 (VS Code's extension host loads `main` with require).
// For vscode.dev and github.dev (package.json `browser`), built for the web extension host:
//   src/web-extension.ts      -> dist/web/extension.js  (the browser client; CommonJS, `vscode` external)
//   @svc-manifest/lsp/browser -> dist/web/server.js     (startWorkerServer: the same server in a Web
//                                                        Worker, a classic script; scripts/browser-bundle.mjs;
//                                                        or on a MessagePort in the extension host's thread)
//
// Usage: node scripts/bundle.mjs [--require-server] [--outdir <dir>]
//   --require-server  fail when the language server entry is missing (used by `npm run package`;
//                     the package's own entry is resolved by esbuild and always fails loudly)
//   --outdir <dir>    write the bundles there instead of dist/ (tests)
//   SVC_SERVER_ENTRY=<file>  bundle another server entry (tests only)
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { browserBuild } from '../../../scripts/browser-bundle.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const pkgDir = resolve(here, '..');
const outdirArg = process.argv.indexOf('--outdir');
const dist = outdirArg > 0 && process.argv[outdirArg + 1] ? resolve(process.argv[outdirArg + 1]) : join(pkgDir, 'dist');
const requireServer = process.argv.includes('--require-server');
// The server is reached through the package's exports, like any dependency (never by a path
// into another package's folder); SVC_SERVER_ENTRY names a file instead (tests only).
const serverEntry = process.env.SVC_SERVER_ENTRY ? resolve(process.env.SVC_SERVER_ENTRY) : null;

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // Workspace packages export their TypeScript sources under the "source"
  // condition: bundle from src/, never from a possibly stale dist/.
  conditions: ['source'],
  mainFields: ['module', 'main'],
  // ESM sources that use import.meta.url keep working once turned into CJS.
  // The document layer's usage checks (packages/validator/src/document/checks.ts) stay out of bundles.
  define: { 'import.meta.url': '__svc_import_meta_url', SVC_MANIFEST_BUNDLE: 'true' },
  banner: { js: "const __svc_import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  sourcemap: false,
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  logLevel: 'warning',
};

mkdirSync(dist, { recursive: true });

await esbuild.build({
  ...common,
  entryPoints: [join(pkgDir, 'src', 'extension.ts')],
  outfile: join(dist, 'extension.js'),
  external: ['vscode'],
});

if (!serverEntry) {
  await esbuild.build({
    ...common,
    stdin: {
      contents: "import { runLanguageServer } from '@svc-manifest/lsp'; runLanguageServer(process.argv.slice(2));",
      resolveDir: pkgDir,
      sourcefile: 'server-entry.js',
      loader: 'js',
    },
    outfile: join(dist, 'server.js'),
  });
} else if (existsSync(serverEntry)) {
  await esbuild.build({
    ...common,
    entryPoints: [serverEntry],
    outfile: join(dist, 'server.js'),
  });
} else if (requireServer) {
  console.error(`bundle: language server entry ${serverEntry} not found`);
  process.exit(1);
} else {
  console.warn(`bundle: ${relative(process.cwd(), serverEntry)} does not exist yet; dist/server.js not built`);
}

await esbuild.build({
  ...common,
  platform: 'browser',
  target: 'es2022',
  define: {},
  banner: {},
  conditions: ['source', 'browser'],
  mainFields: ['browser', 'module', 'main'],
  entryPoints: [join(pkgDir, 'src', 'web-extension.ts')],
  outfile: join(dist, 'web', 'extension.js'),
  external: ['vscode'],
});
await browserBuild({
  stdin: {
    // As a worker's script it serves the worker's own scope. Where the extension host refuses a
    // worker, src/web-extension.ts evaluates this same script in its own thread with
    // `svcManifestServerPort` bound to a MessagePort, and the server serves that port instead
    // (in a worker the name is not declared: typeof gives 'undefined').
    contents:
      "import { startWorkerServer } from '@svc-manifest/lsp/browser';" +
      " startWorkerServer(typeof svcManifestServerPort === 'undefined' ? undefined : svcManifestServerPort);",
    resolveDir: pkgDir,
    sourcefile: 'web-server-entry.js',
    loader: 'js',
  },
  // A classic worker script: the web extension host starts it with `new Worker(url)`.
  format: 'iife',
  outfile: join(dist, 'web', 'server.js'),
});

for (const f of ['extension.js', 'server.js', 'web/extension.js', 'web/server.js']) {
  const p = join(dist, f);
  if (existsSync(p)) console.log(`bundle: ${relative(process.cwd(), p)} ${(statSync(p).size / 1024).toFixed(0)} KiB`);
}
