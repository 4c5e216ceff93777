/**
 * A hostile manifest in the repository is refused by the validator's document layer before
 * the applier reads it: the refusal names the validator's code, and no ref moves.
 */
import { validateManifest } from '@svc-manifest/validator';
import { afterAll, describe, expect, test } from 'vitest';
import { install, setAgentScope, setDefaultAgent } from '../src/index.js';
import { lf, PDF_V1, writeCatalogItem } from './support/fixtures.js';
import { applyOptions, cleanupTempDirs, expectRefused, makeRepo, tempDir } from './support/repos.js';

afterAll(cleanupTempDirs);

/** Nine levels of nine aliases each: about 10^9 values once expanded (the "billion laughs"). */
function billionLaughs(): string {
  const lines = [
    'svc_version: 2',
    'default_agent: main',
    'agents:',
    '  main:',
    '    enabled: true',
    '  helper:',
    '    enabled: true',
    'x-lol0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
  ];
  for (let level = 1; level <= 9; level++) {
    const previous = `*a${level - 1}`;
    lines.push(`x-lol${level}: &a${level} [${Array(9).fill(previous).join(', ')}]`);
  }
  return lf(lines);
}

describe('an alias bomb in svc.yaml', () => {
  test('setDefaultAgent is refused with the validator’s alias-expansion finding', async () => {
    const repo = makeRepo({ 'svc.yaml': billionLaughs() }, { bare: true });
    const error = await expectRefused(repo, async () => setDefaultAgent(repo, 'helper', await applyOptions()));
    expect(error.code).toBe('manifest-unparsable');
    expect(error.details.file).toBe('svc.yaml');
    expect(error.details.diagnostics?.map((d) => d.code)).toEqual(['alias-expansion']);
    // The validator's own finding, at the same place: the applier adds no reading of its own.
    const validator = validateManifest(billionLaughs(), { filename: 'svc.yaml' }).diagnostics.find(
      (d) => d.code === 'alias-expansion',
    );
    expect(validator).toBeDefined();
    expect(error.details.diagnostics?.[0]?.range).toEqual(validator!.range);
  });

  test('setAgentScope and install are refused the same way', async () => {
    const repo = makeRepo({ 'svc.yaml': billionLaughs() }, { bare: true });
    const scope = await expectRefused(repo, async () =>
      setAgentScope(repo, 'main', { secrets: 'none' }, await applyOptions()),
    );
    expect(scope.code).toBe('manifest-unparsable');
    const catalog = tempDir();
    writeCatalogItem(catalog, 'pdf-tools', PDF_V1);
    const installed = await expectRefused(repo, async () =>
      install(repo, 'pdf-tools', { ...(await applyOptions()), catalog }),
    );
    expect(installed.code).toBe('manifest-unparsable');
    expect(installed.details.diagnostics?.map((d) => d.code)).toEqual(['alias-expansion']);
  });
});

describe('other manifests the validator refuses to read', () => {
  test.each([
    ['too-deep', 'svc.yaml', lf(['svc_version: 2', 'agents: ' + '['.repeat(80) + ']'.repeat(80)])],
    [
      'duplicate-key',
      'svc.toml',
      lf(['svc_version = 2', 'default_agent = "main"', '[agents.main]', 'enabled = true', 'enabled = false']),
    ],
    ['yaml-syntax', 'svc.yaml', lf(['svc_version: 2', 'default_agent: main', 'agents: {main: {enabled: true}'])],
  ])('%s in %s', async (code, file, text) => {
    const repo = makeRepo({ [file]: text }, { bare: true });
    const error = await expectRefused(repo, async () => setDefaultAgent(repo, 'main', await applyOptions()));
    expect(error.code).toBe('manifest-unparsable');
    expect(error.details.diagnostics?.[0]?.code).toBe(code);
  });

  test('invalid UTF-8 is a refusal, not a raw error', async () => {
    const bytes = Buffer.concat([
      Buffer.from('svc_version: 2\ndefault_agent: "ma'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('in"\n'),
    ]);
    const repo = makeRepo({ 'svc.yaml': bytes }, { bare: true });
    const error = await expectRefused(repo, async () => setDefaultAgent(repo, 'main', await applyOptions()));
    expect(error.code).toBe('manifest-unparsable');
    expect(error.message).toBe('svc.yaml is not valid UTF-8');
  });
});
