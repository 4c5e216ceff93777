/**
 * Inline suppressions in a manifest's comments (YAML and TOML both write comments with `#`):
 *
 * ```yaml
 * # svc-manifest-disable-next-line possible-typo -- not a misspelt `project`: our deploy script reads it
 * projects: [billing, invoices]
 * # svc-manifest-disable default-agent-declared, trigger-agent-declared -- agents come from the platform
 * ...
 * # svc-manifest-enable default-agent-declared, trigger-agent-declared
 * ```
 *
 * `disable-next-line` covers the next line; `disable` covers from its own line to the matching
 * `enable` (or the end of the file). The text after ` -- ` is the reason, for people. A comment
 * is a `#` at the start of a line or after a space or tab, outside any string: a directive
 * written inside a quoted or block string is text, not a comment. Only the rules the caller
 * allows (policy.ts: SUPPRESSIBLE_RULES) can be suppressed. A comment's own problems are
 * diagnostics located on the comment (from its `#` to its last character):
 * `invalid-suppression` (it names no rule, or an id that is no rule), `unsuppressible-rule`
 * (it names a rule no comment may suppress) and `unused-suppression` (it suppressed nothing, or
 * an `enable` ends no `disable`: stale, it would hide the next real problem there).
 */
import { compareLocatedByPlace, type Diagnostic } from '../diagnostic.js';
import type { ManifestDocument } from '../document/manifest-document.js';
import { MarkedLines, type LineMarker } from '../document/marked-lines.js';
import { pathAtOffset } from '../document/nodes.js';
import { RULES_BY_ID, severityOf, type RuleCode } from '../rules/index.js';
import { didYouMeanNote } from '../suggest.js';

interface Directive {
  kind: 'disable-next-line' | 'disable' | 'enable';
  /** 1-based, as diagnostics count lines. */
  line: number;
  /** The comment, from its `#` to its last character before the line's end. */
  start: number;
  end: number;
  rules: string[];
}

/** After a `#`: the directive's name, not followed by more of a name. */
const DIRECTIVE = /^#[ \t]*svc-manifest-(disable-next-line|disable|enable)(?![\w-])/;

/** What a directive's line holds: lines without it are never read further. */
const MARKER = 'svc-manifest-';

/** Every line holding {@link MARKER} is marked; which of them are suppressions is read against the tree. */
const MARKED: LineMarker<true> = { marker: MARKER, read: () => true };

/**
 * The lines of one document's text that hold {@link MARKER} (their start offsets, in order),
 * carried over edits as a value (a {@link MarkedLines} search: a document made by an edit has
 * only its edited lines read). Which of those lines are suppressions is read again on every
 * validation, against the tree: an edit elsewhere (an opened block scalar) can turn an
 * unchanged comment into a string's text. The language server keeps one on each document's
 * state (`DocumentState.suppressions`) and hands it to `withPolicy`. It holds its own document
 * and no earlier one.
 */
export class SuppressionSearch {
  #starts: readonly number[] | undefined;

  private constructor(private readonly lines: MarkedLines<true>) {}

  /** The search of a document's text, made on first use. */
  static of(document: ManifestDocument): SuppressionSearch {
    return new SuppressionSearch(MarkedLines.of(document, MARKED));
  }

  /** The document searched. */
  get document(): ManifestDocument {
    return this.lines.document;
  }

  /**
   * The search of `next`, made from this one's document by `update()`: it starts from this
   * one's answer. Another document is searched afresh.
   */
  after(next: ManifestDocument): SuppressionSearch {
    return new SuppressionSearch(this.lines.after(next));
  }

  /** The start offsets of the lines holding `svc-manifest-`, in order. */
  markedLines(): readonly number[] {
    this.#starts ??= this.lines.all().map((line) => line.start);
    return this.#starts;
  }
}

/** The directives of a document, on its lines that hold the marker. */
function directives(document: ManifestDocument, marked: readonly number[]): Directive[] {
  const found: Directive[] = [];
  const lines = document.lines;
  // Read by ranges: a keystroke in a large file does not make its whole text one string.
  for (const at of marked) {
    const line = lines.lineOf(at);
    const lineStart = lines.lineStart(line);
    const text = document.source.slice(lineStart, lines.lineEnd(line));
    const directive = directiveIn(document, text, lineStart, line + 1);
    if (directive) found.push(directive);
  }
  return found;
}

