/**
 * Finding a schema directive line (`# yaml-language-server: $schema=…`, Taplo's `#:schema …`)
 * in a document's text, once per text. A directive may sit on any line, so the first search
 * reads the whole text; after an edit, the answer for the new text follows from the answer for
 * the text it was edited from and a search of the changed lines only (`ManifestDocument.editedRegion`):
 * in a 50,000-line file a keystroke otherwise pays a scan of megabytes for a comment that is
 * almost never there.
 */
import type { ChangedRegion, ManifestDocument } from '@svc-manifest/validator/library';

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

interface Answer {
  rule: DirectiveRule;
  directive: Directive | null;
}

/**
 * The directive search of one document, kept with the document's state (`DocumentState.directives`):
 * the answer once searched, or, for a document made by an edit, the answer for the text before it
 * and the edit's lines, so that its search reads only those. It holds its own document and no
 * earlier one: no chain of documents is kept alive.
 */
export class DirectiveSearch {
  #answer: Answer | undefined;
  #carried: { before: Answer; region: ChangedRegion } | undefined;

  constructor(
    private readonly doc: ManifestDocument,
    carried?: { before: Answer; region: ChangedRegion },
  ) {
    this.#carried = carried;
  }

  /** The search of `next`, a document made from this one's by an edit: it starts from this one's answer. */
  after(next: ManifestDocument): DirectiveSearch {
    const before = this.#answer ?? this.#carriedAnswer();
    return new DirectiveSearch(next, before && next.editedRegion ? { before, region: next.editedRegion } : undefined);
  }

  /** The first directive line of the document's text that `rule` accepts, or null. */
  find(rule: DirectiveRule): Directive | null {
    if (this.#answer?.rule === rule) return this.#answer.directive;
    const carry = this.#carried;
    this.#carried = undefined;
    const directive =
      carry && carry.before.rule === rule
        ? afterEdit(this.doc, rule, carry.before.directive, carry.region)
        : searchLines(this.doc, rule, 0, this.doc.source.length);
    this.#answer = { rule, directive };
    return directive;
  }

  /** The answer when this document's own search never ran but its edit carried one (a burst of edits validated once). */
  #carriedAnswer(): Answer | undefined {
    const carry = this.#carried;
    if (!carry) return undefined;
    this.find(carry.before.rule);
    return this.#answer;
  }
}

/**
 * The first directive of `text`, made from `before` (the first directive of the text before the
 * edit) by an edit of the whole lines `region`. Lines before `region.start` did not change, nor
 * did those after it (they moved by `region.delta`).
 */
function afterEdit(
  doc: ManifestDocument,
  rule: DirectiveRule,
  before: Directive | null,
  region: ChangedRegion,
): Directive | null {
  // Before the edit's lines, and so still the first.
  if (before && before.start < region.start) return before;
  const inEdit = searchLines(doc, rule, region.start, region.newEnd);
  if (inEdit) return inEdit;
  if (!before) return null;
  // After the edit's lines: the same line, moved.
  if (before.start >= region.oldEnd)
    return { url: before.url, start: before.start + region.delta, end: before.end + region.delta };
  // The edit changed the line that was first: the next one, if any, is after the edit.
  return searchLines(doc, rule, region.newEnd, doc.source.length);
}

/**
 * The first line among those wholly in `from..to` (both at line boundaries) that contains the
 * marker and matches the rule. Searching for the marker first keeps this from running a
 * regular expression over every line; each line is looked at once however many markers it holds.
 */
function searchLines(
  doc: ManifestDocument,
  { marker, lineRule }: DirectiveRule,
  from: number,
  to: number,
): Directive | null {
  // `indexOf` has no end bound: search a copy of the lines (a keystroke's region is a line or two).
  const lines = from === 0 && to === doc.source.length ? doc.text : doc.source.slice(from, to);
  for (let at = lines.indexOf(marker); at >= 0;) {
    let lineStart = at;
    while (lineStart > 0 && !isLineBreak(lines.charCodeAt(lineStart - 1))) lineStart--;
    let lineEnd = at + marker.length;
    while (lineEnd < lines.length && !isLineBreak(lines.charCodeAt(lineEnd))) lineEnd++;
    const match = lineRule.exec(lines.slice(lineStart, lineEnd));
    if (match) {
      const start = from + lineStart + match[0].length - match[1]!.length;
      return { url: match[1]!, start, end: start + match[1]!.length };
    }
    at = lines.indexOf(marker, lineEnd);
  }
  return null;
}

/** The characters that end a line for a multiline `^`: \n, \r, U+2028 and U+2029. */
function isLineBreak(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}
