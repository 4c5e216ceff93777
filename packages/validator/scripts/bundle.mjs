// Builds what the package ships besides its type declarations (see scripts/bundle-package.mjs):
// dist/svc-manifest-main.cjs, the whole library with runCli, and the `svc-manifest` bin beside it.
// Parts a run may not need (the TOML parser, the v1 validator, the non-default formatters) load
// on first use (scripts/lazy-parts-plugin.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundlePackage } from '../../../scripts/bundle-package.mjs';
import { lazyParts } from './lazy-parts-plugin.mjs';
import { browserBuild } from '../../../scripts/browser-bundle.mjs';

await bundlePackage({
  root: join(dirname(fileURLToPath(import.meta.url)), '..'),
  main: 'svc-manifest-main.cjs',
  plugins: [lazyParts],
});

// The `browser` export: the whole library as one ES module without Node built-ins (see
// scripts/browser-bundle.mjs), for pages and Web Workers.
await browserBuild({
  entryPoints: [join(dirname(fileURLToPath(import.meta.url)), '../src/index.ts')],
  outfile: join(dirname(fileURLToPath(import.meta.url)), '../dist/browser.mjs'),
});