/** The directive of a line (`text`, starting at `lineStart`): the first `#` that starts a comment, when that comment is one. */
function directiveIn(document: ManifestDocument, text: string, lineStart: number, line: number): Directive | undefined {
  for (let hash = text.indexOf('#'); hash !== -1; hash = text.indexOf('#', hash + 1)) {
    // A comment starts a line (after a byte-order mark, on the first) or follows a space or a tab.
    const previous =
      hash === 0 || (hash === 1 && lineStart === 0 && text.charCodeAt(0) === 0xfeff) ? 32 : text.charCodeAt(hash - 1);
    if ((previous !== 32 && previous !== 9) || insideString(document, lineStart + hash)) continue;
    // The first comment of the line: the rest of the line is its text.
    const match = DIRECTIVE.exec(text.slice(hash));
    if (!match) return undefined;
    const rest = text.slice(hash + match[0].length);
    const [listed] = rest.split(/[ \t]--(?:[ \t]|$)/, 1);
    const rules = listed!.split(/[\s,]+/).filter(Boolean);
    const end = lineStart + text.replace(/[ \t]+$/, '').length;
    return { kind: match[1] as Directive['kind'], line, start: lineStart + hash, end, rules };
  }
  return undefined;
}

/** Whether an offset is inside a key or a scalar of the tree (a string's text, not a comment). */
function insideString(document: ManifestDocument, offset: number): boolean {
  const root = document.root;
  if (!root) return false;
  const { steps, onKey } = pathAtOffset(root, offset);
  const last = steps[steps.length - 1]!;
  if (onKey) return last.entry !== undefined && offset >= last.entry.keyStart && offset < last.entry.keyEnd;
  return last.node.kind === 'scalar' && offset >= last.node.start && offset < last.node.end;
}

/**
 * Which diagnostics the comments leave (their indices in `diagnostics`), and the comments' own
 * problems (with their rules' severities), in place order. `search` is the document's
 * {@link SuppressionSearch}.
 */
export function applySuppressions(
  search: SuppressionSearch,
  diagnostics: readonly Diagnostic[],
  suppressible: readonly RuleCode[],
): { kept: number[]; problems: Diagnostic[] } {
  const document = search.document;
  const all = diagnostics.map((_, index) => index);
  const found = directives(document, search.markedLines());
  if (found.length === 0) return { kept: all, problems: [] };
  const problems: Diagnostic[] = [];
  const report = (directive: Directive, code: RuleCode, message: string) =>
    problems.push(
      document.lines.locate({ code, message, path: '', start: directive.start, end: directive.end }, severityOf(code)),
    );
  /** Each suppression: the lines it covers, the rules, and which of them it used. */
  const ranges: { directive: Directive; from: number; to: number; rules: RuleCode[]; used: Set<RuleCode> }[] = [];
  const open = new Map<RuleCode, (typeof ranges)[number]>();
  for (const directive of found) {
    const name = `svc-manifest-${directive.kind}`;
    if (directive.rules.length === 0) {
      report(directive, 'invalid-suppression', `${name} names no rule; write the rule ids it is for`);
      continue;
    }
    const rules: RuleCode[] = [];
    for (const id of directive.rules) {
      const rule = RULES_BY_ID.get(id as RuleCode);
      if (rule === undefined) {
        const note = didYouMeanNote(id, RULES_BY_ID.keys());
        report(directive, 'invalid-suppression', `${name} names '${id}', which is no rule${note}`);
      } else if (rule.kind === 'suppression') {
        report(
          directive,
          'unsuppressible-rule',
          `${name} names '${id}', which no comment can suppress; the policy file sets it`,
        );
      } else if (!suppressible.includes(rule.id)) {
        report(
          directive,
          'unsuppressible-rule',
          `${name} names '${id}', which cannot be suppressed: the published schema's verdict rests on it`,
        );
      } else if (!rules.includes(rule.id)) rules.push(rule.id);
    }
    if (directive.kind === 'disable-next-line') {
      if (rules.length)
        ranges.push({ directive, from: directive.line + 1, to: directive.line + 1, rules, used: new Set() });
    } else if (directive.kind === 'disable') {
      if (rules.length === 0) continue;
      const range = { directive, from: directive.line, to: Infinity, rules, used: new Set<RuleCode>() };
      ranges.push(range);
      for (const rule of rules) open.set(rule, range);
    } else {
      for (const rule of rules) {
        const disabled = open.get(rule);
        if (disabled === undefined) {
          report(directive, 'unused-suppression', `${name} ${rule} has no svc-manifest-disable ${rule} above it`);
          continue;
        }
        // A range ends for all its rules at the first enable of any: simple, and the rules of one comment belong together.
        disabled.to = Math.min(disabled.to, directive.line);
        open.delete(rule);
      }
    }
  }
  const kept = all.filter((index) => {
    const d = diagnostics[index]!;
    const line = d.range.start.line;
    const covering = ranges.find((range) => line >= range.from && line <= range.to && range.rules.includes(d.code));
    if (covering === undefined) return true;
    covering.used.add(d.code);
    return false;
  });
  for (const range of ranges) {
    const unused = range.rules.filter((rule) => !range.used.has(rule));
    if (unused.length === 0) continue;
    const what = range.directive.kind === 'disable-next-line' ? 'on the next line' : 'in its range';
    report(range.directive, 'unused-suppression', `unused suppression: no ${unused.join(', ')} problem ${what}`);
  }
  problems.sort(compareLocatedByPlace);
  return { kept, problems };
}
