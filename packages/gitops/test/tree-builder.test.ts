/**
 * Trees built from the changed directories only must be the very trees a temporary index
 * gives (read-tree + update-index --index-info + write-tree): checked against that oracle
 * on random changes to a repository with nested folders, odd names, a symlink, an
 * executable and a submodule entry.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { GitRepo, type IndexChange } from '../src/git/repo.js';
import { buildTreeFromChanges } from '../src/git/tree-builder.js';
import { SPECIAL_NAMES } from './support/fixtures.js';
import { cleanupTempDirs, git, indexTree, repositoryWithSpecialEntries } from './support/repos.js';

afterAll(cleanupTempDirs);

const FILES: Record<string, string> = {
  'svc.yaml': 'svc_version: 2\n',
  ...SPECIAL_NAMES,
  'skills/pdf tools/back\\slash.txt': 'b\n',
  'only/child.txt': 'alone\n',
};

function repository(): { repo: string; base: string } {
  return repositoryWithSpecialEntries(FILES);
}

const EXISTING = [...Object.keys(FILES), 'link', 'vendor/sub'];
const NEW = [
  'new.txt',
  'a/new.txt',
  'a/deep/deeper/new.txt',
  'fresh/dir/file.md',
  'skills/pdf tools/new "one".md',
  'tab\there.txt',
  'A.txt',
  'a0',
];

test('the same tree as a temporary index, for random changes', async () => {
  const { repo, base } = repository();
  const git_ = await GitRepo.open(repo);
  const blobs = await Promise.all(['alpha\n', 'beta\n', 'gamma\n'].map((text) => git_.writeBlob(Buffer.from(text))));
  const change = fc.oneof(
    fc.record({
      path: fc.constantFrom(...EXISTING, ...NEW),
      mode: fc.constantFrom('100644', '100755'),
      oid: fc.constantFrom(...blobs),
    }),
    fc.record({ path: fc.constantFrom(...EXISTING, ...NEW), mode: fc.constant('100644'), oid: fc.constant(null) }),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 6 }), async (changes: IndexChange[]) => {
      // No file/folder swaps here: the builder declines only names git's index treats
      // specially (a backslash, `.git…`, non-ASCII), which go through the index instead.
      const built = await buildTreeFromChanges(repo, base, changes);
      const special = changes.some((c) => c.path.split('/').some((name) => /\\|^\.git|^git~|[^\x20-\x7e]/i.test(name)));
      if (special) expect(built).toBeNull();
      else expect(built).toBe(indexTree(repo, base, changes));
    }),
    { numRuns: 60 },
  );
});

test('every file of a folder deleted: the folder goes; everything deleted: the empty tree; nothing changed: the base', async () => {
  const { repo, base } = repository();
  const gitRepo = await GitRepo.open(repo);
  const gone: IndexChange[] = [{ path: 'only/child.txt', mode: '100644', oid: null }];
  const tree = await gitRepo.buildTree(base, gone);
  expect(tree).toBe(indexTree(repo, base, gone));
  expect(git(repo, ['ls-tree', '--name-only', tree]).split('\n')).not.toContain('only');
  const all: IndexChange[] = git(repo, ['ls-tree', '-r', '--name-only', '-z', base])
    .split('\0')
    .filter(Boolean)
    .map((path) => ({ path, mode: '100644', oid: null }));
  expect(await gitRepo.buildTree(base, all)).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
  const same = git(repo, ['rev-parse', `${base}:svc.yaml`]).trim();
  expect(await gitRepo.buildTree(base, [{ path: 'svc.yaml', mode: '100644', oid: same }])).toBe(base);
  const blob = await gitRepo.writeBlob(Buffer.from('x\n'));
  expect(await gitRepo.buildTree(null, [{ path: 'objects/ab/cdef', mode: '100644', oid: blob }])).toBe(
    indexTree(repo, '4b825dc642cb6eb9a060e54bf8d69288fbee4904', [
      { path: 'objects/ab/cdef', mode: '100644', oid: blob },
    ]),
  );
});

test('a file where a folder is (or the reverse) is left to the index', async () => {
  const { repo, base } = repository();
  const blob = execFileSync('git', ['--git-dir', repo, 'hash-object', '-w', '--stdin'], { input: 'x\n' })
    .toString()
    .trim();
  expect(await buildTreeFromChanges(repo, base, [{ path: 'a', mode: '100644', oid: blob }])).toBeNull();
  expect(await buildTreeFromChanges(repo, base, [{ path: 'svc.yaml/inner', mode: '100644', oid: blob }])).toBeNull();
  expect(await buildTreeFromChanges(repo, base, [{ path: 'a/../svc.yaml', mode: '100644', oid: blob }])).toBeNull();
  expect(await buildTreeFromChanges(repo, base, [{ path: 'a/one.txt', mode: '100644', oid: blob }])).toBe(
    indexTree(repo, base, [{ path: 'a/one.txt', mode: '100644', oid: blob }]),
  );
});
