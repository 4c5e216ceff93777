/**
 * Each operation on a heavily commented CRLF svc.yaml (anchors, merge key, flow list,
 * flow map, block list) and svc.toml, on a real bare repository: the committed file is
 * asserted byte for byte, and the diff lists exactly the intended lines.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { install, remove, setAgentScope, setDefaultAgent, update, updateAll, type ApplyResult } from '../src/index.js';
import { crlf, PDF_V1, PDF_V2, TOML_LINES, writeCatalogItem, YAML_LINES } from './support/fixtures.js';
import {
  applyOptions,
  changedLines,
  cleanupTempDirs,
  head,
  makeRepo,
  show,
  subjects,
  tempDir,
} from './support/repos.js';

afterAll(cleanupTempDirs);

/** A copy of `lines` with one exact line replaced by others (the line must occur exactly once). */
function replaced(lines: readonly string[], old: string, ...replacement: string[]): string[] {
  expect(lines.filter((line) => line === old)).toHaveLength(1);
  const index = lines.indexOf(old);
  return [...lines.slice(0, index), ...replacement, ...lines.slice(index + 1)];
}

function insertedAfter(lines: readonly string[], anchor: string, ...added: string[]): string[] {
  return replaced(lines, anchor, anchor, ...added);
}

function expectCommitted(result: ApplyResult, repo: string, file: string, expected: string[], diff: string[]): void {
  expect(result.status).toBe('committed');
  expect(head(repo)).toBe(result.commit);
  expect(show(repo, 'main', file).equals(Buffer.from(crlf(expected), 'utf8'))).toBe(true);
  expect(show(repo, 'main', file).toString('utf8')).toBe(crlf(expected));
  expect(changedLines(repo, result.parent, result.commit, file)).toEqual(diff);
}

