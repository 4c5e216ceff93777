/**
 * Fuzzing the path policy against a real bare repository: random item paths (built from
 * the names the repository tracks, their case twins, `.git` spellings, separators and
 * control characters) and random lock files. Whatever the input, either the operation is
 * refused and the branch does not move, or it commits and no tracked path outside the
 * item's own files changed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { install, itemPathProblem, RefusedError, remove, update } from '../src/index.js';
import { lf } from './support/fixtures.js';
import { MemoryCatalog } from './support/memory-catalog.js';
import { AUTHOR, cleanupTempDirs, git, tempDir, writeFiles } from './support/repos.js';

afterAll(cleanupTempDirs);

let repo: string;
let base: string;
let runs = 0;

interface Entry {
  mode: string;
  type: string;
  oid: string;
}

function tree(rev: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  for (const record of execFileSync('git', ['ls-tree', '-r', '-t', '-z', '--full-tree', rev], { cwd: repo })
    .toString('utf8')
    .split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    const [mode, type, oid] = record.slice(0, tab).split(' ');
    entries.set(record.slice(tab + 1), { mode: mode!, type: type!, oid: oid! });
  }
  return entries;
}

beforeAll(() => {
  const dir = tempDir();
  const work = join(dir, 'work');
  git(dir, ['init', '-q', '-b', 'main', work]);
  writeFiles(work, {
    'svc.yaml': lf(['svc_version: 2', 'default_agent: main', 'agents:', '  main:', '    enabled: true']),
    'README.md': 'read me\n',
    'docs/guide.md': 'guide\n',
    'docs/sub/deep.md': 'deep\n',
    'bin/tool': '#!/bin/sh\n',
  });
  symlinkSync('docs', join(work, 'link'));
  git(work, ['add', '-A']);
  git(work, ['update-index', '--chmod=+x', 'bin/tool']);
  git(work, ['commit', '-q', '-m', 'initial']);
  repo = join(dir, 'repo.git');
  git(dir, ['clone', '-q', '--bare', work, repo]);
  base = git(repo, ['rev-parse', 'main']).trim();
});

/** A fresh branch at `commit` for one run. */
function branchAt(commit: string): string {
  const branch = `run-${++runs}`;
  git(repo, ['update-ref', `refs/heads/${branch}`, commit]);
  return branch;
}

/** A commit on top of `base` that adds `svc.lock.json` with `text`. */
function commitLock(text: string): string {
  const index = mkdtempSync(join(tmpdir(), 'svc-fuzz-index-'));
  try {
    const env = {
      ...process.env,
      GIT_INDEX_FILE: join(index, 'index'),
      GIT_AUTHOR_NAME: 'F',
      GIT_AUTHOR_EMAIL: 'f@example.test',
      GIT_COMMITTER_NAME: 'F',
      GIT_COMMITTER_EMAIL: 'f@example.test',
    };
    const run = (args: string[], input?: string) =>
      execFileSync('git', args, { cwd: repo, env, input }).toString('utf8').trim();
    const blob = run(['hash-object', '-w', '--stdin'], text);
    run(['read-tree', base]);
    run(['update-index', '--add', '--cacheinfo', `100644,${blob},svc.lock.json`]);
    return run(['commit-tree', run(['write-tree']), '-p', base, '-m', 'lock']);
  } finally {
    rmSync(index, { recursive: true, force: true });
  }
}

/** How often the operation of a property was refused and how often it committed. */
interface Outcomes {
  committed: number;
  refused: number;
}

/**
 * Waits for `operation` on `branch`. Refused: counted, the branch must still be at `unmoved`,
 * and the answer is false. Committed: counted, true. Any other error is thrown.
 */
async function settled(seen: Outcomes, branch: string, unmoved: string, operation: Promise<unknown>): Promise<boolean> {
  const outcome = await operation.catch((error: unknown) => error);
  if (outcome instanceof RefusedError) {
    seen.refused++;
    expect(git(repo, ['rev-parse', branch]).trim()).toBe(unmoved);
    return false;
  }
  if (outcome instanceof Error) throw outcome;
  seen.committed++;
  return true;
}

/** Both outcomes were exercised (each test's examples guarantee at least one of each). */
function expectBothOutcomes(seen: Outcomes): void {
  expect(seen.committed).toBeGreaterThan(0);
  expect(seen.refused).toBeGreaterThan(0);
}

