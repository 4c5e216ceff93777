import type { OffsetEdit, Position, Range, RawDiagnostic, Diagnostic, Severity, TextEdit } from '../diagnostic.js';
import { LineStarts, lineOfOffset, lineStartsOf, type LineTable } from './line-starts.js';
import { PieceText, type TextSource } from './piece-text.js';
import type { ChangedRegion } from './text-change.js';

export { lastAtMost, lineOfOffset, lineStartsOf, type LineTable } from './line-starts.js';

/**
 * Turns UTF-16 offsets into 1-based line/column positions. Lines end at "\n", "\r\n" or a
 * lone "\r" (as in YAML and LSP), so CRLF files get the same columns as LF ones.
 * A leading byte-order mark is not a visible character: columns on line 1 start after it.
 *
 * A text held in pieces keeps a line table per piece, shared with the texts its edits make: its
 * index is that table, made in constant time. An array of every line start would cost, after each
 * edit, a copy of the array and a shift of every start past the edit (50,000 of them in a 50k-line
 * file), and the first read of a plain string's index builds one.
 */
export class LineIndex implements LineTable {
  /** The text's line table: a PieceText's own, or the array of a string's line starts. */
  private readonly table: LineTable;
  private readonly bomLength: number;

  constructor(
    /** The text (read by ranges only, once the line starts are known: see {@link LineIndex.spliced}). */
    readonly text: TextSource,
    /** The line starts, when the caller already knows them (see {@link LineIndex.spliced}). */
    lineStarts?: number[],
  ) {
    this.bomLength = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (lineStarts) this.table = new LineStarts(lineStarts);
    else this.table = text instanceof PieceText ? text : new LineStarts(lineStartsOf(text.toString()));
  }

  /**
   * The index of `text`, which differs from `previous.text` only in `region` (whole lines, see
   * text-change.ts): for a PieceText, its own table; otherwise the previous line starts before the
   * region are kept, those in it found again, those after it moved. Leaves `previous` as it is.
   */
  static spliced(previous: LineIndex, text: TextSource, region: ChangedRegion): LineIndex {
    if (text instanceof PieceText || !(previous.table instanceof LineStarts)) return new LineIndex(text);
    const old = previous.table.starts;
    const first = lineOfOffset(old, region.start); // old[first] === region.start
    const after = lineOfOffset(old, region.oldEnd) + 1; // the first start past the region
    const found: number[] = [];
    const breaks = /\r\n?|\n/g;
    const inside = text.slice(region.start, region.newEnd);
    for (let match = breaks.exec(inside); match; match = breaks.exec(inside))
      found.push(region.start + match.index + match[0].length);
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
    return this.table.lineCount;
  }

  lineStart(line: number): number {
    return this.table.lineStart(line);
  }

  /** 0-based line containing `offset`. */
  lineOf(offset: number): number {
    return this.table.lineOf(offset);
  }

  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineOf(clamped);
    let lineStart = this.lineStart(line);
    if (line === 0) lineStart = Math.min(this.bomLength, clamped);
    return { offset: clamped, line: line + 1, column: clamped - lineStart + 1 };
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(Math.max(start, end)) };
  }

  /** Offset of a 1-based line/column (the inverse of {@link position}). */
  offsetAt(line: number, column: number): number {
    const index = Math.max(0, Math.min(line - 1, this.lineCount - 1));
    const lineStart = index === 0 ? this.bomLength : this.lineStart(index);
    return Math.min(lineStart + column - 1, this.lineEnd(index));
  }

  /** Where the line after a 0-based line starts, past its line break: the text's end after the last line. */
  nextLineStart(line: number): number {
    return line + 1 < this.lineCount ? this.lineStart(line + 1) : this.text.length;
  }

  /** Offset just past the last character of a 0-based line, before its line break. */
  lineEnd(line: number): number {
    if (line + 1 >= this.lineCount) return this.text.length;
    let end = this.lineStart(line + 1);
    if (this.text.charCodeAt(end - 1) === 10) end -= 1;
    if (end > this.lineStart(line) && this.text.charCodeAt(end - 1) === 13) end -= 1;
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
