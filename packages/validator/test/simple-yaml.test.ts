/**
 * simple-yaml.ts against the `yaml` library: on any text the simple reader accepts, it must give
 * the library path's tree (kinds, values, styles, every offset) and diagnostics exactly; on what it
 * declines, the library reads. Texts come from a generator of block YAML with random formatting
 * (indents, comments, blank lines, scalars the core schema types), from that YAML with random
 * characters changed, with merge keys (every kind of source) and keys that are collections added, and
 * from every fixture and example, whole and cut into top-level chunks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseYamlFragment } from '../src/document/parse-yaml.js';
import { parseYamlWithLibrary } from '../src/document/yaml-library.js';
import { readSimpleYaml, resolvePlain } from '../src/document/simple-yaml.js';
import { planYamlChunks } from '../src/document/yaml-chunks.js';
import { scanYaml } from '../src/document/yaml-scan.js';
import type { ValueNode } from '../src/document/nodes.js';
import type { ParsedFragment } from '../src/document/tree-builder.js';
import { loadExamples, loadFixtures } from '../../../test/support/fixtures.js';
import { applyAll, manifestArb, mutations } from './support/manifest-arbitraries.js';

const SCALE = Number(process.env.FC_RUNS ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

/** A tree as plain data, every offset in the file; numbers as text so NaN and -0 compare. */
function plainTree(node: ValueNode | null): unknown {
  if (node === null) return null;
  const place = { start: node.start, end: node.end };
  switch (node.kind) {
    case 'scalar':
      return {
        kind: 'scalar',
        ...place,
        value: typeof node.value === 'number' ? `number ${Object.is(node.value, -0) ? '-0' : node.value}` : node.value,
        style: node.style,
      };
    case 'seq':
      return { kind: 'seq', ...place, flow: node.flow, items: node.items.map(plainTree) };
    case 'map':
      return {
        kind: 'map',
        ...place,
        flow: node.flow,
        entries: node.entries.map((entry) => ({
          key: entry.key,
          keyStart: entry.keyStart,
          keyEnd: entry.keyEnd,
          start: entry.start,
          end: entry.end,
          ignored: entry.ignored === true,
          merge: entry.merge === true,
          keyRefused: entry.keyRefused === true,
          keyAlias: entry.keyAlias,
          value: plainTree(entry.value),
        })),
      };
    case 'alias':
      return { kind: 'alias', ...place, name: node.name };
  }
}

function plainFragment(fragment: ParsedFragment): unknown {
  return { root: plainTree(fragment.root), diagnostics: fragment.diagnostics, aliasCount: fragment.aliasCount };
}

/** Asserts the simple reader, when it accepts `text`, reads it as the library does; says whether it accepted. */
function expectSameReading(text: string, base = 0, pointer = '', skipRootKeyCheck = false): boolean {
  const simple = readSimpleYaml(text, base, pointer, skipRootKeyCheck);
  if (simple === null) return false;
  const library = parseYamlWithLibrary(text, base, pointer, { skipRootKeyCheck });
  expect(plainFragment(simple), JSON.stringify(text)).toEqual(plainFragment(library));
  return true;
}

/**
 * Compares the readings of the units a manifest is parsed by (its chunks, a large collection's
 * header and items, as yaml-chunks.ts plans them); answers how many units the reader accepted, and
 * how many there were.
 */
function expectSameReadingByUnits(text: string): { accepted: number; units: number } {
  const plan = planYamlChunks(text, scanYaml(text, 64));
  let accepted = 0;
  let units = 0;
  for (const chunk of plan ?? []) {
    const starts = chunk.items ? [chunk.start, ...chunk.items.itemStarts] : [chunk.start];
    starts.forEach((start, i) => {
      units += 1;
      if (expectSameReading(text.slice(start, starts[i + 1] ?? chunk.end), start, '', true)) accepted += 1;
    });
  }
  return { accepted, units };
}

// ---------------------------------------------------------------------------------------------
// A generator of block YAML with the formatting choices the simple reader must follow.

