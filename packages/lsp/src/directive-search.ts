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

const answers = new WeakMap<ManifestDocument, Answer>();
/** For a document made by an edit: the answer for the text before it (not that document: no chains of documents are kept alive). */
const carried = new WeakMap<ManifestDocument, { before: Answer; region: ChangedRegion }>();

/** Records that `next` was made from `previous` by an edit, so its search can start from `previous`'s answer. */
export function noteEdit(previous: ManifestDocument, next: ManifestDocument): void {
  const before = answers.get(previous) ?? carriedAnswer(previous);
  if (before && next.editedRegion) carried.set(next, { before, region: next.editedRegion });
}

/** The answer for a document whose own search never ran, when its edit carried one (a burst of edits validated once). */
function carriedAnswer(doc: ManifestDocument): Answer | undefined {
  const carry = carried.get(doc);
  if (!carry) return undefined;
  const directive = afterEdit(doc, carry.before.rule, carry.before.directive, carry.region);
  const answer = { rule: carry.before.rule, directive };
  answers.set(doc, answer);
  carried.delete(doc);
  return answer;
}

/** The first directive line of the document's text that `rule` accepts, or null. */
export function findDirective(doc: ManifestDocument, rule: DirectiveRule): Directive | null {
  const known = answers.get(doc);
  if (known?.rule === rule) return known.directive;
  const carry = carried.get(doc);
  carried.delete(doc);
  const directive =
    carry && carry.before.rule === rule
      ? afterEdit(doc, rule, carry.before.directive, carry.region)
      : searchLines(doc, rule, 0, doc.source.length);
  answers.set(doc, { rule, directive });
  return directive;
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
