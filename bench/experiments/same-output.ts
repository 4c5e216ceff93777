/**
 * Does a build of the CLI print the same bytes as another? Runs `validate` with each format
 * (json, stylish, sarif, github, and stylish with colours) on the throughput tree and on every
 * fixture (`fixtures/**\/*.{yaml,yml,toml}`, one run with all of them), with this checkout's build
 * and with `OTHER_CLI` (another build's svc-manifest.cjs), and compares stdout, stderr and the
 * exit code byte for byte. Both run with `--concurrency off` and with 2 threads. Exits 1 on any
 * difference, naming it.
 *
 *   OTHER_CLI=<path>/svc-manifest.cjs npx tsx bench/experiments/same-output.ts [files=2000]
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CLI } from '../cli-bench.ts';
import { ROOT } from '../servers.ts';
import { generateTree } from '../throughput-bench.ts';

const other = process.env.OTHER_CLI;
if (!other) throw new Error('set OTHER_CLI to the svc-manifest.cjs of the build to compare with');
const files = Number(process.argv[2] ?? 2000);
const tree = join(ROOT, '.bench-work', 'throughput-tree');
generateTree(tree, files);
const fixtures = (readdirSync(join(ROOT, 'fixtures'), { recursive: true }) as string[])
  .filter((file) => /\.(ya?ml|toml)$/.test(file))
  .sort()
  .map((file) => relative(ROOT, join(ROOT, 'fixtures', file)));
const inputs: [string, string[]][] = [
  ['tree', [relative(ROOT, tree), '--no-ignore']],
  ['fixtures', fixtures],
];
const formats: string[][] = [['json'], ['stylish'], ['sarif'], ['github'], ['stylish', '--color']];
const run = (cli: string, args: string[]) =>
  spawnSync(process.execPath, [cli, 'validate', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '' },
  });
let differences = 0;
for (const [name, paths] of inputs)
  for (const [format, ...more] of formats)
    for (const concurrency of ['off', '2']) {
      const args = [...paths, '--format', format!, ...more, '--concurrency', concurrency];
      const ours = run(CLI, args);
      const theirs = run(other, args);
      const same = ours.status === theirs.status && ours.stdout === theirs.stdout && ours.stderr === theirs.stderr;
      if (!same) differences++;
      console.log(
        `${same ? 'same     ' : 'DIFFERENT'} ${name} --format ${[format, ...more].join(' ')} --concurrency ${concurrency}: exit ${ours.status}/${theirs.status}, ${ours.stdout.length}/${theirs.stdout.length} chars`,
      );
    }
process.exit(differences ? 1 : 0);