const COMPONENTS = [
  'docs',
  'Docs',
  'DOCS',
  'README.md',
  'readme.md',
  'Readme.md',
  'link',
  'LINK',
  'bin',
  'tool',
  'guide.md',
  'sub',
  'deep.md',
  'svc.yaml',
  'SVC.yaml',
  'svc.yml',
  'svc.lock.json',
  '.git',
  '.GIT',
  '.git.',
  '.git ',
  'GIT~1',
  'git~2',
  '.gitmodules',
  '..',
  '.',
  '',
  'a',
  'b.md',
  'new',
  'x\ny',
  'c\\d',
  'e:f',
  'tab\there',
  'con',
  'z.',
  '\u200c.git',
  'e\u0301',
];
const component = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...COMPONENTS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const itemPath = fc.array(component, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));

test('random item paths: refused with the branch unmoved, or committed without touching any tracked path', async () => {
  const before = tree(base);
  const seen: Outcomes = { committed: 0, refused: 0 };
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(itemPath, { minLength: 1, maxLength: 3 }),
      fc.string({ maxLength: 8 }),
      async (paths, content) => {
        const branch = branchAt(base);
        const files = Object.fromEntries(paths.map((path, i) => [path, `${content}${i}\n`]));
        if (
          !(await settled(
            seen,
            branch,
            base,
            install(repo, 'fuzz', { author: AUTHOR, branch, catalog: new MemoryCatalog({ fuzz: { files } }) }),
          ))
        )
          return;
        const after = tree(branch);
        for (const [path, entry] of before) {
          // Directories gain the new files; everything else is byte-for-byte and mode-for-mode the same.
          if (entry.type === 'tree') expect(after.get(path)?.type, path).toBe('tree');
          else expect(after.get(path), path).toEqual(entry);
        }
        for (const [path, entry] of after) {
          if (before.has(path) || entry.type === 'tree') continue;
          expect([...paths, 'svc.lock.json'], `new path ${JSON.stringify(path)}`).toContain(path);
          expect(entry.mode).toBe('100644');
        }
        // Every path reported installed is in the tree with its bytes (git did not silently drop any).
        for (const path of paths) {
          expect(itemPathProblem(path)).toBeUndefined();
          expect(execFileSync('git', ['cat-file', 'blob', after.get(path)!.oid], { cwd: repo }).toString('utf8')).toBe(
            files[path],
          );
        }
      },
    ),
    {
      numRuns: 80,
      examples: [
        [['new/a.md', 'docs/new.md'], 'x'],
        [['docs'], 'x'],
        [['README.md/x'], 'x'],
      ],
    },
  );
  expectBothOutcomes(seen);
}, 300_000);

const OID = /^[0-9a-f]{40}$/;

/** A lock file as generated: any shape the schema may have to refuse. */
interface LockValue {
  lockfileVersion: number;
  items: Record<string, { files: unknown } & Record<string, unknown>>;
}

