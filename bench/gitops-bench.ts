/**
 * The applier's fixed cost (issue #13): one `setDefaultAgent` on a bare repository of 1, 1,000 and
 * 20,000 files, in-process, against the plumbing floor for the same one-line change of svc.yaml
 * (`rev-parse`, `hash-object -w`, `ls-tree` + `mktree`, `commit-tree`, `update-ref`, each a git
 * process started from this process, as the library starts its own); and the command line, a
 * fresh Node process, against a bare `node -e 0`, at 1 and 20,000 files: the applier's own
 * `svc-manifest-git set-default-agent` and the validator's `svc-manifest git set-default-agent`
 * (which runs the same code in its process). Every measurement is paired with its reference run
 * by run, so the ratios hold when the machine's speed drifts. The commands keep their V8 code
 * caches in a folder of this run's own (created by the warm-up runs), so other programs' caches
 * in the user's folder neither help nor disturb the measurement.
 *
 * Ours and the floor alternate on the same branch: the floor writes svc.yaml as the library would
 * with the other agent, the library sets the first agent again, so every operation is a real change.
 */
import { join } from 'node:path';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setDefaultAgent } from '@svc-manifest/gitops';
import { bareCommit, buildRepository, git } from './applier-bench.ts';
import { interleaved, wall } from './cli-bench.ts';
import { stat, type Stat } from './lsp-harness.ts';
import { ROOT } from './servers.ts';

export const GIT_CLI = join(ROOT, 'packages', 'gitops', 'dist', 'svc-manifest-git.cjs');
/** The validator's bin, whose `git` command runs the applier's. */
export const VALIDATOR_CLI = join(ROOT, 'packages', 'validator', 'dist', 'svc-manifest.cjs');
const IDENTITY = { name: 'Bench', email: 'bench@example.invalid' };
const AGENTS = ['writer', 'reviewer'] as const;

export interface GitopsLibraryRow {
  files: number;
  runs: number;
  ours: Stat;
  floor: Stat;
  ratio: Stat;
}

export interface GitopsCliRow {
  /** What was run, e.g. `svc-manifest-git set-default-agent`. */
  command: string;
  files: number;
  runs: number;
  cli: Stat;
  bareNode: Stat;
  /** Per-pair wall-time ratios. */
  ratio: Stat;
  /** Per-pair CPU-time ratios (user + sys of the process and its git children, /usr/bin/time). */
  cpuRatio?: Stat;
}

export interface GitopsResult {
  manifest: string;
  library: GitopsLibraryRow[];
  /** `svc-manifest-git set-default-agent`, one row per size. */
  cli: GitopsCliRow[];
  /** `svc-manifest git set-default-agent` (the validator's bin), one row per size. */
  dispatch: GitopsCliRow[];
  /** CLI ratio at the largest size over the ratio at one file (medians), for `svc-manifest-git`. */
  cliGrowth: number;
  /** The same for `svc-manifest git`. */
  dispatchGrowth: number;
}

function repository(dir: string, files: number): string {
  const manifest = readFileSync(join(ROOT, 'examples', 'svc.yaml'), 'utf8');
  if (!/^default_agent: writer\b/m.test(manifest))
    throw new Error('examples/svc.yaml must start with default_agent: writer');
  // `files` in all: svc.yaml and files - 1 sources in folders of 50 × 40.
  return buildRepository(dir, manifest, 1, files - 1);
}

