/**
 * The one place the language server asks the validator for a verdict. `validateDocument`
 * caches its result on the document, so features that need it (diagnostics, quick fixes)
 * share one run per parsed text.
 */
import { validateDocument, type ManifestDocument, type ValidationResult } from '@svc-manifest/validator/library';

export type { ValidationResult };

export function validate(doc: ManifestDocument): ValidationResult {
  return validateDocument(doc);
}
