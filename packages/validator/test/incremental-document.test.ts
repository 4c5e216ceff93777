/**
 * `ManifestDocument.update(text, changes?)` against a fresh parse, step by step: after every
 * edit of a random sequence, the updated document's tree (shape and offsets), value, diagnostics
 * and line index equal those of `ManifestDocument.parse(text)`, whether the edit's ranges are
 * passed (exact, widened, or split in two) or found by comparing the texts. Edits create and
 * destroy block scalars, flow collections, comments, `---`, tabs, byte-order marks, CRLF,
 * non-ASCII and astral characters, forbidden characters, and cross the byte and depth limits.
 *
 * Then: the work of an edit is local (characters scanned and parsed, on a 10k-line document),
 * and the identity contract incremental validation builds on (unchanged chunks and items keep
 * their node and value objects). `FC_RUNS=<n>` scales the number of runs.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManifestDocument, mergeTextChanges, PieceText, type TextChange } from '../src/index.js';
import { changedRegion } from '../src/document/text-change.js';
import type { MapNode, SeqNode } from '../src/document/nodes.js';
import {
  applyAll,
  edits,
  largeManifest,
  largeTomlManifest,
  manifestArb,
  mutation,
  tomlEdits,
  tomlManifestArb,
  valueEdits,
  type Mutation,
} from './support/manifest-arbitraries.js';

const SCALE = Number(process.env.FC_RUNS ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

type Limits = { maxBytes?: number; maxDepth?: number };

/** JSON of a tree; alias targets (possibly cyclic) are shown by their position. */
function treeJson(root: ManifestDocument['root']): string {
  return JSON.stringify(root, (key, value: unknown) =>
    key === 'target' ? (value ? `@${(value as { start: number }).start}` : null) : value,
  );
}

/** How `document` differs from a fresh parse of its text; null when it does not. */
function difference(document: ManifestDocument, format: 'yaml' | 'toml', limits: Limits): string | null {
  const fresh = ManifestDocument.parse(document.text, { format, limits });
  if (document.fatal !== fresh.fatal) return `fatal differs: ${document.fatal} vs ${fresh.fatal}`;
  if (treeJson(document.root) !== treeJson(fresh.root)) return 'tree differs';
  if (!isDeepStrictEqual(document.value, fresh.value)) return 'value differs';
  if (!isDeepStrictEqual(document.diagnostics, fresh.diagnostics)) {
    const show = (d: ManifestDocument) => JSON.stringify(d.diagnostics.map((x) => [x.code, x.start, x.end, x.path]));
    return `diagnostics differ:\nupdated: ${show(document)}\nfresh:   ${show(fresh)}`;
  }
  const lines = document.lines;
  const freshLines = fresh.lines;
  if (lines.lineCount !== freshLines.lineCount)
    return `line counts differ: ${lines.lineCount} vs ${freshLines.lineCount}`;
  for (let line = 0; line < lines.lineCount; line++)
    if (lines.lineStart(line) !== freshLines.lineStart(line)) return `line ${line} starts elsewhere`;
  return null;
}

/**
 * Changes that make `after` from `before`: the differing span widened by `widen` characters on
 * each side (clamped), as one replacement or as a deletion then an insertion.
 */
function changesFor(before: string, after: string, widen: [number, number], split: boolean): TextChange[] {
  const limit = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < limit && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < limit - prefix &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  )
    suffix++;
  const start = Math.max(0, prefix - widen[0]);
  const kept = Math.max(0, suffix - widen[1]);
  const end = before.length - kept;
  const newLength = after.length - kept - start;
  return split
    ? [
        { start, end, newLength: 0 },
        { start, end: start, newLength },
      ]
    : [{ start, end, newLength }];
}

