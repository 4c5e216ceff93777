/**
 * Files per second on a generated tree of manifests (valid and invalid, YAML and TOML): our CLI
 * (`validate <folder>`, worker threads on every core, located messages) against the anchors the
 * issue names, each given the published schema, in the same run: python-jsonschema with PyYAML
 * (Debian's python3-jsonschema and python3-yaml; check-jsonschema's engine) and ajv-cli (a
 * devDependency, node_modules/.bin/ajv; it reads YAML itself with js-yaml but no TOML, so it gets
 * the YAML files only, and its files per second are over those). Every run of every tool must show
 * it read every file it was given and refused exactly the invalid ones, or its row is skipped with
 * the reason: a tool that silently read nothing would otherwise look fast.
 */
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
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
  /** For an anchor: our files per second over its own, with workers (the default) and without. */
  ours?: { workers: number; concurrencyOff: number };
}

export interface ThroughputResult {
  files: number;
  runs: number;
  rows: ThroughputRow[];
  skipped: string[];
}

const SCHEMA = join(ROOT, 'packages', 'schema', 'generated', 'svc.schema.json');

/**
 * ajv-cli's arguments for the YAML files of a tree (it reads no TOML). --strict=false: the
 * published schema carries editor hints (markdownDescription, x-taplo, …), which ajv's strict mode
 * refuses as unknown keywords.
 */
export const ajvArgs = (tree: string): string[] => [
  'validate',
  '--spec=draft7',
  '--strict=false',
  '-s',
  SCHEMA,
  '-d',
  `${tree}/**/svc.yaml`,
];

/** python-jsonschema + PyYAML's arguments (to python3) for a tree: bench/jsonschema_throughput.py, one process. */
export const pythonArgs = (tree: string): string[] => [join(ROOT, 'bench', 'jsonschema_throughput.py'), SCHEMA, tree];

/** A tree of `count` manifests: one in ten TOML, one in three of the YAML ones invalid (`invalid`). */
export function generateTree(root: string, count: number): { yaml: number; toml: number; invalid: number } {
  rmSync(root, { recursive: true, force: true });
  let yaml = 0;
  let toml = 0;
  let invalid = 0;
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
      if (i % 3 === 0) invalid++;
      const agents = i % 3 === 0 ? `  w${i}:\n    conectors: none\n` : `  w${i}:\n    connectors: none\n`;
      writeFileSync(
        join(dir, 'svc.yaml'),
        `svc_version: 2\ndefault_agent: w${i}\nagents:\n${agents}triggers:\n  - slug: nightly-${i}\n    type: cron\n    cron: "0 ${i % 24} * * *"\n    prompt: Run job ${i}.\n`,
      );
    }
  }
  return { yaml, toml, invalid };
}

/** The files of a tree (generateTree's), read into memory, in the order a depth-first walk meets them. */
export function readTree(root: string): { path: string; bytes: Buffer }[] {
  const files: { path: string; bytes: Buffer }[] = [];
  (function walk(dir: string) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const at = join(dir, entry.name);
      if (entry.isDirectory()) walk(at);
      else files.push({ path: at, bytes: readFileSync(at) });
    }
  })(root);
  return files;
}

/** What a run printed, for a check that it read every file (undefined: it did; else why not). */
type RunCheck = (stdout: string, stderr: string) => string | undefined;

