/**
 * The bridge to `@svc-manifest/validator`. It is imported lazily so that the edit
 * engine can be used (and tested) on its own, and a caller can pass its own function.
 */
import type { ManifestDiagnostic } from './errors.js';
import type { ManifestFormat } from './manifest/manifest-file.js';

export interface ValidationOutcome {
  ok: boolean;
  diagnostics: ManifestDiagnostic[];
}

/** Validates manifest text; `ok` is false when any diagnostic is an error. */
export type ValidateFn = (text: string, options: { filename: string; format: ManifestFormat }) => ValidationOutcome | Promise<ValidationOutcome>;

interface ValidatorModule {
  validateManifest(text: string, options?: { filename?: string; format?: ManifestFormat }): ValidationOutcome;
}

let loaded: Promise<ValidatorModule> | undefined;

/** Validates with the toolchain's validator (`validateManifest`). */
export const defaultValidate: ValidateFn = async (text, options) => {
  loaded ??= import('@svc-manifest/validator');
  const validator = await loaded;
  return validator.validateManifest(text, { filename: options.filename, format: options.format });
};

/** One line per diagnostic: `svc.yaml:3:5 error code: message`. */
export function formatDiagnostics(filename: string, diagnostics: readonly ManifestDiagnostic[]): string {
  return diagnostics.map((d) => `${filename}:${d.range.start.line}:${d.range.start.column} ${d.severity} ${d.code}: ${d.message}`).join('\n');
}
