// Builds what the package ships besides its type declarations:
//   dist/svc-manifest-lsp-main.cjs  the whole library (src/index.ts, `runLanguageServer` included)
//                                   with every dependency inlined, CommonJS, minified: the one copy
//   dist/index.mjs                  the package's ES module entry, re-exporting the bundle
//   dist/code-cache.cjs             V8 code cache loader (the validator's launcher/code-cache.cjs;
//                                   Node 20 has no module compile cache)
//   dist/THIRD_PARTY_LICENSES.txt   the licences of the inlined dependencies
// and, for the repository's tests and benchmarks, a copy of the bin (launcher/svc-manifest-lsp.cjs)
// in dist/. Everything is written beside its target and renamed into place, so concurrent builds
// (parallel test files) never expose a half-written file.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { thirdPartyNotices } from '../../../scripts/third-party-notices.mjs';
// The validator's parts a session may not need (the TOML parser, the v1 validator) load on first use.
import { lazyParts } from '../../validator/scripts/lazy-parts-plugin.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
mkdirSync(dist, { recursive: true });

function writeAtomically(file, write) {
  const temporary = `${file}.${process.pid}.tmp`;
  write(temporary);
  renameSync(temporary, file);
}

const outfile = join(dist, 'svc-manifest-lsp-main.cjs');
const result = await build({
  entryPoints: [join(root, 'src', 'index.ts')],
  outfile: `${outfile}.${process.pid}.tmp`,
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Workspace packages are bundled from their sources: no stale dist/ can sneak in.
  conditions: ['source'],
  mainFields: ['module', 'main'],
  sourcemap: false,
  minify: true,
  legalComments: 'none',
  metafile: true,
  plugins: [lazyParts],
  logLevel: 'warning',
});
renameSync(`${outfile}.${process.pid}.tmp`, outfile);

// Node reads the bundle's export names from esbuild's `0 && (module.exports = {…})` annotation.
writeAtomically(join(dist, 'index.mjs'), (file) =>
  writeFileSync(file, "// The ES module entry of @svc-manifest/lsp: the bundle's exports.\nexport * from './svc-manifest-lsp-main.cjs';\n"),
);
writeAtomically(join(dist, 'THIRD_PARTY_LICENSES.txt'), (file) => writeFileSync(file, thirdPartyNotices(result.metafile, root)));
writeAtomically(join(dist, 'code-cache.cjs'), (file) => copyFileSync(join(root, '..', 'validator', 'launcher', 'code-cache.cjs'), file));
writeAtomically(join(dist, 'svc-manifest-lsp.cjs'), (file) => {
  copyFileSync(join(root, 'launcher', 'svc-manifest-lsp.cjs'), file);
  chmodSync(file, 0o755);
});
