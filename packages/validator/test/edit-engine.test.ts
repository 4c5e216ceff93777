/**
 * The editing engine: input bytes → exact output bytes, for YAML and TOML, with comments,
 * CRLF, a byte-order mark, flow and block styles and quoted keys; and its refusals.
 */
import { describe, expect, test } from 'vitest';
import { editManifest, ManifestEditError, textEdits, type ManifestChange } from '../src/index.js';

const lf = (lines: string[]): string => lines.map((line) => `${line}\n`).join('');
const crlf = (lines: string[]): string => lines.map((line) => `${line}\r\n`).join('');

function yaml(text: string, ...changes: ManifestChange[]): string {
  return editManifest(text, changes, { format: 'yaml' }).text;
}

function toml(text: string, ...changes: ManifestChange[]): string {
  return editManifest(text, changes, { format: 'toml' }).text;
}

function refusal(run: () => unknown): ManifestEditError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ManifestEditError);
    return error as ManifestEditError;
  }
  throw new Error('expected a refusal');
}

describe('YAML', () => {
  test('quoted keys are found and kept', () => {
    const text = lf(['"agents":', "  'my agent':   # spaced name", '    enabled: true']);
    expect(yaml(text, { op: 'set', path: ['agents', 'my agent', 'enabled'], value: false })).toBe(
      lf(['"agents":', "  'my agent':   # spaced name", '    enabled: false']),
    );
  });

  test('a new key that needs quotes gets them, in a flow map', () => {
    expect(yaml('agents: {a: {}}  # flow\n', { op: 'set', path: ['agents', 'b c'], value: 1 })).toBe(
      'agents: {a: {}, "b c": 1}  # flow\n',
    );
  });

  test('CRLF and a byte-order mark survive an insertion', () => {
    const text = '\uFEFF' + crlf(['svc_version: 2   # v', 'agents:', '  a:', '    enabled: true']);
    expect(yaml(text, { op: 'set', path: ['agents', 'a', 'secrets'], value: ['S1', 'S2'] })).toBe(
      '\uFEFF' + crlf(['svc_version: 2   # v', 'agents:', '  a:', '    enabled: true', '    secrets: [S1, S2]']),
    );
  });

  test('rename keeps the value, the comment and the key’s quoting', () => {
    const text = lf(['agents:', '  old:   # keep me', '    enabled: true', "  'x y': {}"]);
    expect(
      yaml(
        text,
        { op: 'rename', path: ['agents', 'old'], to: 'new' },
        { op: 'rename', path: ['agents', 'x y'], to: "it's" },
      ),
    ).toBe(lf(['agents:', '  new:   # keep me', '    enabled: true', "  'it''s': {}"]));
  });

  test('a block list item goes with its comment; the flow list beside it keeps its spacing', () => {
    const text = lf(['a:', '  # first', '  - one', '  # second', '  - two', 'b: [ x , y ]   # flow']);
    expect(yaml(text, { op: 'delete', path: ['a', 1] }, { op: 'append', path: ['b'], value: 'z' })).toBe(
      lf(['a:', '  # first', '  - one', 'b: [ x , y, z ]   # flow']),
    );
  });

  test('the first key of a list item: replaced by a map or deleted, the `- ` stays', () => {
    const text = lf(['triggers:', '  - monitor: x   # m', '    slug: a']);
    expect(yaml(text, { op: 'set', path: ['triggers', 0, 'monitor'], value: { interval: '5m' } })).toBe(
      lf(['triggers:', '  - monitor:  # m', '      interval: "5m"', '    slug: a']),
    );
    expect(yaml(text, { op: 'delete', path: ['triggers', 0, 'monitor'] })).toBe(lf(['triggers:', '  - slug: a']));
  });

  test('a block scalar is replaced by its own lines', () => {
    const text = lf(['prompt: |', '  line one', '  line two', 'next: 1']);
    expect(yaml(text, { op: 'set', path: ['prompt'], value: 'short' })).toBe(lf(['prompt: short', 'next: 1']));
  });

  test('insert: a block item before another (and before its comment), a flow item in place, past the end appends', () => {
    const text = lf(['list:', '  - a', '  # about b', '  - b', 'flow: [x, z]']);
    expect(
      yaml(
        text,
        { op: 'insert', path: ['list', 1], value: { slug: 'n', type: 'cron' } },
        { op: 'insert', path: ['flow', 1], value: 'b' },
        { op: 'insert', path: ['flow', 3], value: 'w' },
      ),
    ).toBe(lf(['list:', '  - a', '  - slug: "n"', '    type: cron', '  # about b', '  - b', 'flow: [x, b, z, w]']));
  });

  test('an empty document gets its first keys', () => {
    expect(yaml('', { op: 'set', path: ['svc_version'], value: 2 })).toBe('svc_version: 2\n');
    expect(yaml('# only a comment', { op: 'set', path: ['svc_version'], value: 2 })).toBe(
      '# only a comment\nsvc_version: 2\n',
    );
  });
});

