/**
 * The located document model: a format-neutral tree of the manifest, shared by YAML and
 * TOML. Every node carries the UTF-16 offsets of its text in the user's file, so any rule,
 * the language server and the applier can point back at the exact characters.
 */

import type { KeptEnds } from './spliced-lists.js';

export type ScalarValue = string | number | boolean | null;

interface NodeBase {
  /** Offset of the node's first character. */
  start: number;
  /** Offset just past the node's last character. */
  end: number;
}

/** TOML 1.0's four date and time types: each its own type, neither a string nor any JSON type. */
export type TomlDateTimeType = 'offset date-time' | 'local date-time' | 'local date' | 'local time';

export interface ScalarNode extends NodeBase {
  kind: 'scalar';
  /** The value; for a TOML date or time, its text as written (see `tomlType`). */
  value: ScalarValue;
  /** How the scalar was written: plain, quoted, block (`|`/`>`), or a TOML literal. */
  style: 'plain' | 'quoted' | 'block';
  /** Set for a TOML date or time: the value is not a string, `value` only holds its text. */
  tomlType?: TomlDateTimeType;
}

export interface SeqNode extends NodeBase {
  kind: 'seq';
  items: ValueNode[];
  flow: boolean;
  /**
   * Set when an edit spliced `items` from an earlier node's items: which ends it kept, for what
   * reuses work per item. Not enumerable, so the tree compares and serialises as a fresh parse's.
   */
  readonly kept?: KeptEnds;
}

export interface MapEntry {
  key: string;
  keyStart: number;
  keyEnd: number;
  /** The value; an empty YAML value (`key:`) is a null scalar of zero width after the key. */
  value: ValueNode;
  /** From the key's first character to the value's last. */
  start: number;
  end: number;
  /** A YAML merge key (`<<: *base`): its value's entries are merged into the map. */
  merge?: boolean;
  /**
   * Set when the key was written as a YAML alias (`*name : value`): `key` is the anchored
   * scalar, and the text at keyStart..keyEnd is `*name`, not the key. An edit that renames
   * the key must not simply replace that text.
   */
  keyAlias?: string;
  /** The key was left out of the value (a repeated key: the first one wins; a refused key). */
  ignored?: boolean;
  /**
   * The key is no string (a collection, an alias of one or of an empty value, no key at all):
   * `invalid-key` is reported and `key` is empty; every check of a map's keys leaves the entry
   * out of the value (sets `ignored`) instead of reading it as the key "".
   */
  keyRefused?: boolean;
}

export interface MapNode extends NodeBase {
  kind: 'map';
  entries: MapEntry[];
  flow: boolean;
}

/** A YAML alias (`*name`); `target` is the anchored node, shared, never copied. */
export interface AliasNode extends NodeBase {
  kind: 'alias';
  name: string;
  target: ValueNode | null;
}

export type ValueNode = ScalarNode | SeqNode | MapNode | AliasNode;

/** Follows aliases to the node that holds the value. */
export function resolveAlias(node: ValueNode | null | undefined): Exclude<ValueNode, AliasNode> | null {
  let current = node ?? null;
  for (let hops = 0; current && current.kind === 'alias' && hops < 64; hops++) current = current.target;
  return current && current.kind !== 'alias' ? current : null;
}

/**
 * Merged entries by map, computed once: a chain of maps that each merge the previous one
 * twice (`x2: {<<: [*x1, *x1]}`) would otherwise cost 2^n walks for n lines of text. The
 * `ignored` count is part of the key, since the chunked parser re-decides which entries of a
 * reused map are ignored.
 */
const mergedEntries = new WeakMap<MapNode, { entries: MapEntry[]; ignored: number; result: MapEntry[] }>();

/**
 * The entries a map contributes to its value, merge keys applied: own keys first, then
 * keys from merged maps that the map does not define itself (YAML 1.1 merge semantics).
 */
