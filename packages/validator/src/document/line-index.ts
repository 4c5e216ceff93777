import type { OffsetEdit, Position, Range, RawDiagnostic, Diagnostic, Severity, TextEdit } from '../diagnostic.js';
import type { TextSource } from './piece-text.js';
import type { ChangedRegion } from './text-change.js';

/**
 * Turns UTF-16 offsets into 1-based line/column positions. Lines end at "\n", "\r\n" or a
 * lone "\r" (as in YAML and LSP), so CRLF files get the same columns as LF ones.
 * A leading byte-order mark is not a visible character: columns on line 1 start after it.
 */
export class LineIndex {
  /** Offset at which each line starts. */
  readonly lineStarts: number[];
  private readonly bomLength: number;

  constructor(
    /** The text (read by ranges only, once the line starts are known: see {@link LineIndex.spliced}). */
    readonly text: TextSource,
    /** The line starts, when the caller already knows them (see {@link LineIndex.spliced}). */
    lineStarts?: number[],
  ) {
    this.bomLength = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (lineStarts) {
      this.lineStarts = lineStarts;
      return;
    }
    this.lineStarts = lineStartsOf(text.toString());
  }

  /**
   * The index of `text`, which differs from `previous.text` only in `region` (whole lines, see
   * text-change.ts): the previous line starts before the region are kept, those in it found
   * again, those after it moved. Leaves `previous` as it is.
   */
  static spliced(previous: LineIndex, text: TextSource, region: ChangedRegion): LineIndex {
    const old = previous.lineStarts;
    const first = lineOfOffset(old, region.start); // old[first] === region.start
    const after = lineOfOffset(old, region.oldEnd) + 1; // the first start past the region
    const found: number[] = [];
    const breaks = /\r\n?|\n/g;
    const inside = text.slice(region.start, region.newEnd);
    for (let match = breaks.exec(inside); match; match = breaks.exec(inside)) found.push(region.start + match.index + match[0].length);
    const delta = region.delta;
    let starts: number[];
    if (found.length === after - first - 1) {
      // As many lines as before (typing within lines): one native copy, then patch.
      starts = old.slice();
      for (let i = 0; i < found.length; i++) starts[first + 1 + i] = found[i]!;
    } else {
      starts = old.slice(0, first + 1).concat(found, old.slice(after));
    }
    if (delta !== 0) for (let i = first + 1 + found.length; i < starts.length; i++) starts[i]! += delta;
    return new LineIndex(text, starts);
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** 0-based line containing `offset`. */
  lineOf(offset: number): number {
    return lineOfOffset(this.lineStarts, offset);
  }

  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineOf(clamped);
    let lineStart = this.lineStarts[line]!;
    if (line === 0) lineStart = Math.min(this.bomLength, clamped);
    return { offset: clamped, line: line + 1, column: clamped - lineStart + 1 };
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(Math.max(start, end)) };
  }

  /** Offset of a 1-based line/column (the inverse of {@link position}). */
  offsetAt(line: number, column: number): number {
    const index = Math.max(0, Math.min(line - 1, this.lineStarts.length - 1));
    const lineStart = index === 0 ? this.bomLength : this.lineStarts[index]!;
    return Math.min(lineStart + column - 1, this.lineEnd(index));
  }

  /** Offset just past the last character of a 0-based line, before its line break. */
  lineEnd(line: number): number {
    const next = this.lineStarts[line + 1];
    if (next === undefined) return this.text.length;
    let end = next;
    if (this.text.charCodeAt(end - 1) === 10) end -= 1;
    if (end > this.lineStarts[line]! && this.text.charCodeAt(end - 1) === 13) end -= 1;
    return end;
  }

  /** The located form of `raw`; `severity` is its rule's (the caller looks it up: this layer knows no rules). */
  locate(raw: RawDiagnostic, severity: Severity): Diagnostic {
    const diagnostic: Diagnostic = {
      code: raw.code,
      severity,
      message: raw.message,
      path: raw.path,
      range: this.range(raw.start, raw.end),
    };
    if (raw.related?.length) {
      diagnostic.related = raw.related.map((r) => ({ message: r.message, range: this.range(r.start, r.end) }));
    }
    if (raw.fixes?.length) {
      diagnostic.fixes = raw.fixes.map((fix) => ({ title: fix.title, edits: fix.edits.map((e) => this.edit(e)) }));
    }
    return diagnostic;
  }

  edit(edit: OffsetEdit): TextEdit {
    return { range: this.range(edit.start, edit.end), newText: edit.newText };
  }
}

/** Where each line of a text starts (after `\n`, `\r\n` or a lone `\r`). */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  if (text.includes('\r')) {
    const breaks = /\r\n?|\n/g;
    for (let match = breaks.exec(text); match; match = breaks.exec(text)) starts.push(match.index + match[0].length);
  } else {
    let at = text.indexOf('\n');
    while (at !== -1) {
      starts.push(at + 1);
      at = text.indexOf('\n', at + 1);
    }
  }
  return starts;
}

/**
 * Index of the last element of a sorted list that is at most `offset` (0 when none is): a binary
 * search. A list of things that start somewhere (blocks, chunks) is searched by `startOf` each,
 * without a list of their starts made first.
 */
export function lastAtMost(list: readonly number[], offset: number): number;
export function lastAtMost<T>(list: readonly T[], offset: number, startOf: (item: T) => number): number;
export function lastAtMost<T>(list: readonly T[], offset: number, startOf?: (item: T) => number): number {
  let low = 0;
  let high = list.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    const start = startOf ? startOf(list[mid]!) : (list[mid] as number);
    if (start <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** 0-based line containing `offset`, given the sorted line-start offsets. */
export function lineOfOffset(lineStarts: readonly number[], offset: number): number {
  return lastAtMost(lineStarts, offset);
}