describe('TOML', () => {
  test('a replaced value keeps the trailing comment where it was', () => {
    const text = lf([
      '[agents.main]',
      'secrets = [ "A", "B" ]                              # thirty columns away',
      'connectors = "all"',
    ]);
    expect(toml(text, { op: 'set', path: ['agents', 'main', 'secrets'], value: ['A'] })).toBe(
      lf([
        '[agents.main]',
        'secrets = [ "A" ]                              # thirty columns away',
        'connectors = "all"',
      ]),
    );
  });

  test('each line is written once: two changes on one table touch two lines', () => {
    const text = lf(['[agents.main] # main', 'secrets = "all"  # s', 'connectors = "all"  # c', 'enabled = true']);
    const result = editManifest(
      text,
      [
        { op: 'set', path: ['agents', 'main', 'secrets'], value: 'none' },
        { op: 'set', path: ['agents', 'main', 'connectors'], value: ['gh'] },
      ],
      { format: 'toml' },
    );
    expect(result.text).toBe(
      lf(['[agents.main] # main', 'secrets = "none"  # s', 'connectors = [ "gh" ]  # c', 'enabled = true']),
    );
    expect(result.edits).toEqual([{ start: 32, end: 60, newText: 'none"  # s\nconnectors = [ "gh" ]' }]);
  });

  test('a new key goes after its table’s last value, before the next table’s comment', () => {
    const text = lf(['[agents.a]', 'enabled = true # on', '', '# b does reviews', '[agents.b]', 'enabled = false']);
    expect(toml(text, { op: 'set', path: ['agents', 'a', 'secrets'], value: 'all' })).toBe(
      lf([
        '[agents.a]',
        'enabled = true # on',
        'secrets = "all"',
        '',
        '# b does reviews',
        '[agents.b]',
        'enabled = false',
      ]),
    );
  });

  test('quoted keys: found in a header, written for a new table', () => {
    const text = lf(['svc_version = 2', '', '[agents."my agent"]', 'enabled = true']);
    expect(
      toml(
        text,
        { op: 'set', path: ['agents', 'my agent', 'enabled'], value: false },
        { op: 'set', path: ['agents', 'the "other"'], value: { enabled: true } },
      ),
    ).toBe(
      lf([
        'svc_version = 2',
        '',
        '[agents."my agent"]',
        'enabled = false',
        '',
        '[agents."the \\"other\\""]',
        'enabled = true',
      ]),
    );
  });

  test('CRLF and a byte-order mark survive; a literal string stays literal', () => {
    const text = '\uFEFF' + crlf(["name = 'demo' # n", '[project]', 'x = 1']);
    expect(
      toml(text, { op: 'set', path: ['name'], value: 'other' }, { op: 'set', path: ['project', 'y'], value: 2 }),
    ).toBe('\uFEFF' + crlf(["name = 'other' # n", '[project]', 'x = 1', 'y = 2']));
  });

  test('inline tables and arrays are edited inline; new arrays follow the file’s first one (`["x"]`, unpadded)', () => {
    const text = lf(['agents = { a = { enabled = true }, b = {} } # inline', 'list = ["x", "y", "z"]']);
    expect(
      toml(
        text,
        { op: 'delete', path: ['agents', 'a'] },
        { op: 'set', path: ['agents', 'c'], value: { secrets: ['S'] } },
        { op: 'delete', path: ['list', 1] },
        { op: 'append', path: ['list'], value: 'w' },
      ),
    ).toBe(lf(['agents = { b = {}, c = { secrets = ["S"] } } # inline', 'list = ["x", "z", "w"]']));
  });

  test('a deleted key takes the comment lines directly above it', () => {
    const text = lf(['[project]', 'name = "demo"', '# the description', '# (two lines)', 'description = "d"', 'x = 1']);
    expect(toml(text, { op: 'delete', path: ['project', 'description'] })).toBe(
      lf(['[project]', 'name = "demo"', 'x = 1']),
    );
  });

  test('a deleted table takes its section, its comment and its sub-tables', () => {
    const text = lf([
      'svc_version = 2',
      '',
      '# a',
      '[agents.a]',
      'enabled = true',
      '',
      '[agents.b]',
      'enabled = true',
      '',
      '[agents.a.extra]',
      'k = 1',
    ]);
    expect(toml(text, { op: 'delete', path: ['agents', 'a'] })).toBe(
      lf(['svc_version = 2', '', '[agents.b]', 'enabled = true']),
    );
  });

  test('an element of an array of tables: appended as a section, deleted with its section', () => {
    const text = lf(['[[triggers]] # first', 'slug = "a"', '', '[[triggers]]', 'slug = "b"', '', '# end']);
    expect(toml(text, { op: 'delete', path: ['triggers', 0] })).toBe(lf(['[[triggers]]', 'slug = "b"', '', '# end']));
    expect(toml(text, { op: 'append', path: ['triggers'], value: { slug: 'c', type: 'cron' } })).toBe(
      text + lf(['', '[[triggers]]', 'slug = "c"', 'type = "cron"']),
    );
  });

  test('insert: into an inline array, and an array-of-tables element before another, with its comment kept on the other', () => {
    const text = lf(['list = ["a", "c"]', '', '# first trigger', '[[triggers]]', 'slug = "a"']);
    expect(
      toml(
        text,
        { op: 'insert', path: ['list', 1], value: 'b' },
        { op: 'insert', path: ['triggers', 0], value: { slug: 'z' } },
      ),
    ).toBe(
      lf([
        'list = ["a", "b", "c"]',
        '',
        '[[triggers]]',
        'slug = "z"',
        '',
        '# first trigger',
        '[[triggers]]',
        'slug = "a"',
      ]),
    );
  });

  test('keys added one by one to a table named only by sub-table headers: one new [header], then lines under it', () => {
    const text = lf(['[agents.main]', 'enabled = true']);
    expect(
      toml(text, { op: 'set', path: ['agents', 'x'], value: 1 }, { op: 'set', path: ['agents', 'y'], value: 2 }),
    ).toBe(lf(['[agents.main]', 'enabled = true', '', '[agents]', 'x = 1', 'y = 2']));
  });

  test('dotted keys and renames edit only the key or value', () => {
    const text = lf(['[project]', 'meta.owner = "me" # who', 'old_name = 1']);
    expect(
      toml(
        text,
        { op: 'set', path: ['project', 'meta', 'owner'], value: 'you' },
        { op: 'rename', path: ['project', 'old_name'], to: 'new name' },
      ),
    ).toBe(lf(['[project]', 'meta.owner = "you" # who', '"new name" = 1']));
  });

  test('an array over several lines changes item by item, keeping its comments', () => {
    const text = lf(['list = [', '  "a", # first', '  "b", # second', ']']);
    expect(toml(text, { op: 'set', path: ['list'], value: ['a'] })).toBe(lf(['list = [', '  "a", # first', ']']));
  });

  test('strings are escaped as TOML needs', () => {
    expect(toml('a = "x"\n', { op: 'set', path: ['a'], value: 'say "hi"\n\u007f' })).toBe(
      'a = "say \\"hi\\"\\n\\u007f"\n',
    );
  });
});

