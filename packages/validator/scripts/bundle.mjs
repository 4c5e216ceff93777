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

// The `browser` export: the library without the command line (src/library.ts, the `./library`
// export) as one ES module, for pages and Web Workers; it reaches no Node built-in (see
// scripts/browser-bundle.mjs).
await browserBuild({
  entryPoints: [join(dirname(fileURLToPath(import.meta.url)), '../src/library.ts')],
  outfile: join(dirname(fileURLToPath(import.meta.url)), '../dist/browser.mjs'),
});
