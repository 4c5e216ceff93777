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

/**
 * Validates manifest text; `ok` is false when any diagnostic is an error. `document`, when
 * given, is that text already parsed (the editing engine's proof of an edit, read as
 * `validateManifest` reads a file of that name and format): a validator may check it instead
 * of parsing the text again.
 */
export type ValidateFn = (
  text: string,
  options: { filename: string; format: ManifestFormat; document?: ManifestDocument },
) => ValidationOutcome | Promise<ValidationOutcome>;

interface ValidatorModule {
  validateManifest(text: string, options?: { filename?: string; format?: ManifestFormat }): ValidationOutcome;
  validateDocument(document: ManifestDocument): ValidationOutcome;
}

let loaded: Promise<ValidatorModule> | undefined;

/** Validates with the toolchain's validator: `validateDocument` on a document given with the text, else `validateManifest`. */
export const defaultValidate: ValidateFn = async (text, options) => {
  loaded ??= import('@svc-manifest/validator');
  const validator = await loaded;
  if (options.document) return validator.validateDocument(options.document);
  return validator.validateManifest(text, { filename: options.filename, format: options.format });
};

/** One line per diagnostic: `svc.yaml:3:5 error code: message`. */
export function formatDiagnostics(filename: string, diagnostics: readonly ManifestDiagnostic[]): string {
  return diagnostics
    .map((d) => `${filename}:${d.range.start.line}:${d.range.start.column} ${d.severity} ${d.code}: ${d.message}`)
    .join('\n');
}