const KEYS = [
  'a',
  'b',
  'name',
  'svc_version',
  'x.y',
  'a-b',
  'k/v',
  '$ref',
  'on',
  'yes',
  'a b',
  '1',
  'true',
  'null',
  '0x1F',
  '1e3',
  '<<',
  '-k',
  'é',
];
const PLAIN = [
  'x',
  'hello world',
  '1',
  '-1',
  '+12',
  '007',
  '0o17',
  '0x1F',
  '0xG',
  '1e3',
  '-2.5E-3',
  '.5',
  '1.',
  '1_000',
  '.inf',
  '-.Inf',
  '.NaN',
  '.nan',
  'nan',
  'true',
  'True',
  'TRUE',
  'tRUE',
  'false',
  'yes',
  'no',
  'on',
  'null',
  'Null',
  'NULL',
  '~',
  'a#b',
  'a # b',
  'a: b',
  'a:b',
  'a:',
  'x]',
  'x,y',
  '-x',
  '- x',
  '--',
  ':x',
  '?x',
  '%x',
  '@x',
  '`x`',
  '!x',
  '&x',
  '*x',
  '|',
  '>',
  'https://svc.example/a?b=c#d',
  'node:22-bookworm',
  '0 7 * * 1',
  'tracker.delete_*',
  'é ü 中',
  '\\',
  '12:30',
  '2026-11-28',
];
const QUOTED = [
  "'x'",
  "'it''s'",
  "''",
  '""',
  '"q #x"',
  '"a: b"',
  '"x\\"y"',
  '"\\u0041"',
  "'a'b'",
  '"unterminated',
  "'#'",
];
const FLOW = [
  '[]',
  '[ ]',
  '[a]',
  '[a, b ,c]',
  '[1, true, null, ~, 0x1F]',
  '[a,]',
  '[a b, c]',
  '[a: b]',
  '[[a]]',
  '[a, "b"]',
  '[-x, - y]',
  '[x#y]',
  '[ a ]  ',
];

type Tree =
  | { kind: 'map'; entries: { key: string; value: Tree; layout: Layout }[] }
  | { kind: 'seq'; items: { value: Tree; layout: Layout }[] }
  | { kind: 'leaf'; text: string };

/** How one entry or item is written. */
interface Layout {
  /** Extra columns a nested collection is indented by (0 only for a sequence under a key, or a compact mapping). */
  step: number;
  spaces: number;
  comment: string | null;
  /** Lines written before the entry: blank, or comments at their own column. */
  before: { blank: boolean; column: number }[];
  /** A mapping in a sequence item starts on the dash's line (`- key: value`). */
  compact: boolean;
  trailing: number;
}

const layout: fc.Arbitrary<Layout> = fc.record({
  step: fc.integer({ min: 0, max: 4 }),
  spaces: fc.oneof({ weight: 12, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 3 }) }),
  comment: fc.option(fc.constantFrom('# c', '#c', '# a: b', '#'), { freq: 6 }),
  before: fc.oneof(
    { weight: 3, arbitrary: fc.constant<{ blank: boolean; column: number }[]>([]) },
    {
      weight: 1,
      arbitrary: fc.array(fc.record({ blank: fc.boolean(), column: fc.integer({ min: 0, max: 8 }) }), { maxLength: 2 }),
    },
  ),
  compact: fc.boolean(),
  trailing: fc.integer({ min: 0, max: 2 }),
});

/** Values of the kind manifests hold, which the reader takes: most leaves, so most documents are compared, not declined. */
const COMMON = [
  'x',
  'hello world',
  '1',
  '-1',
  'true',
  'null',
  '~',
  '0x1F',
  '1e3',
  '.5',
  'a#b',
  'a # b',
  'https://svc.example/a',
  '0 7 * * 1',
  'é ü 中',
  'ship it 🚀',
  "'it''s'",
  '"q #x"',
  '[a, b ,c]',
  '[]',
];

const leaf = fc
  .oneof(
    { weight: 24, arbitrary: fc.constantFrom(...COMMON) },
    { weight: 3, arbitrary: fc.constantFrom(...PLAIN) },
    { weight: 1, arbitrary: fc.constantFrom(...QUOTED) },
    { weight: 1, arbitrary: fc.constantFrom(...FLOW) },
    { weight: 2, arbitrary: fc.constant('') },
  )
  .map((text): Tree => ({ kind: 'leaf', text }));

