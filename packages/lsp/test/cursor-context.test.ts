import { describe, expect, it } from 'vitest';
import { LineIndex, PieceText } from '@svc-manifest/validator';
import { cursorContext } from '../src/cursor-context.js';
import { CURSOR } from './helpers.js';

const contextAt = (textWithCursor: string, format: 'yaml' | 'toml' = 'yaml') => {
  const offset = textWithCursor.indexOf(CURSOR);
  const text = textWithCursor.replace(CURSOR, '');
  const context = cursorContext(text, offset, format);
  return (
    context && {
      kind: context.kind,
      path: context.path,
      prefix: context.prefix,
      present: [...context.present].sort(),
      freshItem: context.freshItem,
    }
  );
};

describe('cursor context (YAML)', () => {
  it('finds the path through maps and list items, with item indexes', () => {
    const text = `svc_version: 2
triggers:
  - slug: a
    type: cron
  - slug: b
    filter:
      x: y
  - slug: c
    type: monitor
    mo‸
    run: ./x
connectors: []
`;
    expect(contextAt(text)).toEqual({
      kind: 'key',
      path: ['triggers', 2],
      prefix: 'mo',
      present: ['run', 'slug', 'type'],
      freshItem: false,
    });
  });

  it("understands compact sequences (items at the key's column)", () => {
    const text = `svc_version: 2\nconnectors:\n- slug: a\n  provider: mcp\ntriggers:\n- slug: a\n- slug: b\n  ‸\n`;
    expect(contextAt(text)).toEqual({
      kind: 'key',
      path: ['triggers', 1],
      prefix: '',
      present: ['slug'],
      freshItem: false,
    });
    expect(contextAt(`triggers:\n- slug: a\n- ‸`)).toMatchObject({
      kind: 'key',
      path: ['triggers', 1],
      freshItem: true,
    });
  });

  it('tells values, flow-list items and fresh list items apart', () => {
    expect(contextAt('agents:\n  a:\n    workspace: re‸')).toMatchObject({
      kind: 'value',
      path: ['agents', 'a', 'workspace'],
      prefix: 're',
    });
    expect(contextAt('agents:\n  a:\n    connectors: [x, "g‸')).toMatchObject({
      kind: 'item',
      path: ['agents', 'a', 'connectors'],
      prefix: 'g',
    });
    expect(contextAt('triggers:\n  - slug: a\n  - ‸')).toMatchObject({
      kind: 'key',
      path: ['triggers', 1],
      freshItem: true,
      present: [],
    });
  });

  it('lists top-level keys present above and below', () => {
    expect(contextAt('svc_version: 2\nagents:\n  a: {}\n‸\nproject:\n  name: x\n')).toMatchObject({
      path: [],
      present: ['agents', 'project', 'svc_version'],
    });
  });

  it('offers nothing in a comment or nested flow collections', () => {
    expect(contextAt('# a comment ‸')).toBeNull();
    expect(contextAt('project: { a: { na‸')).toBeNull();
  });

  it('knows keys and values inside a flow map', () => {
    expect(contextAt('project: { name: x, de‸')).toEqual({
      kind: 'key',
      path: ['project'],
      prefix: 'de',
      present: ['name'],
      freshItem: false,
    });
    expect(contextAt('connectors:\n  - auth: { type: be‸')).toMatchObject({
      kind: 'value',
      path: ['connectors', 0, 'auth', 'type'],
      prefix: 'be',
    });
  });
});