/** Edits with what the chunker and the limits care about, typed into lines or values. */
const PIECES = [
  ' |\n    block text\n',
  ': >-\n  folded\n',
  '[a, b',
  '{x: 1,\n  y: 2}',
  ']',
  '}',
  ' # comment',
  '\n# comment\n',
  '\n---\n',
  '\n...\n',
  '\t',
  '\uFEFF',
  '\r\n',
  '\r',
  'é',
  '😀',
  '\u0001',
  '\uD800',
  '- - - - - - - - x',
  '[[[[[[[[[[1]]]]]]]]]]',
  '{a: {b: {c: {d: {e: {f: 1}}}}}}',
  "'open",
  '"open\\',
  '&anchor ',
  '*anchor',
  '%YAML 1.2\n',
];
const pieceEdit: fc.Arbitrary<Mutation> = fc
  .tuple(fc.nat(), fc.constantFrom(...PIECES), fc.boolean())
  .map(([n, piece, atLineStart]) => (t: string) => {
    let at = t.length === 0 ? 0 : n % (t.length + 1);
    if (atLineStart) at = t.lastIndexOf('\n', at - 1) + 1;
    return t.slice(0, at) + piece + t.slice(at);
  });
/** The BOM added or removed at the very start. */
const bomEdit: fc.Arbitrary<Mutation> = fc.constant((t: string) =>
  t.startsWith('\uFEFF') ? t.slice(1) : `\uFEFF${t}`,
);
const step = fc.array(
  fc.oneof(
    // Typing inside values (mostly keeps the chunk plan), structural line edits, pieces, raw mutations.
    { weight: 6, arbitrary: valueEdits.map((list) => (t: string) => applyAll(t, list)) },
    { weight: 3, arbitrary: edits.map((list) => (t: string) => applyAll(t, list)) },
    { weight: 3, arbitrary: pieceEdit },
    { weight: 2, arbitrary: mutation },
    { weight: 1, arbitrary: bomEdit },
  ),
  { minLength: 1, maxLength: 2 },
);
/** How an edit reaches `update`: with ranges or not, widened, split in two, and the text as a string or as a PieceText of small pieces (as the language server holds it). */
const howPassed = fc.record({
  passRanges: fc.boolean(),
  widen: fc.tuple(fc.nat({ max: 40 }), fc.nat({ max: 40 })),
  split: fc.boolean(),
  pieces: fc.constantFrom(0, 0, 24, 200),
});
/** No limits, a byte limit a little above or below the first text's size, or a small depth limit. */
const limitsFor = (text: string) =>
  fc.oneof(
    fc.constant({}),
    fc.integer({ min: -20, max: 60 }).map((extra) => ({ maxBytes: Buffer.byteLength(text, 'utf8') + extra })),
    fc.integer({ min: 4, max: 8 }).map((maxDepth) => ({ maxDepth })),
  );

function runSequence(
  format: 'yaml' | 'toml',
  first: string,
  limits: Limits,
  steps: { edit: Mutation[]; how: { passRanges: boolean; widen: [number, number]; split: boolean; pieces: number } }[],
  stats: { updates: number; local: number },
): void {
  let document = ManifestDocument.parse(first, { format, limits });
  // Read the line index (as every validation does), so later ones are spliced from it.
  void document.lines;
  let text = first;
  let pieces: PieceText | undefined;
  for (const { edit, how } of steps) {
    const next = applyAll(text, edit);
    const changes = how.passRanges ? changesFor(text, next, how.widen, how.split) : undefined;
    let source: string | PieceText = next;
    if (how.pieces > 0 && changes) {
      // The edit applied to the pieces of the previous text, as the server applies a didChange.
      const merged = mergeTextChanges(text.length, changes)!;
      pieces = (pieces ?? PieceText.from(text, how.pieces)).edit(
        merged.start,
        merged.end,
        next.slice(merged.start, merged.start + merged.newLength),
      );
      source = pieces;
    } else {
      pieces = undefined;
    }
    document = document.update(source, changes);
    expect(document.text).toBe(next);
    if (changes && next !== text) expect(document.editedRegion?.fromChanges).toBe(true);
    stats.updates += 1;
    if (document.scannedCharacters < next.length) stats.local += 1;
    const problem = difference(document, format, limits);
    if (problem) throw new Error(`${problem}\nafter ${JSON.stringify(changes)}`);
    text = next;
  }
}

