import { parseTOML, type AST } from 'toml-eslint-parser';
import type { RawDiagnostic } from '../diagnostic.js';
import {
  detachedCollection,
  detachedEntry,
  escapePointerSegment,
  Frame,
  locatedName,
  mapEntry,
  mapNode,
  scalarNode,
  seqNode,
  setKept,
  type LocatedName,
  type MapEntry,
  type MapNode,
  type ScalarNode,
  type SeqNode,
  type TomlDateTimeType,
  type ValueNode,
} from './nodes.js';
import { checkMapKeys, type ParsedFragment } from './tree-builder.js';
import { commonEnds, keptEnds, withRunReplaced, type KeptEnds } from './spliced-lists.js';
import { lastAtMost } from './line-starts.js';
import type { TomlBlock } from './toml-blocks.js';
import { TOML_PARSER_OPTIONS } from './toml-version.js';

export { planTomlBlocks, planTomlPart, planTomlRange, type TomlBlock } from './toml-blocks.js';

/**
 * Parses TOML into the same located tree as YAML. Tables (`[a.b]`), arrays of tables
 * (`[[a]]`), dotted keys and inline tables all become maps and sequences whose keys point
 * at the key text in the file. TOML has no error recovery: a syntax error gives no tree.
 */
export function parseTomlFragment(text: string, base = 0): ParsedFragment {
  const parsed = parseProgram(text, base);
  if ('root' in parsed) return parsed;
  return buildWhole(parsed, text, base);
}

function buildWhole(program: AST.TOMLProgram, text: string, base: number): ParsedFragment {
  const builder = new TomlTreeBuilder(base);
  const root = builder.build(program, text.length);
  const diagnostics: RawDiagnostic[] = [];
  builder.checkKeys(root, '', diagnostics);
  return { root, diagnostics, aliasCount: 0, hasDateTimes: builder.hasDateTimes, frame: builder.frame };
}

/**
 * The parser's tree, or the fragment reporting why there is none: a syntax error, or (when the
 * text parses) the first value we refuse to read (see {@link refusedValue}); `refusedValue` marks
 * the latter, which is the whole text's first error only when the whole text parses.
 */
function parseProgram(text: string, base: number): AST.TOMLProgram | (ParsedFragment & { refusedValue?: true }) {
  let program: AST.TOMLProgram;
  try {
    program = parseTOML(text, TOML_PARSER_OPTIONS);
  } catch (error) {
    const problem = error as { message?: string; index?: number };
    const index = typeof problem.index === 'number' ? problem.index : 0;
    const lineEnd = text.indexOf('\n', index);
    const atLineEnd =
      text[index] === '\n' || (text[index] === '\r' && text[index + 1] === '\n') || index >= text.length;
    const end = atLineEnd ? index : Math.min(index + 1, lineEnd === -1 ? text.length : lineEnd);
    const message = String(problem.message ?? error);
    return {
      root: null,
      aliasCount: 0,
      diagnostics: [
        {
          // The TOML parser stops at a redefined key or table; name it like the YAML duplicate.
          code: /multiple times|defined twice|already defined/i.test(message) ? 'duplicate-key' : 'toml-syntax',
          message: message.charAt(0).toLowerCase() + message.slice(1),
          path: '',
          start: base + index,
          end: base + end,
        },
      ],
    };
  }
  const refused = refusedValue(program);
  if (!refused) return program;
  return {
    root: null,
    aliasCount: 0,
    refusedValue: true,
    diagnostics: [{ ...refused, code: 'toml-syntax', path: '', start: base + refused.start, end: base + refused.end }],
  };
}

const LARGEST_EXACT_INTEGER = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The first value of a parsed text that we do not read, located in the text: an integer beyond
 * ±(2^53 − 1), which a manifest's value (a JavaScript, and JSON, number) cannot keep exactly
 * (TOML 1.0 says a reader must refuse an integer it cannot keep, never round it); and a time
 * whose seconds are 60, which tomllib refuses too (see docs/decisions.md). The parser's tokens are
 * in text order, so the first found is the first in the text.
 */
function refusedValue(program: AST.TOMLProgram): { message: string; start: number; end: number } | null {
  for (const token of program.tokens) {
    if (token.type === 'Integer') {
      const value = token.bigint;
      if (value > LARGEST_EXACT_INTEGER || value < -LARGEST_EXACT_INTEGER)
        return {
          message: `the integer ${token.value} is beyond ±9007199254740991 (2^53 − 1), the largest a manifest's number keeps exactly; TOML has a reader refuse an integer it cannot keep, never round it`,
          start: token.range[0],
          end: token.range[1],
        };
    } else if (token.type === 'LocalTime' || token.type === 'LocalDateTime' || token.type === 'OffsetDateTime') {
      const leap = /\d\d:\d\d:(60)/.exec(token.value);
      if (leap)
        return {
          message: `seconds of 60 (a leap second) in ${token.value} are not read: a manifest's time has seconds 00 to 59`,
          start: token.range[0] + leap.index + 6,
          end: token.range[0] + leap.index + 8,
        };
    }
  }
  return null;
}

