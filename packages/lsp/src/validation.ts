/**
 * The one place the language server asks the validator for a verdict. Results are cached per
 * parsed document, so features that need them (diagnostics, quick fixes) share one run.
 */
import * as validator from '@svc-manifest/validator';
import type { Diagnostic, ManifestDocument } from '@svc-manifest/validator';

export interface ValidationResult {
  ok: boolean;
  version: 1 | 2 | null;
  diagnostics: Diagnostic[];
}

type ValidateDocument = (doc: ManifestDocument) => ValidationResult;

const cache = new WeakMap<ManifestDocument, ValidationResult>();

/**
 * Validates a document with the validator's `validateDocument`. Until the validator exports
 * it, only the problems found while reading the text (syntax, limits, duplicate keys) are
 * reported.
 */
export function validate(doc: ManifestDocument): ValidationResult {
  let result = cache.get(doc);
  if (!result) {
    const validateDocument = (validator as unknown as { validateDocument?: ValidateDocument }).validateDocument;
    if (typeof validateDocument === 'function') {
      result = validateDocument(doc);
    } else {
      const diagnostics = doc.diagnostics.map((raw) => doc.lines.locate(raw));
      result = { ok: !diagnostics.some((d) => d.severity === 'error'), version: null, diagnostics };
    }
    cache.set(doc, result);
  }
  return result;
}
