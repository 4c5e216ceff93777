/**
 * What `validate --fix` would change for each diagnostic, for reports that say so: JSON's `fix`
 * (ESLint's meaning: what `--fix` applies) and the stylish summary's fixable count. A diagnostic
 * is fixable only when `--fix` has a safe fix for it (fix.ts) and keeps that fix, applied alone
 * to this text; its quick fixes that need a choice or invent a value (a secret's name) are not.
 */
import type { Diagnostic } from './diagnostic.js';
import type { ManifestDocument } from './document/manifest-document.js';
import { better, safeFixes, tryFix, validatedUnder } from './fix.js';
import type { ManifestPolicy } from './policy/policy.js';

/** One replacement, ESLint's fix: the characters in `range` (UTF-16 offsets, without a byte-order mark) become `text`. */
export interface Replacement {
  range: [number, number];
  text: string;
}

/** The codes `--fix` may fix (see `safeFixes`); a report without them costs nothing here. */
const FIXABLE_CODES: ReadonlySet<string> = new Set([
  'unknown-key',
  'possible-typo',
  'invalid-value',
  'deprecated-key',
  'svc-version-format',
  'version-specific-key',
]);

/**
 * For each diagnostic `--fix` would fix on its own, the replacement it makes in the document's
 * text. `diagnostics` are those reported, as the policy (if any) has them: it is the one `--fix`
 * runs under, so a problem it leaves out is not fixed.
 */
export function fixesThatFixApplies(
  document: ManifestDocument,
  version: 1 | 2 | null,
  diagnostics: readonly Diagnostic[],
  policy?: ManifestPolicy,
): Map<Diagnostic, Replacement> {
  const preview = new Map<Diagnostic, Replacement>();
  if (version === null || document.fatal || !diagnostics.some((d) => FIXABLE_CODES.has(d.code))) return preview;
  // Compared as --fix compares: the validation alone (no path check), before and after the fix.
  const before = validatedUnder(document, policy, { once: true }).diagnostics;
  for (const candidate of safeFixes(document, version, diagnostics)) {
    const diagnostic = diagnostics.find(
      (d) => d.code === candidate.code && d.path === candidate.path && !preview.has(d),
    );
    if (diagnostic === undefined) continue;
    const fixed = tryFix(document, candidate.change);
    if (fixed === undefined || !better(validatedUnder(fixed, policy, { once: true }).diagnostics, before)) continue;
    preview.set(
      diagnostic,
      replacementBetween(document.text, fixed.text, diagnostic.range.start.offset, diagnostic.range.end.offset),
    );
  }
  return preview;
}

/**
 * The one replacement that turns `before` into `after`: what lies between their common start and
 * end, widened to cover the diagnostic's range (`from`–`to`), so that a renamed key is replaced
 * whole (`conectors` → `connectors`) rather than by the letter the two spellings differ in.
 */
function replacementBetween(before: string, after: string, from: number, to: number): Replacement {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end++;
  // Only shrinking the common start and end: what is left of them is still common to both texts.
  start = Math.min(start, from);
  end = Math.min(end, before.length - to);
  const bom = before.charCodeAt(0) === 0xfeff ? 1 : 0;
  return { range: [Math.max(0, start - bom), before.length - end - bom], text: after.slice(start, after.length - end) };
}
