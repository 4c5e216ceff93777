import type { Diagnostic } from '../diagnostic.js';
import type { Replacement } from '../fix-preview.js';

/** One checked file, as the formatters see it. */
export interface FileReport {
  /** The path as the user gave it (or as found). */
  filePath: string;
  /** Absolute path. */
  absolutePath: string;
  text: string;
  diagnostics: Diagnostic[];
  /** Why the file (or an argument) could not be read, in words (`no such file`); then it has no text and no diagnostics. */
  readError?: string;
  /**
   * What `--fix` would change for each diagnostic it fixes (fix-preview.ts); absent when that
   * was not asked (then no diagnostic counts as fixable).
   */
  fixable?: ReadonlyMap<Diagnostic, Replacement>;
}

export interface FormatOptions {
  color: boolean;
  /** Where repository-relative URIs start (SARIF). */
  repositoryRoot: string;
  toolVersion: string;
}
