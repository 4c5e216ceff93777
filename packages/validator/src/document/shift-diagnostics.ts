/**
 * Moving raw diagnostics with the text they are about: a unit kept across an edit (a YAML chunk
 * or item, a kept rule result) moves its diagnostics' offsets by the edit's length.
 */
import type { RawDiagnostic } from '../diagnostic.js';

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

/** Moves every offset of every diagnostic in `diagnostics` by `delta`, in place (indexed: run per kept result and per moved unit on a keystroke). */
export function shiftAllInPlace(diagnostics: readonly RawDiagnostic[], delta: number): void {
  for (let i = 0; i < diagnostics.length; i++) shiftDiagnosticInPlace(diagnostics[i]!, delta);
}

/** A copy of a raw diagnostic with every offset moved by `delta` (the original is left as it is). */
export function shiftedDiagnostic(diagnostic: RawDiagnostic, delta: number): RawDiagnostic {
  const copy: RawDiagnostic = { ...diagnostic };
  if (diagnostic.related) copy.related = diagnostic.related.map((related) => ({ ...related }));
  if (diagnostic.fixes)
    copy.fixes = diagnostic.fixes.map((fix) => ({ ...fix, edits: fix.edits.map((edit) => ({ ...edit })) }));
  shiftDiagnosticInPlace(copy, delta);
  return copy;
}