describe('cursor context (TOML)', () => {
  it('resolves tables, arrays of tables and dotted keys', () => {
    const text = `svc_version = 2\n[[connectors]]\nslug = "a"\n[[connectors]]\nslug = "b"\n[connectors.auth]\ntype = "none"\nhe‸\n`;
    expect(contextAt(text, 'toml')).toMatchObject({ kind: 'key', path: ['connectors', 1, 'auth'], prefix: 'he' });
    expect(contextAt(`[[connectors]]\nauth.type = "‸`, 'toml')).toMatchObject({
      kind: 'value',
      path: ['connectors', 0, 'auth', 'type'],
      prefix: '',
    });
    expect(contextAt(`[agents.coder]\nconnectors = ["a", ‸`, 'toml')).toMatchObject({
      kind: 'item',
      path: ['agents', 'coder', 'connectors'],
    });
  });

  it('knows keys and values inside an inline table', () => {
    expect(contextAt(`[[connectors]]\nauth = { type = "no‸`, 'toml')).toMatchObject({
      kind: 'value',
      path: ['connectors', 0, 'auth', 'type'],
      prefix: 'no',
    });
    expect(contextAt(`[[connectors]]\nauth = { type = "none", ‸`, 'toml')).toMatchObject({
      kind: 'key',
      path: ['connectors', 0, 'auth'],
      present: ['type'],
    });
  });

  it('finds headers at line starts only: indented ones and CRLF files, not a bracket after a lone CR or a line separator', () => {
    const text = `svc_version = 2\r\n  [[connectors]]\r\nslug = "a"\r\n[[connectors]]\r\nname = "x\r[agents.a]"\r\nnote = "y\u2028[agents.b]"\r\nau‸\r\n`;
    expect(contextAt(text, 'toml')).toMatchObject({ kind: 'key', path: ['connectors', 1], prefix: 'au' });
    expect(
      contextAt(`svc_version = 2\n‸\n[project]\n  [agents.a]\ndescription = "\r[sandbox]"\n`, 'toml'),
    ).toMatchObject({
      path: [],
      present: ['agents', 'project', 'svc_version'],
    });
  });

  it('lists keys of the table and of its sub-tables', () => {
    expect(contextAt(`svc_version = 2\n‸\n[project]\nname = "x"\n[agents.a]\n`, 'toml')).toMatchObject({
      path: [],
      present: ['agents', 'project', 'svc_version'],
    });
  });
});

describe('cursor context over a text held in pieces (as the server holds an open file)', () => {
  // Far more than one 64 KB window of headers, a line longer than a window, and CRLF lines.
  const tables: string[] = ['svc_version = 2', `description = "${'x'.repeat(70_000)}"`, ''];
  for (let i = 0; i < 2500; i++) {
    tables.push(
      i % 3 === 0 ? '[[triggers]]' : `[agents.agent-${i}]`,
      i % 3 === 0 ? `slug = "t-${i}"` : `enabled = true`,
      'name = "n"',
      '',
    );
    if (i % 7 === 0) tables.push(`[agents.agent-${i}.sandbox]`, 'template = "a"', '');
  }
  const toml = tables.join('\n') + '\n';
  const crlf = toml.slice(0, 200_000).replace(/\n/g, '\r\n');
  const yaml =
    [
      'svc_version: 2',
      'triggers:',
      ...Array.from({ length: 6000 }, (_, i) => `  - slug: t-${i}\n    type: cron\n    `.trimEnd()),
    ].join('\n') + '\n';

  it.each([
    ['toml', toml],
    ['toml', crlf],
    ['yaml', yaml],
  ] as const)('%s: gives what the same text as one string gives, at every kind of place', (format, text) => {
    // As after a keystroke: a PieceText made from the string keeps that string, an edited one does not.
    const pieces = PieceText.from(text, 4096).edit(0, 1, text.charAt(0));
    // The server passes the document's line index: over a PieceText, the pieces' own line tables.
    const lines = new LineIndex(pieces);
    const places = [
      text.length - 1,
      text.indexOf('name = "n"', text.length >> 1) + 2,
      text.indexOf('\n', 100_000) + 1,
      text.lastIndexOf('slug'),
      5,
    ];
    for (const offset of places) {
      expect(cursorContext(pieces, offset, format, lines), `${format} at ${offset}`).toEqual(
        cursorContext(text, offset, format),
      );
    }
    // Nothing above made the whole text one string.
    expect(pieces.isMaterialized).toBe(false);
  });
});
