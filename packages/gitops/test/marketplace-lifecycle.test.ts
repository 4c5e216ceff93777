/**
 * install → re-install (no commit) → local edit → update (edit kept / merged) →
 * conflicting update (refused, no commit) → remove, asserted on the repository's
 * history and contents; the version precedence `updates()` relies on, and the
 * locale-free order of catalog listings and lock items.
 */
import { afterAll, expect, test } from 'vitest';
import {
  compareVersions,
  FolderCatalog,
  install,
  LOCK_PATH,
  PRISTINE_REF,
  RefusedError,
  remove,
  update,
  updateAll,
  updates,
  type LockFile,
} from '../src/index.js';
import {
  crlf,
  EXTRACT_PY,
  lf,
  PDF_V1,
  PDF_V2,
  SKILL_V1,
  SKILL_V2,
  writeCatalogItem,
  YAML_LINES,
} from './support/fixtures.js';
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

const SKILL = 'skills/pdf-tools/SKILL.md';
const EXTRACT = 'skills/pdf-tools/extract.py';

function lockAt(repo: string, rev = 'main'): LockFile {
  return JSON.parse(show(repo, rev, LOCK_PATH).toString('utf8')) as LockFile;
}

/** A person's commit: clone, change files, commit, push. */
function pushLocalEdit(repo: string, files: Record<string, string>, message: string): void {
  const clone = `${tempDir()}/clone`;
  git(tempDir(), ['clone', '-q', repo, clone]);
  writeFiles(clone, files);
  git(clone, ['commit', '-q', '-am', message]);
  git(clone, ['push', '-q', 'origin', 'main']);
}

async function refusal(promise: Promise<unknown>): Promise<RefusedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RefusedError);
  return error as RefusedError;
}

