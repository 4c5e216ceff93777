/** Real git repositories and catalogs in temporary folders, for tests. */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { RefusedError, type ApplyOptions } from '../../src/index.js';
import type { IndexChange } from '../../src/git/repo.js';

const made: string[] = [];

const TSX = fileURLToPath(new URL('../../../../node_modules/tsx/dist/loader.mjs', import.meta.url));

/**
 * Runs `script` (a file of this folder, e.g. `concurrent-child.ts`) with `args` in a separate
 * Node process, from the TypeScript sources; resolves with its exit code and output.
 */
export function runSupportChild(
  script: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const path = fileURLToPath(new URL(`./${script}`, import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=source', '--import', TSX, path, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function tempDir(prefix = 'svc-gitops-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function cleanupTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

const IDENTITY_ENV = {
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.test',
  GIT_COMMITTER_NAME: 'Test Author',
  GIT_COMMITTER_EMAIL: 'author@example.test',
};

/** Runs git in `cwd` and returns stdout as text (no trimming). */
export function git(cwd: string, args: string[], input?: string): string {
  return execFileSync('git', args, {
    cwd,
    input,
    env: { ...process.env, ...IDENTITY_ENV, LC_ALL: 'C' },
    maxBuffer: 64 << 20,
  }).toString('utf8');
}

/** Raw bytes of `path` at `rev`. */
export function show(repo: string, rev: string, path: string): Buffer {
  return execFileSync('git', ['show', `${rev}:${path}`], { cwd: repo, maxBuffer: 64 << 20 });
}

export function writeFiles(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, ...path.split('/'));
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/**
 * A repository with one commit holding `files`. Non-bare: the work tree; bare: a bare
 * clone (the seed work tree is discarded).
 */
export function makeRepo(files: Record<string, string | Uint8Array>, options: { bare?: boolean } = {}): string {
  const dir = tempDir();
  const work = join(dir, 'work');
  git(dir, ['init', '-q', '-b', 'main', work]);
  git(work, ['config', 'core.autocrlf', 'false']);
  writeFiles(work, files);
  git(work, ['add', '-A']);
  git(work, ['commit', '-q', '-m', 'initial']);
  if (!options.bare) return work;
  const bare = join(dir, 'repo.git');
  git(dir, ['clone', '-q', '--bare', work, bare]);
  return bare;
}

export function head(repo: string, ref = 'main'): string {
  return git(repo, ['rev-parse', ref]).trim();
}

/** Subjects of the branch's history, newest first. */
export function subjects(repo: string, ref = 'main'): string[] {
  return git(repo, ['log', '--format=%s', ref]).trim().split('\n');
}

/** Lines `+…`/`-…` of the diff between two revisions of one file (no context). */
export function changedLines(repo: string, from: string, to: string, path: string): string[] {
  return git(repo, ['diff', '--no-color', '-U0', from, to, '--', path])
    .split('\n')
    .filter((line) => /^[+-]/.test(line) && !/^(\+\+\+|---) /.test(line));
}

export const AUTHOR = { name: 'Svc Bot', email: 'bot@example.test' };

/**
 * Apply options used by the tests: a fixed identity; validation is the default, i.e.
 * the real `validateManifest` of `@svc-manifest/validator`.
 */
export async function applyOptions(extra: ApplyOptions = {}): Promise<ApplyOptions> {
  return { author: AUTHOR, ...extra };
}

/**
 * A bare repository of `files` (committed on `main` by {@link makeRepo}) plus the entries an
 * index treats specially: `README.md` executable, `link` a symlink to `a/one.txt`, `vendor/sub`
 * a submodule. Returns the bare repository, its head commit and that commit's tree.
 */
export function repositoryWithSpecialEntries(files: Record<string, string | Uint8Array>): {
  repo: string;
  commit: string;
  base: string;
} {
  const work = makeRepo(files);
  execFileSync('chmod', ['+x', join(work, 'README.md')]);
  execFileSync('ln', ['-s', 'a/one.txt', join(work, 'link')]);
  git(work, ['add', '-A']);
  git(work, ['update-index', '--add', '--cacheinfo', `160000,${git(work, ['rev-parse', 'HEAD']).trim()},vendor/sub`]);
  git(work, ['commit', '-q', '-m', 'more']);
  const bare = join(tempDir(), 'repo.git');
  git(work, ['clone', '-q', '--bare', work, bare]);
  return {
    repo: bare,
    commit: git(bare, ['rev-parse', 'HEAD']).trim(),
    base: git(bare, ['rev-parse', 'HEAD^{tree}']).trim(),
  };
}

/** The tree git's own index makes of `base` with `changes`: `read-tree` + `update-index --index-info` + `write-tree`. */
export function indexTree(repo: string, base: string, changes: readonly IndexChange[]): string {
  const env = { ...process.env, GIT_INDEX_FILE: join(tempDir(), 'index') };
  execFileSync('git', ['--git-dir', repo, 'read-tree', base], { env });
  const records = changes
    .map((c) => (c.oid === null ? `0 ${'0'.repeat(40)}\t${c.path}\0` : `${c.mode} ${c.oid}\t${c.path}\0`))
    .join('');
  execFileSync('git', ['--git-dir', repo, 'update-index', '-z', '--index-info'], { env, input: records });
  return execFileSync('git', ['--git-dir', repo, 'write-tree'], { env }).toString().trim();
}

/** Every ref of `repo` with its value: what an operation moves when it commits anything. */
export function refsOf(repo: string): string {
  return git(repo, ['for-each-ref', '--format=%(refname) %(objectname)']);
}

/**
 * Runs `operation` and expects it to be refused (a {@link RefusedError}) with every ref of `repo`
 * where it was: nothing committed, no ref moved (a ref's value names its whole tree).
 */
export async function expectRefused(repo: string, operation: () => Promise<unknown>): Promise<RefusedError> {
  const before = refsOf(repo);
  const error = await operation().then(
    (result) => result,
    (e: unknown) => e,
  );
  expect(error, `expected a refusal, got ${JSON.stringify(error)}`).toBeInstanceOf(RefusedError);
  expect(refsOf(repo)).toBe(before);
  return error as RefusedError;
}
