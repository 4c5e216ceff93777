/**
 * The applier validates the manifest an edit wrote. The editing engine has just parsed that text
 * to prove the edit, and hands its document along with the write; the default validation checks
 * that document instead of parsing the text a third time. The verdict must be the one
 * `validateManifest` gives the text.
 */
import { afterAll, afterEach, expect, test, vi } from 'vitest';
import { ManifestDocument, validateManifest } from '@svc-manifest/validator';
import { ManifestFile, setDefaultAgent } from '../src/index.js';
import { defaultValidate } from '../src/validation.js';
import { lf } from './support/fixtures.js';
import { cleanupTempDirs, head, makeRepo, show } from './support/repos.js';

const TEXT = lf([
  'svc_version: 2',
  'default_agent: writer',
  'agents:',
  '  writer: {}',
  '  reviewer:',
  '    connectors: [github]   # nobody declares github: a warning',
]);

afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(cleanupTempDirs);

function edited(path = 'svc.yaml'): ManifestDocument {
  return new ManifestFile(path, 'yaml', TEXT).editDocument([{ op: 'set', path: ['default_agent'], value: 'reviewer' }]);
}

test('a document given with the text is validated as it is: no parse, the verdict of validateManifest', async () => {
  const document = edited();
  const parse = vi.spyOn(ManifestDocument, 'parse');
  const outcome = await defaultValidate(document.text, { filename: 'svc.yaml', format: 'yaml', document });
  expect(parse).not.toHaveBeenCalled();
  parse.mockRestore();
  const expected = validateManifest(document.text, { filename: 'svc.yaml', format: 'yaml' });
  expect(outcome.ok).toBe(true);
  expect(outcome.diagnostics.map((d) => d.code)).toEqual(['agent-connector-declared']);
  expect(JSON.parse(JSON.stringify(outcome))).toEqual(JSON.parse(JSON.stringify(expected)));
});

test('without a document the text is parsed, once', async () => {
  const text = edited().text;
  const parse = vi.spyOn(ManifestDocument, 'parse');
  const outcome = await defaultValidate(text, { filename: 'svc.yaml', format: 'yaml' });
  expect(parse).toHaveBeenCalledTimes(1);
  expect(outcome.diagnostics).toEqual(validateManifest(text, { filename: 'svc.yaml', format: 'yaml' }).diagnostics);
});

test("the applier hands a custom validator the edit's document, for the text it commits", async () => {
  const repo = makeRepo({ 'svc.yaml': TEXT }, { bare: true });
  const seen: { text: string; document?: ManifestDocument }[] = [];
  const result = await setDefaultAgent(repo, 'reviewer', {
    author: { name: 'Test', email: 'test@example.test' },
    validate: (text, options) => {
      seen.push({ text, document: options.document });
      return validateManifest(text, options);
    },
  });
  expect(result.status).toBe('committed');
  expect(seen).toHaveLength(1);
  expect(seen[0]!.text).toBe(show(repo, 'main', 'svc.yaml').toString());
  expect(seen[0]!.document?.text).toBe(seen[0]!.text);
});

test('a commit of setDefaultAgent parses the manifest twice: to edit it and to prove the edit', async () => {
  const repo = makeRepo({ 'svc.yaml': TEXT }, { bare: true });
  const parse = vi.spyOn(ManifestDocument, 'parse');
  const result = await setDefaultAgent(repo, 'reviewer', { author: { name: 'Test', email: 'test@example.test' } });
  expect(result.status).toBe('committed');
  expect(result.commit).toBe(head(repo));
  expect(show(repo, 'main', 'svc.yaml').toString()).toBe(
    TEXT.replace('default_agent: writer', 'default_agent: reviewer'),
  );
  expect(result.warnings).toEqual([
    "svc.yaml:6:18 warning agent-connector-declared: agent 'reviewer' connector 'github' is not a declared connector (no connectors are declared)",
  ]);
  expect(parse).toHaveBeenCalledTimes(2);
});
