/**
 * The text of an open file, held as pieces of whole lines, so that an edit costs what it
 * touched. A JavaScript string cannot be edited: V8 makes the edited text a rope, and the
 * first read copies all of it into a new flat string: new memory on every keystroke, for a large
 * manifest more than the rest of an incremental edit (measured in docs/decisions.md, "(#17) The
 * open file is held in pieces", and bench/findings.md). A PieceText edit makes one new piece (the lines the
 * change touched) and shares every other piece with the text it came from.
 *
 * Every piece but the last ends just after a `\n`, so a piece never splits a line, a CRLF or a
 * surrogate pair, and counting lines or checking characters can go piece by piece.
 *
 * Reads answer what the same read of the whole string answers (`slice`, `charCodeAt`,
 * `indexOf`, `lastIndexOf`, `startsWith`); `toString()` makes the whole string once and keeps
 * it. A `PieceText` is immutable.
 */
import { lastAtMost, lineStartsOf, type LineTable } from './line-starts.js';
import { withRunReplaced } from './spliced-lists.js';

/** What the readers of a manifest text use of it: a string has all of it. */
export interface TextSource {
  readonly length: number;
  charCodeAt(index: number): number;
  slice(start?: number, end?: number): string;
  indexOf(search: string, position?: number): number;
  lastIndexOf(search: string, position?: number): number;
  startsWith(search: string, position?: number): boolean;
  toString(): string;
}

/**
 * Where a window of whole lines from `from`, at most `size` characters long, ends: the text's end
 * when that is nearer, -1 when no line ends inside the span. Partial readers (the YAML scan, the
 * TOML block plan) read such windows and grow them until their answer settles inside one.
 */
export function wholeLinesEnd(text: TextSource, from: number, size: number): number {
  const end = Math.min(text.length, from + size);
  if (end === text.length) return end;
  const newline = text.lastIndexOf('\n', end - 1);
  return newline < from ? -1 : newline + 1;
}

/** The key of {@link PieceText.hasCrlf}'s derivation. */
const HAS_CRLF = {};

/** Pieces are cut near this many characters by default (a new piece is split when it is twice as long). */
const PIECE = 16 * 1024;

export class PieceText implements TextSource, LineTable {
  /** Offset of each piece's first character; the last entry is the length. */
  private readonly starts: number[];
  /** The number of the line each piece starts (0-based); the last entry is the number of line breaks. */
  private readonly lineStarts: number[];
  private whole?: string;
  /**
   * What readers derived from each piece (see {@link PieceText.derived}), per reader's key:
   * carried to the text an edit makes, which derives only its new pieces.
   */
  private derivations?: Map<object, unknown[]>;

  private constructor(
    private readonly pieces: readonly string[],
    /** Where each line starts in each piece (`lineStartsOf` the piece). */
    private readonly pieceLines: readonly (readonly number[])[],
    /** About how long a piece is (see {@link PieceText.from}). */
    private readonly pieceSize: number,
  ) {
    const n = pieces.length;
    const starts = new Array<number>(n + 1);
    const lineStarts = new Array<number>(n + 1);
    let at = 0;
    let line = 0;
    for (let i = 0; i < n; i++) {
      starts[i] = at;
      lineStarts[i] = line;
      at += pieces[i]!.length;
      line += pieceLines[i]!.length - 1;
    }
    starts[n] = at;
    lineStarts[n] = line;
    this.starts = starts;
    this.lineStarts = lineStarts;
    if (n === 1) this.whole = pieces[0];
  }

  /**
   * The text in pieces of about `pieceSize` characters (tests pass small ones, so that every
   * read crosses pieces). The given string is kept as the whole text.
   */
  static from(text: string, pieceSize = PIECE): PieceText {
    const size = Math.max(1, Math.trunc(pieceSize));
    const pieces = cut(text, size);
    const made = new PieceText(pieces, pieces.map(lineStartsOf), size);
    made.whole = text;
    return made;
  }

  get length(): number {
    return this.starts[this.starts.length - 1]!;
  }

  /** How many pieces hold the text. */
  get pieceCount(): number {
    return this.pieces.length;
  }

  /** Whether the whole string has been made (an edit reads ranges, so after one it has not, unless a whole-text reader asked). */
  get isMaterialized(): boolean {
    return this.whole !== undefined;
  }

