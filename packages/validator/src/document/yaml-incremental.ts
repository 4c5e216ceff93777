/**
 * The chunked YAML parse, and how an edit reuses it (the YAML reader, yaml-reader.ts, drives it).
 *
 * A chunked text is a list of top-level chunks (`yaml-chunks.ts`), each parsed as one unit, or,
 * for a large block collection, as a header unit and one unit per item. A document keeps its
 * tops with their units' trees. An edit changes one region of whole lines (`text-change.ts`);
 * instead of scanning the whole text again, `replanYaml` scans from the start of the unit before
 * the region to the first unit boundary after it where the scanner is in the state the whole
 * scan was in (no flow collection, quoted or block scalar open, the same enclosing
 * indentations): from there on the scan, and so the plan, is the previous one moved by the
 * edit's length. Units whose text lies outside the region keep their trees (moved in place).
 */
import type { RawDiagnostic } from '../diagnostic.js';
import { shiftAllInPlace } from './shift-diagnostics.js';
import { lastAtMost } from './line-index.js';
import {
  detachedEntry,
  escapePointerSegment,
  groupAt,
  groupFramesByIndex,
  groupsFor,
  moveFramesFrom,
  setKept,
  type Frame,
  type FrameGroup,
  type MapEntry,
  type MapNode,
  type SeqNode,
  type ValueNode,
} from './nodes.js';
import { parseYamlFragment } from './parse-yaml.js';
import type { ParsedFragment } from './tree-builder.js';
import { keptEnds, withKept, withRunReplaced, type KeptEnds } from './spliced-lists.js';
import { bodyRegion, type ChangedRegion } from './text-change.js';
import { checkMapKeys } from './tree-builder.js';
import { buildValue, newObject } from './value.js';
import { itemLine, ITEM_SPLIT_MIN_LINES, planTopChunks, type ItemChunks, type TopChunk } from './yaml-chunks.js';
import { scanYamlPart, type YamlLineTable, type YamlScan } from './yaml-scan.js';
import type { TextSource } from './piece-text.js';

/** A parsed chunk: its tree's offsets are kept from its fragment's frame, whose base is where the chunk starts. */
export interface YamlUnit {
  fragment: ParsedFragment & { frame: Frame };
  /** The unit's plain value (offsets do not matter to it, so it survives moves). */
  value?: unknown;
  /** Which of its top-level entries were left out when `value` was built (see `unitValue`). */
  valueMark?: string;
}

/** A block collection parsed item by item, as assembled into the document's tree. */
interface AssembledItems {
  entry: MapEntry;
  collection: SeqNode | MapNode;
  /** Repeated keys among the items of a mapping (what `checkMapKeys` reported). */
  keyDiagnostics: RawDiagnostic[];
  value?: unknown;
  /** A sequence whose every item unit holds exactly one item (then item `i` is unit `i + 1`'s). */
  oneEach?: boolean;
}

/**
 * How a sequence collection edited inside differs from its previous assembly: its units before
 * `keptBefore` and its last `keptAfter` units are the previous ones (units of the header and of
 * items), so its items and value are the previous ones' with the middle replaced.
 */
interface ItemsPatch {
  previous: AssembledItems;
  keptBefore: number;
  keptAfter: number;
}

/** A top-level chunk (body offsets) with its units: the whole chunk, or the header then each item. */
export interface YamlTop {
  chunk: TopChunk;
  units: YamlUnit[];
  /** The groups of the units' frames, by index (see `groupFramesByIndex`): moving the top or the units after an edit moves these. */
  groups: FrameGroup[];
  /** The indexes, ascending, of the units whose fragments have diagnostics (moved with them: their offsets are the file's). */
  withDiagnostics: number[];
  assembled?: AssembledItems;
  /** The units passed the assembly's checks (a chunk that is a map, a header with one key, ...). */
  ok?: boolean;
  /** Set by an edit inside a sequence parsed item by item: what its assembly can take from the last one. */
  patch?: ItemsPatch;
}

export interface YamlChunkState {
  bom: number;
  tops: YamlTop[];
}

/** A region in body offsets (the text after a byte-order mark). */
type BodyRegion = ChangedRegion;

/** What replanning decided: keep `tops[0..from)`, put `replaced` in place of `tops[from..to)`, move the rest by `delta`. */
export interface Replan {
  from: number;
  to: number;
  replaced: TopChunk[];
  /**
   * For an edit inside a block collection (`tops[from]`, replaced by one chunk): its items before
   * `keptBefore` are kept as they are, those from `resumeAt` on are kept and moved.
   */
  items?: { keptBefore: number; resumeAt: number };
}

