/**
 * What makes validation after an edit cost what the edit touched: results kept per part of the
 * located tree (a top-level entry, one trigger, one agent) from one validation to the next.
 *
 * `ManifestDocument.update()` keeps the tree nodes (and plain-value objects) of every block or
 * collection item whose text did not change, moving them (offsets shifted in place). A result
 * computed for such a node is reused when it depends on nothing else: it is stored with the
 * node's start at the time, its offsets are moved in place by how far the node moved (a copy per
 * diagnostic per edit would be new memory, kept, for every diagnostic after the edit), and it is
 * kept only when every offset it holds (ranges, related places, fix edits) lies inside the node's
 * text, so that moving the node moves all of it. Quick fixes also follow the file's habits (line
 * ends, indentation): a result with fixes is reused only under the same habits. The located form
 * of a diagnostic (lines and columns) is kept too, or moved with it ({@link locatedList}).
 */
import type { Diagnostic, Range, RawDiagnostic, Severity } from './diagnostic.js';
import { shiftAllInPlace, shiftedDiagnostic } from './document/shift-diagnostics.js';
import type { ManifestDocument } from './document/manifest-document.js';
import type { MapEntry, ValueNode } from './document/nodes.js';
import { appendAll, commonEnds, keptOf, withRunReplaced } from './document/spliced-lists.js';
import { detectStyle } from './edit/yaml-edit.js';
import { TextLines } from './edit/text-lines.js';
import type { RuleCode } from './rule-codes.js';

/** A node, or a map entry (its key and value): what a cached result belongs to. */
export type Anchor = ValueNode | MapEntry;

interface Kept {
  pointer: string;
  depends: string;
  start: number;
  length: number;
  habits: string | undefined;
  diagnostics: readonly RawDiagnostic[];
}

/**
 * What one validation computed afresh instead of reusing: a probe a caller hands to
 * `validateDocument` (tests and measurements), which the validation fills in.
 */
export interface ValidationWork {
  /** Instance pointers of the schema parts validated again (their value object was new). */
  schemaParts: string[];
  /** `rule-id@version:collection pointer` of each item a code rule checked again, and `explain pointer` for schema errors explained again. */
  checked: string[];
}

function within(diagnostics: readonly RawDiagnostic[], start: number, end: number): boolean {
  const inside = (s: number, e: number) => s >= start && e <= end;
  return diagnostics.every(
    (d) =>
      inside(d.start, d.end) &&
      (d.related ?? []).every((r) => inside(r.start, r.end)) &&
      (d.fixes ?? []).every((f) => f.edits.every((e) => inside(e.start, e.end))),
  );
}

/** The habits a quick fix's text follows: line ends, and for YAML the indentation of nested blocks. */
function habitsOf(document: ManifestDocument): string {
  const lines = new TextLines(document.source);
  if (document.format === 'toml') return `toml|${lines.eol}`;
  const style = detectStyle(document.root, lines);
  return `yaml|${lines.eol}|${style.indent}|${style.seqIndent}`;
}

/** Results kept per anchor and per slot (a rule id, or `explain`). Module-wide: anchors of old trees are dropped with them. */
const kept = new WeakMap<Anchor, Map<string, Kept>>();

/** One item's result in a collection. */
interface ItemResult {
  start: number;
  length: number;
  habits: string | undefined;
  diagnostics: readonly RawDiagnostic[];
}

/** The results of one slot for every item of a collection, as the last validation left them. */
interface KeptItems {
  anchors: Anchor[];
  depends: string;
  /** Per item; undefined for an item whose result cannot be kept (it reaches outside the item). */
  results: (ItemResult | undefined)[];
  /** The items with diagnostics, in order. */
  withDiagnostics: number[];
  /** The items without a result, in order. */
  missing: number[];
}

/**
 * Collection results, found by the collection's first or last item (the collection's own node
 * is new after every edit; an edit rarely changes both its first and its last item).
 */
const keptItems = new WeakMap<Anchor, Map<string, KeptItems>>();

/** `indexes` (ascending) that are below `before`, then those from `from` on moved by `shift`, appended to `into`. */
function keptIndexes(
  indexes: readonly number[],
  before: number,
  from: number,
  shift: number,
  into: number[],
  middle: () => void,
): void {
  let k = 0;
  for (; k < indexes.length && indexes[k]! < before; k++) into.push(indexes[k]!);
  middle();
  for (; k < indexes.length; k++) if (indexes[k]! >= from) into.push(indexes[k]! + shift);
}

/** The union of two ascending lists of indexes, ascending. */
function mergeAscending(a: readonly number[], b: readonly number[]): number[] {
  if (a.length === 0) return b as number[];
  if (b.length === 0) return a as number[];
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (out[out.length - 1] !== next) out.push(next);
  }
  return out;
}

