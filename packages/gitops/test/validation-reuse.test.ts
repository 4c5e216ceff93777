/**
 * The applier validates the manifest an edit wrote; the editing engine has just parsed that text
 * to prove the edit, so the default validation takes that document instead of parsing the text a
 * third time, when (and only when) text, file name and format are those of the last edit. The
 * verdict must be the one `validateManifest` gives the text.
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

function edited(path = 'svc.yaml'): string {
  return new ManifestFile(path, 'yaml', TEXT).edit([{ op: 'set', path: ['default_agent'], value: 'reviewer' }]);
}

test("the text of the last edit is validated on the edit's own document: no parse, the same verdict", async () => {
  const text = edited();
  const parse = vi.spyOn(ManifestDocument, 'parse');
  const outcome = await defaultValidate(text, { filename: 'svc.yaml', format: 'yaml' });
  expect(parse).not.toHaveBeenCalled();
  parse.mockRestore();
  const expected = validateManifest(text, { filename: 'svc.yaml', format: 'yaml' });
  expect(outcome.ok).toBe(true);
  expect(outcome.diagnostics.map((d) => d.code)).toEqual(['agent-connector-declared']);
  expect(JSON.parse(JSON.stringify(outcome))).toEqual(JSON.parse(JSON.stringify(expected)));
});

test('anything else is parsed: another text, another file name or format, or the same text a second time', async () => {
  const parse = vi.spyOn(ManifestDocument, 'parse');
  const cases: [string, { filename: string; format: 'yaml' | 'toml' }][] = [
    [`${edited()}# changed after the edit\n`, { filename: 'svc.yaml', format: 'yaml' }],
    [edited('svc.yml'), { filename: 'svc.yaml', format: 'yaml' }],
  ];
  for (const [text, options] of cases) {
    parse.mockClear();
    const outcome = await defaultValidate(text, options);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(outcome.diagnostics).toEqual(validateManifest(text, options).diagnostics);
  }
  const text = edited();
  await defaultValidate(text, { filename: 'svc.yaml', format: 'yaml' });
  parse.mockClear();
  await defaultValidate(text, { filename: 'svc.yaml', format: 'yaml' });
  expect(parse).toHaveBeenCalledTimes(1);
});

test('a commit of setDefaultAgent parses the manifest twice: to edit it and to prove the edit', async () => {
  const repo = makeRepo({ 'svc.yaml': TEXT }, { bare: true });
  const parse = vi.spyOn(ManifestDocument, 'parse');
  const result = await setDefaultAgent(repo, 'reviewer', { author: { name: 'Test', email: 'test@example.test' } });
  expect(result.status).toBe('committed');
  expect(result.commit).toBe(head(repo));
  expect(show(repo, 'main', 'svc.yaml').toString()).toBe(TEXT.replace('default_agent: writer', 'default_agent: reviewer'));
  expect(result.warnings).toEqual([
    "svc.yaml:6:18 warning agent-connector-declared: agent 'reviewer' connector 'github' is not a declared connector (no connectors are declared)",
  ]);
  expect(parse).toHaveBeenCalledTimes(2);
});