describe('svc.yaml (CRLF, comments, anchors, merge keys, flow style)', () => {
  const file = 'svc.yaml';
  const repo = () => makeRepo({ [file]: crlf(YAML_LINES) }, { bare: true });

  test('setDefaultAgent changes only the default_agent line, keeping its comment', async () => {
    const bare = repo();
    const result = await setDefaultAgent(bare, 'helper', await applyOptions());
    const old = 'default_agent: main       # the agent new sessions prefer';
    const next = 'default_agent: helper       # the agent new sessions prefer';
    expectCommitted(result, bare, file, replaced(YAML_LINES, old, next), [`-${old}\r`, `+${next}\r`]);
  });

  test('setAgentScope edits a flow list and a scalar in place, leaving the anchor and merge key alone', async () => {
    const bare = repo();
    const result = await setAgentScope(
      bare,
      'main',
      { secrets: ['OPENAI_KEY'], connectors: 'none' },
      await applyOptions(),
    );
    let expected = replaced(
      YAML_LINES,
      '    secrets: [ OPENAI_KEY , GITHUB_TOKEN ]   # flow list, odd spacing',
      '    secrets: [ OPENAI_KEY ]   # flow list, odd spacing',
    );
    expected = replaced(expected, '    connectors: all       # everything', '    connectors: none       # everything');
    expectCommitted(result, bare, file, expected, [
      '-    secrets: [ OPENAI_KEY , GITHUB_TOKEN ]   # flow list, odd spacing\r',
      '-    connectors: all       # everything\r',
      '+    secrets: [ OPENAI_KEY ]   # flow list, odd spacing\r',
      '+    connectors: none       # everything\r',
    ]);
  });

  test('setAgentScope on a block list keeps the kept items and their comments', async () => {
    const bare = repo();
    const result = await setAgentScope(
      bare,
      'reviewer',
      { connectors: ['github', 'jira'], secrets: 'all' },
      await applyOptions(),
    );
    const expected = replaced(YAML_LINES, '      - slack', '      - jira', '    secrets: all');
    expectCommitted(result, bare, file, expected, ['-      - slack\r', '+      - jira\r', '+    secrets: all\r']);
  });

  test('setAgentScope turns a block list into `all` on the key line', async () => {
    const bare = repo();
    const result = await setAgentScope(bare, 'reviewer', { connectors: 'all' }, await applyOptions());
    let expected = replaced(YAML_LINES, '    connectors:', '    connectors: all');
    expected = replaced(expected, '      - github            # block list');
    expected = replaced(expected, '      - slack');
    expectCommitted(result, bare, file, expected, [
      '-    connectors:\r',
      '-      - github            # block list\r',
      '-      - slack\r',
      '+    connectors: all\r',
    ]);
  });

  test('setAgentScope inside a flow map stays in the flow map', async () => {
    const bare = repo();
    const result = await setAgentScope(
      bare,
      'helper',
      { secrets: ['A', 'B'], connectors: 'none' },
      await applyOptions(),
    );
    const old = '  helper: { enabled: true, secrets: none }   # flow map';
    const next = '  helper: { enabled: true, secrets: [A, B], connectors: none }   # flow map';
    expectCommitted(result, bare, file, replaced(YAML_LINES, old, next), [`-${old}\r`, `+${next}\r`]);
  });

  test('install adds the agent, trigger and connector blocks; update adds one line; remove restores the original bytes', async () => {
    const bare = repo();
    const catalog = tempDir();
    writeCatalogItem(catalog, 'pdf-tools', PDF_V1);
    const options = { ...(await applyOptions()), catalog };

    const installed = await install(bare, 'pdf-tools', options);
    const agent = ['  pdf:', '    enabled: true', '    skills: [pdf-tools]', '    connectors: none'];
    const trigger = [
      '  - slug: pdf-digest',
      '    type: cron',
      '    cron: "0 6 * * 1"',
      '    prompt: "Summarise new PDFs"',
      '    agent: pdf',
    ];
    const connectors = [
      'connectors:',
      '  - slug: pdf-store',
      '    provider: http',
      '    base_url: "https://pdf.example.com"',
    ];
    let expected = insertedAfter(YAML_LINES, '      - slack', ...agent);
    expected = insertedAfter(expected, '    prompt: Write the nightly report', ...trigger, ...connectors);
    expectCommitted(
      installed,
      bare,
      file,
      expected,
      [...agent, ...trigger, ...connectors].map((line) => `+${line}\r`),
    );

    writeCatalogItem(catalog, 'pdf-tools', PDF_V2);
    const updated = await update(bare, 'pdf-tools', options);
    expected = insertedAfter(expected, '    connectors: none', '    secrets: [PDF_KEY]');
    expectCommitted(updated, bare, file, expected, ['+    secrets: [PDF_KEY]\r']);

    const removed = await remove(bare, 'pdf-tools', await applyOptions());
    expect(removed.status).toBe('committed');
    expect(show(bare, 'main', file).toString('utf8')).toBe(crlf(YAML_LINES));
    expect(subjects(bare)).toEqual([
      'marketplace: remove pdf-tools@1.1.0',
      'marketplace: update pdf-tools 1.0.0 -> 1.1.0',
      'marketplace: install pdf-tools@1.0.0',
      'initial',
    ]);
  });
});