test('random lock files: a forced remove deletes only regular files the lock gives the item, or is refused', async () => {
  const baseTree = tree(base);
  const blobs = [...baseTree]
    .filter(([, entry]) => entry.type === 'blob')
    .map(([path, entry]) => ({ path, oid: entry.oid }));
  const realOid = fc.constantFrom(...blobs.map((blob) => blob.oid));
  const anyOid = fc.oneof(realOid, fc.stringMatching(/^[0-9a-f]{40}$/), fc.constantFrom('HEAD', '', 'main'));
  const files = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.dictionary(fc.oneof(itemPath, fc.constantFrom(...blobs.map((blob) => blob.path))), anyOid, {
        maxKeys: 4,
      }),
    },
    { weight: 1, arbitrary: fc.constantFrom(null, [], 'README.md', 7) },
  );
  const lockedItem = fc.record({
    id: fc.constantFrom('evil', 'x y'),
    version: fc.constantFrom('1.0.0', '1\n2'),
    source: fc.constant('memory://'),
    integrity: fc.constantFrom('sha256-AAAA', 'nope'),
    files,
    manifest: fc.constant([]),
  });
  const lock: fc.Arbitrary<LockValue> = fc.record({
    lockfileVersion: fc.constantFrom(1, 1, 1, 2),
    items: fc.dictionary(fc.constantFrom('evil', 'other', 'Evil'), lockedItem, { minKeys: 1, maxKeys: 2 }),
  });

  const seen: Outcomes = { committed: 0, refused: 0 };
  const item = (files: unknown) => ({
    id: 'evil',
    version: '1.0.0',
    source: 'memory://',
    integrity: 'sha256-AAAA',
    files,
    manifest: [],
  });
  const readme = blobs.find((blob) => blob.path === 'README.md')!.oid;
  await fc.assert(
    fc.asyncProperty(lock, async (value) => {
      const commit = commitLock(JSON.stringify(value));
      const branch = branchAt(commit);
      const beforeTree = tree(commit);
      if (!(await settled(seen, branch, commit, remove(repo, 'evil', { author: AUTHOR, branch, force: true })))) return;
      const owned = new Set(Object.keys(value.items.evil?.files ?? {}));
      const after = tree(branch);
      for (const [path, entry] of beforeTree) {
        if (entry.type === 'tree' || path === 'svc.lock.json') continue;
        if (after.get(path)?.oid === entry.oid && after.get(path)?.mode === entry.mode) continue;
        // Anything that changed was the item's own regular file, at a path the policy accepts, and it was deleted.
        expect(owned.has(path), `changed ${path}`).toBe(true);
        expect(entry.mode === '100644' || entry.mode === '100755').toBe(true);
        expect(itemPathProblem(path)).toBeUndefined();
        expect(after.has(path)).toBe(false);
      }
      for (const path of after.keys())
        expect(beforeTree.has(path) || path === 'svc.lock.json', `new path ${path}`).toBe(true);
      for (const oid of Object.values((value.items.evil?.files ?? {}) as Record<string, string>))
        expect(oid).toMatch(OID);
    }),
    {
      numRuns: 80,
      examples: [
        [{ lockfileVersion: 1, items: { evil: item({ 'README.md': readme }) } }],
        [{ lockfileVersion: 1, items: { evil: item({ 'svc.yaml': readme }) } }],
        [{ lockfileVersion: 1, items: { evil: item({ link: readme }) } }],
      ],
    },
  );
  expectBothOutcomes(seen);
}, 300_000);

test('random upstream paths on update: only the item’s own files and new paths of it change, or the update is refused', async () => {
  const seen: Outcomes = { committed: 0, refused: 0 };
  const v1 = { 'skills/fuzz/SKILL.md': 'one\n', 'skills/fuzz/run.sh': 'echo\n' };
  const upstreamPath = fc.oneof(itemPath, fc.constantFrom(...Object.keys(v1)));
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(upstreamPath, { minLength: 0, maxLength: 3 }),
      fc.string({ maxLength: 6 }),
      async (paths, content) => {
        const branch = branchAt(base);
        await install(repo, 'fuzz', { author: AUTHOR, branch, catalog: new MemoryCatalog({ fuzz: { files: v1 } }) });
        const installed = git(repo, ['rev-parse', branch]).trim();
        const before = tree(installed);
        const files = Object.fromEntries(paths.map((path, i) => [path, `${content}${i}\n`]));
        const catalog = new MemoryCatalog({ fuzz: { version: '2.0.0', files } });
        if (!(await settled(seen, branch, installed, update(repo, 'fuzz', { author: AUTHOR, branch, catalog }))))
          return;
        const after = tree(branch);
        const own = new Set([...Object.keys(v1), ...paths, 'svc.lock.json']);
        for (const [path, entry] of before) {
          if (entry.type === 'tree' || own.has(path)) continue;
          expect(after.get(path), path).toEqual(entry);
        }
        for (const [path, entry] of after) {
          if (entry.type !== 'tree' && !before.has(path))
            expect(own.has(path), `new path ${JSON.stringify(path)}`).toBe(true);
        }
        for (const path of paths)
          expect(execFileSync('git', ['cat-file', 'blob', after.get(path)!.oid], { cwd: repo }).toString('utf8')).toBe(
            files[path],
          );
        for (const path of Object.keys(v1))
          if (!paths.includes(path)) expect(after.has(path), `${path} was removed upstream`).toBe(false);
      },
    ),
    {
      numRuns: 40,
      examples: [
        [['skills/fuzz/SKILL.md', 'skills/fuzz/new.md'], 'x'],
        [['README.md'], 'x'],
        [['docs'], 'x'],
      ],
    },
  );
  expectBothOutcomes(seen);
}, 300_000);