const NO_DIAGNOSTICS: readonly RawDiagnostic[] = Object.freeze([]);

/** The diagnostics some kept result holds: it alone moves them (see {@link owned}). */
const heldByAResult = new WeakSet<RawDiagnostic>();

/**
 * `diagnostics` as a kept result may hold them. A kept result moves its diagnostics in place when
 * its node moves, so no diagnostic may be held by two: an item checked inside another item's
 * check (a rule's walk into `triggers` from the top level) reports the inner item's diagnostics,
 * which the inner item's result already holds, into the outer one's. The outer one keeps copies.
 */
function owned(diagnostics: RawDiagnostic[]): RawDiagnostic[] {
  let out = diagnostics;
  for (let i = 0; i < diagnostics.length; i++) {
    const d = diagnostics[i]!;
    if (!heldByAResult.has(d)) {
      heldByAResult.add(d);
      continue;
    }
    if (out === diagnostics) out = diagnostics.slice();
    const copy = shiftedDiagnostic(d, 0);
    heldByAResult.add(copy);
    out[i] = copy;
  }
  return out;
}

/** One validation's access to the kept results. */
export class ResultCache {
  private habits?: string;

  constructor(
    private readonly document: ManifestDocument,
    readonly work: ValidationWork | undefined,
  ) {}

  private currentHabits(): string {
    return (this.habits ??= habitsOf(this.document));
  }

  /**
   * The diagnostics of `compute(index)` for every item of a collection, reusing the last
   * validation's: the items are compared with the last ones by identity, from both ends, so an
   * edit inside one item computes that item alone, and the cost for the others is a comparison
   * of references (and, for those with diagnostics, moving them). An item at a new index (an
   * item was added or removed before it) is computed again when it has diagnostics, which name
   * its index; `depends` changing computes every item again.
   */
  each(
    slot: string,
    anchors: Anchor[],
    pointerOf: (index: number) => string,
    compute: (index: number) => RawDiagnostic[],
    depends = '',
  ): RawDiagnostic[] {
    const n = anchors.length;
    const out: RawDiagnostic[] = [];
    if (n === 0) return out;
    const previous = keptItems.get(anchors[0]!)?.get(slot) ?? keptItems.get(anchors[n - 1]!)?.get(slot);
    if (previous && previous.anchors === anchors && previous.depends === depends) {
      const again = this.again(previous);
      if (again) return again;
    }
    let results: (ItemResult | undefined)[];
    /**
     * The items to look at, ascending: those not the same as last time, and of those that are,
     * the ones with diagnostics or without a result. A kept item without diagnostics is not even
     * read: the same node has the same text (see ManifestDocument's identity contract), so its
     * empty result stands wherever the node moved, and in a large file that is nearly every item.
     */
    let visit: number[];
    if (previous && previous.depends === depends) {
      const old = previous.anchors;
      const m = old.length;
      const { prefix, suffix } = commonEnds(anchors, old, keptOf(anchors));
      const changed = n - prefix - suffix;
      results = withRunReplaced(previous.results, prefix, m - suffix, new Array<ItemResult | undefined>(changed));
      const shift = n - m;
      const kept: number[] = [];
      keptIndexes(mergeAscending(previous.withDiagnostics, previous.missing), prefix, m - suffix, shift, kept, () => {
        for (let i = prefix; i < prefix + changed; i++) kept.push(i);
      });
      visit = kept;
      // Diagnostics name the item's index: an item that moved to a new index with some is computed again.
      if (shift !== 0) for (const i of previous.withDiagnostics) if (i >= m - suffix) results[i + shift] = undefined;
    } else {
      results = new Array<ItemResult | undefined>(n);
      visit = Array.from({ length: n }, (_, i) => i);
    }
    const withDiagnostics: number[] = [];
    const missing: number[] = [];
    for (let k = 0; k < visit.length; k++) {
      const i = visit[k]!;
      let result = results[i];
      const anchor = anchors[i]!;
      const start = anchor.start;
      const length = anchor.end - start;
      if (
        result &&
        (result.length !== length || (result.habits !== undefined && result.habits !== this.currentHabits()))
      )
        result = undefined;
      if (!result) {
        this.work?.checked.push(`${slot} ${pointerOf(i)}`);
        const diagnostics = compute(i);
        const keep = within(diagnostics, start, start + length);
        const fresh: ItemResult = {
          start,
          length,
          habits: diagnostics.some((d) => d.fixes?.length) ? this.currentHabits() : undefined,
          diagnostics: diagnostics.length && keep ? owned(diagnostics) : NO_DIAGNOSTICS,
        };
        appendAll(out, diagnostics);
        results[i] = keep ? fresh : undefined;
        if (!keep) missing.push(i);
        else if (diagnostics.length) withDiagnostics.push(i);
        continue;
      }
      if (result.diagnostics.length === 0) continue;
      if (result.start !== start) {
        shiftAllInPlace(result.diagnostics, start - result.start);
        result.start = start;
      }
      withDiagnostics.push(i);
      appendAll(out, result.diagnostics);
    }
    const state: KeptItems = { anchors, depends, results, withDiagnostics, missing };
    for (const anchor of [anchors[0]!, anchors[n - 1]!]) {
      let bySlot = keptItems.get(anchor);
      if (!bySlot) keptItems.set(anchor, (bySlot = new Map()));
      bySlot.set(slot, state);
    }
    return out;
  }

