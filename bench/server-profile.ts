/**
 * CPU profile of our language server process as the harness drives it (startup, open,
 * edits, completion, hover). The shipped bundle is minified, so this builds an unminified
 * copy of it (same esbuild settings as packages/lsp/scripts/bundle.mjs, minify off) into
 * .bench-work/ and runs that with `node --cpu-prof`.
 *
 *   npx tsx bench/server-profile.ts [lines=50000] [errors=0|1] [rounds=5] [yaml|toml]
 *
 * `rounds` sets the harness's repetitions (two edits, two completions and a hover each): 100 makes
 * the edits, not the open, the bulk of the profile.
 *   npx tsx bench/profile-summary.ts .bench-work/prof/server-<name>.cpuprofile
 */
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateManifest } from './generate.ts';
import { runOnce } from './lsp-harness.ts';
import { renderToml } from './render-toml.ts';
import { bundleServerCopy, ourSpec, ROOT, WORK } from './servers.ts';

const lines = Number(process.argv[2] ?? 50000);
const errors = process.argv[3] === '1';
const outfile = join(WORK, 'lsp-unminified.cjs');
const lspRoot = join(ROOT, 'packages', 'lsp');
await bundleServerCopy(join(lspRoot, 'src', 'main.ts'), outfile, { minify: false });
const dir = join(WORK, 'prof', 'server-tmp');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const generated = generateManifest({ targetLines: lines, errorRate: errors ? 0.01 : 0, seed: 42 });
const manifest = process.argv[5] === 'toml' ? renderToml(generated) : generated;
const spec = {
  ...ourSpec(),
  name: 'ours-profiled',
  args: ['--cpu-prof', '--cpu-prof-interval', '200', '--cpu-prof-dir', dir, outfile, '--stdio'],
};
const sample = await runOnce(spec, manifest, {
  inner: Number(process.argv[4] ?? 5),
  workDir: '/tmp/svc-manifest-bench',
  timeoutMs: 120_000,
  log: console.error,
});
// The profile is written when the server exits.
await new Promise((r) => setTimeout(r, 1000));
const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
const target = join(WORK, 'prof', `server-${manifest.name}.cpuprofile`);
if (files[0]) renameSync(join(dir, files[0]), target);
console.log(
  JSON.stringify({ ...sample, profile: files[0] ? target : 'none written' }, (k, v) =>
    typeof v === 'number' ? Math.round(v * 10) / 10 : v,
  ),
);
