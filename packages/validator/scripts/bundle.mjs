// Builds what the package ships besides its type declarations:
//   dist/svc-manifest-main.cjs   the whole library (src/index.ts, runCli included) with its
//                                dependencies inlined, CommonJS, minified: the one copy of the code
//   dist/index.mjs               the package's ES module entry, re-exporting the bundle
//   dist/THIRD_PARTY_LICENSES.txt  the licences of the inlined dependencies
// and, for the repository's own tests and benchmarks, copies of the launcher (launcher/, the
// package's `bin`) in dist/. Files are written beside their target and renamed into place, so
// parallel test files never read half a bundle. Parts a run may not need (the TOML parser, the v1
// validator) load on first use (scripts/lazy-parts-plugin.mjs).
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { thirdPartyNotices } from '../../../scripts/third-party-notices.mjs';
import { lazyParts } from './lazy-parts-plugin.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
mkdirSync(dist, { recursive: true });

function writeAtomically(file, write) {
  const temporary = `${file}.${process.pid}.tmp`;
  write(temporary);
  renameSync(temporary, file);
}

const result = await build({
  entryPoints: [join(root, 'src', 'index.ts')],
  outfile: join(dist, `svc-manifest-main.cjs.${process.pid}.tmp`),
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Workspace packages are bundled from their sources: no stale dist/ can sneak in.
  conditions: ['source'],
  minify: true,
  legalComments: 'none',
  sourcemap: false,
  metafile: true,
  plugins: [lazyParts],
  logLevel: 'warning',
});
renameSync(join(dist, `svc-manifest-main.cjs.${process.pid}.tmp`), join(dist, 'svc-manifest-main.cjs'));

// Node reads the bundle's export names from esbuild's `0 && (module.exports = {…})` annotation.
writeAtomically(join(dist, 'index.mjs'), (file) =>
  writeFileSync(file, "// The ES module entry of @svc-manifest/validator: the bundle's exports.\nexport * from './svc-manifest-main.cjs';\n"),
);
writeAtomically(join(dist, 'THIRD_PARTY_LICENSES.txt'), (file) => writeFileSync(file, thirdPartyNotices(result.metafile, root)));
for (const name of ['svc-manifest.cjs', 'code-cache.cjs']) writeAtomically(join(dist, name), (file) => copyFileSync(join(root, 'launcher', name), file));
chmodSync(join(dist, 'svc-manifest.cjs'), 0o755);