test('the whole lifecycle of an installed item', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const catalog = tempDir();
  writeCatalogItem(catalog, 'pdf-tools', PDF_V1);
  const options = { ...(await applyOptions()), catalog };

  // install: files placed, lock written, pristine copies reachable under the hidden ref.
  const installed = await install(repo, 'pdf-tools', options);
  expect(installed).toMatchObject({
    status: 'committed',
    info: { name: 'pdf-tools', version: '1.0.0', action: 'installed' },
  });
  expect(show(repo, 'main', SKILL).toString()).toBe(SKILL_V1);
  expect(show(repo, 'main', EXTRACT).toString()).toBe(EXTRACT_PY);
  const lock = lockAt(repo);
  const entry = lock.items['pdf-tools']!;
  expect(entry).toMatchObject({ id: 'pdf-tools', version: '1.0.0' });
  expect(entry.source).toMatch(/^file:\/\//);
  expect(entry.integrity).toMatch(/^sha256-[A-Za-z0-9+/]+=*$/);
  expect(entry.files).toEqual({
    [EXTRACT]: git(repo, ['rev-parse', `main:${EXTRACT}`]).trim(),
    [SKILL]: git(repo, ['rev-parse', `main:${SKILL}`]).trim(),
  });
  expect(entry.manifest.map((e) => `${e.section}/${e.name}`)).toEqual([
    'agents/pdf',
    'connectors/pdf-store',
    'triggers/pdf-digest',
  ]);
  const pristineTree = git(repo, ['ls-tree', '-r', '--name-only', PRISTINE_REF]);
  for (const oid of Object.values(entry.files))
    expect(pristineTree).toContain(`objects/${oid.slice(0, 2)}/${oid.slice(2)}`);
  expect(
    git(repo, ['show-ref'])
      .split('\n')
      .filter((line) => line.includes('refs/heads/')),
  ).toHaveLength(1);

  // re-install of the same version: no commit.
  const again = await install(repo, 'pdf-tools', options);
  expect(again).toMatchObject({ status: 'unchanged', commit: installed.commit, info: { action: 'unchanged' } });
  expect(head(repo)).toBe(installed.commit);

  // A newer version is listed by updates().
  writeCatalogItem(catalog, 'pdf-tools', PDF_V2);
  expect(await updates(repo, { catalog })).toEqual([
    { name: 'pdf-tools', id: 'pdf-tools', installed: '1.0.0', available: '1.1.0' },
  ]);

  // local edits: a note at the top of SKILL.md (upstream changes its end), and extract.py (upstream leaves it).
  const localSkill = `<!-- local note: we only read scanned PDFs -->\n${SKILL_V1}`;
  const localExtract = EXTRACT_PY.replace('print(sys.argv[1])', 'print(sys.argv[1].upper())');
  pushLocalEdit(repo, { [SKILL]: localSkill, [EXTRACT]: localExtract }, 'local: tweak pdf skill');
  const beforeUpdate = head(repo);

  // update: the unchanged-upstream file keeps the edit; the both-changed file is merged; the lock records upstream.
  const updated = await update(repo, 'pdf-tools', options);
  expect(updated).toMatchObject({
    status: 'committed',
    parent: beforeUpdate,
    info: { from: '1.0.0', to: '1.1.0', kept: [EXTRACT], merged: [SKILL] },
  });
  expect(show(repo, 'main', EXTRACT).toString()).toBe(localExtract);
  expect(show(repo, 'main', SKILL).toString()).toBe(`<!-- local note: we only read scanned PDFs -->\n${SKILL_V2}`);
  const lockAfterUpdate = lockAt(repo).items['pdf-tools']!;
  expect(lockAfterUpdate.version).toBe('1.1.0');
  expect(lockAfterUpdate.files[SKILL]).toBe(git(repo, ['hash-object', '--stdin'], SKILL_V2).trim());
  expect(lockAfterUpdate.files[EXTRACT]).toBe(entry.files[EXTRACT]);
  expect(git(repo, ['cat-file', '-t', lockAfterUpdate.files[SKILL]!]).trim()).toBe('blob');
  expect(await updates(repo, { catalog })).toEqual([]);

  // conflicting update: upstream rewrites the line the user edited → the whole item is refused (extract.py
  // would merge cleanly, but is not committed either), no commit, per-file report.
  pushLocalEdit(
    repo,
    {
      [SKILL]: `<!-- local note: we only read scanned PDFs -->\n${SKILL_V2.replace('4. cite page numbers', '4. cite page numbers (local wording)')}`,
    },
    'local: wording',
  );
  const beforeConflict = head(repo);
  const historyBefore = subjects(repo);
  writeCatalogItem(catalog, 'pdf-tools', {
    ...PDF_V2,
    version: '1.2.0',
    files: {
      [SKILL]: SKILL_V2.replace('4. cite page numbers', '4. cite page and line numbers'),
      [EXTRACT]: EXTRACT_PY.replace('import sys', 'import os, sys'),
    },
  });
  const conflict = await refusal(update(repo, 'pdf-tools', options));
  expect(conflict.code).toBe('conflict');
  expect(conflict.details.files).toEqual([expect.objectContaining({ path: SKILL, status: 'conflict' })]);
  expect(conflict.message).toContain(SKILL);
  expect(head(repo)).toBe(beforeConflict);
  expect(subjects(repo)).toEqual(historyBefore);
  expect(lockAt(repo).items['pdf-tools']!.version).toBe('1.1.0');

  // remove: refused while files are locally edited, then forced.
  const refusedRemove = await refusal(remove(repo, 'pdf-tools', await applyOptions()));
  expect(refusedRemove.code).toBe('locally-modified');
  expect(refusedRemove.details.files!.map((f) => f.path).sort()).toEqual([SKILL, EXTRACT]);
  expect(head(repo)).toBe(beforeConflict);

  const removed = await remove(repo, 'pdf-tools', { ...(await applyOptions()), force: true });
  expect(removed).toMatchObject({ status: 'committed', info: { name: 'pdf-tools', removedFiles: [SKILL, EXTRACT] } });
  expect(git(repo, ['ls-tree', '-r', '--name-only', 'main']).trim().split('\n')).toEqual(['svc.yaml']);
  expect(show(repo, 'main', 'svc.yaml').toString()).toBe(crlf(YAML_LINES));
  expect(subjects(repo)).toEqual([
    'marketplace: remove pdf-tools@1.1.0',
    'local: wording',
    'marketplace: update pdf-tools 1.0.0 -> 1.1.0',
    'local: tweak pdf skill',
    'marketplace: install pdf-tools@1.0.0',
    'initial',
  ]);
  // The pristine copies stay reachable after the remove (history may still need them).
  expect(git(repo, ['cat-file', '-t', entry.files[SKILL]!]).trim()).toBe('blob');
});

test('remove of an unedited item needs no force and deletes the lock file with the last item', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const catalog = tempDir();
  writeCatalogItem(catalog, 'pdf-tools', PDF_V1);
  await install(repo, 'pdf-tools', { ...(await applyOptions()), catalog });
  const result = await remove(repo, 'pdf-tools', await applyOptions());
  expect(result.status).toBe('committed');
  expect(git(repo, ['ls-tree', '--name-only', 'main']).trim()).toBe('svc.yaml');
  expect(show(repo, 'main', 'svc.yaml').toString()).toBe(crlf(YAML_LINES));
});

