/**
 * What a TOML document keeps for its next update (its store's units, see toml-reader.ts): its
 * blocks and their parsed trees, which store owns those trees, the signatures of the last text
 * that parsed without a problem, and the helpers that line a new text's blocks up with them.
 */
import { lastAtMost } from './line-index.js';
import { copyTree, Frame, groupFramesByIndex, locatedName, type FrameGroup, type MapNode } from './nodes.js';
import type { TomlBlock, TomlJoin, TomlPart } from './parse-toml.js';
import type { TextSource } from './piece-text.js';
import { withRunReplaced } from './spliced-lists.js';
import type { ChangedRegion } from './text-change.js';
import type { UnitStore } from './unit-store.js';
import type { ValueMemo } from './value.js';

/** The block signatures of the last TOML text of this file that parsed without a problem. */
export interface TomlClean {
  signatures: string[];
  /** Every key named in a header (`a`, `b` of `[a.b]`); null when a header quotes one. Computed when needed. */
  headerKeys?: Set<string> | null;
  /** The keys of the `[[key]]` headers (one bare key). Computed when needed. */
  arrayTables?: Set<string>;
}

/**
 * Whether a block whose signature changed from `before` to `after` can still be joined with the
 * others: its header is the same and every statement it gained starts with a bare key that no
 * header names. Such a key lives only in this block's table (a table takes keys from its own
 * block and from headers below it), so it cannot meet a key of another block; a statement
 * removed cannot make two blocks conflict.
 */
export function onlyNewKeysAdded(after: string, before: string, hasHeader: boolean, clean: TomlClean): boolean {
  const added = after.split('\n');
  const removed = before.split('\n');
  if (hasHeader && added[0] !== removed[0]) return false;
  const counts = new Map<string, number>();
  for (const piece of removed) counts.set(piece, (counts.get(piece) ?? 0) + 1);
  for (const piece of added) {
    const count = counts.get(piece) ?? 0;
    if (count > 0) {
      counts.set(piece, count - 1);
      continue;
    }
    if (piece === '') continue;
    const equals = piece.lastIndexOf('=');
    const first = equals < 0 ? '' : piece.slice(0, equals).split('.')[0]!.trim();
    if (piece.startsWith('?') || !/^[A-Za-z0-9_-]+$/.test(first)) return false;
    const headerKeys = (clean.headerKeys ??= keysOfHeaders(clean.signatures));
    if (!headerKeys || headerKeys.has(first)) return false;
  }
  return true;
}

