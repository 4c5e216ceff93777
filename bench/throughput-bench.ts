/**
 * Files per second on a generated tree of manifests (valid and invalid, YAML and TOML): our CLI
 * (`validate <folder>`, worker threads on every core, located messages) against the anchors the
 * issue names, each given the published schema, in the same run: python-jsonschema with PyYAML
 * (Debian's python3-jsonschema and python3-yaml; check-jsonschema's engine) and ajv-cli when it
 * is installed (node_modules/.bin/ajv; it reads no TOML, so it gets the YAML files only).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from './cli-bench.ts';
import { ROOT } from './servers.ts';

export interface ThroughputRow {
  tool: string;
  files: number;
  /** Median wall time of the runs, ms. */
  wallMs: number;
  filesPerSecond: number;
  note?: string;
}

export interface ThroughputResult {
  files: number;
  runs: number;
  rows: ThroughputRow[];
  skipped: string[];
}

const SCHEMA = join(ROOT, 'packages', 'schema', 'generated', 'svc.schema.json');

/** A tree of `count` manifests: one in ten TOML, one in three of the YAML ones invalid. */
export function generateTree(root: string, count: number): { yaml: number; toml: number } {
  rmSync(root, { recursive: true, force: true });
  let yaml = 0;
  let toml = 0;
  for (let i = 0; i < count; i++) {
    const dir = join(root, `group-${String(i % 100).padStart(2, '0')}`, `service-${String(i).padStart(5, '0')}`);
    mkdirSync(dir, { recursive: true });
    if (i % 10 === 0) {
      toml++;
      writeFileSync(
        join(dir, 'svc.toml'),
        `svc_version = 1\n\n[[agents]]\nname = "a${i}"\n\n[[triggers]]\nslug = "t${i}"\ntype = "cron"\ncron = "0 1 * * *"\nprompt = "Job ${i}"\n`,
      );
    } else {
      yaml++;
      const agents = i % 3 === 0 ? `  w${i}:\n    conectors: none\n` : `  w${i}:\n    connectors: none\n`;
      writeFileSync(
        join(dir, 'svc.yaml'),
        `svc_version: 2\ndefault_agent: w${i}\nagents:\n${agents}triggers:\n  - slug: nightly-${i}\n    type: cron\n    cron: "0 ${i % 24} * * *"\n    prompt: Run job ${i}.\n`,
      );
    }
  }
  return { yaml, toml };
}

function timeRuns(runs: number, command: string, args: string[], okCodes: number[]): number | string {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = process.hrtime.bigint();
    const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (result.error || !okCodes.includes(result.status ?? -1))
      return `failed: ${result.error?.message ?? `exit ${result.status}`} ${result.stderr.slice(0, 300)}`;
    times.push(ms);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

export function benchThroughput(work: string, count: number, runs: number): ThroughputResult {
  const tree = join(work, 'throughput-tree');
  const { yaml, toml } = generateTree(tree, count);
  const rows: ThroughputRow[] = [];
  const skipped: string[] = [];
  const row = (tool: string, files: number, measured: number | string, note?: string) => {
    if (typeof measured === 'string') skipped.push(`${tool}: ${measured}`);
    else rows.push({ tool, files, wallMs: Math.round(measured), filesPerSecond: Math.round((files / measured) * 1000), ...(note ? { note } : {}) });
  };
  // Ours exits 1: the tree has invalid manifests. The tree is under .bench-work, which .gitignore ignores: --no-ignore.
  row('svc-manifest validate (workers)', count, timeRuns(runs, process.execPath, [CLI, 'validate', tree, '--format', 'json', '--no-ignore'], [1]));
  row(
    'svc-manifest validate --concurrency off',
    count,
    timeRuns(runs, process.execPath, [CLI, 'validate', tree, '--format', 'json', '--no-ignore', '--concurrency', 'off'], [1]),
  );
  const python = spawnSync('python3', ['-c', 'import jsonschema, yaml, tomllib'], { encoding: 'utf8' });
  if (python.status === 0) {
    row(
      'python-jsonschema + PyYAML',
      count,
      timeRuns(runs, 'python3', [join(ROOT, 'bench', 'jsonschema_throughput.py'), SCHEMA, tree], [0]),
      'one process; no locations',
    );
  } else skipped.push('python-jsonschema + PyYAML: not installed (scripts/install-test-tools.sh installs them)');
  const ajv = join(ROOT, 'node_modules', '.bin', 'ajv');
  if (existsSync(ajv)) {
    row(
      'ajv-cli',
      yaml,
      timeRuns(runs, ajv, ['validate', '--spec=draft7', '-s', SCHEMA, '-d', `${tree}/**/svc.yaml`], [0, 1]),
      `YAML files only (${toml} TOML files left out)`,
    );
  } else skipped.push('ajv-cli: not installed (not a devDependency yet: see docs/decisions.md)');
  return { files: count, runs, rows, skipped };
}
