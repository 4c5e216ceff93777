/**
 * The bridge to `@svc-manifest/validator`. It is imported lazily so that the edit
 * engine can be used (and tested) on its own, and a caller can pass its own function.
 */
import type { ManifestDiagnostic } from './errors.js';
import type { ManifestDocument } from '@svc-manifest/validator';
import type { ManifestFormat } from './manifest/manifest-file.js';

export interface ValidationOutcome {
  ok: boolean;
  diagnostics: ManifestDiagnostic[];
}

/** Validates manifest text; `ok` is false when any diagnostic is an error. */
export type ValidateFn = (text: string, options: { filename: string; format: ManifestFormat }) => ValidationOutcome | Promise<ValidationOutcome>;

interface ValidatorModule {
  validateManifest(text: string, options?: { filename?: string; format?: ManifestFormat }): ValidationOutcome;
  validateDocument(document: ManifestDocument): ValidationOutcome;
}

let loaded: Promise<ValidatorModule> | undefined;

/**
 * The document the last edit of a manifest produced (the editing engine re-parses its result to
 * prove it), kept until the next validation: validating that text again needs no third parse.
 * The engine parses the result as `validateManifest` would (same format, file name and the
 * validator's default limits), so its verdict is the same.
 */
let lastEdit: { text: string; filename: string; format: ManifestFormat; document: ManifestDocument } | undefined;

/** Called by {@link ManifestFile.edit} with the edited text and the document it parsed from it. */
export function rememberEdit(filename: string, format: ManifestFormat, text: string, document: ManifestDocument): void {
  lastEdit = { filename, format, text, document };
}

/** Validates with the toolchain's validator (`validateManifest`, or `validateDocument` on the document an edit just parsed from the same text). */
export const defaultValidate: ValidateFn = async (text, options) => {
  loaded ??= import('@svc-manifest/validator');
  const validator = await loaded;
  const edited = lastEdit;
  lastEdit = undefined;
  if (edited && edited.text === text && edited.filename === options.filename && edited.format === options.format)
    return validator.validateDocument(edited.document);
  return validator.validateManifest(text, { filename: options.filename, format: options.format });
};

/** One line per diagnostic: `svc.yaml:3:5 error code: message`. */
export function formatDiagnostics(filename: string, diagnostics: readonly ManifestDiagnostic[]): string {
  return diagnostics.map((d) => `${filename}:${d.range.start.line}:${d.range.start.column} ${d.severity} ${d.code}: ${d.message}`).join('\n');
}
