/**
 * Files per second on the throughput tree (bench/throughput-bench.ts's), our CLI against ajv-cli,
 * interleaved round by round so a change in the machine's load hits both, with CPU time (user +
 * sys, getrusage through bench/rusage.py) beside wall time: on two shared cores the CPU time is
 * the steadier figure. `OTHER_CLI=<path to another build's svc-manifest.cjs>` adds that build as
 * a third command, for an A/B of two builds in one run.
 *
 *   npx tsx bench/experiments/tree-throughput.ts [files=2000] [rounds=5] [format=json]
 */
import { join } from 'node:path';
import { CLI, wall } from '../cli-bench.ts';
import { stat } from '../lsp-harness.ts';
import { ROOT } from '../servers.ts';
import { ajvArgs, generateTree } from '../throughput-bench.ts';

const files = Number(process.argv[2] ?? 2000);
const rounds = Number(process.argv[3] ?? 5);
const format = process.argv[4] ?? 'json';
const tree = join(ROOT, '.bench-work', 'throughput-tree');
const { yaml } = generateTree(tree, files);
const ajv = join(ROOT, 'node_modules', 'ajv-cli', 'dist', 'index.js');
const ours = (cli: string) => [cli, 'validate', tree, '--format', format, '--no-ignore', '--concurrency', 'off'];
const commands: [string, string[], number][] = [
  ['ours', ours(CLI), files],
  ['ajv-cli', [ajv, ...ajvArgs(tree)], yaml],
];
if (process.env.OTHER_CLI) commands.push(['other build', ours(process.env.OTHER_CLI), files]);
const env = { NO_COLOR: '1' };
for (const [, args] of commands) wall(args, env);
const measured = commands.map(() => ({ ms: [] as number[], cpuMs: [] as number[] }));
for (let round = 0; round < rounds; round++) {
  // Each round starts with another command, so that none always runs first.
  for (let k = 0; k < commands.length; k++) {
    const i = (round + k) % commands.length;
    const run = wall(commands[i]![1], env);
    measured[i]!.ms.push(run.ms);
    measured[i]!.cpuMs.push(run.cpuMs);
  }
}
const perSecond = (count: number, ms: number) => Math.round((count / ms) * 1000);
const ajvIndex = 1;
console.log(`${files} files (${yaml} YAML), ${rounds} rounds, format ${format}`);
commands.forEach(([name, , count], i) => {
  const w = stat(measured[i]!.ms).median;
  const c = stat(measured[i]!.cpuMs).median;
  const overAjvWall = stat(
    measured[i]!.ms.map((ms, r) => perSecond(count, ms) / perSecond(yaml, measured[ajvIndex]!.ms[r]!)),
  ).median;
  const overAjvCpu = stat(
    measured[i]!.cpuMs.map((ms, r) => perSecond(count, ms) / perSecond(yaml, measured[ajvIndex]!.cpuMs[r]!)),
  ).median;
  console.log(
    `${name.padEnd(12)} wall ${Math.round(w)} ms (${perSecond(count, w)} files/s, ${overAjvWall.toFixed(2)}× ajv-cli)  cpu ${Math.round(c)} ms (${perSecond(count, c)} files/s, ${overAjvCpu.toFixed(2)}× ajv-cli)`,
  );
});