describe('update(text, changes?) equals a fresh parse at every step', () => {
  it('YAML: random edit sequences, ranges passed or not', () => {
    const stats = { updates: 0, local: 0 };
    fc.assert(
      fc.property(
        manifestArb.chain((text) => fc.tuple(fc.constant(text), limitsFor(text))),
        fc.array(fc.record({ edit: step, how: howPassed }), { minLength: 1, maxLength: 6 }),
        ([first, limits], steps) => runSequence('yaml', first, limits, steps, stats),
      ),
      { numRuns: runs(60) },
    );
    // The property is not only checked on whole-text reads: many updates read only around the edit.
    // Over twelve runs, 24 to 36 of about 190 updates were local (13–19%). A floor of a tenth sat
    // under three deviations below that and failed a CI run at 16 of 184; a twentieth is five below.
    expect(stats.local).toBeGreaterThan(stats.updates / 20);
  });

  it('TOML: random edit sequences, ranges passed or not', () => {
    const stats = { updates: 0, local: 0 };
    fc.assert(
      fc.property(
        tomlManifestArb.chain((text) => fc.tuple(fc.constant(text), limitsFor(text))),
        fc.array(
          fc.record({ edit: fc.oneof(tomlEdits, fc.array(pieceEdit, { minLength: 1, maxLength: 2 })), how: howPassed }),
          { minLength: 1, maxLength: 6 },
        ),
        ([first, limits], steps) => runSequence('toml', first, limits, steps, stats),
      ),
      { numRuns: runs(40) },
    );
  });

  it('changes that do not make the new text are ignored, not trusted', () => {
    const text = largeManifest(2, 60, 20, 3);
    const edited = text.replace('trigger-30', 'trigger-300');
    const wrong = [{ start: 10, end: 12, newLength: 3 }];
    const updated = ManifestDocument.parse(text).update(edited, wrong);
    expect(updated.editedRegion?.fromChanges).toBe(false);
    expect(difference(updated, 'yaml', {})).toBeNull();
  });
});

describe('the work of an edit is local', () => {
  const text = largeManifest(2, 1500, 300, 7);
  const lineCount = text.split('\n').length;

  it('on a 10k-line YAML document, typing in a value scans and parses a few lines, with or without ranges', () => {
    expect(lineCount).toBeGreaterThan(10_000);
    let document = ManifestDocument.parse(text);
    expect(document.scannedCharacters).toBeGreaterThanOrEqual(3 * text.length);
    expect(document.parsedCharacters).toBe(text.length);
    void document.lines;
    const at = text.indexOf("prompt: 'Handle trigger 700:") + 'prompt: '.length;
    let current = text;
    for (const [typed, passRanges] of [
      ['x', true],
      ['xy', false],
      ['xy\n    note: added', true],
    ] as const) {
      const next = text.slice(0, at) + typed + text.slice(at);
      const prefix = at + Math.min(typed.length, current.length - text.length) - 1;
      document = document.update(next, passRanges ? changesFor(current, next, [0, 0], false) : undefined);
      expect(prefix).toBeGreaterThan(0);
      // The line, the item around it and the next item's first line: far below 1% of the text.
      expect(document.scannedCharacters).toBeLessThan(600);
      expect(document.parsedCharacters).toBeLessThan(400);
      expect(difference(document, 'yaml', {})).toBeNull();
      current = next;
    }
  });

  it('adding and removing an item, or a top-level key after a small one, stays local', () => {
    let document = ManifestDocument.parse(text);
    const item = '  - slug: trigger-new\n    type: cron\n    cron: "0 0 * * *"\n    prompt: new\n';
    const at = text.indexOf('  - slug: trigger-900\n');
    const added = text.slice(0, at) + item + text.slice(at);
    document = document.update(added);
    expect(document.scannedCharacters).toBeLessThan(1000);
    expect(document.parsedCharacters).toBeLessThan(300);
    expect(difference(document, 'yaml', {})).toBeNull();
    document = document.update(text);
    expect(document.scannedCharacters).toBeLessThan(1000);
    expect(difference(document, 'yaml', {})).toBeNull();
    // After `connectors:` (a chunk parsed whole), before `sandbox:`.
    const key = text.indexOf('\nsandbox:\n') + 1;
    const withKey = `${text.slice(0, key)}runtime: node\n${text.slice(key)}`;
    document = document.update(withKey);
    expect(document.scannedCharacters).toBeLessThan(2000);
    expect(difference(document, 'yaml', {})).toBeNull();
  });

  it('two edits far apart in one burst re-parse the two items alone, the items between found by their text', () => {
    const document = ManifestDocument.parse(text);
    const first = text.indexOf("prompt: 'Handle trigger 600:") + 'prompt: '.length;
    const second = text.indexOf("prompt: 'Handle trigger 800:") + 'prompt: '.length;
    const next = `${text.slice(0, first)}x${text.slice(first, second)}y${text.slice(second)}`;
    // As an editor sends a burst: the second range in the text the first change made.
    const updated = document.update(next, [
      { start: first, end: first, newLength: 1 },
      { start: second + 1, end: second + 1, newLength: 1 },
    ]);
    expect(updated.editedRegion?.fromChanges).toBe(true);
    // One region spans ~200 items; only the two edited ones are parsed again.
    expect(updated.parsedCharacters).toBeLessThan(400);
    expect(difference(updated, 'yaml', {})).toBeNull();
  });

  it('a top-level key typed after, or inside, a collection parsed item by item stays local', () => {
    // `triggers:` (1500 items) is followed by `connectors:`; type `runtime: node` between them, a letter at a time.
    const end = text.indexOf('\nconnectors:\n') + 1;
    let document = ManifestDocument.parse(text);
    for (const typed of ['r', 'runtime', 'runtime:', 'runtime: node\n']) {
      const next = `${text.slice(0, end)}${typed}${typed.endsWith('\n') ? '' : '\n'}${text.slice(end)}`;
      document = document.update(next);
      expect(document.scannedCharacters).toBeLessThan(1000);
      // `r` alone is not a key: the text is no mapping, and is parsed whole, as a fresh parse does.
      if (typed.includes(':')) expect(document.parsedCharacters).toBeLessThan(300);
      else expect(document.parsedCharacters).toBeGreaterThanOrEqual(next.length);
      expect(difference(document, 'yaml', {})).toBeNull();
    }
    // Inside the list: the items after the key are now its value's (a sequence at the same indentation).
    const inside = text.indexOf('  - slug: trigger-1400\n');
    const split = `${text.slice(0, inside)}later:\n${text.slice(inside)}`;
    document = ManifestDocument.parse(text).update(split);
    expect(document.parsedCharacters).toBeLessThan(300);
    expect(difference(document, 'yaml', {})).toBeNull();
    expect(Object.keys(document.value as object)).toContain('later');
  });
});

