// Builds what the package ships besides its type declarations (see scripts/bundle-package.mjs):
// dist/svc-manifest-lsp-main.cjs, the whole library with `runLanguageServer`, and the
// `svc-manifest-lsp` bin beside it.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundlePackage } from '../../../scripts/bundle-package.mjs';
// The validator's parts a session may not need (the TOML parser, the v1 validator) load on first use.
import { lazyParts } from '../../validator/scripts/lazy-parts-plugin.mjs';
import { browserBuild } from '../../../scripts/browser-bundle.mjs';

await bundlePackage({
  root: join(dirname(fileURLToPath(import.meta.url)), '..'),
  main: 'svc-manifest-lsp-main.cjs',
  plugins: [lazyParts],
  esbuild: { mainFields: ['module', 'main'] },
});

// The `./browser` export: the server for a Web Worker (src/browser.ts, `startWorkerServer`), one
// ES module with the validator inside and no Node built-ins (see scripts/browser-bundle.mjs).
await browserBuild({
  entryPoints: [join(dirname(fileURLToPath(import.meta.url)), '../src/browser.ts')],
  outfile: join(dirname(fileURLToPath(import.meta.url)), '../dist/browser.mjs'),
});
