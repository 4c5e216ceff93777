/**
 * The applier's compare-and-swap loop, made deterministic: a "concurrent writer" pushes
 * while an edit is being prepared, so the first ref transaction must lose.
 */
import { afterAll, expect, test } from 'vitest';
import { applyEdit, PRISTINE_REF, RefusedError, type Edit } from '../src/index.js';
import { ItemCache, FolderCatalog } from '../src/marketplace/catalog.js';
import { installEdit } from '../src/marketplace/install.js';
import { setDefaultAgentEdit } from '../src/operations/agents.js';
import { crlf, PDF_V1, writeCatalogItem, YAML_LINES } from './support/fixtures.js';
import {
  applyOptions,
  cleanupTempDirs,
  git,
  head,
  makeRepo,
  show,
  subjects,
  tempDir,
  writeFiles,
} from './support/repos.js';

afterAll(cleanupTempDirs);

/** Pushes a commit that replaces one line of svc.yaml, from a separate clone (another writer). */
function pushLineChange(repo: string, from: string, to: string, message: string): void {
  const clone = `${tempDir()}/clone`;
  git(tempDir(), ['clone', '-q', repo, clone]);
  const text = show(clone, 'HEAD', 'svc.yaml').toString('utf8');
  expect(text).toContain(from);
  writeFiles(clone, { 'svc.yaml': text.replace(from, to) });
  git(clone, ['commit', '-q', '-am', message]);
  git(clone, ['push', '-q', 'origin', 'main']);
}

/** Runs `edit`, but lets `interfere` act once, after the first attempt has read the head. */
function interfering<T>(edit: Edit<T>, interfere: () => void): Edit<T> & { calls: number } {
  const wrapped = (async (snapshot, repo) => {
    wrapped.calls++;
    const plan = await edit(snapshot, repo);
    if (wrapped.calls === 1) interfere();
    return plan;
  }) as Edit<T> & { calls: number };
  wrapped.calls = 0;
  return wrapped;
}

test('a lost race re-reads the new head and re-runs the edit; both changes land, linearly', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const edit = interfering(setDefaultAgentEdit('helper'), () =>
    pushLineChange(
      repo,
      '  name: demo              # display name',
      '  name: demo-renamed      # display name',
      'concurrent: rename',
    ),
  );
  const result = await applyEdit(repo, edit, await applyOptions());
  expect(edit.calls).toBe(2);
  expect(result).toMatchObject({ status: 'committed', attempts: 2 });
  expect(subjects(repo)).toEqual(['svc: set default agent to helper', 'concurrent: rename', 'initial']);
  expect(git(repo, ['rev-list', '--merges', 'main'])).toBe('');
  const text = show(repo, 'main', 'svc.yaml').toString('utf8');
  expect(text).toContain('default_agent: helper       # the agent new sessions prefer\r\n');
  expect(text).toContain('  name: demo-renamed      # display name\r\n');
});

test('preconditions are checked again after a lost race', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const edit = interfering(setDefaultAgentEdit('helper'), () =>
    pushLineChange(
      repo,
      '  helper: { enabled: true, secrets: none }',
      '  helper: { enabled: false, secrets: none }',
      'concurrent: disable helper',
    ),
  );
  const error = await applyEdit(repo, edit, await applyOptions()).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RefusedError);
  expect((error as RefusedError).code).toBe('agent-disabled');
  expect(subjects(repo)).toEqual(['concurrent: disable helper', 'initial']);
});

test('the hidden pristine ref is part of the same transaction: a concurrent move of it also loses the race', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const catalog = tempDir();
  writeCatalogItem(catalog, 'pdf-tools', PDF_V1);
  let foreign = '';
  const edit = interfering(installEdit(new ItemCache(new FolderCatalog(catalog)), 'pdf-tools'), () => {
    // Another applier stores a pristine copy first (the branch itself does not move).
    const blob = git(repo, ['hash-object', '-w', '--stdin'], 'another item\n').trim();
    const tree = git(repo, ['mktree'], `100644 blob ${blob}\tother-item\n`).trim();
    foreign = git(repo, ['commit-tree', tree, '-m', 'other pristine']).trim();
    git(repo, ['update-ref', PRISTINE_REF, foreign, '0'.repeat(40)]);
  });
  const result = await applyEdit(repo, edit, await applyOptions());
  expect(result).toMatchObject({ status: 'committed', attempts: 2 });
  // The new pristine commit builds on the concurrent one: nothing it stored is lost.
  expect(git(repo, ['rev-parse', `${PRISTINE_REF}^`]).trim()).toBe(foreign);
  const stored = git(repo, ['ls-tree', '-r', '--name-only', PRISTINE_REF]).trim().split('\n');
  expect(stored).toHaveLength(3);
});

test('too many lost races: refused after the bounded number of attempts, nothing committed by us', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  let round = 0;
  const inner = setDefaultAgentEdit('helper');
  const edit: Edit = async (snapshot, git_) => {
    const plan = await inner(snapshot, git_);
    round++;
    pushLineChange(
      repo,
      round === 1 ? '# end of file' : `# end of file ${round - 1}`,
      `# end of file ${round}`,
      `concurrent ${round}`,
    );
    return plan;
  };
  const error = await applyEdit(repo, edit, { ...(await applyOptions()), maxAttempts: 3 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RefusedError);
  expect((error as RefusedError).code).toBe('too-many-retries');
  expect(subjects(repo)).toEqual(['concurrent 3', 'concurrent 2', 'concurrent 1', 'initial']);
  expect(head(repo)).toBe(git(repo, ['rev-parse', 'main']).trim());
});

test('author, committer and message options', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  await applyEdit(repo, setDefaultAgentEdit('helper'), {
    author: { name: 'Ada', email: 'ada@example.test', date: '2026-01-02T03:04:05Z' },
    committer: { name: 'Platform', email: 'platform@example.test' },
    message: 'Make helper the default\n\nRequested in the UI.',
  });
  expect(git(repo, ['log', '-1', '--format=%an <%ae> %aI|%cn <%ce>|%B', 'main']).trim()).toBe(
    'Ada <ada@example.test> 2026-01-02T03:04:05+00:00|Platform <platform@example.test>|Make helper the default\n\nRequested in the UI.',
  );
});

test('GIT_DIR / GIT_INDEX_FILE of the calling process (e.g. a hook) are ignored', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const other = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const saved = { dir: process.env.GIT_DIR, index: process.env.GIT_INDEX_FILE };
  process.env.GIT_DIR = other;
  process.env.GIT_INDEX_FILE = `${tempDir()}/foreign-index`;
  try {
    await applyEdit(repo, setDefaultAgentEdit('helper'), await applyOptions());
  } finally {
    if (saved.dir === undefined) delete process.env.GIT_DIR;
    else process.env.GIT_DIR = saved.dir;
    if (saved.index === undefined) delete process.env.GIT_INDEX_FILE;
    else process.env.GIT_INDEX_FILE = saved.index;
  }
  expect(subjects(repo)).toEqual(['svc: set default agent to helper', 'initial']);
  expect(subjects(other)).toEqual(['initial']);
});