describe('the items after a YAML edit move by groups of 64', () => {
  // A collection parsed item by item keeps its items' frames in groups of 64 by index: an edit
  // moves the items after it one by one to the end of its group, then the later groups whole, and
  // the items' own diagnostics (offsets in the file) with them. Items added or removed re-number
  // the items after them, which then join the groups of their new indexes.
  it('a chain of edits that add, remove and type into items around group boundaries', () => {
    let text = largeManifest(2, 300, 20, 9);
    let document = ManifestDocument.parse(text);
    const item = (slug: string) => `  - slug: ${slug}\n    type: cron\n    agent: agent-1\n    cron: "0 0 * * *"\n`;
    const step = (name: string, next: string) => {
      text = next;
      document = document.update(text);
      expect(document.parsedCharacters, name).toBeLessThan(text.length / 10);
      expect(difference(document, 'yaml', {}), name).toBeNull();
    };
    const before = (slug: string) => text.indexOf(`  - slug: ${slug}\n`);
    // An item with a diagnostic of its own (a repeated key), then items added before it.
    const repeated = before('trigger-200');
    step(
      'a repeated key in an item',
      `${text.slice(0, repeated)}  - slug: trigger-200\n    slug: again\n${text.slice(repeated + '  - slug: trigger-200\n'.length)}`,
    );
    expect(document.diagnostics.some((d) => d.code === 'duplicate-key')).toBe(true);
    step(
      'an item added before the 64th',
      `${text.slice(0, before('trigger-63'))}${item('added-1')}${text.slice(before('trigger-63'))}`,
    );
    step('typing early in the list', text.replace('slug: trigger-10\n', 'slug: trigger-10x\n'));
    step(
      'two items removed around the 128th',
      `${text.slice(0, before('trigger-127'))}${text.slice(before('trigger-129'))}`,
    );
    step('typing before them', text.replace('slug: trigger-100\n', 'slug: trigger-100yy\n'));
    step('typing after the repeated key', text.replace('slug: trigger-250\n', 'slug: trigger-250z\n'));
    // Past 320 items, the list needs a sixth group.
    const many = Array.from({ length: 30 }, (_, i) => item(`late-${i}`)).join('');
    step(
      'thirty items added near the end',
      `${text.slice(0, before('trigger-290'))}${many}${text.slice(before('trigger-290'))}`,
    );
    step('typing in the first item', text.replace('slug: trigger-0\n', 'slug: trigger-0w\n'));
    step('typing in the last item', text.replace('slug: trigger-299\n', 'slug: trigger-299v\n'));
    // An edit above the list moves it whole.
    step('a line added to an agent above the list', text.replace('  agent-3:\n', '  agent-3:\n    sandbox: tpl-9\n'));
    step('typing early in the list again', text.replace('slug: trigger-11\n', 'slug: trigger-11q\n'));
  });
});

