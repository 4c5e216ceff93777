/**
 * Manifest changes are the validator's editing engine's ({@link ManifestChange}); this
 * module keeps the applier's error type on them: a change that does not apply is an
 * {@link EditError}.
 */
import { applyChanges as applyToValue, ManifestEditError, type ManifestChange } from '@svc-manifest/validator';
import { EditError } from '../errors.js';

export { formatPath, type ManifestChange, type PathSegment } from '@svc-manifest/validator';

/** The document after the changes, computed on a copy of `document`. Throws {@link EditError} when a change does not apply. */
export function applyChanges(document: unknown, changes: readonly ManifestChange[]): unknown {
  try {
    return applyToValue(document, changes);
  } catch (error) {
    if (error instanceof ManifestEditError) throw new EditError(error.message);
    throw error;
  }
}