const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree; map: Tree; seq: Tree }>((self) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, self('map'), self('seq')),
  map: fc
    .array(
      fc.record({
        key: fc.oneof(
          { weight: 15, arbitrary: fc.constantFrom('a', 'b', 'name', 'x.y') },
          { weight: 1, arbitrary: fc.constantFrom(...KEYS) },
        ),
        value: self('node'),
        layout,
      }),
      {
        minLength: 1,
        maxLength: 4,
      },
    )
    .map((entries): Tree => ({ kind: 'map', entries })),
  seq: fc
    .array(fc.record({ value: self('node'), layout }), { minLength: 1, maxLength: 4 })
    .map((items): Tree => ({ kind: 'seq', items })),
})).map;

function writeBefore(lines: string[], item: Layout): void {
  for (const line of item.before)
    lines.push(line.blank ? ' '.repeat(line.column % 3) : `${' '.repeat(line.column)}# note`);
}

function commentOf(item: Layout): string {
  return item.comment === null ? '' : ` ${item.comment}`;
}

/** Writes `node` as the value after `head` (a `key:` or `-` already on the last line). */
function writeValue(lines: string[], node: Tree, column: number, item: Layout, inMapping: boolean): void {
  const last = lines.length - 1;
  if (node.kind === 'leaf') {
    lines[last] +=
      node.text === ''
        ? ' '.repeat(item.trailing) + commentOf(item)
        : ' '.repeat(item.spaces) + node.text + ' '.repeat(item.trailing) + commentOf(item);
    return;
  }
  if (!inMapping && node.kind === 'map' && item.compact) {
    // `- key: value`: the mapping's column is the first key's.
    const keyColumn = lines[last]!.length + item.spaces;
    lines[last] += ' '.repeat(item.spaces);
    writeCollection(lines, node, keyColumn, true);
    return;
  }
  lines[last] += commentOf(item);
  const childColumn = column + (inMapping && node.kind === 'seq' ? item.step : Math.max(1, item.step));
  writeCollection(lines, node, childColumn, false);
}

/** Writes a collection at `column`; `continueLine` puts its first entry on the current last line. */
function writeCollection(lines: string[], node: Tree, column: number, continueLine: boolean): void {
  const indent = ' '.repeat(column);
  if (node.kind === 'map') {
    node.entries.forEach((entry, i) => {
      if (i > 0 || !continueLine) {
        writeBefore(lines, entry.layout);
        lines.push(`${indent}${entry.key}:`);
      } else lines[lines.length - 1] += `${entry.key}:`;
      writeValue(lines, entry.value, column, entry.layout, true);
    });
  } else if (node.kind === 'seq') {
    node.items.forEach((item, i) => {
      if (i > 0 || !continueLine) {
        writeBefore(lines, item.layout);
        lines.push(`${indent}-`);
      } else lines[lines.length - 1] += '-';
      writeValue(lines, item.value, column, item.layout, false);
    });
  } else lines.push(indent + node.text);
}

const document = fc
  .record({
    root: tree,
    column: fc.integer({ min: 0, max: 3 }),
    end: fc.constantFrom('', '\n', '\n\n', '\n# tail\n', '\n  # tail\n', '\n    # deep tail\n\n'),
    crlf: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  })
  .map(({ root, column, end, crlf }) => {
    const lines: string[] = [];
    writeCollection(lines, root, root.kind === 'leaf' ? 0 : column, false);
    const text = lines.join('\n') + end;
    return crlf ? text.replace(/\n/g, '\r\n') : text;
  });

// ---------------------------------------------------------------------------------------------

