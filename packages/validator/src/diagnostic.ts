/**
 * Diagnostics: what the validator reports. Internally every location is a pair of
 * UTF-16 offsets into the user's text; line and column are added once, at the edge,
 * by {@link LineIndex} (see `locate`).
 */

import type { RuleCode } from './rules/index.js';

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

/** Moves every offset a raw diagnostic holds (its range, related places and fix edits) by `delta`, in place. */
export function shiftDiagnosticInPlace(diagnostic: RawDiagnostic, delta: number): void {
  // Run for every kept diagnostic after an edit, the first times before V8 optimises it: no iterators, no empty lists.
  diagnostic.start += delta;
  diagnostic.end += delta;
  const related = diagnostic.related;
  if (related)
    for (let i = 0; i < related.length; i++) {
      related[i]!.start += delta;
      related[i]!.end += delta;
    }
  const fixes = diagnostic.fixes;
  if (fixes)
    for (let i = 0; i < fixes.length; i++) {
      const edits = fixes[i]!.edits;
      for (let j = 0; j < edits.length; j++) {
        edits[j]!.start += delta;
        edits[j]!.end += delta;
      }
    }
}

/** A copy of a raw diagnostic with every offset moved by `delta` (the original is left as it is). */
export function shiftedDiagnostic(diagnostic: RawDiagnostic, delta: number): RawDiagnostic {
  const copy: RawDiagnostic = { ...diagnostic };
  if (diagnostic.related) copy.related = diagnostic.related.map((related) => ({ ...related }));
  if (diagnostic.fixes) copy.fixes = diagnostic.fixes.map((fix) => ({ ...fix, edits: fix.edits.map((edit) => ({ ...edit })) }));
  shiftDiagnosticInPlace(copy, delta);
  return copy;
}
