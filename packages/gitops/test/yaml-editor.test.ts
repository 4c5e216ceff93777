/** The YAML editor on its own: exact output for the layouts people write. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { EditError, ManifestFile, type ManifestChange } from '../src/index.js';
import { crlf, lf, YAML_LINES } from './support/fixtures.js';

function edit(text: string, ...changes: ManifestChange[]): string {
  return new ManifestFile('svc.yaml', 'yaml', text).edit(changes);
}

describe('merge keys and anchors', () => {
  const text = lf(['defaults: &d', '  enabled: true', 'agents:', '  a:', '    <<: *d', '    skills: all']);

  test('a key that only comes from the merge gets an own key; the anchor is untouched', () => {
    expect(edit(text, { op: 'set', path: ['agents', 'a', 'enabled'], value: false })).toBe(
      lf(['defaults: &d', '  enabled: true', 'agents:', '  a:', '    <<: *d', '    skills: all', '    enabled: false']),
    );
  });

  test('going through a merged map is refused', () => {
    const nested = lf(['base: &b', '  inner:', '    x: 1', 'top:', '  <<: *b']);
    expect(() => edit(nested, { op: 'set', path: ['top', 'inner', 'x'], value: 2 })).toThrow(EditError);
  });
});

describe('deleting keeps neighbours and takes its own comments', () => {
  test('comment lines directly above go, a separate comment of the next entry stays', () => {
    const text = lf([
      'agents:',
      '  a: {}',
      '  # b does reviews',
      '  # (second line)',
      '  b:',
      '    enabled: true',
      '    # inner trailing',
      '  # c comment',
      '  c: {}',
    ]);
    expect(edit(text, { op: 'delete', path: ['agents', 'b'] })).toBe(
      lf(['agents:', '  a: {}', '  # c comment', '  c: {}']),
    );
  });

  test('a blank line is not left doubled', () => {
    const text = lf(['a: 1', '', 'b: 2', '', 'c: 3']);
    expect(edit(text, { op: 'delete', path: ['b'] })).toBe(lf(['a: 1', '', 'c: 3']));
  });

  test('an item of a flow list and an entry of a flow map', () => {
    expect(edit('x: [a, b, c]  # keep\n', { op: 'delete', path: ['x', 1] })).toBe('x: [a, c]  # keep\n');
    expect(edit('x: {a: 1, b: 2}\n', { op: 'delete', path: ['x', 'b'] })).toBe('x: {a: 1}\n');
  });
});

describe('adding', () => {
  test('to a flow map, in flow style', () => {
    expect(edit('agents: {a: {}}   # flow\n', { op: 'set', path: ['agents', 'b'], value: { enabled: true } })).toBe(
      'agents: {a: {}, b: {enabled: true}}   # flow\n',
    );
  });

  test('to an empty flow list, as a block', () => {
    expect(
      edit(lf(['svc_version: 2', 'triggers: []', 'z: 1']), {
        op: 'append',
        path: ['triggers'],
        value: { slug: 'x', type: 'cron' },
      }),
    ).toBe(lf(['svc_version: 2', 'triggers:', '  - slug: x', '    type: cron', 'z: 1']));
  });

  test('under a null key', () => {
    expect(edit(lf(['agents:', 'z: 1']), { op: 'set', path: ['agents', 'a'], value: { enabled: true } })).toBe(
      lf(['agents:', '  a:', '    enabled: true', 'z: 1']),
    );
  });

  test('with the document’s own indentation and list style', () => {
    const text = lf(['agents:', '    a:', '        enabled: true', 'triggers:', '- slug: one', '  type: cron']);
    const result = edit(
      text,
      { op: 'set', path: ['agents', 'b'], value: { enabled: false, secrets: ['S'] } },
      { op: 'append', path: ['triggers'], value: { slug: 'two', type: 'cron' } },
    );
    expect(result).toBe(
      lf([
        'agents:',
        '    a:',
        '        enabled: true',
        '    b:',
        '        enabled: false',
        '        secrets: [S]',
        'triggers:',
        '- slug: one',
        '  type: cron',
        '- slug: two',
        '  type: cron',
      ]),
    );
  });

  test('at the end of a file without a final line break', () => {
    expect(edit('list:\n  - a\n  - b', { op: 'append', path: ['list'], value: 'c' })).toBe(
      'list:\n  - a\n  - b\n  - c',
    );
  });
});

describe('scalars keep their style', () => {
  test.each([
    ["default_agent: 'main' # q", "default_agent: 'helper' # q"],
    ['default_agent: "main" # q', 'default_agent: "helper" # q'],
    ['default_agent: main # q', 'default_agent: helper # q'],
  ])('%s', (before, after) => {
    expect(edit(`${before}\n`, { op: 'set', path: ['default_agent'], value: 'helper' })).toBe(`${after}\n`);
  });

  test('a value that would be misread plain is quoted', () => {
    expect(edit('a: x\n', { op: 'set', path: ['a'], value: 'yes' })).toBe('a: "yes"\n');
    expect(edit('a: x\n', { op: 'set', path: ['a'], value: '0 3 * * *' })).toBe('a: "0 3 * * *"\n');
  });

  test('a byte order mark survives', () => {
    expect(edit('\uFEFFa: x\n', { op: 'set', path: ['a'], value: 'z' })).toBe('\uFEFFa: z\n');
  });
});

describe('property: a scope change only touches its agent’s lines', () => {
  const original = crlf(YAML_LINES);
  const lines = original.split('\r\n');
  const block: Record<string, [number, number]> = { main: [14, 18], helper: [19, 19], reviewer: [20, 25] };
  const allowlist = fc.oneof(
    fc.constant('all'),
    fc.constant('none'),
    fc.uniqueArray(fc.stringMatching(/^[A-Z][A-Z0-9_]{0,8}$/), { maxLength: 4 }),
  );

  test('lines outside the agent block are byte-identical; CRLF everywhere', () => {
    fc.assert(
      fc.property(fc.constantFrom('main', 'helper', 'reviewer'), allowlist, allowlist, (agent, secrets, connectors) => {
        const result = edit(
          original,
          { op: 'set', path: ['agents', agent, 'secrets'], value: secrets },
          { op: 'set', path: ['agents', agent, 'connectors'], value: connectors },
        );
        expect(result.replace(/\r\n/g, '')).not.toContain('\n');
        const after = result.split('\r\n');
        const [first, last] = block[agent]!;
        expect(after.slice(0, first)).toEqual(lines.slice(0, first));
        const tail = lines.length - 1 - last;
        expect(after.slice(after.length - tail)).toEqual(lines.slice(lines.length - tail));
      }),
      { numRuns: 150 },
    );
  });
});

describe('list items written in unusual ways', () => {
  test('an anchored item and a dash alone on its line', () => {
    const text = lf([
      'triggers:',
      '  - &first',
      '    slug: a',
      '    type: cron',
      '  -',
      '    slug: b',
      '    type: cron',
      'x: *first',
    ]);
    expect(edit(text, { op: 'append', path: ['triggers'], value: { slug: 'c', type: 'cron' } })).toBe(
      lf([
        'triggers:',
        '  - &first',
        '    slug: a',
        '    type: cron',
        '  -',
        '    slug: b',
        '    type: cron',
        '  - slug: c',
        '    type: cron',
        'x: *first',
      ]),
    );
    expect(edit(text, { op: 'delete', path: ['triggers', 1] })).toBe(
      lf(['triggers:', '  - &first', '    slug: a', '    type: cron', 'x: *first']),
    );
  });
});