/** One header of a table block: its keys, located, and whether it opens an array of tables. */
export interface TomlHeader {
  /** In the block's frame, so they move with its tree. */
  keys: LocatedName[];
  array: boolean;
}

/**
 * The tree of one block (see toml-blocks.ts) on its own: for a table block, the table's map
 * with the entries of its body, ranged like the table; for block 0, a map of the root keys.
 * {@link joinTomlParts} joins the blocks of a text into the tree a whole parse gives.
 */
export interface TomlPart {
  header?: TomlHeader;
  table: MapNode;
  hasDateTimes: boolean;
  /** What the table's nodes and the header's keys keep their offsets from: moving the block moves them all. */
  frame: Frame;
}

/**
 * Parses a whole text; when `blocks` (its plan) is given and the text is free of problems,
 * also returns the tree of each block, so later edits can re-parse block by block. The tree
 * is then the merge of those blocks (sharing their nodes); otherwise the whole-text build.
 */
export function parseTomlDocument(
  text: string,
  base: number,
  blocks: TomlBlock[] | null,
): ParsedFragment & { parts?: TomlPart[]; join?: TomlJoin } {
  const parsed = parseProgram(text, base);
  if ('root' in parsed) return parsed;
  const parts = blocks ? partsOfProgram(parsed, blocks, base) : null;
  if (parts) {
    const { root, join, hasDateTimes } = joinTomlParts(parts, base, text.length);
    const diagnostics: RawDiagnostic[] = [];
    new TomlTreeBuilder(base).checkKeys(root, '', diagnostics);
    if (diagnostics.length === 0) return { root, diagnostics, aliasCount: 0, hasDateTimes, parts, join };
  }
  return buildWhole(parsed, text, base);
}

/** The block trees of a parsed text, or null if its tables do not line up with the blocks. */
function partsOfProgram(program: AST.TOMLProgram, blocks: TomlBlock[], base: number): TomlPart[] | null {
  const items = program.body[0]?.body ?? [];
  const firstTable = items.findIndex((item) => item.type === 'TOMLTable');
  const kvs = firstTable === -1 ? items : items.slice(0, firstTable);
  const tables = firstTable === -1 ? [] : items.slice(firstTable);
  if (tables.length !== blocks.length - 1) return null;
  const parts: TomlPart[] = [];
  const first = new TomlTreeBuilder(base);
  parts.push({
    table: first.rootPart(kvs as AST.TOMLKeyValue[], blocks[0]!),
    hasDateTimes: first.hasDateTimes,
    frame: first.frame,
  });
  for (let i = 0; i < tables.length; i++) {
    const table = tables[i]!;
    const block = blocks[i + 1]!;
    if (table.type !== 'TOMLTable' || table.range[0] < block.start || table.range[1] > block.end) return null;
    const builder = new TomlTreeBuilder(base);
    parts.push({ ...builder.tablePart(table), hasDateTimes: builder.hasDateTimes, frame: builder.frame });
  }
  return parts;
}

/**
 * Parses a text block by block, for a file opened afresh: the parser's tree of the whole text
 * would take several times the memory of all block trees together. Each block must parse alone
 * without a problem, and how the blocks combine is checked by parsing their skeleton: the header
 * lines and each statement's key with an empty value of the same kind (`0`, `[]`, `{}`), which
 * has the signatures of the text (see toml-blocks.ts), so it conflicts exactly where the text
 * would. Null on any problem: parse the whole text for its exact diagnostics.
 */