export function effectiveEntries(map: MapNode, visiting?: Set<MapNode>): MapEntry[] {
  if (!map.entries.some((entry) => entry.merge)) return map.entries.filter((entry) => !entry.ignored);
  // Made here, not as a default parameter: most maps merge nothing, and every map's value reading comes here.
  visiting ??= new Set();
  const ignored = map.entries.reduce((count, entry) => count + (entry.ignored ? 1 : 0), 0);
  const cached = mergedEntries.get(map);
  if (cached && cached.entries === map.entries && cached.ignored === ignored) return cached.result;
  // A merge that (through aliases) includes the map itself contributes nothing more.
  if (visiting.has(map)) return [];
  visiting.add(map);
  const own = map.entries.filter((entry) => !entry.merge && !entry.ignored);
  const seen = new Set(own.map((entry) => entry.key));
  const merged: MapEntry[] = [];
  for (const entry of map.entries) {
    if (!entry.merge) continue;
    const source = resolveAlias(entry.value);
    const sources = source?.kind === 'seq' ? source.items.map((item) => resolveAlias(item)) : [source];
    for (const candidate of sources) {
      if (candidate?.kind !== 'map') continue;
      for (const inherited of effectiveEntries(candidate, visiting)) {
        if (seen.has(inherited.key)) continue;
        seen.add(inherited.key);
        merged.push(inherited);
      }
    }
  }
  visiting.delete(map);
  const result = [...own, ...merged];
  mergedEntries.set(map, { entries: map.entries, ignored, result });
  return result;
}

/** Maps with at least this many entries get a key index (built once), so lookups stay O(1). */
const INDEX_THRESHOLD = 32;
const entryIndexes = new WeakMap<MapNode, { entries: MapEntry[]; byKey: Map<string, MapEntry> }>();

function ownEntry(map: MapNode, key: string): MapEntry | undefined {
  if (map.entries.length < INDEX_THRESHOLD) {
    for (const entry of map.entries) if (entry.key === key && !entry.merge && !entry.ignored) return entry;
    return undefined;
  }
  let index = entryIndexes.get(map);
  if (!index || index.entries !== map.entries) {
    const byKey = new Map<string, MapEntry>();
    for (const entry of map.entries)
      if (!entry.merge && !entry.ignored && !byKey.has(entry.key)) byKey.set(entry.key, entry);
    index = { entries: map.entries, byKey };
    entryIndexes.set(map, index);
  }
  return index.byKey.get(key);
}

/** The entry for `key` in a map, merge keys applied. */
export function findEntry(map: MapNode, key: string): MapEntry | undefined {
  const own = ownEntry(map, key);
  if (own) return own;
  if (!map.entries.some((entry) => entry.merge)) return undefined;
  return effectiveEntries(map).find((entry) => entry.key === key);
}