  /** The same items as last time (the very same list): their diagnostics, moved with them. */
  private again(kept: KeptItems): RawDiagnostic[] | undefined {
    // An item without a result is computed again: not the shortcut.
    if (kept.missing.length > 0) return undefined;
    const out: RawDiagnostic[] = [];
    const withDiagnostics = kept.withDiagnostics;
    for (let k = 0; k < withDiagnostics.length; k++) {
      const i = withDiagnostics[k]!;
      const result = kept.results[i]!;
      const anchor = kept.anchors[i]!;
      const start = anchor.start;
      if (
        result.length !== anchor.end - start ||
        (result.habits !== undefined && result.habits !== this.currentHabits())
      )
        return undefined;
      if (result.start !== start) {
        shiftAllInPlace(result.diagnostics, start - result.start);
        result.start = start;
      }
      appendAll(out, result.diagnostics);
    }
    return out;
  }

  /**
   * The diagnostics `compute` gives for `anchor`, taken from the last validation when the anchor is
   * the same node at the same `pointer`, what else the result depends on (`depends`) is the
   * same, and the node kept its length.
   */
  get(
    anchor: Anchor,
    slot: string,
    pointer: string,
    compute: () => RawDiagnostic[],
    depends = '',
  ): readonly RawDiagnostic[] {
    // A map entry spans its key and value, a node its own text: both have start and end.
    const start = anchor.start;
    const end = anchor.end;
    let bySlot = kept.get(anchor);
    const hit = bySlot?.get(slot);
    if (
      hit &&
      hit.pointer === pointer &&
      hit.depends === depends &&
      hit.length === end - start &&
      (hit.habits === undefined || hit.habits === this.currentHabits())
    ) {
      if (hit.start !== start) {
        shiftAllInPlace(hit.diagnostics, start - hit.start);
        hit.start = start;
      }
      return hit.diagnostics;
    }
    this.work?.checked.push(`${slot} ${pointer}`);
    const diagnostics = compute();
    if (within(diagnostics, start, end)) {
      if (!bySlot) kept.set(anchor, (bySlot = new Map()));
      const habits = diagnostics.some((d) => d.fixes?.length) ? this.currentHabits() : undefined;
      bySlot.set(slot, { pointer, depends, start, length: end - start, habits, diagnostics: owned(diagnostics) });
    } else {
      bySlot?.delete(slot);
    }
    return diagnostics;
  }
}

/**
 * A validation's located list, kept for the next validation of a document updated from it. Lined
 * up with that validation's sorted raw list by the raw objects' identity, it gives each kept
 * diagnostic its located form without reading that form: a kept result's diagnostics are the same
 * objects from one validation to the next, and a move (`shiftDiagnosticInPlace`) moves every
 * offset of one by the same amount, so the raw object and its start tell where all of it is.
 */
interface LocatedList {
  raws: readonly RawDiagnostic[];
  located: readonly Diagnostic[];
  /** Per entry, in the text it was located in: its start, and the lowest and highest offset of any of its ranges. */
  starts: number[];
  lows: number[];
  highs: number[];
}

/** The located lists of the last validations, by document serial (a document is updated from a recent one). */
const lastLists = new Map<number, LocatedList>();
/** How many lists are kept: one per open file being edited, and then some. */
const KEPT_LISTS = 16;

/**
 * `sorted` (a validation's raw diagnostics, in order) located in `document`. A diagnostic that the
 * list of the document this one was updated from holds, at the same offsets and all of it before
 * the lines the edit changed, keeps its located form (a position there depends only on the text
 * before it, which both texts share); one that moved by the edit and lies wholly after those lines
 * takes its form moved (see {@link moved}); any other is located anew.
 */