test('updateAll commits the clean updates and reports the conflicting item', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const catalog = tempDir();
  const notes = (version: string, line: string) => ({
    version,
    files: { 'skills/notes/NOTES.md': lf(['# notes', line]) },
    manifest: {},
  });
  writeCatalogItem(catalog, 'pdf-tools', PDF_V1);
  writeCatalogItem(catalog, 'notes', notes('1.0.0', 'first'));
  const options = { ...(await applyOptions()), catalog };
  await install(repo, 'pdf-tools', options);
  await install(repo, 'notes', options);
  pushLocalEdit(repo, { 'skills/notes/NOTES.md': lf(['# notes', 'mine']) }, 'local: notes');
  writeCatalogItem(catalog, 'pdf-tools', PDF_V2);
  writeCatalogItem(catalog, 'notes', notes('2.0.0', 'theirs'));

  const result = await updateAll(repo, options);
  expect(result.status).toBe('committed');
  expect(result.info.updated.map((u) => u.name)).toEqual(['pdf-tools']);
  expect(result.info.refused).toEqual([
    expect.objectContaining({
      name: 'notes',
      files: [expect.objectContaining({ path: 'skills/notes/NOTES.md', status: 'conflict' })],
    }),
  ]);
  expect(show(repo, 'main', SKILL).toString()).toBe(SKILL_V2);
  expect(show(repo, 'main', 'skills/notes/NOTES.md').toString()).toBe(lf(['# notes', 'mine']));
  const lock = lockAt(repo);
  expect([lock.items['pdf-tools']!.version, lock.items.notes!.version]).toEqual(['1.1.0', '1.0.0']);
});

test('compareVersions orders the SemVer 2.0.0 example chain, every pair in both directions', () => {
  const chain = [
    '1.0.0-alpha',
    '1.0.0-alpha.1',
    '1.0.0-alpha.beta',
    '1.0.0-beta',
    '1.0.0-beta.2',
    '1.0.0-beta.11',
    '1.0.0-rc.1',
    '1.0.0',
  ];
  for (const [i, a] of chain.entries()) {
    for (const [j, b] of chain.entries()) {
      expect(compareVersions(a, b), `${a} vs ${b}`).toBe(Math.sign(i - j));
    }
  }
});

test('compareVersions: pre-release identifiers by SemVer rules and ASCII order, not by locale', () => {
  const below: [string, string][] = [
    ['1.0.0-Beta', '1.0.0-alpha'], // 'B' (0x42) < 'a' (0x61); a locale puts alpha first
    ['1.0.0-a-b', '1.0.0-a_b'], // '-' (0x2D) < '_' (0x5F); a locale puts '_' first
    ['1.0.0-a.b', '1.0.0-a-b'], // identifier 'a' is a prefix of 'a-b'
    ['1.0.0-11', '1.0.0-2a'], // a numeric identifier is below an alphanumeric one
    ['1.0.0-rc.2', '1.0.0-rc.10'], // numeric identifiers by value
    ['1.0.0-rc.9007199254740992', '1.0.0-rc.9007199254740993'], // exactly, past 2^53
    ['1.B.0', '1.a.0'], // non-numeric core parts by code units too
  ];
  for (const [a, b] of below) {
    expect(compareVersions(a, b), `${a} < ${b}`).toBe(-1);
    expect(compareVersions(b, a), `${b} > ${a}`).toBe(1);
  }
  // Unchanged: a leading `v` and build metadata are ignored, a missing core part is 0.
  expect(compareVersions('v1.2.0+build.7', '1.2')).toBe(0);
  expect(compareVersions('1.0.0-rc.1+a', '1.0.0-rc.1+b')).toBe(0);
  expect(compareVersions('1.10.0', '1.9.0')).toBe(1);
});

test("a folder catalog lists its items in code-unit order, whatever the machine's locale", async () => {
  const catalog = tempDir();
  const ids = ['b', 'B', 'a_b', 'a-b'];
  for (const id of ids)
    writeCatalogItem(catalog, id, { version: '1.0.0', files: { [`skills/${id}/NOTES.md`]: lf([id]) }, manifest: {} });
  expect((await new FolderCatalog(catalog).items()).map((item) => item.id)).toEqual(['B', 'a-b', 'a_b', 'b']);
});

test('updates() and updateAll() go through the lock items in code-unit order', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const catalog = tempDir();
  const names = ['b', 'a_b', 'a-b'];
  const item = (name: string, version: string) => ({
    version,
    files: { [`skills/${name}/NOTES.md`]: lf([name, version]) },
    manifest: {},
  });
  const options = { ...(await applyOptions()), catalog };
  for (const name of names) {
    writeCatalogItem(catalog, name, item(name, '1.0.0'));
    await install(repo, name, options);
  }
  for (const name of names) writeCatalogItem(catalog, name, item(name, '1.1.0'));

  expect((await updates(repo, { catalog })).map((u) => u.name)).toEqual(['a-b', 'a_b', 'b']);
  const result = await updateAll(repo, options);
  expect(result.info.updated.map((u) => u.name)).toEqual(['a-b', 'a_b', 'b']);
  expect(subjects(repo)[0]).toBe('marketplace: update a-b 1.0.0 -> 1.1.0, a_b 1.0.0 -> 1.1.0, b 1.0.0 -> 1.1.0');
});
