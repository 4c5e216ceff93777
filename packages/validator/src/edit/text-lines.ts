/**
 * Line arithmetic on a text, for splicing whole lines in and out without touching
 * neighbours. Offsets are UTF-16 offsets into `text`; line ends are `\n` or `\r\n`
 * (the `\r` belongs to the line end, never to the content).
 */
import type { OffsetEdit } from '../diagnostic.js';
import { PieceText, type TextSource } from '../document/piece-text.js';

export function applyEdit(text: string, edit: OffsetEdit): string {
  return text.slice(0, edit.start) + edit.newText + text.slice(edit.end);
}

/** The one region where `after` differs from `before`, as an offset edit (none when they are equal). */
export function textEdits(before: string, after: string): OffsetEdit[] {
  if (before === after) return [];
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (
    end < shorter - start &&
    before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)
  )
    end++;
  // Never split a surrogate pair.
  while (start > 0 && isLowSurrogate(before.charCodeAt(start))) start--;
  while (end > 0 && isLowSurrogate(before.charCodeAt(before.length - end))) end--;
  return [{ start, end: before.length - end, newText: after.slice(start, after.length - end) }];
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The file's line end: CRLF when any line already ends with it. A PieceText answers from the pieces its edits made. */
function eolOf(text: TextSource): string {
  const crlf = text instanceof PieceText ? text.hasCrlf : text.indexOf('\r\n') !== -1;
  return crlf ? '\r\n' : '\n';
}

export class TextLines {
  private cachedEol?: string;

  /** `text` is read by ranges (a document's source need not be one string). */
  constructor(readonly text: TextSource) {}

  /** The line end used for inserted lines: CRLF when the file already uses it. */
  get eol(): string {
    return (this.cachedEol ??= eolOf(this.text));
  }

  lineStartOf(offset: number): number {
    return this.text.lastIndexOf('\n', offset - 1) + 1;
  }

  /** Offset of the line end (before `\r\n` / `\n`) of the line holding `offset`. */
  lineEndOf(offset: number): number {
    let end = this.text.indexOf('\n', offset);
    if (end < 0) return this.text.length;
    if (end > 0 && this.text.charCodeAt(end - 1) === 13 && end - 1 >= offset) end -= 1;
    return end;
  }

  /** Offset of the next line's first character (or the text's end). */
  nextLineStart(offset: number): number {
    const end = this.text.indexOf('\n', offset);
    return end < 0 ? this.text.length : end + 1;
  }

  column(offset: number): number {
    return offset - this.lineStartOf(offset);
  }

  /** Replaces `start`..`end` with `replacement`: an edit of this text (apply it with {@link applyEdit}). */
  splice(start: number, end: number, replacement: string): OffsetEdit {
    return { start, end, newText: replacement };
  }

  /**
   * The line end of the last line that has content before `end`. Node ranges of block
   * collections include their final line break; this steps back over it.
   */
  lastLineEnd(end: number): number {
    let at = end;
    while (at > 0 && /[\s]/.test(this.text.slice(at - 1, at))) at--;
    return this.lineEndOf(Math.max(0, at - 1));
  }

  /** Inserts whole lines after the last line that has content before `contentEnd`. */
  insertLinesAfter(contentEnd: number, lines: readonly string[]): OffsetEdit {
    const at = this.lastLineEnd(contentEnd);
    return this.splice(at, at, this.eol + lines.join(this.eol));
  }

  private lineText(lineStart: number): string {
    return this.text.slice(lineStart, this.lineEndOf(lineStart));
  }

  private isComment(lineStart: number): boolean {
    return /^\s*#/.test(this.lineText(lineStart));
  }

  private isBlank(lineStart: number): boolean {
    return /^\s*$/.test(this.lineText(lineStart));
  }

  private indentOf(lineStart: number): number {
    return /^ */.exec(this.lineText(lineStart))![0].length;
  }

  /**
   * The `# …` comment at the end of the line holding `start`, looked for after
   * `after` (or after the first `:` when `after` is on a later line). Undefined when
   * the rest of the line might hold a quoted `#`.
   */
  trailingComment(start: number, after: number): string | undefined {
    const lineEnd = this.lineEndOf(start);
    let from = after;
    if (after > lineEnd || after < start) {
      const colon = this.text.indexOf(':', start);
      if (colon < 0 || colon > lineEnd) return undefined;
      from = colon + 1;
    }
    const rest = this.text.slice(from, lineEnd);
    const match = /(^|\s)(#.*)$/.exec(rest);
    if (!match || /["']/.test(rest.slice(0, match.index))) return undefined;
    return match[2];
  }

  /** The first line of the block entry starting at `start`: its own line, or the comment lines directly above it. */
  blockStart(start: number): number {
    const indent = this.column(start);
    let first = this.lineStartOf(start);
    while (first > 0) {
      const previous = this.lineStartOf(first - 1);
      // A comment indented deeper than the entry belongs to the entry above it.
      if (!this.isComment(previous) || this.indentOf(previous) > indent) break;
      first = previous;
    }
    return first;
  }

  /** Inserts whole lines before the block entry starting at `start` (and before its comment lines). */
  insertLinesBefore(start: number, lines: readonly string[]): OffsetEdit {
    const at = this.blockStart(start);
    return this.splice(at, at, lines.join(this.eol) + this.eol);
  }

  /**
   * Removes a block entry: from the comment lines directly above it (no blank line in
   * between, not indented deeper than the entry) to the end of its last line, plus more-indented comment lines after it.
   * When that leaves two blank lines together, one goes too.
   */
  removeBlock(start: number, contentEnd: number): OffsetEdit {
    const indent = this.column(start);
    let first = this.blockStart(start);
    let end = this.nextLineStart(Math.max(first, this.lastLineEnd(contentEnd)));
    while (end < this.text.length && this.isComment(end) && this.indentOf(end) > indent) end = this.nextLineStart(end);
    if (end === this.text.length && this.text.charCodeAt(this.text.length - 1) !== 10 && first > 0) {
      // The block is the last line and has no line end: take the previous line's end instead.
      first -= this.text.charCodeAt(first - 2) === 13 ? 2 : 1;
    } else if (first > 0) {
      const previous = this.lineStartOf(first - 1);
      if (this.isBlank(previous) && (end >= this.text.length || this.isBlank(end))) first = previous;
    } else if (end < this.text.length && this.isBlank(end)) {
      // The block opened the file: the blank line after it goes too.
      end = this.nextLineStart(end);
    }
    return this.splice(first, end, '');
  }
}