export function locatedList(
  document: ManifestDocument,
  sorted: readonly RawDiagnostic[],
  severityOf: (code: RuleCode) => Severity,
): LocatedDiagnostics {
  const previous = document.updatedFrom === undefined ? undefined : lastLists.get(document.updatedFrom);
  const region = document.editedRegion;
  // The earlier text and this one are the same up to the first changed line (all of it when null).
  const before = region?.start ?? Infinity;
  const delta = region?.delta ?? 0;
  // A region running to the text's end ends on no line start: nothing lies wholly after it.
  const after = region && region.newEnd < document.source.length ? region : undefined;
  /** How many lines the edit added (negative: removed), found from the first diagnostic moved. */
  let lines: number | undefined;
  const n = sorted.length;
  const list: LocatedList = {
    raws: sorted,
    located: new Array<Diagnostic>(n),
    starts: new Array<number>(n),
    lows: new Array<number>(n),
    highs: new Array<number>(n),
  };
  const located = list.located as Diagnostic[];
  let movedFrom: (Diagnostic | undefined)[] | undefined;
  let j = 0;
  for (let i = 0; i < n; i++) {
    const raw = sorted[i]!;
    const start = raw.start;
    list.starts[i] = start;
    let k = -1;
    if (previous && start >= 0) {
      // Where the raw object was in the earlier text, if it is the same diagnostic: before the edit, or after it.
      const old = start < before ? start : region && start >= region.newEnd ? start - delta : -1;
      const { raws, starts } = previous;
      while (j < raws.length && starts[j]! < old) j++;
      for (let at = j; at < raws.length && starts[at] === old; at++) {
        if (raws[at] === raw) {
          k = at;
          break;
        }
      }
    }
    if (k >= 0 && start < before && previous!.highs[k]! <= before) {
      located[i] = previous!.located[k]!;
      list.lows[i] = previous!.lows[k]!;
      list.highs[i] = previous!.highs[k]!;
    } else if (k >= 0 && after && previous!.lows[k]! >= after.oldEnd) {
      const earlier = previous!.located[k]!;
      lines ??= document.lines.lineOf(earlier.range.start.offset + delta) + 1 - earlier.range.start.line;
      located[i] = moved(earlier, delta, lines);
      (movedFrom ??= new Array<Diagnostic | undefined>(n))[i] = earlier;
      list.lows[i] = previous!.lows[k]! + delta;
      list.highs[i] = previous!.highs[k]! + delta;
    } else {
      located[i] = document.lines.locate(raw, severityOf(raw.code));
      const [low, high] = offsetSpan(raw);
      list.lows[i] = low;
      list.highs[i] = high;
    }
  }
  lastLists.delete(document.serial);
  lastLists.set(document.serial, list);
  if (lastLists.size > KEPT_LISTS) lastLists.delete(lastLists.keys().next().value!);
  return { diagnostics: located, movedFrom };
}

/** A validation's diagnostics located, and for each one moved by the edit, the form it was moved from (same index). */
export interface LocatedDiagnostics {
  diagnostics: Diagnostic[];
  movedFrom: (Diagnostic | undefined)[] | undefined;
}

/** The lowest and the highest offset of a diagnostic's ranges: its own, its related places', its fixes' edits'. */
function offsetSpan(raw: RawDiagnostic): [number, number] {
  let low = raw.start;
  let high = Math.max(raw.start, raw.end);
  const reach = (start: number, end: number) => {
    low = Math.min(low, start);
    high = Math.max(high, start, end);
  };
  for (const r of raw.related ?? []) reach(r.start, r.end);
  for (const fix of raw.fixes ?? []) for (const edit of fix.edits) reach(edit.start, edit.end);
  return [low, high];
}

/**
 * `located` moved by an edit, for a diagnostic that lay wholly past the changed lines and moved by
 * the edit's `delta`. The region ends at a line start, and the text from there on is the same in
 * both: such a position keeps its column, and its line moves by the `lines` the edit added, the same
 * for every one.
 */
function moved(located: Diagnostic, delta: number, lines: number): Diagnostic {
  // An edit that kept the length of its lines and their number leaves every position after it as it was.
  if (delta === 0 && lines === 0) return located;
  const move = (range: Range): Range => ({
    start: { offset: range.start.offset + delta, line: range.start.line + lines, column: range.start.column },
    end: { offset: range.end.offset + delta, line: range.end.line + lines, column: range.end.column },
  });
  const out: Diagnostic = {
    code: located.code,
    severity: located.severity,
    message: located.message,
    path: located.path,
    range: move(located.range),
  };
  if (located.related) out.related = located.related.map((r) => ({ message: r.message, range: move(r.range) }));
  if (located.fixes)
    out.fixes = located.fixes.map((fix) => ({
      title: fix.title,
      edits: fix.edits.map((e) => ({ range: move(e.range), newText: e.newText })),
    }));
  return out;
}
