/**
 * Diagnostics: what the validator reports. Internally every location is a pair of
 * UTF-16 offsets into the user's text; line and column are added once, at the edge,
 * by {@link LineIndex} (see `locate`).
 */

import type { RuleCode } from './rule-codes.js';

export type { RuleCode };

export type Severity = 'error' | 'warning' | 'info';

/** A place in the user's text. `line` and `column` are 1-based; columns count UTF-16 code units, like editors and ESLint. */
export interface Position {
  offset: number;
  line: number;
  column: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface TextEdit {
  range: Range;
  newText: string;
}

/** A change the user can apply with one click (an LSP quick fix). */
export interface SuggestedFix {
  title: string;
  edits: TextEdit[];
}

export interface RelatedLocation {
  message: string;
  range: Range;
}

export interface Diagnostic {
  /** Stable rule id, e.g. `unknown-key` or `trigger-webhook-secret`: one of the rules in `RULES`. */
  code: RuleCode;
  /** The rule's severity. */
  severity: Severity;
  /** Lowercase, quotes the offending value, says what is allowed. */
  message: string;
  /** JSON pointer to the value the diagnostic is about ('' for the whole document). */
  path: string;
  range: Range;
  related?: RelatedLocation[];
  fixes?: SuggestedFix[];
}

/** Offsets-only form used inside the validator before positions are computed; the severity is added from the rule then. */
export interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

export interface RawDiagnostic {
  code: RuleCode;
  message: string;
  path: string;
  start: number;
  end: number;
  related?: { message: string; start: number; end: number }[];
  fixes?: { title: string; edits: OffsetEdit[] }[];
}

/**
 * The order diagnostics are reported in: by start, then end, then code. Codes compare by UTF-16
 * code units, not `localeCompare`: the order must not depend on the machine's locale, and the
 * first `localeCompare` of a process loads ICU's collator (measured in docs/decisions.md, "(#17) Plain
 * YAML is read by a line loop").
 */
export function compareByPlace(a: RawDiagnostic, b: RawDiagnostic): number {
  return a.start - b.start || a.end - b.end || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

/** {@link compareByPlace} for located diagnostics (by start, then end, then code). */
export function compareLocatedByPlace(a: Diagnostic, b: Diagnostic): number {
  return (
    a.range.start.offset - b.range.start.offset ||
    a.range.end.offset - b.range.end.offset ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)
  );
}

/** Keys hold an index below this, and a start below {@link START_LIMIT}: their product stays an exact double. */
const INDEX_LIMIT = 2 ** 21;
const START_LIMIT = 2 ** 31;

/**
 * `diagnostics` in {@link compareByPlace} order, equal ones as reported (a stable sort). Sorted
 * natively by start (a typed array of start·2²¹ + index, sorted without a comparator), then each
 * run of equal starts by the comparator: a validation sorts hundreds of diagnostics on every
 * keystroke, the first times in V8's interpreter, where a comparator call per comparison is most of the cost.
 */
export function sortedByPlace(diagnostics: readonly RawDiagnostic[]): RawDiagnostic[] {
  const n = diagnostics.length;
  if (n >= INDEX_LIMIT) return diagnostics.slice().sort(compareByPlace);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const start = diagnostics[i]!.start;
    if (!Number.isInteger(start) || start < 0 || start >= START_LIMIT) return diagnostics.slice().sort(compareByPlace);
    keys[i] = start * INDEX_LIMIT + i;
  }
  keys.sort();
  const sorted = new Array<RawDiagnostic>(n);
  for (let i = 0; i < n; i++) sorted[i] = diagnostics[keys[i]! % INDEX_LIMIT]!;
  for (let i = 0; i < n;) {
    let j = i + 1;
    while (j < n && sorted[j]!.start === sorted[i]!.start) j++;
    if (j - i > 1) {
      // Already in the order reported: a stable sort keeps it among equals.
      const run = sorted.slice(i, j).sort(compareByPlace);
      for (let k = 0; k < run.length; k++) sorted[i + k] = run[k]!;
    }
    i = j;
  }
  return sorted;
}
