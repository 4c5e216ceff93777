/**
 * Where the CLI's start-up time goes: wall time (spawn → exit) of a ladder of commands,
 * interleaved round-robin so load hits each the same, medians over N rounds.
 *
 *   npx tsx bench/cli-profile.ts [rounds=12]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, cliManifest, wall } from './cli-bench.ts';
import { stat } from './lsp-harness.ts';

const rounds = Number(process.argv[2] ?? 12);
const main = join(CLI, '..', 'svc-manifest-main.cjs');
const ladder: [string, string[], Record<string, string>?][] = [
  ['node -e 0', ['-e', '0']],
  ['node: read the bundle file only', ['-e', `require('fs').readFileSync(${JSON.stringify(main)}, 'utf8')`]],
  ['svc-manifest --version (load + init, code cache)', [CLI, '--version']],
  ['svc-manifest --version (no code cache)', [CLI, '--version'], { SVC_MANIFEST_NO_CACHE: '1' }],
  ['svc-manifest validate example (code cache)', [CLI, 'validate', cliManifest()]],
  ['svc-manifest validate example (no code cache)', [CLI, 'validate', cliManifest()], { SVC_MANIFEST_NO_CACHE: '1' }],
];
// The CLI's code caches live in a folder of this run's own (written by the warm-up rounds below).
const cache = mkdtempSync(join(tmpdir(), 'svc-manifest-profile-cache-'));
process.on('exit', () => rmSync(cache, { recursive: true, force: true }));
for (const rung of ladder) rung[2] = { XDG_CACHE_HOME: cache, ...rung[2] };
const times = ladder.map(() => [] as number[]);
const cpu = ladder.map(() => [] as number[]);
for (let round = 0; round < 3; round++)
  for (const [, args, env] of ladder) spawnSync(process.execPath, args, { env: { ...process.env, ...env } });
for (let r = 0; r < rounds; r++) {
  ladder.forEach(([, args, env], i) => {
    const w = wall(args, env);
    times[i]!.push(w.ms);
    cpu[i]!.push(w.cpuMs);
  });
}
const base = stat(times[0]!).median;
const baseCpu = stat(cpu[0]!).median;
console.log('    wall ms (over node -e 0)     cpu ms (over node -e 0)');
ladder.forEach(([name], i) => {
  const s = stat(times[i]!);
  const c = stat(cpu[i]!);
  console.log(
    `${s.median.toFixed(1).padStart(8)} (+${(s.median - base).toFixed(1).padStart(6)})   ${c.median.toFixed(0).padStart(6)} (+${(c.median - baseCpu).toFixed(0).padStart(4)})   ${name}  [wall ${s.min.toFixed(0)}–${s.max.toFixed(0)}]`,
  );
});