export function parseTomlByBlocks(
  text: string,
  base: number,
  blocks: TomlBlock[],
): { root: MapNode; parts: TomlPart[]; hasDateTimes: boolean; join: TomlJoin } | null {
  // Keys a header names; a statement whose first key is a bare key no header names meets no
  // other block (see toml-blocks.ts), so the skeleton leaves it out.
  const named = new Set<string>();
  for (let i = 1; i < blocks.length; i++) {
    const signature = blocks[i]!.signature;
    const end = signature.indexOf('\n');
    const line = end === -1 ? signature : signature.slice(0, end);
    if (/["']/.test(line)) return null;
    const inner = line.replace(/^\[\[?/, '');
    const close = inner.indexOf(']');
    for (const key of (close < 0 ? inner : inner.slice(0, close)).split('.')) named.add(key.trim());
  }
  // One skeleton per top-level key: what lies under different top-level keys cannot conflict,
  // and parsing a few smaller skeletons keeps the parser's tree of the whole skeleton (tens of
  // megabytes for a 50k-line file) out of memory. A quoted top-level key puts all in one.
  const groups = new Map<string, string[]>();
  let grouped = true;
  const all: string[] = [];
  const groupOf = (key: string): string[] => {
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    return group;
  };
  for (let b = 0; b < blocks.length; b++) {
    const pieces = blocks[b]!.signature.split('\n');
    let group: string[] | undefined;
    for (const piece of pieces) {
      if (piece === '') continue;
      if (piece.startsWith('[')) {
        group = groupOf(
          piece
            .replace(/^\[\[?/, '')
            .split(/[.\]]/)[0]!
            .trim(),
        );
        group.push(piece);
        all.push(piece);
        continue;
      }
      const equals = piece.lastIndexOf('=');
      if (piece.startsWith('?') || equals < 0) return null;
      const first = piece.slice(0, equals).split('.')[0]!.trim();
      const bare = /^[A-Za-z0-9_-]+$/.test(first);
      if (bare && !named.has(first)) continue;
      if (!bare && b === 0) grouped = false;
      const kind = piece.slice(equals + 1);
      const line = `${piece.slice(0, equals)} = ${kind === '{' ? '{}' : kind === '[' ? '[]' : '0'}`;
      (group ?? groupOf(first)).push(line);
      all.push(line);
    }
  }
  const skeletons = grouped ? [...groups.values()] : [all];
  for (const skeleton of skeletons) if ('root' in parseProgram(skeleton.join('\n'), 0)) return null;
  const parts: TomlPart[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    const parsed = parseTomlBlock(text.slice(block.start, block.end), base + block.start, i === 0);
    if (!parsed || 'error' in parsed) return null;
    parts.push(parsed.part);
  }
  const { root, join, hasDateTimes } = joinTomlParts(parts, base, text.length);
  const diagnostics: RawDiagnostic[] = [];
  new TomlTreeBuilder(base).checkKeys(root, '', diagnostics);
  if (diagnostics.length > 0) return null;
  return { root, parts, hasDateTimes, join };
}

/**
 * Parses one block's text on its own (`first`: block 0, before any header): its tree, or the
 * parser's error (`syntax` unless it is a redefinition, which may depend on other blocks).
 * Null when the text is not one block or the key check finds a problem: parse the whole text.
 */
export function parseTomlBlock(
  text: string,
  base: number,
  first: boolean,
): { part: TomlPart } | { error: ParsedFragment; syntax: boolean; index: number } | null {
  const parsed = parseProgram(text, base);
  if ('root' in parsed) {
    const diagnostic = parsed.diagnostics[0]!;
    // A refused value is the whole text's first error only if the whole text parses: not a block's to say.
    return {
      error: parsed,
      syntax: diagnostic.code === 'toml-syntax' && !parsed.refusedValue,
      index: diagnostic.start - base,
    };
  }
  const items = parsed.body[0]?.body ?? [];
  const builder = new TomlTreeBuilder(base);
  let part: TomlPart;
  if (first) {
    if (items.some((item) => item.type !== 'TOMLKeyValue')) return null;
    part = {
      table: builder.rootPart(items as AST.TOMLKeyValue[], { start: 0, end: text.length }),
      hasDateTimes: false,
      frame: builder.frame,
    };
  } else {
    const table = items[0];
    if (items.length !== 1 || table?.type !== 'TOMLTable') return null;
    part = { ...builder.tablePart(table), hasDateTimes: false, frame: builder.frame };
  }
  part.hasDateTimes = builder.hasDateTimes;
  const diagnostics: RawDiagnostic[] = [];
  builder.checkKeys(part.table, '', diagnostics);
  return diagnostics.length === 0 ? { part } : null;
}

/**
 * What joining the blocks under one top-level key made: the root's entries for the key, and the
 * nodes and entries the join created (the others belong to the blocks). What lies under
 * different top-level keys is joined independently, so an edit joins only its key's blocks again.
 */
export interface TomlGroup {
  key: string;
  /** What was joined, in order: block 0's entry for the key, and the table blocks under it. */
  sources: (TomlPart | MapEntry)[];
  /**
   * Where the first and the last source started when joined. Sources are in the text's order and an
   * edit is one span, so when the sources are the same objects and these two moved by the same
   * amount, every source between them did (a per-source list cost every edit a pass over
   * thousands of `[[triggers]]` tables to move).
   */
  firstAt: number;
  lastAt: number;
  /** The index of each source's part (block 0's entries: 0). */
  indexes: number[];
  entries: MapEntry[];
  owned: object[];
  /** Every source is a `[[key]]` table (no sub-table headers, no key of block 0): its join is one sequence of those tables. */
  arrayOfTables?: boolean;
}

/** A join of block trees, kept for the next edit's: its groups, and which group each block went to. */
export interface TomlJoin {
  groups: TomlGroup[];
  parts: readonly TomlPart[];
  /** Per part, the key of the group of a table block (block 0's entries may go to several: undefined). */
  keyOfPart: (string | undefined)[];
  /** How many parts hold a TOML date or time. */
  datedParts: number;
}

/** Which parts changed since a join: those from `from` to `stop` (as many as before); those after moved by `delta`. */
export interface TomlPartsChange {
  from: number;
  stop: number;
  delta: number;
}

/**
 * Joins block trees into the tree of the whole text, exactly as TomlTreeBuilder builds it from
 * a whole parse: the same nodes, entries, order and ranges. The blocks' nodes are shared, never
 * changed: a node that must change (a table a later header adds to, a range that grows) is
 * copied first, so the parts can be reused by the next edit's join.
 *
 * The join of each top-level key is kept for the next one: a key whose blocks are the
 * same objects as in `previous`, all moved by the same amount since (or not at all), keeps its
 * joined nodes (moved in place), and only the others are joined again. A block that is the same
 * object at the same place as in `previous` goes to the same group without its header being read.
 * With `change` (what changed since `previous`), only the groups of the changed parts are looked
 * at part by part: the others are kept, or moved, whole.
 */
export function joinTomlParts(
  parts: TomlPart[],
  base: number,
  length: number,
  previous?: TomlJoin,
  change?: TomlPartsChange,
): { root: MapNode; join: TomlJoin; hasDateTimes: boolean } {
  const patched = previous && change ? patchedJoin(parts, base, length, previous, change) : null;
  if (patched) return patched;
  const byKey = new Map<string, TomlGroup>();
  const groups: TomlGroup[] = [];
  const groupOf = (key: string): TomlGroup => {
    let group = byKey.get(key);
    if (!group) {
      group = { key, sources: [], firstAt: -1, lastAt: -1, indexes: [], entries: [], owned: [] };
      byKey.set(key, group);
      groups.push(group);
    }
    return group;
  };
  const keyOfPart: (string | undefined)[] = new Array<string | undefined>(parts.length);
  // A part of `previous` at the same index, or (when parts were added or removed) at the index the
  // change moved it to, keeps its group's key without its header being read.
  const shift = previous ? parts.length - previous.parts.length : 0;
  const keyKnown = (i: number, part: TomlPart): string | undefined => {
    if (!previous) return undefined;
    if (previous.parts[i] === part) return previous.keyOfPart[i];
    const j = i - shift;
    return shift !== 0 && j >= 0 && previous.parts[j] === part ? previous.keyOfPart[j] : undefined;
  };
  // Read here, where every part is visited anyway: another pass over thousands of parts costs a miss each.
  let datedParts = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.hasDateTimes) datedParts++;
    let key = keyKnown(i, part);
    if (key === undefined) {
      if (!part.header) {
        for (const entry of part.table.entries) {
          const group = groupOf(entry.key);
          addSource(group, entry, entry.start, i);
        }
        continue;
      }
      key = part.header.keys[0]!.name;
    }
    keyOfPart[i] = key;
    addSource(groupOf(key), part, part.table.start, i);
  }
  const earlier = new Map((previous?.groups ?? []).map((group) => [group.key, group]));
  const root: MapNode = { kind: 'map', flow: false, entries: [], start: base, end: base + length };
  for (const group of groups) {
    const old = earlier.get(group.key);
    const moved = old ? sameSourcesMoved(old, group) : null;
    if (old && moved !== null) {
      if (moved !== 0) for (const object of old.owned) moveJoined(object, moved);
      group.entries = old.entries;
      group.owned = old.owned;
      group.arrayOfTables = old.arrayOfTables;
    } else joinGroup(group, old, base, length);
    for (const entry of group.entries) root.entries.push(entry);
  }
  return { root, join: { groups, parts, keyOfPart, datedParts }, hasDateTimes: datedParts > 0 };
}

/** Adds a source to a group being made, starting at `at`, from part `index`. */
function addSource(group: TomlGroup, source: TomlPart | MapEntry, at: number, index: number): void {
  if (group.sources.length === 0) group.firstAt = at;
  group.lastAt = at;
  group.sources.push(source);
  group.indexes.push(index);
}

/**
 * Joins a group's sources again: patched as an array of tables when it is one as before, else
 * merged. `replaced`, when known, holds every source that is not `old`'s (positions first..end-1).
 */
function joinGroup(
  group: TomlGroup,
  old: TomlGroup | undefined,
  base: number,
  length: number,
  replaced?: { first: number; end: number },
): void {
  const patched = old ? patchedArrayOfTables(old, group, replaced) : null;
  if (patched) {
    group.entries = patched.entries;
    group.owned = patched.owned;
    group.arrayOfTables = true;
    return;
  }
  const merger = new TomlMerger();
  const groupRoot = merger.start(base, length);
  for (const source of group.sources) {
    if ('table' in source) {
      if (source.header) merger.joinTable(groupRoot, source.header, source.table);
    } else merger.joinEntries(groupRoot, [source]);
  }
  group.entries = groupRoot.entries;
  group.owned = merger.ownedObjects(groupRoot);
  group.arrayOfTables = group.sources.every((source) => isArrayTable(source));
}

/**
 * The join after `change`, from `previous`, when the changed parts are tables under the same
 * top-level keys as before: a group with no part from `change.from` on is kept, one with all its
 * parts after the change is moved, and only the others are joined again. Null otherwise.
 */
function patchedJoin(
  parts: TomlPart[],
  base: number,
  length: number,
  previous: TomlJoin,
  change: TomlPartsChange,
): { root: MapNode; join: TomlJoin; hasDateTimes: boolean } | null {
  const { from, stop, delta } = change;
  // Block 0's entries go to several groups: a change there joins the usual way.
  if (from === 0 || previous.parts.length !== parts.length) return null;
  let datedParts = previous.datedParts;
  for (let i = from; i < stop; i++) {
    const part = parts[i]!;
    const old = previous.parts[i]!;
    if (part === old) continue;
    if (!part.header || part.header.keys[0]!.name !== previous.keyOfPart[i]) return null;
    datedParts += (part.hasDateTimes ? 1 : 0) - (old.hasDateTimes ? 1 : 0);
  }
  const root: MapNode = { kind: 'map', flow: false, entries: [], start: base, end: base + length };
  const groups: TomlGroup[] = [];
  for (const old of previous.groups) {
    const indexes = old.indexes;
    let group: TomlGroup;
    if (indexes[indexes.length - 1]! < from) {
      group = old;
    } else if (indexes[0]! >= stop) {
      if (delta !== 0) for (const object of old.owned) moveJoined(object, delta);
      group = { ...old, firstAt: old.firstAt + delta, lastAt: old.lastAt + delta };
    } else {
      // Only the group's sources among the changed parts are replaced: found by their part indexes, which ascend.
      const sources = old.sources.slice();
      const first = indexes[0]! >= from ? 0 : lastAtMost(indexes, from - 1) + 1;
      let end = first;
      for (; end < indexes.length && indexes[end]! < stop; end++) sources[end] = parts[indexes[end]!]!;
      const touched = end > first;
      const startOf = (k: number, was: number): number =>
        k >= end ? was + delta : k >= first ? (sources[k] as TomlPart).table.start : was;
      if (touched || delta !== 0) {
        group = {
          key: old.key,
          sources,
          firstAt: startOf(0, old.firstAt),
          lastAt: startOf(indexes.length - 1, old.lastAt),
          indexes,
          entries: [],
          owned: [],
        };
        joinGroup(group, old, base, length, touched ? { first, end } : { first: 0, end: 0 });
      } else group = old;
    }
    groups.push(group);
    for (const entry of group.entries) root.entries.push(entry);
  }
  return { root, join: { groups, parts, keyOfPart: previous.keyOfPart, datedParts }, hasDateTimes: datedParts > 0 };
}

/** Whether a source of a group is a `[[key]]` table (one key: not a sub-table of an array's item). */
function isArrayTable(source: TomlPart | MapEntry): source is TomlPart & { header: TomlHeader } {
  return 'table' in source && source.header !== undefined && source.header.array && source.header.keys.length === 1;
}

/**
 * The join of an array of tables (see {@link TomlGroup.arrayOfTables}) whose tables changed but
 * not their number: the sequence of the tables under one entry, ranged from the first table to
 * the last, as a join makes it, without going through the tables one by one. Null when `group`
 * is not such an array of as many tables as `old`.
 */
function patchedArrayOfTables(
  old: TomlGroup,
  group: TomlGroup,
  replaced?: { first: number; end: number },
): { entries: MapEntry[]; owned: object[] } | null {
  const sources = group.sources;
  const n = sources.length;
  if (!old.arrayOfTables || n === 0) return null;
  const oldSeq = old.entries.length === 1 ? old.entries[0]!.value : undefined;
  if (oldSeq?.kind !== 'seq' || oldSeq.items.length !== old.sources.length) return null;
  if (old.sources.length !== n) return splicedArrayOfTables(old, oldSeq, sources);
  // Unchanged sources are the same objects (and were array tables), and their tables are the
  // previous sequence's items: only the others are looked at (reading every part would cost a
  // memory miss each, in a list of thousands).
  const tables = oldSeq.items.slice();
  let first = n;
  let last = -1;
  for (let i = replaced?.first ?? 0, stop = replaced?.end ?? n; i < stop; i++) {
    const source = sources[i]!;
    if (source === old.sources[i]) continue;
    if (!isArrayTable(source)) return null;
    tables[i] = source.table;
    first = Math.min(first, i);
    last = i;
  }
  // What reads the tables one by one (declarations, kept rule results) looks only between the unchanged ends.
  return arrayOfTablesEntry(sources, tables, last >= 0 ? keptEnds(oldSeq.items, first, n - 1 - last) : undefined);
}

/**
 * {@link patchedArrayOfTables} for an array whose number of tables changed (a `[[key]]` table
 * typed between two others, or deleted): the sources at both ends that are `old`'s, the same
 * objects, keep their tables; those between must all be `[[key]]` tables. Null otherwise.
 */
function splicedArrayOfTables(
  old: TomlGroup,
  oldSeq: SeqNode,
  sources: readonly (TomlPart | MapEntry)[],
): { entries: MapEntry[]; owned: object[] } | null {
  const { prefix, suffix } = commonEnds(sources, old.sources);
  const middle: ValueNode[] = [];
  for (let i = prefix; i < sources.length - suffix; i++) {
    const source = sources[i]!;
    if (!isArrayTable(source)) return null;
    middle.push(source.table);
  }
  const tables = withRunReplaced(oldSeq.items, prefix, oldSeq.items.length - suffix, middle);
  return arrayOfTablesEntry(sources, tables, keptEnds(oldSeq.items, prefix, suffix));
}

/**
 * The one entry of an array of tables: its key as the first table's header names it, and the
 * sequence of `tables`, which carries `kept` when the tables were spliced from an earlier sequence's.
 */
function arrayOfTablesEntry(
  sources: readonly (TomlPart | MapEntry)[],
  tables: ValueNode[],
  kept?: KeptEnds,
): { entries: MapEntry[]; owned: object[] } {
  const key = (sources[0] as TomlPart).header!.keys[0]!;
  const start = tables[0]!.start;
  const end = tables[tables.length - 1]!.end;
  const seq: SeqNode = { kind: 'seq', flow: false, items: tables, start, end };
  if (kept) setKept(seq, kept);
  const entry: MapEntry = {
    key: key.name,
    keyStart: key.keyStart,
    keyEnd: key.keyEnd,
    value: seq,
    start: key.keyStart,
    end,
  };
  return { entries: [entry], owned: [seq, entry] };
}

/** How far the sources of a group moved since `old` joined them (all by the same amount), or null when they are not the same. */
function sameSourcesMoved(old: TomlGroup, group: TomlGroup): number | null {
  if (old.sources.length !== group.sources.length) return null;
  for (let i = 0; i < old.sources.length; i++) if (old.sources[i] !== group.sources[i]) return null;
  // Where the sources start now was read when grouping.
  const moved = group.firstAt - old.firstAt;
  return group.lastAt - old.lastAt === moved ? moved : null;
}

/** Moves a node or entry the join made, by its own offsets only (what it holds moves with its block). */
function moveJoined(object: object, delta: number): void {
  const node = object as { start: number; end: number; keyStart?: number; keyEnd?: number };
  node.start += delta;
  node.end += delta;
  if (node.keyStart !== undefined) {
    node.keyStart += delta;
    node.keyEnd! += delta;
  }
}

class TomlMerger {
  /** Nodes and entries created by this merge (the others belong to parts). */
  private readonly owned = new Set<object>();

  /** A root to join into (see {@link joinTomlParts}). */
  start(base: number, length: number): MapNode {
    const root: MapNode = { kind: 'map', flow: false, entries: [], start: base, end: base + length };
    this.owned.add(root);
    return root;
  }

  joinTable(root: MapNode, header: TomlHeader, table: MapNode): void {
    this.table(root, header, table);
  }

  joinEntries(root: MapNode, entries: MapEntry[]): void {
    this.mergeEntries(root, entries);
  }

  /** What this merge made, but for `root`. */
  ownedObjects(root: MapNode): object[] {
    return [...this.owned].filter((object) => object !== root);
  }
  /** Index of the first entry of each key, per map. */
  private readonly index = new Map<MapNode, Map<string, number>>();

  private keyIndex(map: MapNode): Map<string, number> {
    let byKey = this.index.get(map);
    if (!byKey) {
      byKey = new Map();
      for (let i = 0; i < map.entries.length; i++)
        if (!byKey.has(map.entries[i]!.key)) byKey.set(map.entries[i]!.key, i);
      this.index.set(map, byKey);
    }
    return byKey;
  }

  private add(map: MapNode, entry: MapEntry): void {
    const byKey = this.keyIndex(map);
    if (!byKey.has(entry.key)) byKey.set(entry.key, map.entries.length);
    map.entries.push(entry);
  }

  /** Entry `i` of an owned map, copied into it first if it belongs to a part. */
  private ownEntry(map: MapNode, i: number): MapEntry {
    let entry = map.entries[i]!;
    if (!this.owned.has(entry)) {
      entry = detachedEntry(entry);
      this.owned.add(entry);
      map.entries[i] = entry;
    }
    return entry;
  }

  private own<T extends ValueNode>(node: T): T {
    if (this.owned.has(node)) return node;
    if (node.kind !== 'map' && node.kind !== 'seq') return node;
    const copy = detachedCollection(node);
    this.owned.add(copy);
    return copy as T;
  }

  /** The value of an owned entry, owned; for an array of tables, its last table (as the builder descends). */
  private ownedValue(entry: MapEntry): ValueNode {
    const value = (entry.value = this.own(entry.value));
    if (value.kind !== 'seq') return value;
    const last = value.items.length - 1;
    if (last < 0) return value;
    return (value.items[last] = this.own(value.items[last]!));
  }

  private descend(map: MapNode, keys: TomlHeader['keys'], around: [number, number]): MapNode {
    let current = map;
    for (const key of keys) {
      const i = this.keyIndex(current).get(key.name);
      let entry: MapEntry;
      if (i === undefined) {
        const child: MapNode = { kind: 'map', flow: false, entries: [], start: around[0], end: around[1] };
        entry = {
          key: key.name,
          keyStart: key.keyStart,
          keyEnd: key.keyEnd,
          value: child,
          start: key.keyStart,
          end: around[1],
        };
        this.owned.add(child);
        this.owned.add(entry);
        this.add(current, entry);
      } else {
        entry = this.ownEntry(current, i);
      }
      const value = this.ownedValue(entry);
      if (value.kind !== 'map') return current;
      extend(value, around);
      entry.end = Math.max(entry.end, around[1]);
      current = value;
    }
    return current;
  }

  private table(root: MapNode, header: TomlHeader, node: MapNode): void {
    const range: [number, number] = [node.start, node.end];
    const parent = this.descend(root, header.keys.slice(0, -1), range);
    const last = header.keys[header.keys.length - 1]!;
    const i = this.keyIndex(parent).get(last.name);
    const existing = i === undefined ? undefined : parent.entries[i]!;
    if (header.array) {
      if (i !== undefined && existing!.value.kind === 'seq') {
        const entry = this.ownEntry(parent, i);
        const seq = (entry.value = this.own(entry.value as SeqNode));
        seq.items.push(node);
        seq.end = Math.max(seq.end, range[1]);
        entry.end = Math.max(entry.end, range[1]);
      } else {
        const seq: SeqNode = { kind: 'seq', flow: false, items: [node], start: range[0], end: range[1] };
        const entry: MapEntry = {
          key: last.name,
          keyStart: last.keyStart,
          keyEnd: last.keyEnd,
          value: seq,
          start: last.keyStart,
          end: range[1],
        };
        this.owned.add(seq);
        this.owned.add(entry);
        this.add(parent, entry);
      }
    } else if (i !== undefined && existing!.value.kind === 'map') {
      // A table first created implicitly by a sub-table header (`[a.b]` before `[a]`).
      const entry = this.ownEntry(parent, i);
      const target = (entry.value = this.own(entry.value as MapNode));
      extend(target, range);
      this.mergeEntries(target, node.entries);
    } else {
      const entry: MapEntry = {
        key: last.name,
        keyStart: last.keyStart,
        keyEnd: last.keyEnd,
        value: node,
        start: last.keyStart,
        end: range[1],
      };
      this.owned.add(entry);
      this.add(parent, entry);
    }
  }

  /**
   * Adds a block's entries to an owned map, as assigning its key/values one by one would: a
   * table made by dotted keys (a block map that is not inline) continues a table of that name.
   */
  private mergeEntries(target: MapNode, entries: MapEntry[]): void {
    for (const entry of entries) {
      const value = entry.value;
      const i = value.kind === 'map' && !value.flow ? this.keyIndex(target).get(entry.key) : undefined;
      if (i === undefined) {
        this.add(target, entry);
        continue;
      }
      const existing = this.ownEntry(target, i);
      const into = this.ownedValue(existing);
      if (into.kind !== 'map') {
        this.add(target, entry);
        continue;
      }
      extend(into, [value.start, value.end]);
      existing.end = Math.max(existing.end, entry.end);
      this.mergeEntries(into, (value as MapNode).entries);
    }
  }
}

const TOML_DATE_TIME_TYPES: Record<
  'offset-date-time' | 'local-date-time' | 'local-date' | 'local-time',
  TomlDateTimeType
> = {
  'offset-date-time': 'offset date-time',
  'local-date-time': 'local date-time',
  'local-date': 'local date',
  'local-time': 'local time',
};

class TomlTreeBuilder {
  /** Whether any value is a date or time. */
  hasDateTimes = false;
  /** Entries by key for each map being built: a file with thousands of tables stays linear. */
  private readonly keys = new Map<MapNode, Map<string, MapEntry>>();

  /** What the built nodes keep their offsets from. */
  readonly frame: Frame;

  constructor(base: number) {
    this.frame = new Frame(base);
  }

  private lookup(map: MapNode, key: string): MapEntry | undefined {
    return this.keys.get(map)?.get(key);
  }

  /** Adds an entry; the first entry of a key stays the one found by lookup (TOML forbids redefinitions anyway). */
  private add(map: MapNode, entry: MapEntry): void {
    map.entries.push(entry);
    let byKey = this.keys.get(map);
    if (!byKey) this.keys.set(map, (byKey = new Map()));
    if (!byKey.has(entry.key)) byKey.set(entry.key, entry);
  }

  build(program: AST.TOMLProgram, length: number): MapNode {
    const base = this.frame.base;
    const root: MapNode = mapNode(this.frame, base, base + length, [], false);
    const top = program.body[0];
    if (!top) return root;
    for (const item of top.body) {
      if (item.type === 'TOMLKeyValue') this.assign(root, item);
      else this.table(root, item);
    }
    return root;
  }

  /** Block 0's tree: the root keys, in a map ranged like the block. */
  rootPart(kvs: AST.TOMLKeyValue[], block: { start: number; end: number }): MapNode {
    const map: MapNode = mapNode(this.frame, this.frame.base + block.start, this.frame.base + block.end, [], false);
    for (const kv of kvs) this.assign(map, kv);
    return map;
  }

  /** A table block's tree: its header and the table's map with its body. */
  tablePart(table: AST.TOMLTable): { header: TomlHeader; table: MapNode } {
    const [start, end] = this.at(table);
    const keys = table.key.keys.map((key) => {
      const [keyStart, keyEnd] = this.at(key);
      return locatedName(this.frame, this.keyName(key), keyStart, keyEnd);
    });
    const node: MapNode = mapNode(this.frame, start, end, [], false);
    for (const kv of table.body) this.assign(node, kv);
    return { header: { keys, array: table.kind === 'array' }, table: node };
  }

  /** Reports repeated keys everywhere in the tree (TOML rejects most duplicates itself). */
  checkKeys(node: ValueNode, pointer: string, diagnostics: RawDiagnostic[]): void {
    if (node.kind === 'map') {
      checkMapKeys(node.entries, pointer, diagnostics);
      for (const entry of node.entries)
        this.checkKeys(entry.value, `${pointer}/${escapePointerSegment(entry.key)}`, diagnostics);
    } else if (node.kind === 'seq') {
      node.items.forEach((item, index) => this.checkKeys(item, `${pointer}/${index}`, diagnostics));
    }
  }

  private keyName(key: AST.TOMLBare | AST.TOMLQuoted): string {
    return key.type === 'TOMLBare' ? key.name : key.value;
  }

  private at(node: { range: [number, number] }): [number, number] {
    const base = this.frame.base;
    return [base + node.range[0], base + node.range[1]];
  }

  /** The map at `segments` below `map`, creating implicit tables on the way; `around` sizes new ones. */
  private descend(map: MapNode, keys: (AST.TOMLBare | AST.TOMLQuoted)[], around: [number, number]): MapNode {
    let current = map;
    for (const key of keys) {
      const name = this.keyName(key);
      let entry = this.lookup(current, name);
      if (!entry) {
        const [keyStart, keyEnd] = this.at(key);
        const child: MapNode = mapNode(this.frame, around[0], around[1], [], false);
        entry = mapEntry(this.frame, name, keyStart, keyEnd, child, around[1]);
        this.add(current, entry);
      }
      let value = entry.value;
      // Descending into an array of tables continues in its last table.
      if (value.kind === 'seq') value = value.items[value.items.length - 1] ?? value;
      if (value.kind !== 'map') return current;
      extend(value, around);
      entry.end = Math.max(entry.end, around[1]);
      current = value;
    }
    return current;
  }

  private table(root: MapNode, table: AST.TOMLTable): void {
    const keys = table.key.keys;
    const range = this.at(table);
    const parent = this.descend(root, keys.slice(0, -1), range);
    const last = keys[keys.length - 1]!;
    const name = this.keyName(last);
    const [keyStart, keyEnd] = this.at(last);
    const node: MapNode = mapNode(this.frame, range[0], range[1], [], false);
    const existing = this.lookup(parent, name);
    if (table.kind === 'array') {
      if (existing?.value.kind === 'seq') {
        existing.value.items.push(node);
        existing.value.end = Math.max(existing.value.end, range[1]);
        existing.end = Math.max(existing.end, range[1]);
      } else {
        const seq: SeqNode = seqNode(this.frame, range[0], range[1], [node], false);
        this.add(parent, mapEntry(this.frame, name, keyStart, keyEnd, seq, range[1]));
      }
    } else if (existing?.value.kind === 'map') {
      // A table first created implicitly by a sub-table header (`[a.b]` before `[a]`).
      extend(existing.value, range);
      for (const kv of table.body) this.assign(existing.value, kv);
      return;
    } else {
      this.add(parent, mapEntry(this.frame, name, keyStart, keyEnd, node, range[1]));
    }
    for (const kv of table.body) this.assign(node, kv);
  }

  private assign(table: MapNode, kv: AST.TOMLKeyValue): void {
    const keys = kv.key.keys;
    const range = this.at(kv);
    const parent = this.descend(table, keys.slice(0, -1), range);
    const last = keys[keys.length - 1]!;
    const [keyStart, keyEnd] = this.at(last);
    const value = this.value(kv.value);
    this.add(parent, mapEntry(this.frame, this.keyName(last), keyStart, keyEnd, value, range[1]));
  }

  private value(node: AST.TOMLContentNode): ValueNode {
    const [start, end] = this.at(node);
    if (node.type === 'TOMLArray') {
      return seqNode(
        this.frame,
        start,
        end,
        node.elements.map((element) => this.value(element)),
        true,
      );
    }
    if (node.type === 'TOMLInlineTable') {
      const map: MapNode = mapNode(this.frame, start, end, [], true);
      for (const kv of node.body) this.assign(map, kv);
      return map;
    }
    let value: ScalarNode['value'];
    let style: ScalarNode['style'] = 'plain';
    switch (node.kind) {
      case 'string':
        value = node.value;
        style = 'quoted';
        break;
      case 'integer':
      case 'float':
        value = Number(node.value);
        break;
      case 'boolean':
        value = node.value;
        break;
      default: {
        // TOML dates and times are types of their own, not strings: the node keeps their text
        // as written and says which type it is, and the plain value gets a TomlDateTime.
        this.hasDateTimes = true;
        const text = (node as { datetime?: string }).datetime ?? String(node.value);
        return scalarNode(this.frame, start, end, text, style, TOML_DATE_TIME_TYPES[node.kind]);
      }
    }
    return scalarNode(this.frame, start, end, value, style);
  }
}

function extend(node: MapNode, range: [number, number]): void {
  node.start = Math.min(node.start, range[0]);
  node.end = Math.max(node.end, range[1]);
}

export type { MapEntry };
