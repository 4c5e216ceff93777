/**
 * The applier: one `setAgentScope` commit (in-process API of @svc-manifest/gitops) on a
 * generated bare repository with thousands of commits and files, against the bare git floor
 * for the same kind of change: `hash-object -w`, `ls-tree` + `mktree` (svc.yaml sits at the
 * root), `commit-tree`, `update-ref` with the expected old value.
 *
 * The two alternate on the same branch: ours sets the agent's secrets to A, the floor writes
 * the file as it is with secrets B, and so on, so every operation is a real one-line change.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { setAgentScope } from '@svc-manifest/gitops';
import { stat, type Stat } from './lsp-harness.ts';

export interface ApplierResult {
  commits: number;
  files: number;
  manifestLines: number;
  runs: number;
  ours: Stat;
  bareGit: Stat;
  ratio: Stat;
  setupMs: number;
}

const IDENTITY = { name: 'Bench', email: 'bench@example.invalid' };
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: IDENTITY.name,
  GIT_AUTHOR_EMAIL: IDENTITY.email,
  GIT_COMMITTER_NAME: IDENTITY.name,
  GIT_COMMITTER_EMAIL: IDENTITY.email,
  GIT_CONFIG_NOSYSTEM: '1',
};

export function git(repo: string, args: string[], input?: string | Buffer): string {
  return execFileSync('git', ['--git-dir', repo, ...args], {
    input,
    env: GIT_ENV,
    maxBuffer: 256 * 1024 * 1024,
  }).toString();
}

/** A bare repository: `files` source files plus svc.yaml in the first commit, then `commits` small commits. */
export function buildRepository(dir: string, manifest: string, commits: number, files: number): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', dir], { env: GIT_ENV });
  const parts: Buffer[] = [];
  const data = (text: string) => {
    const bytes = Buffer.from(text);
    parts.push(Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from('\n'));
  };
  const path = (i: number) => `src/module-${i % 50}/part-${Math.floor(i / 50) % 40}/file-${i}.ts`;
  let time = 1_700_000_000;
  parts.push(Buffer.from(`commit refs/heads/main\ncommitter Bench <bench@example.invalid> ${time} +0000\n`));
  data('initial import');
  parts.push(Buffer.from('M 100644 inline svc.yaml\n'));
  data(manifest);
  for (let i = 0; i < files; i++) {
    parts.push(Buffer.from(`M 100644 inline ${path(i)}\n`));
    data(`// file ${i}\nexport const value${i} = ${i};\n`);
  }
  for (let c = 1; c < commits; c++) {
    time += 600;
    parts.push(Buffer.from(`commit refs/heads/main\ncommitter Bench <bench@example.invalid> ${time} +0000\n`));
    data(`change ${c}`);
    for (let k = 0; k < 2; k++) {
      const i = (c * 7919 + k * 104729) % files;
      parts.push(Buffer.from(`M 100644 inline ${path(i)}\n`));
      data(`// file ${i}, revision ${c}\nexport const value${i} = ${c};\n`);
    }
  }
  execFileSync('git', ['--git-dir', dir, 'fast-import', '--quiet'], {
    input: Buffer.concat(parts),
    env: GIT_ENV,
    maxBuffer: 64 * 1024 * 1024,
  });
  git(dir, ['symbolic-ref', 'HEAD', 'refs/heads/main']);
  return dir;
}

/** The floor: write `content` as svc.yaml on main with plain git plumbing. */
export function bareCommit(repo: string, content: string, message: string): void {
  const head = git(repo, ['rev-parse', 'refs/heads/main']).trim();
  const blob = git(repo, ['hash-object', '-w', '--stdin'], content).trim();
  const listing = git(repo, ['ls-tree', head]);
  const tree = git(repo, ['mktree'], listing.replace(/^(100644 blob )[0-9a-f]+(\tsvc\.yaml)$/m, `$1${blob}$2`)).trim();
  const commit = git(repo, ['commit-tree', tree, '-p', head, '-m', message]).trim();
  git(repo, ['update-ref', 'refs/heads/main', commit, head]);
}

export async function benchApplier(options: {
  dir: string;
  manifest: string;
  agent: string;
  secrets: [string[], string[]];
  commits: number;
  files: number;
  runs: number;
}): Promise<ApplierResult> {
  const t0 = performance.now();
  const repo = buildRepository(options.dir, options.manifest, options.commits, options.files);
  const setupMs = performance.now() - t0;
  const [a, b] = options.secrets;
  // Warm-up: the in-process modules and git's pack files; also produces content B for the floor.
  await setAgentScope(repo, options.agent, { secrets: b }, { author: IDENTITY });
  const contentB = git(repo, ['cat-file', 'blob', 'refs/heads/main:svc.yaml']);
  await setAgentScope(repo, options.agent, { secrets: a }, { author: IDENTITY });
  const ours: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    // Head has A here: the floor writes B, ours sets A again.
    let t = performance.now();
    bareCommit(repo, contentB, `Set ${options.agent} scope`);
    bare.push(performance.now() - t);
    t = performance.now();
    const result = await setAgentScope(repo, options.agent, { secrets: a }, { author: IDENTITY });
    ours.push(performance.now() - t);
    if (result.status !== 'committed') throw new Error(`setAgentScope did not commit: ${result.status}`);
  }
  const commits = Number(git(repo, ['rev-list', '--count', 'refs/heads/main']).trim());
  return {
    commits,
    files: options.files + 1,
    manifestLines: options.manifest.split('\n').length,
    runs: options.runs,
    ours: stat(ours),
    bareGit: stat(bare),
    ratio: stat(ours.map((o, i) => o / bare[i]!)),
    setupMs,
  };
}