describe('svc.toml (CRLF, comments, inline arrays, array of tables)', () => {
  const file = 'svc.toml';
  const repo = () => makeRepo({ [file]: crlf(TOML_LINES) }, { bare: true });

  test('setDefaultAgent changes only the default_agent line, keeping its comment', async () => {
    const bare = repo();
    const result = await setDefaultAgent(bare, 'helper', await applyOptions());
    const old = 'default_agent = "main" # the agent new sessions prefer';
    const next = 'default_agent = "helper" # the agent new sessions prefer';
    expectCommitted(result, bare, file, replaced(TOML_LINES, old, next), [`-${old}\r`, `+${next}\r`]);
  });

  test('setAgentScope changes the two values in place, comments kept', async () => {
    const bare = repo();
    const result = await setAgentScope(
      bare,
      'main',
      { secrets: ['OPENAI_KEY'], connectors: 'none' },
      await applyOptions(),
    );
    let expected = replaced(
      TOML_LINES,
      'secrets = [ "OPENAI_KEY", "GITHUB_TOKEN" ] # flow list',
      'secrets = [ "OPENAI_KEY" ] # flow list',
    );
    expected = replaced(expected, 'connectors = "all" # everything', 'connectors = "none" # everything');
    expectCommitted(result, bare, file, expected, [
      '-secrets = [ "OPENAI_KEY", "GITHUB_TOKEN" ] # flow list\r',
      '-connectors = "all" # everything\r',
      '+secrets = [ "OPENAI_KEY" ] # flow list\r',
      '+connectors = "none" # everything\r',
    ]);
  });

  test('setAgentScope turns a string into a list on the same line', async () => {
    const bare = repo();
    const result = await setAgentScope(bare, 'helper', { secrets: ['A'] }, await applyOptions());
    expectCommitted(result, bare, file, replaced(TOML_LINES, 'secrets = "none"', 'secrets = [ "A" ]'), [
      '-secrets = "none"\r',
      '+secrets = [ "A" ]\r',
    ]);
  });

  test('install appends new sections; updateAll adds one line; remove restores the original bytes', async () => {
    const bare = repo();
    const catalog = tempDir();
    writeCatalogItem(catalog, 'pdf-tools', PDF_V1);
    const options = { ...(await applyOptions()), catalog };

    const installed = await install(bare, 'pdf-tools', options);
    const appended = [
      '',
      '[agents.pdf]',
      'enabled = true',
      'skills = [ "pdf-tools" ]',
      'connectors = "none"',
      '',
      '[[connectors]]',
      'slug = "pdf-store"',
      'provider = "http"',
      'base_url = "https://pdf.example.com"',
      '',
      '[[triggers]]',
      'slug = "pdf-digest"',
      'type = "cron"',
      'cron = "0 6 * * 1"',
      'prompt = "Summarise new PDFs"',
      'agent = "pdf"',
    ];
    let expected = [...TOML_LINES, ...appended];
    expectCommitted(
      installed,
      bare,
      file,
      expected,
      appended.map((line) => `+${line}\r`),
    );

    writeCatalogItem(catalog, 'pdf-tools', PDF_V2);
    const updated = await updateAll(bare, options);
    expect(updated.info.updated.map((u) => `${u.name} ${u.from} -> ${u.to}`)).toEqual(['pdf-tools 1.0.0 -> 1.1.0']);
    expected = insertedAfter(expected, 'connectors = "none"', 'secrets = [ "PDF_KEY" ]');
    expectCommitted(updated, bare, file, expected, ['+secrets = [ "PDF_KEY" ]\r']);

    await remove(bare, 'pdf-tools', await applyOptions());
    expect(show(bare, 'main', file).toString('utf8')).toBe(crlf(TOML_LINES));
  });
});

describe('svc_version 1 manifests list agents as { name, … }', () => {
  const item = { version: '1.0.0', files: {}, manifest: { agents: { notes: { connectors: ['github'] } } } };

  test.each([
    [
      'svc.yaml',
      ['svc_version: 1   # legacy shape', 'agents:', '  - name: main   # the only agent'],
      ['  - name: notes', '    connectors: [github]'],
    ],
    [
      'svc.toml',
      ['svc_version = 1 # legacy shape', '', '[[agents]] # the only agent', 'name = "main"'],
      ['', '[[agents]]', 'name = "notes"', 'connectors = [ "github" ]'],
    ],
  ])('%s: install appends an agent item, remove takes it away again', async (file, lines, added) => {
    const bare = makeRepo({ [file]: crlf(lines) }, { bare: true });
    const catalog = tempDir();
    writeCatalogItem(catalog, 'notes', item);
    const result = await install(bare, 'notes', { ...(await applyOptions()), catalog });
    expectCommitted(
      result,
      bare,
      file,
      [...lines, ...added],
      added.map((line) => `+${line}\r`),
    );
    await remove(bare, 'notes', await applyOptions());
    expect(show(bare, 'main', file).toString('utf8')).toBe(crlf(lines));
  });
});
