/**
 * Files per second on the throughput tree (bench/throughput-bench.ts's), our CLI against ajv-cli
 * and python-jsonschema + PyYAML (when python3 has jsonschema and yaml), interleaved round by
 * round so a change in the machine's load hits all, with CPU time (user + sys, getrusage through
 * bench/rusage.py) beside wall time: on two shared cores the CPU time is the steadier figure.
 * `OTHER_CLI=<path to another build's svc-manifest.cjs>` adds that build as another command, for
 * an A/B of two builds in one run. Each ratio is the median of the rounds' ratios.
 *
 *   npx tsx bench/experiments/tree-throughput.ts [files=2000] [rounds=5] [format=json]
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CLI, roundRobin } from '../cli-bench.ts';
import { stat } from '../lsp-harness.ts';
import { ROOT } from '../servers.ts';
import { ajvArgs, generateTree, pythonArgs } from '../throughput-bench.ts';

const files = Number(process.argv[2] ?? 2000);
const rounds = Number(process.argv[3] ?? 5);
const format = process.argv[4] ?? 'json';
const tree = join(ROOT, '.bench-work', 'throughput-tree');
const { yaml } = generateTree(tree, files);
const ajv = join(ROOT, 'node_modules', 'ajv-cli', 'dist', 'index.js');
const ours = (cli: string) => [cli, 'validate', tree, '--format', format, '--no-ignore', '--concurrency', 'off'];
/** Name, program (undefined: this Node), arguments, files it is given. */
const commands: [string, string | undefined, string[], number][] = [
  ['ours', undefined, ours(CLI), files],
  ['ajv-cli', undefined, [ajv, ...ajvArgs(tree)], yaml],
];
if (spawnSync('python3', ['-c', 'import jsonschema, yaml, tomllib']).status === 0)
  commands.push(['python', 'python3', pythonArgs(tree), files]);
if (process.env.OTHER_CLI) commands.push(['other build', undefined, ours(process.env.OTHER_CLI), files]);
const measured = roundRobin(
  commands.map(([, program, args]) => ({ program, args })),
  rounds,
  { NO_COLOR: '1' },
);
const perSecond = (count: number, ms: number) => Math.round((count / ms) * 1000);
console.log(`${files} files (${yaml} YAML), ${rounds} rounds, format ${format}`);
/** The median over the rounds of command i's files per second over command j's, by wall or CPU time. */
const over = (i: number, j: number, clock: 'ms' | 'cpuMs') =>
  stat(
    measured[i]![clock].map(
      (ms, r) => perSecond(commands[i]![3], ms) / perSecond(commands[j]![3], measured[j]![clock][r]!),
    ),
  ).median;
const anchors = commands.flatMap(([name], j) => (name === 'ajv-cli' || name === 'python' ? [j] : []));
commands.forEach(([name, , , count], i) => {
  const w = stat(measured[i]!.ms).median;
  const c = stat(measured[i]!.cpuMs).median;
  const ratios = (clock: 'ms' | 'cpuMs') =>
    anchors
      .filter((j) => j !== i)
      .map((j) => `${over(i, j, clock).toFixed(2)}× ${commands[j]![0]}`)
      .join(', ');
  console.log(
    `${name.padEnd(12)} wall ${Math.round(w)} ms (${perSecond(count, w)} files/s; ${ratios('ms')})  cpu ${Math.round(c)} ms (${perSecond(count, c)} files/s; ${ratios('cpuMs')})`,
  );
});