function timeRuns(runs: number, command: string, args: string[], okCodes: number[], check: RunCheck): number | string {
  const times: number[] = [];
  // Each tool writes into files, not pipes: a Node program that ends with process.exit() (ajv-cli
  // does) loses what it had still queued for a pipe, and its count would come up short.
  const outputs = mkdtempSync(join(tmpdir(), 'svc-throughput-'));
  const stdoutFile = join(outputs, 'stdout');
  const stderrFile = join(outputs, 'stderr');
  try {
    for (let run = 0; run < runs; run++) {
      const stdoutFd = openSync(stdoutFile, 'w');
      const stderrFd = openSync(stderrFile, 'w');
      const started = process.hrtime.bigint();
      const result = spawnSync(command, args, {
        cwd: ROOT,
        stdio: ['ignore', stdoutFd, stderrFd],
        env: { ...process.env, NO_COLOR: '1' },
      });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      closeSync(stdoutFd);
      closeSync(stderrFd);
      const stdout = readFileSync(stdoutFile, 'utf8');
      const stderr = readFileSync(stderrFile, 'utf8');
      if (result.error || !okCodes.includes(result.status ?? -1))
        return `failed: ${result.error?.message ?? `exit ${result.status}`} ${stderr.slice(0, 300)}`;
      const wrong = check(stdout, stderr);
      if (wrong) return `failed: ${wrong}`;
      times.push(ms);
    }
  } finally {
    rmSync(outputs, { recursive: true, force: true });
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

/** Our CLI's JSON: one report per file, `errorCount` on each. */
function oursRead(count: number, invalid: number): RunCheck {
  return (stdout) => {
    const reports = JSON.parse(stdout) as { errorCount: number }[];
    const refused = reports.filter((report) => report.errorCount > 0).length;
    return reports.length === count && refused === invalid ? undefined : `${reports.length} files, ${refused} refused`;
  };
}

export function benchThroughput(work: string, count: number, runs: number): ThroughputResult {
  const tree = join(work, 'throughput-tree');
  const { yaml, toml, invalid } = generateTree(tree, count);
  const rows: ThroughputRow[] = [];
  const skipped: string[] = [];
  const row = (tool: string, files: number, measured: number | string, note?: string) => {
    if (typeof measured === 'string') skipped.push(`${tool}: ${measured}`);
    else
      rows.push({
        tool,
        files,
        wallMs: Math.round(measured),
        filesPerSecond: Math.round((files / measured) * 1000),
        ...(note ? { note } : {}),
      });
  };
  // Ours exits 1: the tree has invalid manifests. The tree is under .bench-work, which .gitignore ignores: --no-ignore.
  const ours = ['validate', tree, '--format', 'json', '--no-ignore'];
  const check = oursRead(count, invalid);
  row('svc-manifest validate (workers)', count, timeRuns(runs, process.execPath, [CLI, ...ours], [1], check));
  row(
    'svc-manifest validate --concurrency off',
    count,
    timeRuns(runs, process.execPath, [CLI, ...ours, '--concurrency', 'off'], [1], check),
  );
  const python = spawnSync('python3', ['-c', 'import jsonschema, yaml, tomllib'], { encoding: 'utf8' });
  if (python.status === 0) {
    const read: RunCheck = (stdout) => {
      const { files, refused } = JSON.parse(stdout) as { files: number; refused: number };
      return files === count && refused === invalid ? undefined : `${files} files, ${refused} refused`;
    };
    row(
      'python-jsonschema + PyYAML',
      count,
      timeRuns(runs, 'python3', pythonArgs(tree), [0], read),
      'one process; no locations',
    );
  } else skipped.push('python-jsonschema + PyYAML: not installed (scripts/install-test-tools.sh installs them)');
  const ajv = join(ROOT, 'node_modules', '.bin', 'ajv');
  if (existsSync(ajv)) {
    // It prints "<file> valid" on stdout, "<file> invalid" and the errors on stderr, per file.
    const read: RunCheck = (stdout, stderr) => {
      const lines = `${stdout}\n${stderr}`.split('\n');
      const given = lines.filter((line) => / (valid|invalid)$/.test(line) && line.includes('svc.yaml')).length;
      const refused = lines.filter((line) => line.endsWith(' invalid') && line.includes('svc.yaml')).length;
      return given === yaml && refused === invalid ? undefined : `${given} files, ${refused} refused`;
    };
    row(
      'ajv-cli',
      yaml,
      timeRuns(runs, ajv, ajvArgs(tree), [1], read),
      `YAML files only (it reads no TOML: ${toml} TOML files left out); one process; no locations`,
    );
  } else skipped.push('ajv-cli: not installed (npm ci installs it)');
  // Our files per second over each anchor's, from the same run.
  const rate = (tool: string) => rows.find((candidate) => candidate.tool === tool)?.filesPerSecond;
  const workers = rate('svc-manifest validate (workers)');
  const off = rate('svc-manifest validate --concurrency off');
  for (const anchor of rows.filter((candidate) => !candidate.tool.startsWith('svc-manifest'))) {
    if (!workers || !off) continue;
    anchor.ours = {
      workers: round2(workers / anchor.filesPerSecond),
      concurrencyOff: round2(off / anchor.filesPerSecond),
    };
  }
  return { files: count, runs, rows, skipped };
}

const round2 = (value: number) => Math.round(value * 100) / 100;