/** The key of a `[[key]]` header line (one bare key, a comment after it allowed), or null. */
export function arrayTableKey(line: string): string | null {
  return /^\[\[[ \t]*([A-Za-z0-9_-]+)[ \t]*\]\][ \t]*(?:#.*)?$/.exec(line)?.[1] ?? null;
}

/**
 * The clean signatures lined up with `blocks` when they differ by one item of a top-level array of
 * tables (`[[triggers]]` typed between two others, or removed), or null. Every other block is
 * then held to its counterpart as for any edit ({@link onlyNewKeysAdded}).
 *
 * An added item must be of an array the clean text already has. It takes the sub-tables after it
 * from the item before it, which had them alone, so nothing can be defined twice; its own
 * signature is lined up with its header line alone, so its statements are checked as keys added.
 * A removed item gives its statements to the block before it (checked as keys added there), and
 * must have no sub-table after it (`[triggers.filter]`): that would pass to the item before,
 * which may have one of its own.
 */
export function alignedWithClean(blocks: readonly TomlBlock[], clean: TomlClean): string[] | null {
  const old = clean.signatures;
  const added = blocks.length - old.length;
  if (added !== 1 && added !== -1) return null;
  const shorter = added === 1 ? old.length : blocks.length;
  let front = 0;
  while (front < shorter && blocks[front]!.signature === old[front]) front++;
  let back = 0;
  while (back < shorter - front && blocks[blocks.length - 1 - back]!.signature === old[old.length - 1 - back]) back++;
  const longer = added === 1 ? blocks.length : old.length;
  // Where the lists first differ from the front, or from the back.
  for (const at of new Set([front, longer - 1 - back])) {
    if (at < 1 || at >= longer) continue;
    if (added === 1) {
      const key = arrayTableKey(headerLine(blocks[at]!.signature));
      if (key === null) continue;
      const arrays = (clean.arrayTables ??= new Set(
        old.map((signature) => arrayTableKey(headerLine(signature))).filter((k): k is string => k !== null),
      ));
      if (!arrays.has(key)) continue;
      return withRunReplaced(old, at, at, [headerLine(blocks[at]!.signature)]);
    }
    const key = arrayTableKey(headerLine(old[at]!));
    if (key === null) continue;
    // The headers up to the next item of the array: a sub-table among them belonged to the removed item.
    const subTable = new RegExp(`^\\[\\[?[ \\t]*${key}[ \\t]*\\.`);
    let owned = false;
    for (let j = at; j < blocks.length; j++) {
      const line = headerLine(blocks[j]!.signature);
      if (arrayTableKey(line) === key) break;
      if (/["']/.test(line) || subTable.test(line)) {
        owned = true;
        break;
      }
    }
    if (owned) continue;
    return withRunReplaced(old, at, at + 1, []);
  }
  return null;
}

/** The keys the header lines of a text's blocks name; null if one is quoted. */
export function keysOfHeaders(signatures: string[]): Set<string> | null {
  const keys = new Set<string>();
  for (let i = 1; i < signatures.length; i++) {
    const line = headerLine(signatures[i]!);
    if (/["']/.test(line)) return null;
    const inner = line.replace(/^\[\[?/, '');
    const close = inner.indexOf(']');
    for (const key of (close < 0 ? inner : inner.slice(0, close)).split('.')) keys.add(key.trim());
  }
  return keys;
}

/** A TOML document's units: what its store keeps for the next update. */
export interface TomlUnits {
  /** The text's blocks with their trees where known (undefined when it was not planned in blocks). */
  blocks?: TomlBlocksState;
  /** The block signatures of the last TOML text of this file that parsed without a problem. */
  clean?: TomlClean;
  /** Plain values by tree node, shared along updates so unchanged blocks keep their values. */
  memo: ValueMemo;
}

export type TomlStore = UnitStore<TomlUnits>;

/**
 * Who may move a kept TOML block tree in place: the document whose store `store` is. One token is
 * shared by all the trees of a text that parsed whole, so the next document takes them all over at once.
 */
export interface TomlOwner {
  store: TomlStore;
  /**
   * The groups of the trees' frames, by block index (see `groupFramesByIndex`). Only the trees this
   * token owns are in them, so moving a group moves nothing of another's.
   */
  groups: FrameGroup[];
}

/** A parsed TOML block (see toml-blocks.ts), kept like a YAML chunk. */
export interface CachedTomlPart {
  part: TomlPart;
  /** Where the block starts, from its frame's base (they move together). */
  lead: number;
  owner: TomlOwner;
  /**
   * The part's frame (`part.frame`), held here too: moving or grouping kept parts then reads this
   * object and the frame, not the part as well (a memory miss more per part, in lists of thousands).
   */
  frame: Frame;
}

/** `part`, kept for `owner`, its block starting at `at`. */
export function cachedPart(part: TomlPart, at: number, owner: TomlOwner): CachedTomlPart {
  return { part, lead: at - part.frame.base, owner, frame: part.frame };
}

/** Where a kept part's block starts. */
export function partStart(cached: CachedTomlPart): number {
  return cached.frame.base + cached.lead;
}

/** Puts the frames of `parts` (all of one owner) into new groups by index; returns the groups. */
export function groupFrames(parts: readonly CachedTomlPart[]): FrameGroup[] {
  return groupFramesByIndex(parts.length, (i) => parts[i]!.frame);
}

/** A TOML text's blocks and their trees, kept for the next edit. */
export interface TomlBlocksState {
  bom: number;
  blocks: TomlBlock[];
  parts: (CachedTomlPart | undefined)[];
  fresh: boolean;
  join?: TomlJoin;
  /** Set when every block has its tree, each owned by this token, and the clean signatures are these blocks' (the text parsed without a problem). */
  whole?: TomlOwner;
  /**
   * A text without a tree: the store of the last document with a tree, whose trees (those its
   * blocks' `whole` token still owns) this text holds for the next one. The first document after
   * it with a tree takes them over in place, as from its own previous document, and consumes it.
   */
  lender?: TomlStore;
  /** A later document took the trees this `whole` token owned over through a {@link lender}: none is lent again. */
  lent?: boolean;
}

/**
 * How an edit's TOML blocks relate to the previous text's: blocks before `from` are the same,
 * `count` new ones replace the old ones from `from` to `stop`, and the old ones from `stop` on
 * follow, moved by `delta`.
 */
export interface TomlSplice {
  from: number;
  count: number;
  stop: number;
  delta: number;
}

/** What a text without a tree lends on from the document it was updated from: its own trees, or what it holds. */
export function lenderOf(earlier: TomlStore): TomlStore | undefined {
  const blocks = earlier.units?.blocks;
  return blocks?.whole ? earlier : blocks?.lender;
}

/** The earlier document's parsed block `index`, if any. */
export function earlierPart(
  earlier: { parts: (CachedTomlPart | undefined)[] },
  index: number,
): CachedTomlPart | undefined {
  return index < 0 ? undefined : earlier.parts[index];
}

/**
 * For the blocks of a new plan, the index (plus `offset`) of the block in `old` with the same
 * text: one that lies wholly before the changed region at the same place, or wholly after it,
 * moved by the edit; -1 for the others.
 */
export function blocksByPlace(
  old: readonly TomlBlock[],
  region: ChangedRegion,
  oldBody: TextSource,
  body: TextSource,
  offset = 0,
): OldIndex {
  /** Blocks of the old region by text (built when first needed: several edits far apart make one wide region). */
  let byText: Map<string, number[]> | undefined;
  return (_i, block) => {
    const outside = block.end <= region.start || block.start >= region.newEnd;
    const moved = block.start >= region.newEnd ? region.delta : 0;
    if (outside && old.length > 0) {
      const j = lastAtMost(old, block.start - moved, blockStart);
      const candidate = old[j]!;
      if (candidate.start === block.start - moved && candidate.end === block.end - moved) return j + offset;
      return -1;
    }
    if (!byText) {
      byText = new Map();
      for (let j = 0; j < old.length; j++) {
        const candidate = old[j]!;
        if (candidate.end <= region.start || candidate.start >= region.oldEnd) continue;
        const text = oldBody.slice(candidate.start, candidate.end);
        const list = byText.get(text);
        if (list) list.push(j);
        else byText.set(text, [j]);
      }
    }
    // Each earlier block serves one new block.
    const j = byText.get(body.slice(block.start, block.end))?.shift();
    return j === undefined ? -1 : j + offset;
  };
}

/** For a block of a new plan (index and block), the index of the earlier block with the same text, or -1. */
export type OldIndex = (i: number, block: TomlBlock) => number;

/** Where a block starts: how {@link lastAtMost} searches a block list. */
export const blockStart = (block: TomlBlock): number => block.start;

/** Moves a kept block tree (its nodes and header keys), in place, to start at `at`: one write to its frame. */
export function moveCachedPart(cached: CachedTomlPart, at: number): void {
  cached.frame.base = at - cached.lead;
}

/**
 * The header of a table block (whose text starts with its header line) as the parser read it
 * before an error at `index`: from its `[` to its closing bracket (`]`, or `]]` for `[[`). Null
 * when the error comes first, or the line has no closing: the parser then never finished the
 * header, so it defined no table there. A quote before the error gives the whole line (a quoted
 * key may hold a bracket), which is compared as it stands.
 */
export function headerAsRead(text: string, index: number): string | null {
  let i = 0;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  let lineEnd = text.indexOf('\n', i);
  if (lineEnd === -1) lineEnd = text.length;
  const line = text.slice(i, lineEnd).trimEnd();
  if (text.charCodeAt(i) !== 91 || index > lineEnd || /["']/.test(text.slice(i, index))) return line;
  const closing = text.charCodeAt(i + 1) === 91 ? ']]' : ']';
  const close = text.indexOf(closing, i);
  return close === -1 || close >= lineEnd || index < close ? null : text.slice(i, close + closing.length);
}

/** Whether the line starting at `offset` is a table header line (its first non-blank character is `[`). */
export function startsHeader(text: TextSource, offset: number): boolean {
  let i = offset;
  let c = text.charCodeAt(i);
  while (c === 32 || c === 9 || c === 0xfeff) c = text.charCodeAt(++i);
  return c === 91;
}

/** The header line of a block's signature (block 0 has none). */
export function headerLine(signature: string): string {
  const end = signature.indexOf('\n');
  return end === -1 ? signature : signature.slice(0, end);
}

/** A copy of a TOML block's tree (new nodes even when it does not move) moved by `delta`. */
export function copyTomlPart(part: TomlPart, delta: number): TomlPart {
  const frame = new Frame(part.frame.base + delta);
  const header = part.header && {
    array: part.header.array,
    keys: part.header.keys.map((key) => locatedName(frame, key.name, key.keyStart + delta, key.keyEnd + delta)),
  };
  const table = copyTree(part.table, delta, frame) as MapNode;
  return header
    ? { header, table, hasDateTimes: part.hasDateTimes, frame }
    : { table, hasDateTimes: part.hasDateTimes, frame };
}
