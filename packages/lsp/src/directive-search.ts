/**
 * Finding a schema directive line (`# yaml-language-server: $schema=…`, Taplo's `#:schema …`)
 * in a document's text, once per text. A directive may sit on any line; the lines that hold one
 * are the validator's `MarkedLines`, which carries the answer across edits and reads only the
 * edited lines (`ManifestDocument.editedRegion`). This file says only what a directive line is.
 */
import { MarkedLines, type LineMarker, type ManifestDocument } from '@svc-manifest/validator/library';

/** A directive's URL and its offsets in the text. */
export interface Directive {
  url: string;
  start: number;
  end: number;
}

/**
 * What to look for: lines containing `marker`, of which the first matching `lineRule`
 * (anchored at the line's start; its group 1 is the URL) is the directive.
 */
export interface DirectiveRule {
  marker: string;
  lineRule: RegExp;
}

/** A directive line's URL and where the URL starts in its line (a value carried across edits: no offset into the text). */
interface DirectiveInLine {
  url: string;
  column: number;
}

/**
 * The directive search of one document, kept with the document's state (`DocumentState.directives`):
 * the validator's {@link MarkedLines} for the rule last asked about, so that the search of a
 * document made by an edit reads only the edited lines. It holds its own document and no earlier
 * one: no chain of documents is kept alive.
 */
export class DirectiveSearch {
  #search: { rule: DirectiveRule; lines: MarkedLines<DirectiveInLine> } | undefined;

  constructor(
    private readonly doc: ManifestDocument,
    search?: { rule: DirectiveRule; lines: MarkedLines<DirectiveInLine> },
  ) {
    this.#search = search;
  }

  /**
   * The search of `next`, a document made from this one's by an edit: it starts from this one's
   * answer (none is carried to a document not made from this one's).
   */
  after(next: ManifestDocument): DirectiveSearch {
    const search = this.#search;
    return new DirectiveSearch(next, search && { rule: search.rule, lines: search.lines.after(next) });
  }

  /** The first directive line of the document's text that `rule` accepts, or null. */
  find(rule: DirectiveRule): Directive | null {
    if (this.#search?.rule !== rule) this.#search = { rule, lines: MarkedLines.of(this.doc, markerOf(rule)) };
    const first = this.#search.lines.first();
    if (!first) return null;
    const start = first.start + first.value.column;
    return { url: first.value.url, start, end: start + first.value.url.length };
  }
}

/** The lines a rule marks: those where a directive line (a line holding the marker, also ended by U+2028 or U+2029) matches it. */
function markerOf(rule: DirectiveRule): LineMarker<DirectiveInLine> {
  return { marker: rule.marker, read: (line) => directiveIn(line, rule) };
}

/**
 * The first directive in `text` (a line of the document) that `rule` accepts. A directive's line
 * may end at U+2028 or U+2029 too (a multiline `^`), so one line of the document may hold
 * several; each is looked at once however many markers it holds. A U+FEFF that starts the line
 * is skipped: on the first line it is the text's byte-order mark, which the parsers skip too.
 */
function directiveIn(text: string, { marker, lineRule }: DirectiveRule): DirectiveInLine | null {
  // A byte-order mark (an editor may send the text with it) is no part of the first line's text.
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let at = text.indexOf(marker); at >= 0;) {
    let lineStart = at;
    while (lineStart > bom && !isLineBreak(text.charCodeAt(lineStart - 1))) lineStart--;
    let lineEnd = at + marker.length;
    while (lineEnd < text.length && !isLineBreak(text.charCodeAt(lineEnd))) lineEnd++;
    const match = lineRule.exec(text.slice(lineStart, lineEnd));
    if (match) return { url: match[1]!, column: lineStart + match[0].length - match[1]!.length };
    at = text.indexOf(marker, lineEnd);
  }
  return null;
}

/** The characters that end a line for a multiline `^`: \n, \r, U+2028 and U+2029. */
function isLineBreak(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}