describe('a manifest written from nothing (how `convert` writes the other format)', () => {
  const value = {
    svc_version: 2,
    default_agent: 'main',
    agents: { main: { enabled: true, secrets: ['A'] }, 'b c': { enabled: false } },
    triggers: [{ slug: 'n', type: 'cron', cron: '0 3 * * *', prompt: 'go', agent: 'main' }],
  };
  const changes: ManifestChange[] = Object.entries(value).map(([key, child]) => ({
    op: 'set',
    path: [key],
    value: child,
  }));

  test('YAML', () => {
    expect(yaml('', ...changes)).toBe(
      lf([
        'svc_version: 2',
        'default_agent: main',
        'agents:',
        '  main:',
        '    enabled: true',
        '    secrets: [A]',
        '  "b c":',
        '    enabled: false',
        'triggers:',
        '  - slug: "n"',
        '    type: cron',
        '    cron: "0 3 * * *"',
        '    prompt: go',
        '    agent: main',
      ]),
    );
  });

  test('TOML: sub-tables as sections, lists of tables as [[sections]]', () => {
    expect(toml('', ...changes)).toBe(
      lf([
        'svc_version = 2',
        'default_agent = "main"',
        '',
        '[agents.main]',
        'enabled = true',
        'secrets = [ "A" ]',
        '',
        '[agents."b c"]',
        'enabled = false',
        '',
        '[[triggers]]',
        'slug = "n"',
        'type = "cron"',
        'cron = "0 3 * * *"',
        'prompt = "go"',
        'agent = "main"',
      ]),
    );
  });
});