/** Splits a JSON pointer (RFC 6901) into its unescaped segments. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map(unescapePointerSegment);
}

/** One JSON pointer segment, unescaped (RFC 6901: `~1` → `/`, then `~0` → `~`). */
export function unescapePointerSegment(segment: string): string {
  // Most segments have nothing escaped; a lookup of a kept diagnostic's place does this per diagnostic.
  if (!segment.includes('~')) return segment;
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** One JSON pointer segment, escaped (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function escapePointerSegment(segment: string): string {
  // Most segments have nothing to escape: every pointer a validation makes goes through here.
  if (!segment.includes('~') && !segment.includes('/')) return segment;
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => '/' + escapePointerSegment(String(s))).join('');
}

const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

/** Whether a JSON pointer segment names an array item: a decimal index without leading zeros. */
export function isArrayIndex(segment: string): boolean {
  return ARRAY_INDEX.test(segment);
}

export interface PointerTarget {
  node: ValueNode;
  /** The map entry that holds the node, when the last segment is a map key. */
  entry?: MapEntry;
}

/**
 * Finds the node a JSON pointer names. Returns the deepest node that exists along the way
 * when the pointer goes further than the document (`exact` tells which).
 */
export function nodeAtPointer(root: ValueNode, pointer: string): PointerTarget & { exact: boolean } {
  let node: ValueNode = root;
  let entry: MapEntry | undefined;
  for (const segment of pointerSegments(pointer)) {
    const container = resolveAlias(node);
    let next: ValueNode | undefined;
    let nextEntry: MapEntry | undefined;
    if (container?.kind === 'map') {
      nextEntry = findEntry(container, segment);
      next = nextEntry?.value;
    } else if (container?.kind === 'seq' && isArrayIndex(segment)) {
      next = container.items[Number(segment)];
    }
    if (!next) return { node, entry, exact: false };
    node = next;
    entry = nextEntry;
  }
  return { node, entry, exact: true };
}

/** One step from the root to a node at an offset. */
export interface PathStep {
  node: ValueNode;
  /** Set when the step entered a map entry. */
  entry?: MapEntry;
  /** The key or index taken to reach `node`. */
  segment?: string | number;
}

/**
 * The chain of nodes from the root down to the deepest node whose text contains `offset`.
 * `onKey` is true when the offset falls inside the last entry's key.
 */
export function pathAtOffset(root: ValueNode, offset: number): { steps: PathStep[]; onKey: boolean } {
  const steps: PathStep[] = [{ node: root }];
  let node: ValueNode = root;
  for (;;) {
    if (node.kind === 'map') {
      // The entry whose key starts last of those whose text holds the offset: a TOML table opened
      // again further down (`[agents.a]` … `[project]` … `[agents.b]`) spans the tables between.
      let entry: MapEntry | undefined;
      for (const e of node.entries) {
        if (offset >= e.keyStart && offset <= Math.max(e.end, e.keyEnd) && (!entry || e.keyStart > entry.keyStart))
          entry = e;
      }
      if (!entry) break;
      if (offset <= entry.keyEnd && (offset < entry.value.start || entry.value.start === entry.value.end)) {
        if (offset >= entry.keyStart && offset <= entry.keyEnd && offset < entry.value.start) {
          steps.push({ node: entry.value, entry, segment: entry.key });
          return { steps, onKey: true };
        }
      }
      steps.push({ node: entry.value, entry, segment: entry.key });
      node = entry.value;
    } else if (node.kind === 'seq') {
      const index = node.items.findIndex((item) => offset >= item.start && offset <= item.end);
      if (index === -1) break;
      node = node.items[index]!;
      steps.push({ node, segment: index });
    } else {
      break;
    }
  }
  return { steps, onKey: false };
}

/**
 * A run of frames that move together: each frame's base is its group's plus its own offset, so
 * moving every frame of a group is one write. A TOML text's blocks and a YAML collection's items
 * are kept in groups of consecutive units, and an edit moves the groups after it rather than each
 * unit's frame (a frame is a memory miss of its own, far from the next; docs/decisions.md, "(#17)
 * The units after an edit move by groups").
 */
export class FrameGroup {
  constructor(public base: number) {}
}

/** The group of frames kept alone: at 0 for ever (frozen, so no move can reach it by mistake). */
const ALONE: FrameGroup = Object.freeze(new FrameGroup(0));

/** How many consecutive units' frames share a group when a list of them is grouped by index, as a power of two. */
const GROUP_BITS = 6;

/** The group of the unit at `index` in a list grouped by {@link groupFramesByIndex}. */
export function groupAt(groups: readonly FrameGroup[], index: number): FrameGroup {
  return groups[index >> GROUP_BITS]!;
}

/** `groups`, copied, with new groups (at 0) added until they cover `count` units. */
export function groupsFor(groups: readonly FrameGroup[], count: number): FrameGroup[] {
  const covering = groups.slice();
  while (covering.length << GROUP_BITS < count) covering.push(new FrameGroup(0));
  return covering;
}

/**
 * Puts the frames of a list of `count` units (the frame of unit i is `frameAt(i)`) into new groups
 * by index, 64 to a group, keeping their bases; returns the groups. Run where the list is built
 * or re-numbered, which visits every unit anyway.
 */
export function groupFramesByIndex(count: number, frameAt: (index: number) => Frame): FrameGroup[] {
  const groups: FrameGroup[] = [];
  for (let i = 0; i < count; i++) {
    if (i >> GROUP_BITS === groups.length) groups.push(new FrameGroup(0));
    frameAt(i).joinGroup(groups[i >> GROUP_BITS]!);
  }
  return groups;
}

/**
 * Moves the units of a grouped list from index `stop` on by `delta`, in place: one by one to the
 * end of the group `stop` is in, then the groups after it, one write each. An edit in a list of
 * thousands of units so touches at most 64 frames and one group per 64 units, where moving every
 * frame cost a memory miss each (docs/decisions.md, "(#17) The units after an edit move by groups").
 */
export function moveFramesFrom(
  count: number,
  frameAt: (index: number) => Frame,
  groups: readonly FrameGroup[],
  stop: number,
  delta: number,
): void {
  const firstWhole = (stop + (1 << GROUP_BITS) - 1) >> GROUP_BITS;
  const end = Math.min(firstWhole << GROUP_BITS, count);
  for (let i = stop; i < end; i++) frameAt(i).offset += delta;
  for (let g = firstWhole; g < groups.length; g++) groups[g]!.base += delta;
}

/**
 * Where the text of one parsed unit (a YAML chunk or collection item, a TOML block) starts in the
 * file. The nodes built from the unit keep their offsets from here and add it when read, so an
 * edit that moves the unit writes `base` once, however many nodes the unit holds
 * (docs/decisions.md, "(#17) Node offsets are kept from their unit's start").
 */
export class Frame {
  /** The base's offset from the group's. */
  offset: number;
  group: FrameGroup = ALONE;
  constructor(base: number) {
    this.offset = base;
  }
  get base(): number {
    return this.group.base + this.offset;
  }
  set base(offset: number) {
    this.offset = offset - this.group.base;
  }
  /** Moves the frame into `group`, keeping its base. */
  joinGroup(group: FrameGroup): void {
    this.offset += this.group.base - group.base;
    this.group = group;
  }
}

/*
 * The nodes a parser builds. They are the interfaces above, with offsets kept relative to their
 * frame: `start`, `end`, `keyStart` and `keyEnd` are accessors, so every reader sees offsets in
 * the file and every writer (a join that widens a table) writes them. Two things see what an
 * accessor hides: `{ ...node }` copies the relative fields and not the accessors (use the
 * `detached*` copies below), and `JSON.stringify` (each class gives its file offsets instead).
 */

/**
 * What every framed node and entry has: `start` and `end`, kept from the frame. The getters here
 * and below add the group's base and the frame's offset themselves rather than read `frame.base`:
 * one accessor call fewer per offset read, in the code that runs before V8 optimises it.
 */
abstract class Framed {
  constructor(
    protected readonly frame: Frame,
    private s: number,
    private e: number,
  ) {}
  get start(): number {
    const frame = this.frame;
    return frame.group.base + frame.offset + this.s;
  }
  set start(offset: number) {
    this.s = offset - this.frame.base;
  }
  get end(): number {
    const frame = this.frame;
    return frame.group.base + frame.offset + this.e;
  }
  set end(offset: number) {
    this.e = offset - this.frame.base;
  }
}

class FramedScalar extends Framed implements ScalarNode {
  readonly kind = 'scalar';
  constructor(
    frame: Frame,
    s: number,
    e: number,
    public value: ScalarValue,
    public style: ScalarNode['style'],
    public tomlType: TomlDateTimeType | undefined,
  ) {
    super(frame, s, e);
  }
  toJSON(): ScalarNode {
    const json: ScalarNode = { kind: 'scalar', value: this.value, style: this.style, start: this.start, end: this.end };
    if (this.tomlType !== undefined) json.tomlType = this.tomlType;
    return json;
  }
}

class FramedSeq extends Framed implements SeqNode {
  readonly kind = 'seq';
  constructor(
    frame: Frame,
    s: number,
    e: number,
    public items: ValueNode[],
    public flow: boolean,
  ) {
    super(frame, s, e);
  }
  toJSON(): SeqNode {
    return { kind: 'seq', flow: this.flow, items: this.items, start: this.start, end: this.end };
  }
}

class FramedMap extends Framed implements MapNode {
  readonly kind = 'map';
  constructor(
    frame: Frame,
    s: number,
    e: number,
    public entries: MapEntry[],
    public flow: boolean,
  ) {
    super(frame, s, e);
  }
  toJSON(): MapNode {
    return { kind: 'map', flow: this.flow, entries: this.entries, start: this.start, end: this.end };
  }
}

class FramedAlias extends Framed implements AliasNode {
  readonly kind = 'alias';
  target: ValueNode | null = null;
  constructor(
    frame: Frame,
    s: number,
    e: number,
    public name: string,
  ) {
    super(frame, s, e);
  }
  toJSON(): AliasNode {
    return { kind: 'alias', name: this.name, target: this.target, start: this.start, end: this.end };
  }
}

class FramedEntry extends Framed implements MapEntry {
  keyAlias: string | undefined = undefined;
  merge: boolean | undefined = undefined;
  ignored: boolean | undefined = undefined;
  keyRefused: boolean | undefined = undefined;
  constructor(
    frame: Frame,
    public key: string,
    private ks: number,
    private ke: number,
    public value: ValueNode,
    s: number,
    e: number,
  ) {
    super(frame, s, e);
  }
  get keyStart(): number {
    const frame = this.frame;
    return frame.group.base + frame.offset + this.ks;
  }
  set keyStart(offset: number) {
    this.ks = offset - this.frame.base;
  }
  get keyEnd(): number {
    const frame = this.frame;
    return frame.group.base + frame.offset + this.ke;
  }
  set keyEnd(offset: number) {
    this.ke = offset - this.frame.base;
  }
  toJSON(): MapEntry {
    return detachedEntry(this);
  }
}

/** A name written in the file, kept in a frame (a TOML header's key). */
export interface LocatedName {
  name: string;
  keyStart: number;
  keyEnd: number;
}

class FramedName implements LocatedName {
  constructor(
    private readonly frame: Frame,
    public name: string,
    private ks: number,
    private ke: number,
  ) {}
  get keyStart(): number {
    const frame = this.frame;
    return frame.group.base + frame.offset + this.ks;
  }
  set keyStart(offset: number) {
    this.ks = offset - this.frame.base;
  }
  get keyEnd(): number {
    const frame = this.frame;
    return frame.group.base + frame.offset + this.ke;
  }
  set keyEnd(offset: number) {
    this.ke = offset - this.frame.base;
  }
  toJSON(): LocatedName {
    return { name: this.name, keyStart: this.keyStart, keyEnd: this.keyEnd };
  }
}

/** A name of `frame`, at file offsets `keyStart`..`keyEnd`. */
export function locatedName(frame: Frame, name: string, keyStart: number, keyEnd: number): LocatedName {
  return new FramedName(frame, name, keyStart - frame.base, keyEnd - frame.base);
}

/** A scalar of `frame`, at file offsets `start`..`end`. */
export function scalarNode(
  frame: Frame,
  start: number,
  end: number,
  value: ScalarValue,
  style: ScalarNode['style'],
  tomlType?: TomlDateTimeType,
): ScalarNode {
  return new FramedScalar(frame, start - frame.base, end - frame.base, value, style, tomlType);
}

export function seqNode(frame: Frame, start: number, end: number, items: ValueNode[], flow: boolean): SeqNode {
  return new FramedSeq(frame, start - frame.base, end - frame.base, items, flow);
}

export function mapNode(frame: Frame, start: number, end: number, entries: MapEntry[], flow: boolean): MapNode {
  return new FramedMap(frame, start - frame.base, end - frame.base, entries, flow);
}

/** An alias of `frame`; its target is linked once the whole fragment is built. */
export function aliasNode(frame: Frame, start: number, end: number, name: string): AliasNode {
  return new FramedAlias(frame, start - frame.base, end - frame.base, name);
}

/** A map entry of `frame`, from its key's first character to its value's last. */
export function mapEntry(
  frame: Frame,
  key: string,
  keyStart: number,
  keyEnd: number,
  value: ValueNode,
  end: number,
): MapEntry {
  const base = frame.base;
  return new FramedEntry(frame, key, keyStart - base, keyEnd - base, value, keyStart - base, end - base);
}

/** A plain copy of an entry, with its offsets in the file (a join's own entry, which it may widen and move). */
export function detachedEntry(entry: MapEntry): MapEntry {
  const copy: MapEntry = {
    key: entry.key,
    keyStart: entry.keyStart,
    keyEnd: entry.keyEnd,
    value: entry.value,
    start: entry.start,
    end: entry.end,
  };
  if (entry.keyAlias !== undefined) copy.keyAlias = entry.keyAlias;
  if (entry.merge !== undefined) copy.merge = entry.merge;
  if (entry.ignored !== undefined) copy.ignored = entry.ignored;
  if (entry.keyRefused !== undefined) copy.keyRefused = entry.keyRefused;
  return copy;
}

/** Gives `seq` the ends its items kept from the list they were spliced from (see {@link SeqNode.kept}). */
export function setKept(seq: SeqNode, kept: KeptEnds): void {
  Object.defineProperty(seq, 'kept', { value: kept, enumerable: false, configurable: true });
}

/** A plain copy of a map or sequence (its own list of the same children), with its offsets in the file. */
export function detachedCollection<T extends MapNode | SeqNode>(node: T): T {
  if (node.kind === 'map')
    return { kind: 'map', flow: node.flow, entries: [...node.entries], start: node.start, end: node.end } as T;
  return { kind: 'seq', flow: node.flow, items: [...node.items], start: node.start, end: node.end } as T;
}

/** A copy of a tree in `frame`, every offset moved by `delta`: new nodes even when nothing moves (an alias keeps its target). */
export function copyTree(node: ValueNode, delta: number, frame: Frame): ValueNode {
  switch (node.kind) {
    case 'seq':
      return seqNode(
        frame,
        node.start + delta,
        node.end + delta,
        node.items.map((item) => copyTree(item, delta, frame)),
        node.flow,
      );
    case 'map':
      return mapNode(
        frame,
        node.start + delta,
        node.end + delta,
        node.entries.map((entry) => {
          const copy = mapEntry(
            frame,
            entry.key,
            entry.keyStart + delta,
            entry.keyEnd + delta,
            copyTree(entry.value, delta, frame),
            entry.end + delta,
          );
          copy.keyAlias = entry.keyAlias;
          copy.merge = entry.merge;
          copy.ignored = entry.ignored;
          copy.keyRefused = entry.keyRefused;
          return copy;
        }),
        node.flow,
      );
    case 'scalar':
      return scalarNode(frame, node.start + delta, node.end + delta, node.value, node.style, node.tomlType);
    default: {
      const alias = aliasNode(frame, node.start + delta, node.end + delta, node.name);
      alias.target = node.target;
      return alias;
    }
  }
}
