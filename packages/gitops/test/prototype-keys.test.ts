/**
 * A key named `__proto__` in a catalog item's manifest fragment is data (a connector header,
 * a trigger filter): it counts in the item's integrity and in the comparisons that decide
 * whether an entry was edited locally. And an item's files may be called `__proto__` or
 * `constructor`: the lock records and owns them like any other path.
 */
import { afterAll, expect, it } from 'vitest';
import {
  computeIntegrity,
  install,
  LOCK_PATH,
  parseItemDescriptor,
  remove,
  update,
  type LockFile,
} from '../src/index.js';
import { canonicalJson, deepEqual } from '../src/json.js';
import { writeCatalogItem } from './support/fixtures.js';
import { applyOptions, cleanupTempDirs, git, makeRepo, show, tempDir } from './support/repos.js';
import { expectObjectPrototypeUnchanged, snapshotObjectPrototype } from '../../../test/support/prototype-keys.js';

const descriptor = (header: string) =>
  parseItemDescriptor(
    'api',
    JSON.parse(
      `{"name":"api","version":"1.0.0","files":[],"manifest":{"connectors":[{"slug":"api","provider":"http","base_url":"https://x.example","headers":{"__proto__":"${header}","constructor":"b"}}]}}`,
    ) as unknown,
  );

it('canonical JSON keeps `__proto__` keys, so integrity and equality see them', () => {
  const before = snapshotObjectPrototype();
  const value = JSON.parse('{"b":{"__proto__":{"x":1}},"a":{"__proto__":"a","constructor":"c"}}') as unknown;
  expect(canonicalJson(value)).toBe('{"a":{"__proto__":"a","constructor":"c"},"b":{"__proto__":{"x":1}}}');
  expect(
    deepEqual(value, JSON.parse('{"a":{"__proto__":"changed","constructor":"c"},"b":{"__proto__":{"x":1}}}')),
  ).toBe(false);
  expect(deepEqual(value, JSON.parse('{"a":{"constructor":"c"},"b":{}}'))).toBe(false);
  const empty = new Map<string, Uint8Array>();
  expect(computeIntegrity(descriptor('one'), empty)).not.toBe(computeIntegrity(descriptor('two'), empty));
  expect(computeIntegrity(descriptor('one'), empty)).toBe(computeIntegrity(descriptor('one'), empty));
  expectObjectPrototypeUnchanged(before);
});

afterAll(cleanupTempDirs);

it('an item file called `__proto__` is recorded in the lock and removed with the item; a new upstream file `constructor` has no base', async () => {
  const before = snapshotObjectPrototype();
  const repo = makeRepo({ 'svc.yaml': 'svc_version: 2\ndefault_agent: main\nagents:\n  main: {}\n' }, { bare: true });
  const catalog = tempDir();
  const files = (extra: [string, string][]) =>
    Object.fromEntries([['__proto__', 'data\n'], ...extra]) as Record<string, string>;
  writeCatalogItem(catalog, 'kit', { version: '1.0.0', files: files([]), manifest: {} });
  const options = { ...(await applyOptions()), catalog };
  const tree = () => git(repo, ['ls-tree', '-r', '--name-only', 'main']).trim().split('\n');
  const lockFiles = () => (JSON.parse(show(repo, 'main', LOCK_PATH).toString('utf8')) as LockFile).items['kit']!.files;

  await install(repo, 'kit', options);
  expect(lockFiles()).toEqual(JSON.parse(`{"__proto__":"${git(repo, ['rev-parse', 'main:__proto__']).trim()}"}`));
  expect(Object.keys(lockFiles())).toEqual(['__proto__']);

  writeCatalogItem(catalog, 'kit', { version: '1.1.0', files: files([['constructor', 'new\n']]), manifest: {} });
  expect(await update(repo, 'kit', options)).toMatchObject({
    status: 'committed',
    info: { from: '1.0.0', to: '1.1.0' },
  });
  expect(show(repo, 'main', 'constructor').toString()).toBe('new\n');
  expect(Object.keys(lockFiles())).toEqual(['__proto__', 'constructor']);

  expect(await remove(repo, 'kit', options)).toMatchObject({
    status: 'committed',
    info: { removedFiles: ['__proto__', 'constructor'] },
  });
  expect(tree()).toEqual(['svc.yaml']);
  expectObjectPrototypeUnchanged(before);
});
