/**
 * Every catalog read happens while the repository's lock is free — also when the branch
 * moves between the reads and the locked run, so that the locked run needs an item the
 * first run did not fetch: it is fetched outside the lock, and the operation retried.
 */
import { realpathSync } from 'node:fs';
import { afterAll, expect, test } from 'vitest';
import { FolderCatalog, install, LOCK_PATH, updateAll, type Catalog, type LockFile } from '../src/index.js';
import { isRepoLocked } from '../src/repo-lock.js';
import { crlf, PDF_V1, PDF_V2, writeCatalogItem, YAML_LINES } from './support/fixtures.js';
import { applyOptions, cleanupTempDirs, git, head, makeRepo, show, tempDir } from './support/repos.js';

afterAll(cleanupTempDirs);

test('a read the locked run needs after the branch moved is fetched outside the lock, then the operation is retried', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const folder = tempDir();
  writeCatalogItem(folder, 'alpha', { ...PDF_V1, files: { 'skills/alpha/SKILL.md': 'alpha 1\n' }, manifest: {} });
  writeCatalogItem(folder, 'beta', { ...PDF_V1, files: { 'skills/beta/SKILL.md': 'beta 1\n' }, manifest: {} });
  await install(repo, 'alpha', { ...(await applyOptions()), catalog: folder });
  const alphaOnly = head(repo);
  // Another writer's state: beta installed too, on a side branch for now.
  git(repo, ['branch', 'side', 'main']);
  await install(repo, 'beta', { ...(await applyOptions()), catalog: folder, branch: 'side' });
  const withBeta = head(repo, 'side');
  writeCatalogItem(folder, 'alpha', { ...PDF_V2, files: { 'skills/alpha/SKILL.md': 'alpha 2\n' }, manifest: {} });
  writeCatalogItem(folder, 'beta', { ...PDF_V2, files: { 'skills/beta/SKILL.md': 'beta 2\n' }, manifest: {} });

  const key = realpathSync(repo);
  const reads: { read: string; locked: boolean }[] = [];
  const inner = new FolderCatalog(folder);
  let moved = false;
  const catalog: Catalog = {
    location: inner.location,
    items: () => inner.items(),
    item: async (id) => {
      reads.push({ read: `item ${id}`, locked: isRepoLocked(key) });
      if (!moved) {
        // While the first run reads alpha, the branch moves to the state with beta installed.
        moved = true;
        git(repo, ['update-ref', 'refs/heads/main', withBeta, alphaOnly]);
      }
      return inner.item(id);
    },
    itemFile: async (id, path, maxBytes) => {
      reads.push({ read: `file ${id} ${path}`, locked: isRepoLocked(key) });
      return inner.itemFile(id, path, maxBytes);
    },
  };

  const result = await updateAll(repo, { ...(await applyOptions()), catalog });
  expect(result.status).toBe('committed');
  expect(result.info.updated.map((u) => `${u.name} ${u.from} -> ${u.to}`)).toEqual([
    'alpha 1.0.0 -> 1.1.0',
    'beta 1.0.0 -> 1.1.0',
  ]);
  expect(git(repo, ['rev-parse', 'main^']).trim()).toBe(withBeta);
  expect(show(repo, 'main', 'skills/beta/SKILL.md').toString()).toBe('beta 2\n');
  const lock = JSON.parse(show(repo, 'main', LOCK_PATH).toString()) as LockFile;
  expect(Object.fromEntries(Object.entries(lock.items).map(([name, item]) => [name, item.version]))).toEqual({
    alpha: '1.1.0',
    beta: '1.1.0',
  });
  // beta was read only after the move, in a second round outside the lock; no read ever ran under it.
  expect(reads.map((r) => r.read)).toEqual([
    'item alpha',
    'file alpha skills/alpha/SKILL.md',
    'item beta',
    'file beta skills/beta/SKILL.md',
  ]);
  expect(reads.every((r) => !r.locked)).toBe(true);
});

test('item descriptors nested absurdly deep are refused, not recursed into', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  let deep: unknown = 'x';
  for (let i = 0; i < 100_000; i++) deep = [deep];
  const catalog: Catalog = {
    location: 'memory://deep',
    items: async () => [],
    item: async () => ({
      name: 'deep',
      version: '1.0.0',
      files: [],
      manifest: { agents: { deep: { enabled: true, skills: deep } } },
    }),
    itemFile: async () => new Uint8Array(),
  };
  const before = head(repo);
  const error = await install(repo, 'deep', { ...(await applyOptions()), catalog }).catch((e: unknown) => e);
  expect(error).toMatchObject({
    code: 'invalid-item',
    message: "marketplace item 'deep' is invalid: item.json is nested more than 64 levels deep",
  });
  expect(head(repo)).toBe(before);
});
