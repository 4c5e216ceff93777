import type { Diagnostic } from '../diagnostic.js';

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
}

export interface FormatOptions {
  color: boolean;
  /** Where repository-relative URIs start (SARIF). */
  repositoryRoot: string;
  toolVersion: string;
}
