// Builds the CLI: dist/svc-manifest-main.cjs (src/bin.ts with its dependencies inlined, CommonJS,
// minified; @svc-manifest/gitops stays outside and is loaded by `svc-manifest git`), and copies the
// launcher (the package's bin, which runs the bundle through V8's code cache) beside it. Parts a run
// may not need load on first use (scripts/lazy-parts-plugin.mjs). The bundle is written beside its
// target and renamed into place, so a test running meanwhile never reads half a file.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazyParts } from './lazy-parts-plugin.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
mkdirSync(dist, { recursive: true });

function writeAtomically(file, write) {
  const temporary = `${file}.${process.pid}.tmp`;
  write(temporary);
  renameSync(temporary, file);
}

const bundle = join(dist, 'svc-manifest-main.cjs');
await build({
  entryPoints: [join(root, 'src', 'bin.ts')],
  outfile: `${bundle}.${process.pid}.tmp`,
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: true,
  external: ['@svc-manifest/gitops'],
  plugins: [lazyParts],
  logLevel: 'warning',
});
renameSync(`${bundle}.${process.pid}.tmp`, bundle);
for (const name of ['svc-manifest.cjs', 'code-cache.cjs']) writeAtomically(join(dist, name), (file) => copyFileSync(join(root, 'launcher', name), file));
chmodSync(join(dist, 'svc-manifest.cjs'), 0o755);