describe('the work of a TOML edit is local', () => {
  it('on a 10k-line TOML document, typing in a value scans and parses its block, with or without ranges', () => {
    const text = largeTomlManifest(1200, 300, 9);
    expect(text.split('\n').length).toBeGreaterThan(10_000);
    let document = ManifestDocument.parse(text, { format: 'toml' });
    void document.lines;
    const at = text.indexOf('slug = "trigger-600"') + 'slug = "'.length;
    let current = text;
    for (const [typed, passRanges] of [
      ['x', true],
      ['xy', false],
      ['xy"\nnote = "added', true],
    ] as const) {
      const next = text.slice(0, at) + typed + text.slice(at);
      document = document.update(next, passRanges ? changesFor(current, next, [0, 0], false) : undefined);
      expect(document.scannedCharacters).toBeLessThan(800);
      expect(document.parsedCharacters).toBeLessThan(300);
      expect(difference(document, 'toml', {})).toBeNull();
      current = next;
    }
  });
});

describe('identity: what did not change keeps its objects', () => {
  it('YAML: top-level chunks and items outside the edit keep their nodes (moved in place) and values', () => {
    const text = largeManifest(2, 120, 60, 11);
    const before = ManifestDocument.parse(text);
    const root = before.root as MapNode;
    const triggersEntry = root.entries.find((e) => e.key === 'triggers')!;
    const agentsEntry = root.entries.find((e) => e.key === 'agents')!;
    const projectEntry = root.entries.find((e) => e.key === 'project')!;
    const triggerNodes = (triggersEntry.value as SeqNode).items.slice();
    const value = before.value as { triggers: unknown[]; agents: Record<string, unknown>; project: unknown };
    const triggerValues = value.triggers.slice();
    const agentsValue = value.agents;
    const projectValue = value.project;
    const offsets = triggerNodes.map((node) => node.start);
    // One character into trigger 50's slug.
    const at = text.indexOf('slug: trigger-50\n') + 'slug: trigger-5'.length;
    const after = before.update(text.slice(0, at) + '5' + text.slice(at), [{ start: at, end: at, newLength: 1 }]);
    const newRoot = after.root as MapNode;
    const newTriggers = (newRoot.entries.find((e) => e.key === 'triggers')!.value as SeqNode).items;
    const newValue = after.value as { triggers: unknown[]; agents: Record<string, unknown>; project: unknown };
    expect(newTriggers).toHaveLength(triggerNodes.length);
    for (let i = 0; i < triggerNodes.length; i++) {
      if (i === 50) {
        expect(newTriggers[i]).not.toBe(triggerNodes[i]);
        expect(newValue.triggers[i]).not.toBe(triggerValues[i]);
        continue;
      }
      expect(newTriggers[i]).toBe(triggerNodes[i]);
      expect(newValue.triggers[i]).toBe(triggerValues[i]);
      expect(newTriggers[i]!.start).toBe(offsets[i]! + (i > 50 ? 1 : 0));
    }
    expect((newValue.triggers[50] as { slug: string }).slug).toBe('trigger-550');
    // Top-level chunks before and after the edit: the same entries, values and collections.
    expect(newRoot.entries.find((e) => e.key === 'agents')).toBe(agentsEntry);
    expect(newRoot.entries.find((e) => e.key === 'project')).toBe(projectEntry);
    expect(newValue.agents).toBe(agentsValue);
    expect(newValue.project).toBe(projectValue);
    expect(difference(after, 'yaml', {})).toBeNull();
  });

  it('TOML: blocks outside the edit keep their table nodes (moved in place) and values', () => {
    const text = largeTomlManifest(60, 12, 5);
    const before = ManifestDocument.parse(text, { format: 'toml' });
    const seqOf = (document: ManifestDocument) =>
      ((document.root as MapNode).entries.find((e) => e.key === 'triggers')!.value as SeqNode).items;
    const nodes = seqOf(before).slice();
    const values = (before.value as { triggers: unknown[] }).triggers.slice();
    const agents = (before.value as { agents: Record<string, unknown> }).agents;
    const offsets = nodes.map((node) => node.start);
    const at = text.indexOf('slug = "trigger-30"') + 'slug = "trigger-3'.length;
    const after = before.update(text.slice(0, at) + '3' + text.slice(at), [{ start: at, end: at, newLength: 1 }]);
    expect(after.parsedCharacters).toBeLessThan(300);
    const newNodes = seqOf(after);
    const newValues = (after.value as { triggers: unknown[] }).triggers;
    // A trigger whose table a `[triggers.filter]` header extends is joined anew; every other keeps its objects.
    const extended = (i: number) => i % 9 === 4;
    let kept = 0;
    for (let i = 0; i < nodes.length; i++) {
      if (i === 30) {
        expect((newValues[i] as { slug: string }).slug).toBe('trigger-330');
        expect(newValues[i]).not.toBe(values[i]);
        continue;
      }
      if (extended(i)) continue;
      expect(newNodes[i]).toBe(nodes[i]);
      expect(newValues[i]).toBe(values[i]);
      expect(newNodes[i]!.start).toBe(offsets[i]! + (i > 30 ? 1 : 0));
      kept += 1;
    }
    expect(kept).toBeGreaterThan(45);
    // The agents' tables (blocks before the edit) keep their values too, but for those a
    // `[agents.agent-N.sandbox]` header extends (every 11th).
    for (const [name, value] of Object.entries((after.value as { agents: Record<string, unknown> }).agents)) {
      if (Number(name.slice('agent-'.length)) % 11 !== 0) expect(value).toBe(agents[name]);
    }
    expect(difference(after, 'toml', {})).toBeNull();
  });

  it('TOML: a joined table whose blocks an edit between them moved apart is joined again; one moved whole is kept', () => {
    const tables = Array.from({ length: 200 }, (_, i) => `[[t]]\nn = ${i}\n`).join('');
    const text = `svc_version = 2\n[a]\nx = 1\n[b]\ny = 2\n[a.c]\nz = 3\n${tables}`;
    const entry = (document: ManifestDocument, key: string) =>
      (document.root as MapNode).entries.find((e) => e.key === key)!;
    const edit = (document: ManifestDocument, at: number, insert: string, withRanges: boolean) => {
      const next = document.text.slice(0, at) + insert + document.text.slice(at);
      return document.update(next, withRanges ? [{ start: at, end: at, newLength: insert.length }] : undefined);
    };
    for (const withRanges of [true, false]) {
      let document = ManifestDocument.parse(text, { format: 'toml' });
      // Typing in a `[[t]]` table in the middle: the array is patched, the tables after it moved.
      document = edit(document, document.text.indexOf('n = 100') + 4, '22', withRanges);
      expect(difference(document, 'toml', {})).toBeNull();
      // Typing in `[b]`, between `[a]` and `[a.c]`: `a` is joined again, and its map ends further on;
      // every `[[t]]` table moved by the same amount, so the joined array is the same object, moved.
      const seq = entry(document, 't').value;
      document = edit(document, document.text.indexOf('y = 2') + 4, '22', withRanges);
      expect(difference(document, 'toml', {})).toBeNull();
      expect(entry(document, 'a').end).toBe(document.text.indexOf('z = 3') + 'z = 3'.length);
      expect(entry(document, 't').value).toBe(seq);
      expect(seq.start).toBe(document.text.indexOf('[[t]]'));
      // A key typed in the top-level block: every table after it moved by the same amount, so
      // each key's join is kept, moved.
      const a = entry(document, 'a').value;
      document = edit(document, document.text.indexOf('[a]'), 'name = "n"\n', withRanges);
      expect(difference(document, 'toml', {})).toBeNull();
      expect(entry(document, 'a').value).toBe(a);
      expect(entry(document, 't').value).toBe(seq);
      // A new block inside `[b]`: the blocks are counted anew.
      document = edit(document, document.text.indexOf('[a.c]'), '[d]\nw = 1\n', withRanges);
      expect(difference(document, 'toml', {})).toBeNull();
      expect(entry(document, 'a').end).toBe(document.text.indexOf('z = 3') + 'z = 3'.length);
    }
  });
});