describe('refusals', () => {
  test('an alias bomb is refused by the validator’s limits before any edit', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= 9; i++)
      lines.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const error = refusal(() => yaml(lf(lines), { op: 'set', path: ['b'], value: 1 }));
    expect(error.reason).toBe('unreadable');
    expect(error.diagnostics.map((d) => d.code)).toEqual(['alias-expansion']);
  });

  test('a TOML syntax error is refused with its diagnostic and range', () => {
    const error = refusal(() => toml('a = \n', { op: 'set', path: ['a'], value: 1 }));
    expect(error.reason).toBe('unreadable');
    expect(error.diagnostics[0]?.code).toBe('toml-syntax');
    expect(error.message).toMatch(/^the manifest cannot be read for editing: toml-syntax: /);
  });

  test('editing through an alias or a merge key is refused', () => {
    const text = lf(['base: &b', '  inner:', '    x: 1', 'top: *b', 'merged:', '  <<: *b']);
    expect(refusal(() => yaml(text, { op: 'set', path: ['top', 'inner', 'x'], value: 2 })).reason).toBe('unsupported');
    expect(refusal(() => yaml(text, { op: 'set', path: ['merged', 'inner', 'x'], value: 2 })).reason).toBe(
      'unsupported',
    );
  });

  test('a change that does not apply to the value', () => {
    expect(refusal(() => yaml('a: 1\n', { op: 'delete', path: ['b'] })).reason).toBe('invalid-change');
    expect(refusal(() => toml('a = 1\nb = 2\n', { op: 'rename', path: ['a'], to: 'b' })).reason).toBe('invalid-change');
  });

  test('TOML has no null', () => {
    expect(refusal(() => toml('a = 1\n', { op: 'set', path: ['a'], value: null })).reason).toBe('unsupported');
  });
});

describe('textEdits', () => {
  test('one region; a surrogate pair is never split', () => {
    expect(textEdits('a\r\nb', 'a\nb')).toEqual([{ start: 1, end: 2, newText: '' }]);
    expect(textEdits('x😀y', 'x😁y')).toEqual([{ start: 1, end: 3, newText: '😁' }]);
    expect(textEdits('same', 'same')).toEqual([]);
  });
});