async function libraryRow(dir: string, files: number, runs: number): Promise<GitopsLibraryRow> {
  const repo = repository(dir, files);
  // Warm-up: the modules, the JIT (the first size measured must not pay for it) and git's files;
  // also the floor's content (svc.yaml with the other agent).
  for (let i = 0; i < 30; i++) await setDefaultAgent(repo, AGENTS[i % 2]!, { author: IDENTITY });
  // The head now has the second agent: its svc.yaml is what the floor writes.
  const other = git(repo, ['cat-file', 'blob', 'refs/heads/main:svc.yaml']);
  for (let i = 0; i < 3; i++) {
    await setDefaultAgent(repo, AGENTS[0], { author: IDENTITY });
    bareCommit(repo, other, 'warm-up');
  }
  await setDefaultAgent(repo, AGENTS[0], { author: IDENTITY });
  const ours: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    bareCommit(repo, other, `Set default agent to ${AGENTS[1]}`);
    floor.push(performance.now() - t);
    t = performance.now();
    const result = await setDefaultAgent(repo, AGENTS[0], { author: IDENTITY });
    ours.push(performance.now() - t);
    if (result.status !== 'committed') throw new Error(`setDefaultAgent did not commit: ${result.status}`);
  }
  return { files, runs, ours: stat(ours), floor: stat(floor), ratio: stat(ours.map((o, i) => o / floor[i]!)) };
}

/** The two ways to run the operation from the command line: the applier's bin, and the validator's dispatching to it. */
const ENTRIES = {
  cli: { command: 'svc-manifest-git set-default-agent', prefix: [GIT_CLI] },
  dispatch: { command: 'svc-manifest git set-default-agent', prefix: [VALIDATOR_CLI, 'git'] },
} as const;

function cliRow(
  entry: keyof typeof ENTRIES,
  repo: string,
  files: number,
  runs: number,
  env: Record<string, string>,
): GitopsCliRow {
  const { command, prefix } = ENTRIES[entry];
  const args = (agent: string) => [
    ...prefix,
    'set-default-agent',
    agent,
    '--repo',
    repo,
    '--author',
    'Bench <bench@example.invalid>',
  ];
  // Warm-up, and the V8 code cache (the first three runs of a command write it).
  for (let i = 0; i < 4; i++) wall(args(AGENTS[(i + 1) % 2]!), env);
  wall(['-e', '0']);
  const { command: cli, baseline: bare } = interleaved(
    runs,
    (i) => {
      const run = wall(args(AGENTS[(i + 1) % 2]!), env);
      if (run.status !== 0) throw new Error(`${command} exited ${run.status}`);
      return run;
    },
    () => wall(['-e', '0']),
  );
  const cpu = cli.map((c, i) => c.cpuMs / bare[i]!.cpuMs);
  return {
    command,
    files,
    runs,
    cli: stat(cli.map((c) => c.ms)),
    bareNode: stat(bare.map((b) => b.ms)),
    ratio: stat(cli.map((c, i) => c.ms / bare[i]!.ms)),
    ...(cpu.some(Number.isFinite) ? { cpuRatio: stat(cpu) } : {}),
  };
}

export async function benchGitops(options: {
  dir: string;
  librarySizes: number[];
  cliSizes: number[];
  runs: number;
}): Promise<GitopsResult> {
  const library: GitopsLibraryRow[] = [];
  for (const files of options.librarySizes)
    library.push(await libraryRow(join(options.dir, `lib-${files}.git`), files, options.runs));
  const cli: GitopsCliRow[] = [];
  const dispatch: GitopsCliRow[] = [];
  const cache = mkdtempSync(join(tmpdir(), 'svc-manifest-bench-cache-'));
  try {
    for (const files of options.cliSizes) {
      const repo = repository(join(options.dir, `cli-${files}.git`), files);
      cli.push(cliRow('cli', repo, files, options.runs, { XDG_CACHE_HOME: cache }));
      dispatch.push(cliRow('dispatch', repo, files, options.runs, { XDG_CACHE_HOME: cache }));
    }
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
  const growth = (rows: GitopsCliRow[]) =>
    rows.length > 1 ? rows[rows.length - 1]!.ratio.median / rows[0]!.ratio.median : NaN;
  return {
    manifest: 'examples/svc.yaml',
    library,
    cli,
    dispatch,
    cliGrowth: growth(cli),
    dispatchGrowth: growth(dispatch),
  };
}