describe('a document updated twice (which callers must not do) is read afresh the second time', () => {
  it.each(['yaml', 'toml'] as const)('%s', (format) => {
    const text = format === 'yaml' ? largeManifest(2, 80, 30, 4) : largeTomlManifest(40, 10, 4);
    const first = ManifestDocument.parse(text, { format });
    const at = text.indexOf('trigger-20') + 'trigger-2'.length;
    const a = first.update(text.slice(0, at) + 'a' + text.slice(at));
    const aTree = treeJson(a.root);
    const b = first.update(text.slice(0, at) + 'bb' + text.slice(at));
    expect(difference(b, format, {})).toBeNull();
    // The first update's document is left as it was.
    expect(treeJson(a.root)).toBe(aTree);
    expect(difference(a, format, {})).toBeNull();
  });
});

describe('values of reused chunks follow which keys are left out', () => {
  it('an item whose key another item repeated, then no longer does, is back in the value', () => {
    // Found by the property above: an item's value was kept from when its key was a repeat.
    const text = largeManifest(2, 60, 60, 8);
    let document = ManifestDocument.parse(text);
    void document.value;
    // A second `agent-5` after the first (left out of the value), then the first renamed.
    const at = text.indexOf('  agent-6:\n');
    const repeated = `${text.slice(0, at)}  agent-5:\n    enabled: false\n${text.slice(at)}`;
    document = document.update(repeated);
    expect((document.value as { agents: Record<string, { enabled: boolean }> }).agents['agent-5']!.enabled).toBe(true);
    expect(difference(document, 'yaml', {})).toBeNull();
    const renamed = repeated.replace('  agent-5:\n', '  agent-55:\n');
    document = document.update(renamed);
    expect((document.value as { agents: Record<string, { enabled: boolean }> }).agents['agent-5']!.enabled).toBe(false);
    expect(difference(document, 'yaml', {})).toBeNull();
    // The same for top-level keys, each its own chunk.
    const twice = `${text}default_agent: agent-9\n`;
    document = ManifestDocument.parse(text).update(twice);
    expect((document.value as { default_agent: string }).default_agent).toBe('agent-0');
    document = document.update(twice.replace('default_agent: agent-0\n', 'default_agents: agent-0\n'));
    expect((document.value as { default_agent: string }).default_agent).toBe('agent-9');
    expect(difference(document, 'yaml', {})).toBeNull();
  });
});