function countNewlines(text: TextSource, start: number, end: number): number {
  let count = 0;
  for (let at = text.indexOf('\n', start); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/**
 * The chunk plan of `body` after an edit, from the previous plan and a scan of the region
 * around the edit only; null when that is not certain to equal the whole text's plan (then
 * scan and plan the whole text). `scanned` reports the characters the scan read.
 */
export function replanYaml(
  state: YamlChunkState,
  oldBody: TextSource,
  body: TextSource,
  region: ChangedRegion,
  maxDepth: number,
  work: { scanned: number },
): Replan | null {
  const r = bodyRegion(region, state.bom);
  const starts = state.tops.map((top) => top.chunk.start);
  const before = Math.max(0, r.start - 1);
  const t = lastAtMost(starts, before);
  const top = state.tops[t]!.chunk;
  const items = top.items;
  if (items && (r.start === items.itemsStart || before >= items.itemsStart))
    return replanInsideItems(state, starts, oldBody, body, r, t, maxDepth, work);
  const after = scanTops(state, starts, body, top.start, t, r, maxDepth, work);
  return after && { from: t, to: after.stopTop, replaced: after.replaced };
}

/**
 * {@link replanYaml} for an edit inside the block collection of top `t`: scans from the item
 * before the edit to an item boundary after it (or to a top-level key typed inside it, which
 * ends the collection there: the tops from it on are planned anew).
 */
function replanInsideItems(
  state: YamlChunkState,
  starts: readonly number[],
  oldBody: TextSource,
  body: TextSource,
  r: BodyRegion,
  t: number,
  maxDepth: number,
  work: { scanned: number },
): Replan | null {
  const tops = state.tops;
  const top = tops[t]!.chunk;
  const items = top.items!;
  const delta = r.delta;
  const i0 = r.start === items.itemsStart ? 0 : lastAtMost(items.itemStarts, Math.max(0, r.start - 1));
  const from = items.itemStarts[i0]!;
  const { scan, stopIndex: stoppedAt, stopTop } = scanItemsFrom(state, starts, body, r, t, i0, maxDepth);
  work.scanned += scan.end - from;
  if (scan.tooDeepAt >= 0 || !scan.chunkable) return null;
  const scanned = scannedItems(body, scan.lines, items, i0);
  if (!scanned) return null;
  const { found, newKey } = scanned;
  if (newKey >= 0) {
    // The collection now ends at the new key; from it on, plan top-level chunks.
    const after = scanTops(state, starts, body, newKey, t, r, maxDepth, work);
    if (!after) return null;
    const itemStarts = [...items.itemStarts.slice(0, i0), ...found];
    const total = top.lines + countNewlines(body, r.start, r.newEnd) - countNewlines(oldBody, r.start, r.oldEnd);
    const end = top.end + delta;
    const lineCount =
      t > 0 && newKey - top.start < end - newKey
        ? countNewlines(body, top.start, newKey)
        : total - countNewlines(body, newKey, end);
    if (itemStarts.length < 2 || lineCount < ITEM_SPLIT_MIN_LINES) return null;
    const chunk: TopChunk = {
      start: top.start,
      end: newKey,
      lines: lineCount,
      items: { kind: items.kind, indent: items.indent, itemsStart: itemStarts[0]!, itemStarts },
    };
    return {
      from: t,
      to: after.stopTop,
      replaced: [chunk, ...after.replaced],
      items: { keptBefore: i0, resumeAt: items.itemStarts.length },
    };
  }
  const stopIndex = scan.stopped ? stoppedAt : items.itemStarts.length;
  const itemStarts = [
    ...items.itemStarts.slice(0, i0),
    ...found,
    ...items.itemStarts.slice(stopIndex).map((s) => s + delta),
  ];
  // Tops the edit joined to the collection (their lines are its lines now).
  let lineCount = top.lines + countNewlines(body, r.start, r.newEnd) - countNewlines(oldBody, r.start, r.oldEnd);
  const to = stopIndex === items.itemStarts.length ? stopTop : t + 1;
  for (let k = t + 1; k < to; k++) lineCount += tops[k]!.chunk.lines;
  if (itemStarts.length < 2 || lineCount < ITEM_SPLIT_MIN_LINES) return null;
  const chunk: TopChunk = {
    start: top.start,
    end: to < tops.length ? tops[to]!.chunk.start + delta : body.length,
    lines: lineCount,
    items: { kind: items.kind, indent: items.indent, itemsStart: itemStarts[0]!, itemStarts },
  };
  return { from: t, to, replaced: [chunk], items: { keptBefore: i0, resumeAt: stopIndex } };
}

/**
 * Scans from item `i0` of the collection of top `t` until the scan, past the edit, is back in
 * step with the previous one: at the start of a previous item, outside any item's nesting, or at
 * a line where a later top started (`starts`: the tops' starts, read once by {@link replanYaml}).
 * `stopIndex` is the item it stopped at (the item count when at a top), `stopTop` that top (the
 * top count when none).
 */
function scanItemsFrom(
  state: YamlChunkState,
  starts: readonly number[],
  body: TextSource,
  r: BodyRegion,
  t: number,
  i0: number,
  maxDepth: number,
): { scan: YamlScan; stopIndex: number; stopTop: number } {
  const tops = state.tops;
  const items = tops[t]!.chunk.items!;
  const delta = r.delta;
  const from = items.itemStarts[i0]!;
  const enclosing = i0 === 0 ? [0] : items.indent > 0 ? [0] : [];
  const canonical = items.indent > 0 ? 1 : 0;
  let stopIndex = -1;
  /** The top the scan stopped at (the collection then ends there; tops before it are replaced). */
  let stopTop = tops.length;
  const scan = scanYamlPart(body, maxDepth, {
    from,
    indents: enclosing,
    stopFrom: r.newEnd,
    stopAt: (lineStart, indent, outer) => {
      const old = lineStart - delta;
      if (indent === 0) {
        const j = lastAtMost(starts, old);
        if (j <= t || starts[j] !== old) return false;
        stopIndex = items.itemStarts.length;
        stopTop = j;
        return true;
      }
      if (old <= from || old > items.itemStarts[items.itemStarts.length - 1]!) return false;
      const j = lastAtMost(items.itemStarts, old);
      if (items.itemStarts[j] !== old || outer.length !== canonical || (canonical === 1 && outer[0] !== 0))
        return false;
      stopIndex = j;
      return true;
    },
  });
  return { scan, stopIndex, stopTop };
}

/**
 * The item starts among the lines scanned from item `i0` on, and where a top-level key typed
 * inside the collection starts (-1 when none); null when the lines cannot be the collection's
 * (from its header, the first line that holds anything must be an item).
 */
function scannedItems(
  body: TextSource,
  lines: YamlLineTable,
  items: ItemChunks,
  i0: number,
): { found: number[]; newKey: number } | null {
  const found: number[] = [];
  for (let i = 0; i < lines.start.length; i++) {
    const what = itemLine(body, lines, i, items.indent, items.kind);
    if (what === 'invalid') {
      if (!startsTopLevelKey(body, lines, i) || (i0 === 0 && found.length === 0)) return null;
      return { found, newKey: lines.start[i]! };
    }
    // The first line after the header decides the items' indentation and kind: it must be an item.
    if (
      i0 === 0 &&
      found.length === 0 &&
      what === 'other' &&
      !lines.continuation[i] &&
      lines.first[i] !== 0 &&
      !lines.comment[i]
    )
      return null;
    if (what === 'item') found.push(lines.start[i]!);
  }
  return { found, newKey: -1 };
}

/** Whether line `i` of a table starts a top-level key, as `planTopChunks` sees it (not a `-` item, nor a character that makes the text be parsed whole). */
function startsTopLevelKey(body: TextSource, lines: YamlLineTable, i: number): boolean {
  if (lines.continuation[i] || lines.first[i] === 0 || lines.comment[i] || lines.indent[i]! > 0) return false;
  return !'-[{?:|>!&*%@`"\''.includes(String.fromCharCode(lines.first[i]!));
}

/**
 * Scans and plans top-level chunks from `from` (the start of top `t`, or a top-level key line
 * inside it) to the first top after the edit where the scan is back in step (`starts`: the tops'
 * starts); null when the plan cannot be sure.
 */
function scanTops(
  state: YamlChunkState,
  starts: readonly number[],
  body: TextSource,
  from: number,
  t: number,
  r: BodyRegion,
  maxDepth: number,
  work: { scanned: number },
): { replaced: TopChunk[]; stopTop: number } | null {
  const tops = state.tops;
  const delta = r.delta;
  let stopTop = tops.length;
  const scan = scanYamlPart(body, maxDepth, {
    from,
    indents: [],
    stopFrom: r.newEnd,
    stopAt: (lineStart, indent) => {
      if (indent !== 0) return false;
      const old = lineStart - delta;
      const j = lastAtMost(starts, old);
      if (j <= t || starts[j] !== old) return false;
      stopTop = j;
      return true;
    },
  });
  work.scanned += scan.end - from;
  if (scan.tooDeepAt >= 0 || !scan.chunkable) return null;
  const end = scan.stopped ? scan.end : body.length;
  const replaced = planTopChunks(
    body,
    scan.lines,
    0,
    scan.lines.start.length,
    end,
    t > 0 || from > tops[t]!.chunk.start,
  );
  if (!replaced) return null;
  return { replaced, stopTop };
}

/** Moves a unit's tree (one write: its frame) and diagnostics to `base`, in place. */
function moveUnit(unit: YamlUnit, base: number): void {
  const frame = unit.fragment.frame;
  const delta = base - frame.base;
  if (delta === 0) return;
  frame.base = base;
  shiftAllInPlace(unit.fragment.diagnostics, delta);
}

function parseUnit(body: TextSource, start: number, end: number, bom: number, work: { reparsed: number }): YamlUnit {
  work.reparsed += end - start;
  return { fragment: parseYamlFragment(body.slice(start, end), bom + start, '', { skipRootKeyCheck: true }) };
}

/** The unit boundaries of a chunk: [start, end) of the whole chunk, or of the header and each item. */
function unitRanges(chunk: TopChunk): [number, number][] {
  const items = chunk.items;
  if (!items) return [[chunk.start, chunk.end]];
  const ranges: [number, number][] = [[chunk.start, items.itemsStart]];
  items.itemStarts.forEach((start, i) => ranges.push([start, items.itemStarts[i + 1] ?? chunk.end]));
  return ranges;
}

/**
 * Finds the units of earlier tops by their place: a unit whose text lies wholly before the
 * changed region or wholly after it is the same text, so its tree is reused (moved). A unit in
 * the region is looked up by its text among the earlier units there (several edits far apart
 * make one wide region), each earlier unit serving once.
 */
class UnitsByPlace {
  private byStart?: Map<number, { end: number; unit: YamlUnit }>;
  private byText?: Map<string, YamlUnit[]>;

  constructor(
    private readonly tops: readonly YamlTop[],
    private readonly region: BodyRegion | null,
    private readonly oldBody: TextSource,
    private readonly body: TextSource,
  ) {}

  /** The earlier unit for the new range `start..end`, if its text is unchanged. */
  find(start: number, end: number): YamlUnit | undefined {
    const r = this.region;
    if (!r) return undefined;
    let old: number;
    if (end <= r.start) old = start;
    else if (start >= r.newEnd) old = start - r.delta;
    else return this.findByText(start, end);
    if (!this.byStart) {
      this.byStart = new Map();
      for (const top of this.tops) {
        unitRanges(top.chunk).forEach(([s, e], i) => this.byStart!.set(s, { end: e, unit: top.units[i]! }));
      }
    }
    const found = this.byStart.get(old);
    return found && found.end === end - (start >= r.newEnd ? r.delta : 0) ? found.unit : undefined;
  }

  findByText(start: number, end: number): YamlUnit | undefined {
    const r = this.region!;
    if (!this.byText) {
      this.byText = new Map();
      for (const top of this.tops) {
        if (top.chunk.end <= r.start || top.chunk.start >= r.oldEnd) continue;
        // Only the units that overlap the region: in a collection of thousands of items, a few.
        const items = top.chunk.items;
        const first = items && r.start >= items.itemsStart ? 1 + lastAtMost(items.itemStarts, r.start) : 0;
        const count = items ? items.itemStarts.length + 1 : 1;
        for (let i = first; i < count; i++) {
          const s = i === 0 ? top.chunk.start : items!.itemStarts[i - 1]!;
          if (s >= r.oldEnd) break;
          const e = !items ? top.chunk.end : i === 0 ? items.itemsStart : (items.itemStarts[i] ?? top.chunk.end);
          if (e <= r.start) continue;
          const text = this.oldBody.slice(s, e);
          const list = this.byText.get(text);
          if (list) list.push(top.units[i]!);
          else this.byText.set(text, [top.units[i]!]);
        }
      }
    }
    return this.byText.get(this.body.slice(start, end))?.shift();
  }
}

/** The tops of a new plan, parsing each unit or reusing an earlier one (by place) when its text is unchanged. */
export function topsOfPlan(
  body: TextSource,
  bom: number,
  plan: TopChunk[],
  previous: { state: YamlChunkState; body: TextSource } | undefined,
  region: ChangedRegion | null,
  work: { reparsed: number },
  /** The lookup to use (one per update, so that no earlier unit serves twice). */
  shared?: UnitsByPlace,
): YamlTop[] {
  const reuse =
    shared ??
    (previous && previous.state.bom === bom
      ? new UnitsByPlace(previous.state.tops, region && bodyRegion(region, bom), previous.body, body)
      : undefined);
  return plan.map((chunk) =>
    grouped(
      chunk,
      unitRanges(chunk).map(([start, end]) => {
        const unit = reuse?.find(start, end);
        if (!unit) return parseUnit(body, start, end, bom, work);
        moveUnit(unit, bom + start);
        return unit;
      }),
    ),
  );
}

/** A top of `units` in groups of their own (the units may come from other tops). */
function grouped(chunk: TopChunk, units: YamlUnit[]): YamlTop {
  const withDiagnostics: number[] = [];
  for (let i = 0; i < units.length; i++) if (units[i]!.fragment.diagnostics.length > 0) withDiagnostics.push(i);
  return { chunk, units, groups: groupFramesByIndex(units.length, (i) => units[i]!.fragment.frame), withDiagnostics };
}

/**
 * Moves the units of `top` from index `stop` on by `delta`, in place, by their groups (see
 * `moveFramesFrom`), and their diagnostics with them.
 */
function moveUnitsFrom(top: YamlTop, stop: number, delta: number): void {
  if (delta === 0) return;
  const units = top.units;
  moveFramesFrom(units.length, (i) => units[i]!.fragment.frame, top.groups, stop, delta);
  const withDiagnostics = top.withDiagnostics;
  for (let k = 0; k < withDiagnostics.length; k++) {
    if (withDiagnostics[k]! >= stop) shiftAllInPlace(units[withDiagnostics[k]!]!.fragment.diagnostics, delta);
  }
}

/** Applies a {@link Replan}: the new tops, reusing every unit outside the changed region. */
export function commitReplan(
  state: YamlChunkState,
  oldBody: TextSource,
  body: TextSource,
  region: ChangedRegion,
  replan: Replan,
  work: { reparsed: number },
): YamlTop[] {
  const bom = state.bom;
  const r = bodyRegion(region, bom);
  const delta = r.delta;
  const tops = state.tops;
  const replacedOld = tops.slice(replan.from, replan.to);
  let replaced: YamlTop[];
  if (replan.items) {
    // One block collection, edited inside: keep its items before the scan, move those after it.
    const old = replacedOld[0]!;
    const chunk = replan.replaced[0]!;
    const oldItems = old.chunk.items!;
    const items = chunk.items!;
    const { keptBefore: i0, resumeAt } = replan.items;
    const keptAfter = oldItems.itemStarts.length - resumeAt;
    /** The earlier unit of item `j` or the header (-1), when its range maps to `start..end` unchanged. */
    const unchanged = (j: number, start: number, end: number): YamlUnit | undefined => {
      const oldStart = j < 0 ? old.chunk.start : oldItems.itemStarts[j]!;
      const oldEnd = j < 0 ? oldItems.itemsStart : (oldItems.itemStarts[j + 1] ?? old.chunk.end);
      const moved = start >= r.newEnd ? delta : 0;
      if ((end <= r.start || start >= r.newEnd) && oldStart + moved === start && oldEnd + moved === end)
        return old.units[j + 1];
      return undefined;
    };
    const inRegion = new UnitsByPlace(replacedOld, r, oldBody, body);
    const units: YamlUnit[] = [];
    units.push(
      unchanged(-1, chunk.start, items.itemsStart) ?? parseUnit(body, chunk.start, items.itemsStart, bom, work),
    );
    const count = items.itemStarts.length;
    // With as many items as before, the units kept after the scan keep their indexes, and so their
    // groups: they move by groups below. Otherwise they move one by one here.
    const shift = count - oldItems.itemStarts.length;
    for (let i = 0; i < count; i++) {
      if (i < i0) {
        units.push(old.units[i + 1]!);
        continue;
      }
      const start = items.itemStarts[i]!;
      if (i >= count - keptAfter) {
        const unit = old.units[1 + resumeAt + (i - (count - keptAfter))]!;
        if (shift !== 0) moveUnit(unit, bom + start);
        units.push(unit);
        continue;
      }
      const end = items.itemStarts[i + 1] ?? chunk.end;
      const oldStart = start >= r.newEnd ? start - delta : start;
      const j = lastAtMost(oldItems.itemStarts, oldStart);
      const unit =
        (oldItems.itemStarts[j] === oldStart ? unchanged(j, start, end) : undefined) ?? inRegion.findByText(start, end);
      if (unit) moveUnit(unit, bom + start);
      units.push(unit ?? parseUnit(body, start, end, bom, work));
    }
    // The units before the scan keep their indexes and groups. The header and the units the scan
    // covered join their index's group, and so do the units after it when their indexes moved.
    const firstKept = 1 + count - keptAfter;
    const groups = groupsFor(old.groups, units.length);
    const withDiagnostics: number[] = [];
    const header = units[0]!;
    header.fragment.frame.joinGroup(groups[0]!);
    if (header.fragment.diagnostics.length > 0) withDiagnostics.push(0);
    for (const k of old.withDiagnostics) if (k >= 1 && k < 1 + i0) withDiagnostics.push(k);
    for (let k = 1 + i0; k < (shift === 0 ? firstKept : units.length); k++) {
      const unit = units[k]!;
      unit.fragment.frame.joinGroup(groupAt(groups, k));
      if (k < firstKept && unit.fragment.diagnostics.length > 0) withDiagnostics.push(k);
    }
    for (const k of old.withDiagnostics) if (k >= 1 + resumeAt) withDiagnostics.push(k + shift);
    const top: YamlTop = { chunk, units, groups, withDiagnostics };
    if (shift === 0) moveUnitsFrom(top, firstKept, delta);
    // Units are counted with the header: kept are the header and the items before i0, and the last keptAfter.
    if (old.ok && old.assembled?.oneEach && units[0] === old.units[0])
      top.patch = { previous: old.assembled, keptBefore: 1 + i0, keptAfter: Math.min(keptAfter, count - i0) };
    // A top-level key typed inside the collection: the chunks from it on.
    replaced = [top, ...topsOfPlan(body, bom, replan.replaced.slice(1), undefined, region, work, inRegion)];
  } else {
    replaced = topsOfPlan(
      body,
      bom,
      replan.replaced,
      { state: { bom, tops: replacedOld }, body: oldBody },
      region,
      work,
    );
  }
  const after = tops.slice(replan.to);
  for (const top of after) moveTop(top, delta);
  return [...tops.slice(0, replan.from), ...replaced, ...after];
}

/** Moves a top that did not change by `delta`, in place: its plan, units and assembled collection. */
function moveTop(top: YamlTop, delta: number): void {
  if (delta === 0) return;
  const chunk = top.chunk;
  chunk.start += delta;
  chunk.end += delta;
  const items = chunk.items;
  if (items) {
    items.itemsStart += delta;
    for (let i = 0; i < items.itemStarts.length; i++) items.itemStarts[i]! += delta;
  }
  moveUnitsFrom(top, 0, delta);
  const assembled = top.assembled;
  if (assembled) {
    const header = (top.units[0]!.fragment.root as MapNode).entries[0]!;
    const entry = assembled.entry;
    entry.keyStart = header.keyStart;
    entry.keyEnd = header.keyEnd;
    entry.start = header.start;
    const collection = assembled.collection;
    if (collection.kind === 'seq') {
      collection.start = collection.items[0]!.start;
      collection.end = collection.items[collection.items.length - 1]!.end;
    } else {
      collection.start = collection.entries[0]!.start;
      collection.end = collection.entries[collection.entries.length - 1]!.end;
    }
    entry.end = collection.end;
    shiftAllInPlace(assembled.keyDiagnostics, delta);
  }
}

/** The tree, diagnostics and value getters of chunked tops; null when the text must be parsed whole. */
export function assembleYaml(
  tops: YamlTop[],
  base: number,
  length: number,
): { root: MapNode; diagnostics: RawDiagnostic[]; values: Map<MapEntry, () => unknown> } | null {
  const diagnostics: RawDiagnostic[] = [];
  const entries: MapEntry[] = [];
  const values = new Map<MapEntry, () => unknown>();
  for (const top of tops) {
    if (!top.chunk.items) {
      const unit = top.units[0]!;
      diagnostics.push(...unit.fragment.diagnostics);
      const root = unit.fragment.root;
      if (!root) continue;
      if (root.kind !== 'map') return null;
      for (const entry of root.entries) {
        // Root keys are checked below, across chunks; clear what an earlier document decided.
        entry.ignored = undefined;
        entries.push(entry);
        values.set(entry, () => (unitValue(unit) as Record<string, unknown>)[entry.key]);
      }
      continue;
    }
    const assembled = top.ok && top.assembled ? top.assembled : assembleItems(top);
    if (!assembled) return null;
    top.ok = true;
    const header = top.units[0]!;
    diagnostics.push(...header.fragment.diagnostics);
    const pointer = `/${escapePointerSegment(assembled.entry.key)}`;
    // The item units with diagnostics (the header's are above).
    const itemsWithDiagnostics = top.withDiagnostics[0] === 0 ? top.withDiagnostics.slice(1) : top.withDiagnostics;
    if (top.chunk.items.kind === 'seq') {
      // The items before a unit's: one per unit when each holds one, else counted.
      let before: number[] | undefined;
      if (!assembled.oneEach && itemsWithDiagnostics.length > 0) {
        before = [0, 0];
        for (let j = 1; j < top.units.length; j++)
          before.push(before[j]! + (top.units[j]!.fragment.root as SeqNode).items.length);
      }
      for (const i of itemsWithDiagnostics) {
        const offset = before ? before[i]! : i - 1;
        for (const d of top.units[i]!.fragment.diagnostics)
          diagnostics.push({ ...d, path: rebaseSeqPath(d.path, pointer, offset) });
      }
    } else {
      for (const i of itemsWithDiagnostics) {
        for (const d of top.units[i]!.fragment.diagnostics)
          diagnostics.push({ ...d, path: d.path ? pointer + d.path : d.path });
      }
      diagnostics.push(...assembled.keyDiagnostics);
    }
    assembled.entry.ignored = undefined;
    entries.push(assembled.entry);
    values.set(assembled.entry, () => (assembled.value ??= collectionValue(top)));
  }
  checkMapKeys(entries, '', diagnostics);
  return { root: { kind: 'map', flow: false, entries, start: base, end: base + length }, diagnostics, values };
}

/** Assembles a collection parsed item by item; undefined when its parts do not fit together. */
function assembleItems(top: YamlTop): AssembledItems | undefined {
  const patch = top.patch;
  // Used once: a top must not keep the previous assembly (and through it the trees of every earlier one) alive.
  top.patch = undefined;
  top.assembled = undefined;
  top.ok = false;
  const headerRoot = top.units[0]!.fragment.root;
  const headerEntry = headerRoot?.kind === 'map' && headerRoot.entries.length === 1 ? headerRoot.entries[0] : undefined;
  if (!headerEntry) return undefined;
  const pointer = `/${escapePointerSegment(headerEntry.key)}`;
  let collection: SeqNode | MapNode;
  const keyDiagnostics: RawDiagnostic[] = [];
  let oneEach: boolean | undefined;
  let value: unknown;
  if (top.chunk.items!.kind === 'seq') {
    const patched = patch && patchedSequence(top, patch);
    if (patched === null) return undefined;
    let seqItems: ValueNode[];
    let kept: KeptEnds | undefined;
    if (patched) {
      ({ items: seqItems, kept, value } = patched);
      oneEach = true;
    } else {
      seqItems = [];
      oneEach = true;
      for (let i = 1; i < top.units.length; i++) {
        const fragment = top.units[i]!.fragment;
        const root = fragment.root;
        if (root?.kind !== 'seq') return undefined;
        if (root.items.length !== 1) oneEach = false;
        for (const item of root.items) seqItems.push(item);
      }
    }
    collection = {
      kind: 'seq',
      flow: false,
      items: seqItems,
      start: seqItems[0]!.start,
      end: seqItems[seqItems.length - 1]!.end,
    };
    if (kept) setKept(collection, kept);
  } else {
    const mapEntries: MapEntry[] = [];
    for (let i = 1; i < top.units.length; i++) {
      const fragment = top.units[i]!.fragment;
      const root = fragment.root;
      if (root?.kind !== 'map') return undefined;
      for (const entry of root.entries) {
        entry.ignored = undefined;
        mapEntries.push(entry);
      }
    }
    checkMapKeys(mapEntries, pointer, keyDiagnostics);
    collection = {
      kind: 'map',
      flow: false,
      entries: mapEntries,
      start: mapEntries[0]!.start,
      end: mapEntries[mapEntries.length - 1]!.end,
    };
  }
  const assembled: AssembledItems = {
    entry: { ...detachedEntry(headerEntry), value: collection, end: collection.end, ignored: undefined },
    collection,
    keyDiagnostics,
    oneEach,
    value,
  };
  top.assembled = assembled;
  return assembled;
}

/**
 * The items and value of a sequence edited inside, from its previous
 * assembly (one item per unit) and its new middle units: undefined when a middle unit does not
 * hold exactly one item (assemble it whole), null when one is not a sequence (it does not fit).
 */
function patchedSequence(
  top: YamlTop,
  { previous, keptBefore, keptAfter }: ItemsPatch,
): { items: ValueNode[]; kept: KeptEnds; value: unknown } | undefined | null {
  const units = top.units;
  const middleEnd = units.length - keptAfter;
  const middleItems: ValueNode[] = [];
  for (let i = keptBefore; i < middleEnd; i++) {
    const fragment = units[i]!.fragment;
    const root = fragment.root;
    if (root?.kind !== 'seq') return null;
    if (root.items.length !== 1) return undefined;
    middleItems.push(root.items[0]!);
  }
  // Item i is unit i + 1's: the kept items are the previous collection's, by the same count.
  const old = (previous.collection as SeqNode).items;
  const items = withRunReplaced(old, keptBefore - 1, old.length - keptAfter, middleItems);
  // What reads the items one by one (declarations, kept rule results) looks only between the kept ends.
  const kept = keptEnds(old, keptBefore - 1, keptAfter);
  let value: unknown;
  if (Array.isArray(previous.value)) {
    const list = previous.value as unknown[];
    const middleValues: unknown[] = [];
    for (let i = keptBefore; i < middleEnd; i++)
      for (const item of unitValue(units[i]!) as unknown[]) middleValues.push(item);
    // The value's list carries its kept ends too: the schema walk reads them (schema-parts.ts).
    value = withKept(
      withRunReplaced(list, keptBefore - 1, list.length - keptAfter, middleValues),
      keptEnds(list, keptBefore - 1, keptAfter),
    );
  }
  return { items, kept, value };
}

/** The plain value of a collection parsed item by item, from its items' values. */
function collectionValue(top: YamlTop): unknown {
  const units = top.units;
  if (top.chunk.items!.kind === 'seq') {
    const list: unknown[] = [];
    for (let i = 1; i < units.length; i++) {
      const unit = units[i]!;
      for (const item of unitValue(unit) as unknown[]) list.push(item);
    }
    return list;
  }
  const object = newObject();
  for (let i = 1; i < units.length; i++) {
    const unit = units[i]!;
    const value = unitValue(unit) as Record<string, unknown>;
    for (const key in value) if (!(key in object)) object[key] = value[key];
  }
  return object;
}

/**
 * A unit's plain value, built once and kept while its top-level entries stay in or out of the
 * value as they were: which are left out (`ignored`, a key an earlier chunk or item repeats) is
 * decided across units at each assembly, so a value built when one was left out is built again
 * when it comes back, and the other way round.
 */
function unitValue(unit: YamlUnit): unknown {
  const root = unit.fragment.root!;
  let mark = '';
  if (root.kind === 'map') root.entries.forEach((entry, i) => entry.ignored && (mark += `${i},`));
  if (unit.value === undefined || unit.valueMark !== mark) {
    unit.value = buildPlainValue(root);
    unit.valueMark = mark;
  }
  return unit.value;
}

/** The value of an alias-free tree (chunks never contain aliases). */
function buildPlainValue(node: ValueNode): unknown {
  return buildValue(node, { maxExpandedNodes: Number.POSITIVE_INFINITY, hasAliases: false }).value;
}

function rebaseSeqPath(path: string, pointer: string, offset: number): string {
  const match = /^\/(\d+)(.*)$/.exec(path);
  if (!match) return path ? pointer + path : path;
  return `${pointer}/${Number(match[1]) + offset}${match[2]}`;
}
