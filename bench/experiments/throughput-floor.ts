/**
 * What the throughput goal of issue #34 (2× ajv-cli's files per second on the tree) leaves for
 * our own work per file, on this machine: the floors any Node tool pays on the same tree, timed
 * in the same rounds as ajv-cli and our CLI, with CPU time (user + sys) beside wall time.
 *
 * - `node -e 0`: starting Node.
 * - walk + read: a recursive `readdirSync` and a `readFileSync` of each manifest, nothing else.
 * - walk + read + js-yaml: the same, and the YAML files parsed by js-yaml, the parser ajv-cli
 *   uses (its own copy), as values only: no locations, no validation.
 * - ajv-cli and ours (`--concurrency off`), as bench/throughput-bench.ts runs them.
 * - ours on two halves of the tree at once (two processes): what a second core gives when both
 *   halves run side by side, an upper bound for worker threads, which also pay a start-up each.
 * - ours under `node --single-threaded`: V8 compiles and collects on the main thread only, so
 *   the difference from `ours` is how much of the second core V8's own helper threads already use.
 *
 *   npx tsx bench/experiments/throughput-floor.ts [files=10000] [rounds=5]
 */
import { createRequire } from 'node:module';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, roundRobin } from '../cli-bench.ts';
import { stat } from '../lsp-harness.ts';
import { ROOT } from '../servers.ts';
import { ajvArgs, generateTree } from '../throughput-bench.ts';

const files = Number(process.argv[2] ?? 10000);
const rounds = Number(process.argv[3] ?? 5);
const tree = join(ROOT, '.bench-work', 'throughput-tree');
const { yaml } = generateTree(tree, files);
const ajv = join(ROOT, 'node_modules', 'ajv-cli', 'dist', 'index.js');
const requireFromAjv = createRequire(join(ROOT, 'node_modules', 'ajv-cli', 'package.json'));
const jsYaml = requireFromAjv.resolve('js-yaml');

/** A Node program that walks `tree`, reads each manifest and, with `parse`, parses the YAML ones with ajv-cli's js-yaml. */
const walker = (parse: boolean) => `
const fs = require('node:fs'), path = require('node:path');
${parse ? `const yaml = require(${JSON.stringify(jsYaml)});` : ''}
let count = 0;
(function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(at);
    else if (/^svc\\.(ya?ml|toml)$/.test(entry.name)) {
      const text = fs.readFileSync(at, 'utf8');
      ${parse ? `if (!entry.name.endsWith('.toml')) yaml.load(text);` : ''}
      count++;
    }
  }
})(${JSON.stringify(tree)});
if (count !== ${files}) throw new Error('walked ' + count + ' files');
`;
const ours = (paths: string[]) => [
  CLI,
  'validate',
  ...paths,
  '--format',
  'json',
  '--no-ignore',
  '--concurrency',
  'off',
];
const groups = readdirSync(tree)
  .sort()
  .map((name) => join(tree, name));
const half = Math.ceil(groups.length / 2);
const quote = (args: string[]) => args.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
const halves = `${quote([process.execPath, ...ours(groups.slice(0, half))])} >/dev/null & ${quote([process.execPath, ...ours(groups.slice(half))])} >/dev/null; wait`;

/** Name, program (undefined: this Node), arguments, files it reads. */
const commands: [string, string | undefined, string[], number][] = [
  ['node -e 0', undefined, ['-e', '0'], 0],
  ['walk + read', undefined, ['-e', walker(false)], files],
  ['walk + read + js-yaml', undefined, ['-e', walker(true)], files],
  ['ajv-cli', undefined, [ajv, ...ajvArgs(tree)], yaml],
  ['ours', undefined, ours([tree]), files],
  ['ours, two halves at once', 'sh', ['-c', halves], files],
  ['ours, V8 on one thread', undefined, ['--single-threaded', ...ours([tree])], files],
];
const measured = roundRobin(
  commands.map(([, program, args]) => ({ program, args })),
  rounds,
  { NO_COLOR: '1' },
);
console.log(`${files} files (${yaml} YAML), ${rounds} rounds; medians`);
const ajvAt = commands.findIndex(([name]) => name === 'ajv-cli');
const ajvWall = stat(measured[ajvAt]!.ms).median;
for (const [i, [name, , , count]] of commands.entries()) {
  const w = stat(measured[i]!.ms).median;
  const c = stat(measured[i]!.cpuMs).median;
  const rate = count ? ` ${Math.round((count / w) * 1000)} files/s,` : '';
  console.log(
    `${name.padEnd(26)} wall ${String(Math.round(w)).padStart(5)} ms,${rate} ${(w / ajvWall).toFixed(2)} of ajv-cli's wall; cpu ${Math.round(c)} ms`,
  );
}
// ajv-cli reads only the YAML files: 2× its files per second over all of ours is this wall time.
const goal = (files / ((2 * yaml) / ajvWall)) | 0;
console.log(`2× ajv-cli's files per second, on ${files} files: a wall time of ${goal} ms`);
