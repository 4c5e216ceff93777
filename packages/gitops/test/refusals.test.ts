/**
 * Refusals: each is a RefusedError with a clear message, and the branch does not move.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { install, setAgentScope, setDefaultAgent, type ApplyOptions } from '../src/index.js';
import { crlf, lf, PDF_V1, TOML_LINES, writeCatalogItem, YAML_LINES } from './support/fixtures.js';
import {
  applyOptions,
  cleanupTempDirs,
  expectRefused,
  git,
  makeRepo,
  show,
  tempDir,
  writeFiles,
} from './support/repos.js';

afterAll(cleanupTempDirs);

/** Runs `operation`, expects a refusal, and checks that nothing was committed or written. */
describe.each([
  ['svc.yaml', crlf(YAML_LINES)],
  ['svc.toml', crlf(TOML_LINES)],
])('%s', (file, text) => {
  test('a missing agent', async () => {
    const repo = makeRepo({ [file]: text }, { bare: true });
    const error = await expectRefused(repo, async () => setDefaultAgent(repo, 'ghost', await applyOptions()));
    expect(error.code).toBe('unknown-agent');
    expect(error.message).toBe(`agent 'ghost' is not declared in ${file} (declared: main, helper, reviewer)`);
    const scope = await expectRefused(repo, async () =>
      setAgentScope(repo, 'ghost', { secrets: 'all' }, await applyOptions()),
    );
    expect(scope.code).toBe('unknown-agent');
  });

  test('a disabled agent', async () => {
    const repo = makeRepo({ [file]: text }, { bare: true });
    const error = await expectRefused(repo, async () => setDefaultAgent(repo, 'reviewer', await applyOptions()));
    expect(error.code).toBe('agent-disabled');
    expect(error.message).toBe(`agent 'reviewer' is disabled (enabled: false); enable it before making it the default`);
  });

  test('an unknown marketplace item', async () => {
    const repo = makeRepo({ [file]: text }, { bare: true });
    const catalog = tempDir();
    writeCatalogItem(catalog, 'pdf-tools', PDF_V1);
    const error = await expectRefused(repo, async () =>
      install(repo, 'no-such-item', { ...(await applyOptions()), catalog }),
    );
    expect(error.code).toBe('unknown-item');
    expect(error.message).toMatch(/^the marketplace at file:\/\/.+ has no item 'no-such-item'$/);
  });

  test('an invalid result is refused with the validator diagnostics', async () => {
    const repo = makeRepo({ [file]: text }, { bare: true });
    const catalog = tempDir();
    // A webhook trigger without secret_env breaks trigger rule 3.
    writeCatalogItem(catalog, 'hooks', {
      version: '1.0.0',
      files: {},
      manifest: { triggers: [{ slug: 'on-push', type: 'webhook', prompt: 'go' }] },
    });
    const error = await expectRefused(repo, async () => install(repo, 'hooks', { ...(await applyOptions()), catalog }));
    expect(error.code).toBe('invalid-result');
    expect(error.message).toMatch(
      new RegExp(
        `^the change would leave ${file.replace('.', '\\.')} invalid:\\n${file.replace('.', '\\.')}:\\d+:\\d+ error `,
      ),
    );
    expect(error.details.diagnostics!.length).toBeGreaterThan(0);
    expect(error.details.diagnostics!.every((d) => d.severity === 'error')).toBe(true);
    expect(error.details.diagnostics!.some((d) => d.path.startsWith('/triggers/1'))).toBe(true);
  });
});

test('a v1 manifest has no default_agent', async () => {
  const repo = makeRepo({ 'svc.yaml': lf(['svc_version: 1', 'agents:', '  - name: main']) }, { bare: true });
  const error = await expectRefused(repo, async () => setDefaultAgent(repo, 'main', await applyOptions()));
  expect(error.code).toBe('unsupported-version');
  expect(error.message).toBe(
    'svc.yaml uses svc_version 1, which has no default_agent; migrate it to svc_version 2 first',
  );
});

test('an edit through an alias would change the anchor everywhere: refused', async () => {
  const yaml = lf(['svc_version: 2', 'default_agent: a', 'agents:', '  a: &shared {enabled: true}', '  b: *shared']);
  const repo = makeRepo({ 'svc.yaml': yaml }, { bare: true });
  const error = await expectRefused(repo, async () =>
    setAgentScope(repo, 'b', { secrets: 'none' }, await applyOptions()),
  );
  expect(error.code).toBe('uneditable');
  expect(error.message).toContain('alias *shared');
});

test('an edit of an anchored node that is used elsewhere: refused by the re-parse check', async () => {
  const yaml = lf([
    'svc_version: 2',
    'default_agent: a',
    'agents:',
    '  a: &shared',
    '    enabled: true',
    '  b: *shared',
  ]);
  const repo = makeRepo({ 'svc.yaml': yaml }, { bare: true });
  const error = await expectRefused(repo, async () =>
    setAgentScope(repo, 'a', { secrets: 'none' }, await applyOptions()),
  );
  expect(error.code).toBe('uneditable');
  expect(error.message).toContain('would change more than intended');
});

test('no manifest, or two manifests', async () => {
  const none = makeRepo({ 'README.md': 'hi\n' }, { bare: true });
  expect((await expectRefused(none, async () => setDefaultAgent(none, 'a', await applyOptions()))).code).toBe(
    'no-manifest',
  );
  const both = makeRepo({ 'svc.yaml': crlf(YAML_LINES), 'svc.toml': crlf(TOML_LINES) }, { bare: true });
  expect((await expectRefused(both, async () => setDefaultAgent(both, 'helper', await applyOptions()))).message).toBe(
    'the repository has svc.yaml and svc.toml; keep only one',
  );
});

test('a branch that does not exist', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const options: ApplyOptions = { ...(await applyOptions()), branch: 'nope' };
  expect((await expectRefused(repo, () => setDefaultAgent(repo, 'helper', options))).code).toBe('unknown-branch');
});

describe('non-bare repository with the branch checked out', () => {
  test('the work tree follows a commit', async () => {
    const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) });
    const result = await setDefaultAgent(repo, 'helper', await applyOptions());
    expect(result.status).toBe('committed');
    expect(show(repo, 'HEAD', 'svc.yaml').toString()).toContain('default_agent: helper ');
    expect(git(repo, ['status', '--porcelain'])).toBe('');
  });

  test('uncommitted edits to the same file are never overwritten', async () => {
    const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) });
    writeFiles(repo, { 'svc.yaml': crlf([...YAML_LINES, '# my uncommitted note']) });
    const error = await expectRefused(repo, async () => setDefaultAgent(repo, 'helper', await applyOptions()));
    expect(error.code).toBe('dirty-worktree');
    expect(git(repo, ['status', '--porcelain'])).toBe(' M svc.yaml\n');
  });
});
