/**
 * Where a new text of a file differs from the old one: the ranges an editor reports (LSP's
 * incremental content changes), or, without them, what comparing the two texts' common prefix
 * and suffix finds. `ManifestDocument.update` re-reads only this region.
 */
import { PieceText, type TextSource } from './piece-text.js';

/**
 * One replacement, in the offsets of the text it applies to: the UTF-16 range `start..end` of
 * that text is replaced by `newLength` characters. Several changes apply one after the other,
 * each to the text the previous one made (as LSP's `contentChanges` do).
 */
export interface TextChange {
  start: number;
  end: number;
  newLength: number;
}

/**
 * The changed region, widened to whole lines: `start` is a line start (0 or just after a `\n`)
 * in both texts, `oldEnd`/`newEnd` are just after a `\n` or the end of their text, and the two
 * texts are equal before `start` and from `oldEnd`/`newEnd` on (`delta` = newEnd − oldEnd).
 * Whole lines never split a CRLF or a surrogate pair, so counts of bytes, lines and forbidden
 * characters can be updated from the region alone.
 */
export interface ChangedRegion {
  start: number;
  oldEnd: number;
  newEnd: number;
  delta: number;
  /** Whether the region came from the changes passed (else from comparing the texts). */
  fromChanges: boolean;
}

/** The region in the offsets of the text after a byte-order mark of `bom` characters (what a reader reads). */
export function bodyRegion(region: ChangedRegion, bom: number): ChangedRegion {
  return {
    ...region,
    start: Math.max(0, region.start - bom),
    oldEnd: region.oldEnd - bom,
    newEnd: region.newEnd - bom,
  };
}

/** Characters compared at a time when looking for the common prefix and suffix (each compare is native). */
const BLOCK = 4096;

function commonPrefix(a: TextSource, b: TextSource, limit: number): number {
  let i = 0;
  while (i + BLOCK <= limit && a.slice(i, i + BLOCK) === b.slice(i, i + BLOCK)) i += BLOCK;
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function commonSuffix(a: TextSource, b: TextSource, limit: number): number {
  let n = 0;
  while (
    n + BLOCK <= limit &&
    a.slice(a.length - n - BLOCK, a.length - n) === b.slice(b.length - n - BLOCK, b.length - n)
  )
    n += BLOCK;
  while (n < limit && a.charCodeAt(a.length - n - 1) === b.charCodeAt(b.length - n - 1)) n++;
  return n;
}

/**
 * The region where `newText` differs from `oldText`, or null when they are equal. With
 * `changes`, the span they cover is taken (checked against the texts: changes that do not
 * produce `newText` from `oldText` are ignored and the texts compared instead).
 */
export function changedRegion(
  oldText: TextSource,
  newText: TextSource,
  changes?: readonly TextChange[],
): ChangedRegion | null {
  let prefix = -1;
  let suffix = -1;
  let fromChanges = false;
  const merged = changes && changes.length > 0 ? mergeTextChanges(oldText.length, changes) : null;
  if (merged && oldText.length - (merged.end - merged.start) + merged.newLength === newText.length) {
    const p = merged.start;
    const s = oldText.length - merged.end;
    // Trust, but verify (pieces the texts share compare by identity): changes that did not make this text are ignored.
    if (
      PieceText.rangesEqual(oldText, 0, newText, 0, p) &&
      PieceText.rangesEqual(oldText, oldText.length - s, newText, newText.length - s, s)
    ) {
      prefix = p;
      suffix = s;
      fromChanges = true;
    }
  }
  if (prefix < 0) {
    if (oldText.length === newText.length && PieceText.rangesEqual(oldText, 0, newText, 0, oldText.length)) return null;
    const limit = Math.min(oldText.length, newText.length);
    prefix = commonPrefix(oldText, newText, limit);
    suffix = commonSuffix(oldText, newText, limit - prefix);
  }
  // Whole lines: back to the start of the line holding the first change, on to the end of the
  // line holding the last one (both texts agree there: the suffix is common).
  const start = prefix === 0 ? 0 : oldText.lastIndexOf('\n', prefix - 1) + 1;
  const oldEndOfChange = oldText.length - suffix;
  const newEndOfChange = newText.length - suffix;
  // The region ends after the `\n` ending the line the change ends on; when the change ends just
  // after a `\n` in both texts (or inserts or deletes whole lines) it ends there.
  let oldEnd: number;
  const atLineEnd = (text: TextSource, end: number): boolean =>
    end === start || (end > start && text.charCodeAt(end - 1) === 10);
  if (atLineEnd(oldText, oldEndOfChange) && atLineEnd(newText, newEndOfChange)) {
    oldEnd = oldEndOfChange;
  } else {
    const lineEnd = oldText.indexOf('\n', oldEndOfChange);
    oldEnd = lineEnd === -1 ? oldText.length : lineEnd + 1;
  }
  const delta = newText.length - oldText.length;
  return { start, oldEnd, newEnd: oldEnd + delta, delta, fromChanges };
}

/**
 * One replacement equivalent to `changes` applied in order to a text of `oldLength`
 * characters (the span from the first changed character to the last), or null when they are
 * not valid for such a text. Lets a caller that receives many changes before it parses (a
 * burst of keystrokes) keep one.
 */
export function mergeTextChanges(oldLength: number, changes: readonly TextChange[]): TextChange | null {
  let length = oldLength;
  let prefix = oldLength;
  let suffix = oldLength;
  for (const { start, end, newLength } of changes) {
    if (!(
      Number.isInteger(start) &&
      Number.isInteger(end) &&
      Number.isInteger(newLength) &&
      start >= 0 &&
      start <= end &&
      end <= length &&
      newLength >= 0
    ))
      return null;
    prefix = Math.min(prefix, start);
    suffix = Math.min(suffix, length - end);
    length = length - (end - start) + newLength;
  }
  prefix = Math.min(prefix, oldLength, length);
  suffix = Math.min(suffix, oldLength - prefix, length - prefix);
  return { start: prefix, end: oldLength - suffix, newLength: length - prefix - suffix };
}