describe('the simple YAML reader', () => {
  it('reads every generated block document it accepts as the yaml library does, and accepts most of them', () => {
    let accepted = 0;
    let total = 0;
    fc.assert(
      fc.property(document, fc.integer({ min: 0, max: 5 }), (text, base) => {
        total += 1;
        if (expectSameReading(text, base)) accepted += 1;
      }),
      { numRuns: runs(3000) },
    );
    // Not a vacuous comparison: the generator's documents are mostly in the reader's subset.
    expect(accepted / total).toBeGreaterThan(0.25);
  });

  it('reads generated documents with characters changed as the library does, whenever it accepts them, and accepts many', () => {
    let accepted = 0;
    let total = 0;
    // Characters a writer types into plain YAML (often still accepted), and constructs the reader
    // declines or that break the text (tabs, anchors, tags, quotes, flow brackets, markers).
    const typed = fc.constantFrom('', ' ', '  ', '\n', 'x', '7', '-', ':', '#', ',', ': x', '- ');
    const hostile = fc.constantFrom("'", '"', '[', ']', '\t', '\r', '&a', '*a', '!t', '|', '?', '---', '\\');
    // Edits of documents the reader takes: what it is asked to read again after a keystroke.
    const readable = document.filter((text) => readSimpleYaml(text, 0, '', false) !== null);
    const edit = fc.record({
      at: fc.nat(),
      remove: fc.integer({ min: 0, max: 3 }),
      insert: fc.oneof({ weight: 3, arbitrary: typed }, { weight: 1, arbitrary: hostile }),
    });
    fc.assert(
      fc.property(readable, fc.array(edit, { minLength: 1, maxLength: 3 }), (text, list) => {
        let changed = text;
        for (const { at, remove, insert } of list) {
          const place = changed.length === 0 ? 0 : at % (changed.length + 1);
          changed = changed.slice(0, place) + insert + changed.slice(place + remove);
        }
        total += 1;
        if (expectSameReading(changed)) accepted += 1;
      }),
      { numRuns: runs(3000) },
    );
    // Most edits break nothing the reader needs (a changed scalar, a blank line): a reader that
    // declined them all would pass the comparison above without being compared.
    expect(accepted / total).toBeGreaterThan(0.2);
  });

  it('reads generated manifests, and manifests mutated at random, whole and by the units they are parsed in, as the library does whenever it accepts them', () => {
    let accepted = 0;
    let units = 0;
    fc.assert(
      fc.property(manifestArb, mutations, (text, list) => {
        for (const variant of [text, applyAll(text, list)]) {
          expectSameReading(variant);
          const counts = expectSameReadingByUnits(variant);
          accepted += counts.accepted;
          units += counts.units;
        }
      }),
      { numRuns: runs(40) },
    );
    // Not a vacuous comparison: most of the units (a whole manifest has a block scalar) are the reader's.
    expect(accepted / units).toBeGreaterThan(0.5);
  });

  it('reads generated documents with merge keys and keys that are collections, whole and by units, as the library path does', () => {
    // Every kind of merge source (a mapping, an alias of one, a list of those, and what the reader refuses)
    // and every kind of key that is no string; with an anchor first for the aliases to find.
    const special = fc.constantFrom(
      '<<: *base',
      '<<: {m: 1}',
      '<<: [*base, {m: 2}]',
      '<<: *list',
      '<<: no',
      "<<: ''",
      '<<:',
      '<<: [*base, 3]',
      '<<: |\n  text',
      '"<<": quoted',
      '? [a, b]\n: x',
      '[1, 2]: y',
      '{a: 1}: z',
      '? {x: y}',
      ': no key',
      '*base : aliased collection',
    );
    let merges = 0;
    let refusedKeys = 0;
    fc.assert(
      fc.property(document, special, fc.boolean(), (text, line, first) => {
        // The anchors only where an alias needs them: a text with anchors is read whole, by the library.
        const anchors = line.includes('*') ? 'base: &base {p: 1}\nlist: &list [{q: 1}]\n' : '';
        const changed = first
          ? `${anchors}${line}\n${text}`
          : `${anchors}${text.endsWith('\n') || text === '' ? text : `${text}\n`}${line}\n`;
        expectSameReading(changed);
        expectSameReadingByUnits(changed);
        const read = parseYamlFragment(changed);
        expect(plainFragment(read), JSON.stringify(changed)).toEqual(plainFragment(parseYamlWithLibrary(changed)));
        const entries = read.root?.kind === 'map' ? read.root.entries : [];
        if (entries.some((entry) => entry.merge)) merges += 1;
        if (entries.some((entry) => entry.keyRefused)) refusedKeys += 1;
      }),
      { numRuns: runs(600), seed: 3301 },
    );
    // Not vacuous: the merge keys and the refused keys reached the tree.
    expect(merges).toBeGreaterThan(50);
    expect(refusedKeys).toBeGreaterThan(50);
  });

  it('reads every fixture and example, whole and by the units they are parsed in, as the library does, and takes the example', () => {
    const files = [...loadFixtures(), ...loadExamples()].filter((file) => file.format === 'yaml');
    expect(files.length).toBeGreaterThan(50);
    let accepted = 0;
    for (const file of files) {
      if (expectSameReading(file.text)) accepted += 1;
      expectSameReadingByUnits(file.text);
    }
    expect(accepted).toBeGreaterThan(files.length / 4);
    const example = loadExamples().find((file) => file.name === 'examples/svc.yaml')!;
    expect(readSimpleYaml(example.text, 0, '', false)).not.toBeNull();
  });

  it('declines what it cannot read exactly, and parseYamlFragment then reads it with the library', () => {
    const declined = [
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      'a: |\n  text\n',
      'a: >\n  text\n',
      'a: {b: 1}\n',
      'a: [b,\n  c]\n',
      'a: "x\\ty"\n',
      'a:\tb\n',
      'a: b\rc: d\n',
      'a: b\r',
      'a: plain\n  continued\n',
      '"a": 1\n',
      '? a\n: 1\n',
      '---\na: 1\n',
      'a: 1\n...\n',
      '%YAML 1.2\n---\na: 1\n',
      '- - a\n',
      'a: b: c\n',
      'a:\n# comment after an empty value\nb: 1\n',
      'a:\n  b: 1\n c: 2\n',
      'true: 1\n',
      '1: one\n',
      '',
      '# only a comment\n',
      'just a scalar\n',
      'a: \u0085\n',
      'a: [\u00a0x]\n',
      'a: [x\u00a0]\n',
      'a: [x,\u2028y]\n',
      'a: \ufeff\n',
      'a: \ud83d\n',
      'a: \ude80x\n',
      `${'k'.repeat(1025)}: 1\n`,
    ];
    for (const text of declined) {
      expect(readSimpleYaml(text, 0, '', false), JSON.stringify(text)).toBeNull();
      expect(plainFragment(parseYamlFragment(text))).toEqual(plainFragment(parseYamlWithLibrary(text)));
    }
  });

  it('reports repeated keys as the library path does, with the chunk’s pointer and without the root check when asked', () => {
    const text = 'a: 1\nb:\n  c: 1\n  c: 2\na: 3\n';
    const fragment = readSimpleYaml(text, 10, '/top', false)!;
    expect(fragment.diagnostics.map((d) => [d.code, d.path, d.start, d.end])).toEqual([
      ['duplicate-key', '/top/b/c', 27, 28],
      ['duplicate-key', '/top/a', 32, 33],
    ]);
    expect(readSimpleYaml(text, 0, '', true)!.diagnostics.map((d) => d.path)).toEqual(['/b/c']);
    expectSameReading(text, 10, '/top');
    expectSameReading(text, 0, '', true);
  });

  it('takes characters beyond U+FFFF (surrogate pairs), with the library’s UTF-16 offsets', () => {
    const text = 'name: ship it 🚀\nnext: [🚀, x]\n';
    expect(readSimpleYaml(text, 0, '', false)).not.toBeNull();
    expect(expectSameReading(text)).toBe(true);
  });

  it('takes CRLF line breaks, with the library’s offsets (a scalar ends before the CR, a collection after the LF)', () => {
    const text = '# c\r\nname: x  \r\nlist:\r\n  - a # c\r\n  -\r\nflow: [a, b]\r\nlast:\r\n';
    expect(readSimpleYaml(text, 0, '', false)).not.toBeNull();
    expect(expectSameReading(text)).toBe(true);
  });

  it('types plain scalars by the YAML 1.2 core schema', () => {
    expect(resolvePlain('')).toBeNull();
    expect(resolvePlain('~')).toBeNull();
    expect(resolvePlain('NULL')).toBeNull();
    expect(resolvePlain('nULL')).toBe('nULL');
    expect(resolvePlain('True')).toBe(true);
    expect(resolvePlain('FALSE')).toBe(false);
    expect(resolvePlain('yes')).toBe('yes');
    expect(resolvePlain('0o17')).toBe(15);
    expect(resolvePlain('0x1F')).toBe(31);
    expect(resolvePlain('-007')).toBe(-7);
    expect(resolvePlain('1_000')).toBe('1_000');
    expect(resolvePlain('1e3')).toBe(1000);
    expect(resolvePlain('.5')).toBe(0.5);
    expect(resolvePlain('-.inf')).toBe(-Infinity);
    expect(resolvePlain('.NaN')).toBeNaN();
    expect(resolvePlain('2026-11-28')).toBe('2026-11-28');
  });
});
