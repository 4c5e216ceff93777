/**
 * The applier reads refs, trees and blobs through one long-lived `cat-file --batch` and parses
 * trees itself. Checked against git's own answers (`ls-tree`, `diff-tree`, `rev-parse`) on a
 * repository with nested folders, odd names, a symlink, an executable and a submodule entry;
 * and a whole operation on a bare repository runs exactly the git processes it needs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { setDefaultAgent } from '../src/index.js';
import { GitRepo, type IndexChange } from '../src/git/repo.js';
import { lf, SPECIAL_NAMES, YAML_LINES } from './support/fixtures.js';
import {
  AUTHOR,
  cleanupTempDirs,
  git,
  indexTree,
  makeRepo,
  repositoryWithSpecialEntries,
  tempDir,
} from './support/repos.js';

afterAll(cleanupTempDirs);

const FILES: Record<string, string> = {
  'svc.yaml': lf(YAML_LINES),
  ...SPECIAL_NAMES,
  'big.bin': 'z'.repeat(100_000),
};

function repository(): { repo: string; commit: string; base: string } {
  return repositoryWithSpecialEntries(FILES);
}

const PATHS = [
  'svc.yaml',
  'README.md',
  'a',
  'a/deep',
  'a/deep/three.txt',
  'a/one.txt/x',
  'a.b',
  'link',
  'vendor/sub',
  'vendor/sub/x',
  'skills/ünïcödé/é.md',
  'skills/pdf tools/SKILL "quoted".md',
  'nope',
  'a/nope',
  '',
];

test('entries at paths are the ones ls-tree -r -t lists, directories included, null when absent', async () => {
  const { repo, commit } = repository();
  const gitRepo = await GitRepo.open(repo);
  const entries = await gitRepo.entriesAt(commit, PATHS);
  for (const path of PATHS) {
    const listed =
      path === ''
        ? ''
        : execFileSync('git', [
            '--git-dir',
            repo,
            'ls-tree',
            '-r',
            '-t',
            '-z',
            '--full-tree',
            commit,
            '--',
            path,
          ]).toString('utf8');
    const record = listed.split('\0').find((line) => line.slice(line.indexOf('\t') + 1) === path);
    const expected = record
      ? (([mode, type, oid]) => ({ mode, type, oid }))(record.slice(0, record.indexOf('\t')).split(' '))
      : null;
    expect(entries.get(path), path).toEqual(expected);
  }
  gitRepo.close();
});

test('the paths two trees differ in are the ones diff-tree -r lists, for random changes (file/folder swaps included)', async () => {
  const { repo, base } = repository();
  const gitRepo = await GitRepo.open(repo);
  const blobs = ['alpha\n', 'beta\n'].map((text) => git(repo, ['hash-object', '-w', '--stdin'], text).trim());
  const existing = Object.keys(FILES).concat('link', 'vendor/sub');
  const fresh = ['new.txt', 'a/new.txt', 'a/deep/deeper/new.txt', 'a', 'a/deep', 'svc.yaml/inner', 'a.b/c', 'zz/top'];
  const change = fc.record({
    path: fc.constantFrom(...existing, ...fresh),
    mode: fc.constantFrom('100644', '100755'),
    oid: fc.constantFrom(null, ...blobs),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 5 }), async (changes: IndexChange[]) => {
      const tree = indexTree(repo, base, changes);
      const expected = execFileSync('git', [
        '--git-dir',
        repo,
        'diff-tree',
        '-r',
        '-z',
        '--name-only',
        '--no-renames',
        base,
        tree,
      ])
        .toString('utf8')
        .split('\0')
        .filter(Boolean);
      expect((await gitRepo.changedPaths(base, tree)).sort()).toEqual(expected.sort());
    }),
    { numRuns: 40 },
  );
  gitRepo.close();
});

test('refs, trees and blobs through the batch; a blob over the limit comes back without its bytes', async () => {
  const { repo, commit, base } = repository();
  const gitRepo = await GitRepo.open(repo);
  expect(await gitRepo.resolve('refs/heads/main')).toBe(commit);
  expect(await gitRepo.resolve('refs/heads/absent')).toBeNull();
  expect(await gitRepo.resolve(`${base}`)).toBeNull(); // a tree is not a commit
  expect(await gitRepo.treeOf(commit)).toBe(base);
  const big = git(repo, ['rev-parse', `${commit}:big.bin`]).trim();
  expect(await gitRepo.readObject(big, 99_999)).toEqual({ oid: big, type: 'blob', size: 100_000, content: null });
  expect((await gitRepo.readBlob(big)).equals(Buffer.from(FILES['big.bin']!))).toBe(true);
  expect(await gitRepo.hasObject(big)).toBe(true);
  expect(await gitRepo.hasObject('0'.repeat(40))).toBe(false);
  // A ref moved by another process after the batch started is read as it is now.
  git(repo, ['update-ref', 'refs/heads/main', `${commit}~1`]);
  expect(await gitRepo.resolve('refs/heads/main')).toBe(git(repo, ['rev-parse', `${commit}~1`]).trim());
  await expect(gitRepo.readObject('a\nb')).rejects.toThrow(/line break/);
  gitRepo.close();
});

test('a repository left open does not keep Node running', () => {
  const { repo } = repository();
  const module = pathToFileURL(join(import.meta.dirname, '..', 'src', 'git', 'repo.ts')).href;
  const script = `(async () => { const { GitRepo } = await import(${JSON.stringify(module)}); const r = await GitRepo.open(${JSON.stringify(repo)}); console.log(await r.resolve('main')); })();`;
  const tsx = join(import.meta.dirname, '..', '..', '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const result = spawnSync(process.execPath, [tsx, '--eval', script], { encoding: 'utf8', timeout: 60_000 });
  expect(result.error).toBeUndefined();
  expect(result.stdout.trim()).toBe(git(repo, ['rev-parse', 'main']).trim());
  expect(result.status).toBe(0);
});

test('set-default-agent on a bare repository runs six git processes, one of them the reader', async () => {
  const repo = makeRepo({ 'svc.yaml': lf(YAML_LINES) }, { bare: true });
  const trace = join(tempDir(), 'trace.txt');
  process.env.GIT_TRACE = trace;
  try {
    const result = await setDefaultAgent(repo, 'helper', { author: AUTHOR });
    expect(result.status).toBe('committed');
  } finally {
    delete process.env.GIT_TRACE;
  }
  const commands = readFileSync(trace, 'utf8')
    .split('\n')
    .filter((line) => line.includes('trace: built-in: git '))
    .map(
      (line) =>
        line
          .replace(/.*trace: built-in: git /, '')
          .replace(/--git-dir \S+ /, '')
          .split(' ')[0],
    );
  expect(commands).toEqual(['rev-parse', 'cat-file', 'hash-object', 'mktree', 'commit-tree', 'update-ref']);
});

test('branch names: the check without git agrees with git check-ref-format', async () => {
  const part = fc.stringMatching(/^[A-Za-z0-9._@~^:-]{1,6}$/);
  const name = fc.oneof(
    fc.array(part, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/')),
    fc.stringMatching(/^[A-Za-z0-9./_-]{1,12}$/),
  );
  await fc.assert(
    fc.asyncProperty(name, async (branch) => {
      const gitSays =
        spawnSync('git', ['check-ref-format', `refs/heads/${branch}`]).status === 0 && !branch.startsWith('-');
      const ours = await GitRepo.checkBranchName(branch).then(
        () => true,
        (error: unknown) => {
          expect(error).toMatchObject({ code: 'invalid-branch' });
          return false;
        },
      );
      expect(ours, branch).toBe(gitSays);
    }),
    {
      numRuns: 300,
      examples: [
        ['main'],
        ['release/1.2'],
        ['a..b'],
        ['x.lock'],
        ['x/.y'],
        ['x.'],
        ['-x'],
        ['x/-y'],
        ['a//b'],
        ['@'],
        ['a@{b'],
      ],
    },
  );
});
