/**
 * The lines of a document's text that hold a marker, found once per text and carried across
 * edits as a value. A first search reads the text; the search of a document made by
 * `ManifestDocument.update` starts from the answer for the text it was updated from and reads
 * only the edited lines (`editedRegion`): in a 50,000-line file a keystroke otherwise pays a scan
 * of megabytes for a comment that is almost never there. The suppression comments'
 * search (policy/suppressions.ts) and the language server's schema directive search are built on it.
 */
import type { ManifestDocument } from './manifest-document.js';
import type { TextSource } from './piece-text.js';
import type { ChangedRegion } from './text-change.js';

/**
 * What to look for: lines holding `marker` (which holds no line break), of which `read` says
 * which are marked and what each one is. A line ends at "\n", "\r\n" or a lone "\r", as the line
 * index has them. `read` is given the line's text without its line break; what it returns is
 * carried with the line across edits that do not touch it, so it holds no offset into the
 * text (one within the line is fine). Lines without the marker are never read.
 */
export interface LineMarker<T> {
  readonly marker: string;
  readonly read: (line: string) => T | null;
}

/** A marked line: where it starts in the text, and what `LineMarker.read` made of it. */
export interface MarkedLine<T> {
  readonly start: number;
  readonly value: T;
}

/**
 * How far a text was searched: `marks` are the marked lines of all the lines that start before
 * `through`, a line start or the text's length (then the answer is whole). A search that wanted
 * only the first marked line stops after it.
 */
interface Searched<T> {
  readonly marks: readonly MarkedLine<T>[];
  readonly through: number;
}

/** What a search made from another's carries: that text's answer and the edit between the texts (null: none). */
interface Carried<T> {
  readonly before: Searched<T>;
  readonly region: ChangedRegion | null;
}

/**
 * The marked lines of one document's text. It holds its own document and no earlier one (a
 * search after an edit holds the answer for the text before it and the edit's region), so no
 * chain of documents is kept alive. Nothing is searched until asked.
 */
export class MarkedLines<T> {
  #searched: Searched<T> | undefined;
  #carried: Carried<T> | undefined;

  private constructor(
    readonly document: ManifestDocument,
    readonly marker: LineMarker<T>,
    carried?: Carried<T>,
  ) {
    this.#carried = carried;
  }

  /** The search of a document's text, made on first use. */
  static of<T>(document: ManifestDocument, marker: LineMarker<T>): MarkedLines<T> {
    return new MarkedLines(document, marker);
  }

  /**
   * The search of `next`, which `update()` made from this one's document: it starts from what
   * this one found. A document that was not made from this one's is searched afresh (an answer
   * carried to it would be for another text), and so is one after a document never searched.
   */
  after(next: ManifestDocument): MarkedLines<T> {
    const before = next.updatedFrom === this.document.serial ? this.#known() : undefined;
    return new MarkedLines(next, this.marker, before && { before, region: next.editedRegion });
  }

  /** The first marked line of the text, or null: the text is read up to it, no further. */
  first(): MarkedLine<T> | null {
    const searched = this.#searchedThrough(true);
    return searched.marks[0] ?? null;
  }

  /** All the marked lines of the text, in order. */
  all(): readonly MarkedLine<T>[] {
    return this.#searchedThrough(false).marks;
  }

  /** What is known without reading beyond the edited lines: the answer so far, or the one an edit carried (a burst of edits asked about once). */
  #known(): Searched<T> | undefined {
    const carry = this.#carried;
    if (carry) {
      this.#carried = undefined;
      this.#searched = carry.region
        ? afterEdit(this.document.source, this.marker, carry.before, carry.region)
        : carry.before;
    }
    return this.#searched;
  }

  /** The answer, searched on to the end of the text, or until a marked line is found when `first`. */
  #searchedThrough(first: boolean): Searched<T> {
    const source = this.document.source;
    const known = this.#known() ?? { marks: [], through: 0 };
    if (known.through >= source.length || (first && known.marks.length > 0)) return (this.#searched = known);
    const rest = searchLines(source, this.marker, known.through, source.length, first);
    this.#searched = { marks: [...known.marks, ...rest.marks], through: rest.through };
    return this.#searched;
  }
}

/**
 * The answer for a text from the one for the text it was edited from (`before`) and the edit's
 * whole lines: the marked lines before the edit stay, those in it are searched again, and those
 * after it moved by `region.delta`. A search that stopped inside the edited lines (its first
 * marked line was there: the edit may have taken it away) now stops at the edit's end.
 */
function afterEdit<T>(
  source: TextSource,
  marker: LineMarker<T>,
  before: Searched<T>,
  region: ChangedRegion,
): Searched<T> {
  // Nothing past the edit's start was searched: what was found is still all that is known.
  if (before.through <= region.start) return before;
  const marks = before.marks.filter((mark) => mark.start < region.start);
  marks.push(...searchLines(source, marker, region.start, region.newEnd, false).marks);
  if (before.through < region.oldEnd) return { marks, through: region.newEnd };
  for (const mark of before.marks)
    if (mark.start >= region.oldEnd) marks.push({ start: mark.start + region.delta, value: mark.value });
  return { marks, through: before.through + region.delta };
}

/**
 * The marked lines among those wholly in `from..to` (both line starts or the text's end), and
 * where the search stopped: `to`, or, when `first`, the start of the line after the first one
 * found. Searching for the marker keeps lines without it from being read; each line is read once
 * however many markers it holds.
 */
function searchLines<T>(
  source: TextSource,
  { marker, read }: LineMarker<T>,
  from: number,
  to: number,
  first: boolean,
): Searched<T> {
  // `indexOf` has no end bound: a region (a line or two) is searched as a copy.
  const text: TextSource = from === 0 && to === source.length ? source : source.slice(from, to);
  const marks: MarkedLine<T>[] = [];
  for (let at = text.indexOf(marker); at !== -1;) {
    let start = at;
    while (start > 0 && !isLineBreak(text.charCodeAt(start - 1))) start--;
    let end = at + marker.length;
    while (end < text.length && !isLineBreak(text.charCodeAt(end))) end++;
    const value = read(text.slice(start, end));
    if (value !== null) {
      marks.push({ start: from + start, value });
      if (first) return { marks, through: from + nextLineStart(text, end) };
    }
    at = end >= text.length ? -1 : text.indexOf(marker, end);
  }
  return { marks, through: to };
}

/** The start of the line after the one ending at `end` (at its line break, or the text's end). */
function nextLineStart(text: TextSource, end: number): number {
  if (end >= text.length) return text.length;
  return text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a ? end + 2 : end + 1;
}

function isLineBreak(code: number): boolean {
  return code === 0x0a || code === 0x0d;
}
