/**
 * One list of manifest file names: the validator's (`MANIFEST_FILES`). The editor client
 * cannot import the validator (its bundle stays small), and the schema package's SchemaStore
 * script sits a layer below it, so each keeps a copy that must match.
 */
import { expect, test } from 'vitest';
import { MANIFEST_FILE_NAMES, MANIFEST_FILES, manifestFileNamed } from '@svc-manifest/validator';
import { MANIFEST_FILE_NAMES as SCHEMASTORE_NAMES } from '../packages/schema/scripts/schemastore.js';
import { MANIFEST_FILE_NAMES as EXTENSION_NAMES } from '../packages/vscode-extension/src/files.js';

test('the extension serves exactly the validator’s manifest file names, in its order', () => {
  expect([...EXTENSION_NAMES]).toEqual([...MANIFEST_FILE_NAMES]);
});

test('the SchemaStore catalog entry matches exactly the validator’s manifest file names, in its order', () => {
  expect([...SCHEMASTORE_NAMES]).toEqual([...MANIFEST_FILE_NAMES]);
});

test('names and formats', () => {
  expect(MANIFEST_FILES.map((file) => `${file.name}:${file.format}`)).toEqual([
    'svc.yaml:yaml',
    'svc.yml:yaml',
    'svc.toml:toml',
  ]);
  expect(manifestFileNamed('svc.toml')?.format).toBe('toml');
  expect(manifestFileNamed('SVC.YAML')).toBeUndefined();
  expect(manifestFileNamed('SVC.YAML', { ignoreCase: true })?.name).toBe('svc.yaml');
  expect(manifestFileNamed('a/svc.yaml', { ignoreCase: true })).toBeUndefined();
});
