/** The declarations index: what a manifest declares and where, as rules, the LSP and the applier read it. */
import { describe, expect, test } from 'vitest';
import {
  declarationsOf,
  ManifestDocument,
  manifestVersion,
  isSupportedVersion,
  SUPPORTED_VERSIONS,
  type Declaration,
} from '../src/index.js';
import { sameNamesAs } from '../src/model/declarations.js';
import { largeManifest } from './support/manifest-arbitraries.js';

const lf = (lines: string[]): string => lines.map((line) => `${line}\n`).join('');

describe('version 2 (agents by name)', () => {
  const text = lf([
    'svc_version: 2',
    'x-name: &shared jira',
    'default_agent: "main"',
    'agents:',
    '  main: {}',
    '  "off":',
    '    enabled: false',
    '    sandbox: big',
    '    connectors: [gh, *shared]',
    'connectors:',
    '  - slug: gh',
    '  - slug: *shared',
    'sandbox:',
    '  templates:',
    '    - slug: big',
    'triggers:',
    '  - slug: nightly',
    '    agent: main',
  ]);
  const document = ManifestDocument.parse(text, { format: 'yaml' });
  const index = declarationsOf(document, manifestVersion(document.value));

  test('agents, with where their names are written and whether they are enabled', () => {
    expect(
      index.agents.map((a) => [
        a.name,
        a.path,
        a.segments,
        text.slice(a.start, a.end),
        text.slice(a.nameStart, a.nameEnd),
        a.enabled,
      ]),
    ).toEqual([
      ['main', '/agents/main', ['agents', 'main'], 'main', 'main', true],
      ['off', '/agents/off', ['agents', 'off'], '"off"', 'off', false],
    ]);
    expect(text.slice(index.agents[1]!.spanStart, index.agents[1]!.spanEnd)).toBe(
      '"off":\n    enabled: false\n    sandbox: big\n    connectors: [gh, *shared]\n',
    );
  });

  test('"declared and enabled", as setDefaultAgent and default-agent-declared ask it', () => {
    expect(index.isAgentDeclaredAndEnabled('main')).toBe(true);
    expect(index.isAgentDeclaredAndEnabled('off')).toBe(false);
    expect(index.agentStatus('off').state).toBe('disabled');
    expect(index.agentStatus('ghost')).toEqual({ state: 'undeclared' });
  });

  test('connectors, templates and triggers by slug; a name through an alias is not written in place', () => {
    expect(index.connectors.map((c) => [c.name, c.segments, c.written])).toEqual([
      ['gh', ['connectors', 0], true],
      ['jira', ['connectors', 1], false],
    ]);
    expect(index.templates.map((t) => [t.name, t.path])).toEqual([['big', '/sandbox/templates/0']]);
    expect(index.triggers.map((t) => t.name)).toEqual(['nightly']);
    expect(index.find('connector', 'jira')?.path).toBe('/connectors/1');
  });

  test('references in order of the name’s text (through an alias: the anchored value’s), quotes excluded', () => {
    expect(
      index.references.map((r) => [r.kind, r.name, r.path, text.slice(r.nameStart, r.nameEnd), r.written]),
    ).toEqual([
      ['connector', 'jira', '/agents/off/connectors/1', 'jira', false],
      ['agent', 'main', '/default_agent', 'main', true],
      ['template', 'big', '/agents/off/sandbox', 'big', true],
      ['connector', 'gh', '/agents/off/connectors/0', 'gh', true],
      ['agent', 'main', '/triggers/0/agent', 'main', true],
    ]);
  });

  test('one index per tree and version', () => {
    expect(declarationsOf(document, 2)).toBe(index);
    expect(declarationsOf(document, null)).not.toBe(index);
  });
});

describe('version 1 (a list of agents) and TOML', () => {
  const text = lf([
    'svc_version = 1',
    '',
    '[[agents]]',
    'name = "main"',
    '',
    '[[agents]]',
    "name = 'second'",
    'enabled = false',
  ]);
  const document = ManifestDocument.parse(text, { format: 'toml' });

  test('list items named by `name`, as version 1 or by the file’s shape', () => {
    for (const version of [1, null] as const) {
      const index = declarationsOf(document, version);
      expect(index.agents.map((a) => [a.name, a.segments, text.slice(a.nameStart, a.nameEnd), a.enabled])).toEqual([
        ['main', ['agents', 0], 'main', true],
        ['second', ['agents', 1], 'second', false],
      ]);
    }
  });

  test('read as version 2, a list declares no agents', () => {
    expect(declarationsOf(document, 2).agents).toEqual([]);
  });
});

test('versions', () => {
  expect(SUPPORTED_VERSIONS).toEqual([1, 2]);
  expect(manifestVersion({ svc_version: 2 })).toBe(2);
  expect(manifestVersion({ svc_version: '2' })).toBeNull();
  expect(manifestVersion([2])).toBeNull();
  expect(isSupportedVersion(3)).toBe(false);
});

describe('after an edit of one item of a long list', () => {
  const text = largeManifest(2, 300, 20, 3);
  const first = ManifestDocument.parse(text, { format: 'yaml' });
  const before = declarationsOf(first, 2).triggers;
  const read = (d: Declaration) => [
    d.kind,
    d.name,
    d.path,
    d.start,
    d.end,
    d.nameStart,
    d.nameEnd,
    d.spanStart,
    d.spanEnd,
  ];
  const edit = (from: ManifestDocument, find: string, insert: string) => {
    const at = from.text.indexOf(find) + find.length;
    return from.update(from.text.slice(0, at) + insert + from.text.slice(at), [
      { start: at, end: at, newLength: insert.length },
    ]);
  };

  test('the other items keep their declarations; a name that did not change keeps what depends on names', () => {
    const second = edit(first, "prompt: 'Handle trigger 150:", ' again');
    const after = declarationsOf(second, 2).triggers;
    expect(after.map(read)).toEqual(
      declarationsOf(ManifestDocument.parse(second.text, { format: 'yaml' }), 2).triggers.map(read),
    );
    // Every item before and after the edited one is the same object; the edited one is read again.
    const changed = after.filter((d, i) => d !== before[i]).map((d) => d.name);
    expect(changed).toEqual(['trigger-150']);
    expect(sameNamesAs(after)).toBe(before);
  });

  test('a renamed item is read again, and names no longer match', () => {
    const second = edit(first, 'slug: trigger-150', 'b');
    const after = declarationsOf(second, 2).triggers;
    expect(after.map(read)).toEqual(
      declarationsOf(ManifestDocument.parse(second.text, { format: 'yaml' }), 2).triggers.map(read),
    );
    expect(after[150]!.name).toBe('trigger-150b');
    expect(sameNamesAs(after)).toBeUndefined();
  });
});