describe('the changed region', () => {
  const region = (before: string, after: string, changes?: TextChange[]) => {
    const r = changedRegion(before, after, changes);
    return r && [r.start, r.oldEnd, r.newEnd, r.fromChanges];
  };

  it('is whole lines, in both texts, from the changes or from comparing', () => {
    expect(region('a: 1\nb: 2\nc: 3\n', 'a: 1\nb: 22\nc: 3\n')).toEqual([5, 10, 11, false]);
    expect(region('a: 1\nb: 2\nc: 3\n', 'a: 1\nb: 22\nc: 3\n', [{ start: 8, end: 8, newLength: 1 }])).toEqual([
      5,
      10,
      11,
      true,
    ]);
    // CRLF: the line ends after its `\n`.
    expect(region('a: 1\r\nb: 2\r\n', 'a: 1\r\nb: 3\r\n')).toEqual([6, 12, 12, false]);
    // Whole lines inserted or deleted: the old region is empty, or the new one.
    expect(region('a: 1\nc: 3\n', 'a: 1\nb: 2\nc: 3\n')).toEqual([5, 5, 10, false]);
    expect(region('a: 1\nb: 2\nc: 3\n', 'a: 1\nc: 3\n')).toEqual([5, 10, 5, false]);
    // Two changes far apart make one region spanning both; the same texts give none.
    expect(
      region('a\nb\nc\nd\n', 'A\nb\nc\nD\n', [
        { start: 0, end: 1, newLength: 1 },
        { start: 6, end: 7, newLength: 1 },
      ]),
    ).toEqual([0, 8, 8, true]);
    expect(region('a\n', 'a\n')).toBeNull();
  });

  it('merges changes into one replacement, and refuses changes outside the text', () => {
    expect(
      mergeTextChanges(10, [
        { start: 2, end: 4, newLength: 0 },
        { start: 6, end: 6, newLength: 3 },
      ]),
    ).toEqual({ start: 2, end: 8, newLength: 7 });
    expect(mergeTextChanges(10, [{ start: 8, end: 12, newLength: 0 }])).toBeNull();
    expect(mergeTextChanges(10, [{ start: 3, end: 2, newLength: 0 }])).toBeNull();
  });
});