  /** The text after replacing `start..end` by `insert` (offsets in UTF-16 code units of this text). */
  edit(start: number, end: number, insert: string): PieceText {
    const length = this.length;
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= length))
      throw new RangeError(`no range ${start}..${end} in a text of ${length} characters`);
    const first = this.pieceAt(start);
    // The piece holding the last replaced character (or the insertion point).
    const lastPiece = end > start ? this.pieceAt(end - 1) : first;
    const a = this.pieces[first]!;
    const b = this.pieces[lastPiece]!;
    const joined = a.slice(0, start - this.starts[first]!) + insert + b.slice(end - this.starts[lastPiece]!);
    const pieces = this.pieces.slice(0, first);
    const pieceLines = this.pieceLines.slice(0, first);
    const kept = pieces.length;
    // A piece must end after a `\n` unless it is the last: one that does not takes the next one in.
    let next = lastPiece + 1;
    let made = joined;
    while (next < this.pieces.length && made.length > 0 && made.charCodeAt(made.length - 1) !== 10)
      made += this.pieces[next++]!;
    // A small piece joins the next one, so pieces do not shrink to nothing.
    if (made.length < this.pieceSize / 4 && next < this.pieces.length) made += this.pieces[next++]!;
    if (made.length > 0) {
      for (const piece of made.length > 2 * this.pieceSize ? cut(made, this.pieceSize) : [made]) {
        pieces.push(piece);
        pieceLines.push(lineStartsOf(piece));
      }
    }
    const added = pieces.length - kept;
    for (let i = next; i < this.pieces.length; i++) {
      pieces.push(this.pieces[i]!);
      pieceLines.push(this.pieceLines[i]!);
    }
    if (!pieces.length) return new PieceText([''], [[0]], this.pieceSize);
    const edited = new PieceText(pieces, pieceLines, this.pieceSize);
    if (this.derivations) {
      edited.derivations = new Map();
      for (const [key, values] of this.derivations) {
        edited.derivations.set(key, withRunReplaced(values, first, next, new Array<unknown>(added)));
      }
    }
    return edited;
  }

  /**
   * What `derive` gives for each piece, in order, with where each piece starts. Kept under `key`
   * and carried to the texts this one's edits make, which derive only their new pieces, so a
   * reader of the whole file after each edit pays for what the edit touched. `derive` must
   * depend on the piece's text alone, and not return undefined. Pieces are whole lines.
   */
  derived<T>(key: object, derive: (piece: string) => T): { values: readonly T[]; starts: readonly number[] } {
    let values = this.derivations?.get(key) as T[] | undefined;
    if (!values) (this.derivations ??= new Map()).set(key, (values = new Array<T>(this.pieces.length)));
    for (let i = 0; i < this.pieces.length; i++) if (values[i] === undefined) values[i] = derive(this.pieces[i]!);
    return { values, starts: this.starts };
  }

  /** Whether a line of the text ends with CRLF (`indexOf('\r\n') !== -1`), reading only the pieces no earlier text read. */
  get hasCrlf(): boolean {
    // Every piece ends after a `\n`, so no CRLF is split between two.
    return this.derived(HAS_CRLF, (piece) => piece.includes('\r\n')).values.includes(true);
  }

  /** The number of lines (one more than the line breaks), as LSP counts them. */
  get lineCount(): number {
    return this.lineStarts[this.lineStarts.length - 1]! + 1;
  }

  /**
   * The offset of an LSP position (0-based line, UTF-16 character), as the LSP library's
   * `TextDocument.offsetAt` answers it: a line past the end is the end of the text, and a
   * character past the end of its line is the end of the line, before its line break.
   */
  offsetAt(line: number, character: number): number {
    if (line < 0) return 0;
    if (line >= this.lineCount) return this.length;
    const start = this.lineStart(line);
    if (character <= 0) return start;
    const next = line + 1 < this.lineCount ? this.lineStart(line + 1) : this.length;
    let offset = Math.min(start + character, next);
    while (offset > start && isLineBreak(this.charCodeAt(offset - 1))) offset--;
    return offset;
  }

  /** The offset where a 0-based line starts (0 ≤ line < lineCount). */
  lineStart(line: number): number {
    // Every piece but the last ends with a line break, so a line starts in the last piece that starts at or before it.
    const i = Math.min(lastAtMost(this.lineStarts, line), this.pieces.length - 1);
    return this.starts[i]! + this.pieceLines[i]![line - this.lineStarts[i]!]!;
  }

  /** The 0-based line holding `offset` (clamped to the text), as a search of every line start would find it. */
  lineOf(offset: number): number {
    const at = Math.max(0, Math.min(offset, this.length));
    const i = this.pieceAt(at);
    return this.lineStarts[i]! + lastAtMost(this.pieceLines[i]!, at - this.starts[i]!);
  }

  charCodeAt(index: number): number {
    if (!(index >= 0 && index < this.length)) return NaN;
    const i = this.pieceAt(index);
    return this.pieces[i]!.charCodeAt(index - this.starts[i]!);
  }

  slice(start = 0, end = this.length): string {
    const length = this.length;
    const from = clampIndex(start, length);
    const to = clampIndex(end, length);
    if (to <= from) return '';
    if (this.whole !== undefined) return this.whole.slice(from, to);
    const first = this.pieceAt(from);
    const last = this.pieceAt(to - 1);
    if (first === last) return this.pieces[first]!.slice(from - this.starts[first]!, to - this.starts[first]!);
    let out = this.pieces[first]!.slice(from - this.starts[first]!);
    for (let i = first + 1; i < last; i++) out += this.pieces[i]!;
    return out + this.pieces[last]!.slice(0, to - this.starts[last]!);
  }

  indexOf(search: string, position = 0): number {
    const from = clampPosition(position, this.length);
    if (this.whole !== undefined) return this.whole.indexOf(search, from);
    if (search.length === 0) return from;
    const reach = search.length - 1;
    for (let i = this.pieceAt(from); i < this.pieces.length; i++) {
      const base = this.starts[i]!;
      const at = this.pieces[i]!.indexOf(search, Math.max(0, from - base));
      if (at !== -1) return base + at;
      // A match that starts in this piece and ends in a later one.
      if (reach > 0 && i + 1 < this.pieces.length) {
        const seamStart = Math.max(from, this.starts[i + 1]! - reach);
        const seam = this.slice(seamStart, Math.min(this.length, this.starts[i + 1]! + reach)).indexOf(search);
        if (seam !== -1 && seamStart + seam < this.starts[i + 1]!) return seamStart + seam;
      }
    }
    return -1;
  }

  lastIndexOf(search: string, position = Infinity): number {
    const length = this.length;
    const from = Math.min(Math.max(Number.isNaN(position) ? Infinity : Math.trunc(position), 0), length);
    if (this.whole !== undefined) return this.whole.lastIndexOf(search, from);
    if (search.length === 0) return from;
    if (search.length > length) return -1;
    const reach = search.length - 1;
    // The last match starting at or before `from`: search backwards piece by piece, in the piece
    // itself (no copy) after the seam with the next piece, where a later match would start.
    for (let i = this.pieceAt(Math.min(from, length - 1)); i >= 0; i--) {
      const base = this.starts[i]!;
      const next = this.starts[i + 1]!;
      if (reach > 0 && next < length) {
        const seamStart = Math.max(base, next - reach);
        const last = Math.min(from, next - 1) - seamStart;
        if (last >= 0) {
          const seam = this.slice(seamStart, Math.min(length, next + reach)).lastIndexOf(search, last);
          if (seam !== -1) return seamStart + seam;
        }
      }
      const at = this.pieces[i]!.lastIndexOf(search, from - base);
      if (at !== -1) return base + at;
    }
    return -1;
  }

  startsWith(search: string, position = 0): boolean {
    const from = clampPosition(position, this.length);
    return this.slice(from, from + search.length) === search;
  }

  /** The whole text as one string: made once, on the first call. */
  toString(): string {
    return (this.whole ??= this.pieces.join(''));
  }

  /**
   * Whether `length` characters of `a` from `aStart` equal those of `b` from `bStart`. Pieces the
   * two texts share (an edit keeps every piece it did not touch) compare by identity, so checking
   * that an edit left the rest of a large text alone costs a step per piece, not a copy of it.
   */
  static rangesEqual(a: TextSource, aStart: number, b: TextSource, bStart: number, length: number): boolean {
    if (typeof a === 'string' && typeof b === 'string')
      return a.slice(aStart, aStart + length) === b.slice(bStart, bStart + length);
    for (let done = 0; done < length;) {
      const x = a instanceof PieceText ? a.pieceSpan(aStart + done) : undefined;
      const y = b instanceof PieceText ? b.pieceSpan(bStart + done) : undefined;
      const step = Math.min(
        length - done,
        x ? x.piece.length - x.within : PIECE,
        y ? y.piece.length - y.within : PIECE,
      );
      if (step <= 0) return false;
      const shared = x !== undefined && y !== undefined && x.piece === y.piece && x.within === y.within;
      if (!shared && a.slice(aStart + done, aStart + done + step) !== b.slice(bStart + done, bStart + done + step))
        return false;
      done += step;
    }
    return true;
  }

  /** The piece holding `offset`, and where in it the offset is. */
  private pieceSpan(offset: number): { piece: string; within: number } {
    const i = this.pieceAt(offset);
    return { piece: this.pieces[i]!, within: offset - this.starts[i]! };
  }

  /** Index of the piece holding `offset` (the last piece for the offset at the end). */
  private pieceAt(offset: number): number {
    return Math.min(lastAtMost(this.starts, offset), this.pieces.length - 1);
  }
}

function isLineBreak(code: number): boolean {
  return code === 10 || code === 13;
}

/** A search position as `String.prototype.indexOf` and `startsWith` take it: clamped to the text. */
function clampPosition(position: number, length: number): number {
  return Math.min(Math.max(Math.trunc(position) || 0, 0), length);
}

/** A `slice` bound: negative counts from the end. */
function clampIndex(index: number, length: number): number {
  if (Number.isNaN(index)) return 0;
  if (index < 0) return Math.max(0, length + index);
  return Math.min(index, length);
}

/** `text` in pieces of about `size` characters, each ending just after a `\n` (but the last). */
function cut(text: string, size: number): string[] {
  if (text.length <= 2 * size) return [text];
  const pieces: string[] = [];
  let at = 0;
  while (at < text.length) {
    const newline = text.length - at > 2 * size ? text.indexOf('\n', at + size - 1) : -1;
    const end = newline === -1 ? text.length : newline + 1;
    pieces.push(text.slice(at, end));
    at = end;
  }
  return pieces;
}