describe('a document an update took over', () => {
  const reads = (document: ManifestDocument) => [
    () => document.root,
    () => document.value,
    () => document.schemaValue,
    () => document.diagnostics,
  ];

  it('fails loudly when its tree, value or diagnostics are read, in YAML and TOML; its text stays readable and it can be updated again', () => {
    const yaml = largeManifest(2, 40, 12, 5);
    const toml = largeTomlManifest(30, 10, 5);
    const typedIn = (text: string, marker: string) => {
      const at = text.indexOf(marker) + marker.length - 2;
      return text.slice(0, at) + 'x' + text.slice(at);
    };
    const item = toml.indexOf('[[triggers]]\nslug = "trigger-17"');
    // Each way an update takes units over: a YAML item re-read in place, or the chunks planned
    // again around an item moved out of its list; a TOML block re-read in place, or the blocks
    // joined again around an item added.
    const cases = [
      {
        name: 'YAML, a value edited',
        format: 'yaml' as const,
        text: yaml,
        edited: typedIn(yaml, 'slug: trigger-17'),
        reread: 0.1,
      },
      // The list's items after the moved one are read again: the chunks before it are kept.
      {
        name: 'YAML, an item dedented',
        format: 'yaml' as const,
        text: yaml,
        edited: yaml.replace('  - slug: trigger-17', '- slug: trigger-17'),
        reread: 1,
      },
      {
        name: 'TOML, a value edited',
        format: 'toml' as const,
        text: toml,
        edited: typedIn(toml, 'slug = "trigger-17"'),
        reread: 0.1,
      },
      {
        name: 'TOML, an item added',
        format: 'toml' as const,
        text: toml,
        edited: `${toml.slice(0, item)}[[triggers]]\nslug = "new"\n\n${toml.slice(item)}`,
        reread: 0.1,
      },
    ];
    for (const { name, format, text, edited, reread } of cases) {
      const first = ManifestDocument.parse(text, { format });
      void first.value;
      const second = first.update(edited);
      // The new document took the old one's units over (it re-read only the edited lines, or the units after them).
      expect(second.parsedCharacters, name).toBeLessThan(text.length * reread);
      for (const read of reads(first)) expect(read, name).toThrow(/took this document over/);
      for (const read of reads(second)) expect(read, name).not.toThrow();
      expect(first.text).toBe(text);
      // Updating the taken-over document again reads its text afresh.
      const again = first.update(edited);
      expect(JSON.stringify(again.root), name).toBe(JSON.stringify(ManifestDocument.parse(edited, { format }).root));
    }
  });

  it('is not taken over by an update that leaves it its tree: a TOML text without one keeps the last tree readable', () => {
    const text = largeTomlManifest(30, 10, 6);
    const good = ManifestDocument.parse(text, { format: 'toml' });
    const broken = good.update(text.replace('slug = "trigger-20"', 'slug = "trigger-20'));
    expect(broken.root).toBeNull();
    expect(() => good.root).not.toThrow();
    // The next text with a tree takes the trees the broken one held over: then the good one is taken over.
    const fixed = broken.update(text.replace('slug = "trigger-20"', 'slug = "trigger-2O"'));
    expect(fixed.parsedCharacters).toBeLessThan(text.length / 10);
    for (const read of reads(good)) expect(read).toThrow(/took this document over/);
    for (const read of reads(fixed)) expect(read).not.toThrow();
  });
});
