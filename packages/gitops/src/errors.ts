/**
 * Errors the applier reports. A {@link RefusedError} is an expected outcome (the
 * operation was checked and declined, nothing was committed); anything else is a bug
 * or an environment problem (git missing, unreadable repository, network down).
 */

/** One validator finding, as returned by `validateManifest`. */
export interface ManifestDiagnostic {
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  path: string;
  range: {
    start: { offset: number; line: number; column: number };
    end: { offset: number; line: number; column: number };
  };
}

/** Why one file of a marketplace item could not be updated or removed. */
export interface FileReport {
  path: string;
  /** `conflict`: both sides changed the same lines; `modified`: locally edited; `exists`: present but not ours. */
  status: 'conflict' | 'modified' | 'deleted-locally' | 'exists' | 'removed-upstream-modified';
  message: string;
}

export type RefusalCode =
  | 'no-manifest'
  | 'ambiguous-manifest'
  | 'manifest-unparsable'
  | 'unsupported-version'
  | 'unknown-agent'
  | 'agent-disabled'
  | 'invalid-result'
  | 'uneditable'
  | 'unknown-item'
  | 'invalid-item'
  | 'not-installed'
  | 'already-installed'
  | 'entry-exists'
  | 'conflict'
  | 'locally-modified'
  | 'in-use'
  | 'dirty-worktree'
  // a remote repository (#13)
  | 'unsupported-url'
  | 'remote-unreachable'
  | 'remote-timeout'
  | 'push-rejected'
  | 'unknown-branch'
  | 'too-many-retries'
  | 'unsafe-path'
  | 'path-conflict'
  | 'not-regular-file'
  | 'too-large'
  | 'invalid-name'
  | 'invalid-lock'
  | 'invalid-branch'
  | 'not-a-repository'
  | 'ref-locked'
  | 'catalog-unreachable'
  | 'catalog-timeout'
  | 'catalog-error';

/**
 * `text` with every control character other than line feed and tab shown as `\u001b`
 * (messages quote untrusted text — a catalog's JSON, a path, a manifest value — and must
 * not drive a terminal: no escape sequences, no carriage return overwriting the line).
 */
export function printable(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The operation was refused: nothing was committed. `message` says why, in words a person can act on. */
export class RefusedError extends Error {
  override name = 'RefusedError';
  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly details: { diagnostics?: ManifestDiagnostic[]; files?: FileReport[]; file?: string } = {},
  ) {
    super(printable(message));
  }
}

/** The manifest edit could not be expressed on the original text without changing more than intended. */
export class EditError extends Error {
  override name = 'EditError';
}

/** A git command failed. */
export class GitCommandError extends Error {
  override name = 'GitCommandError';
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed (exit ${exitCode}): ${stderr.trim()}`);
  }
}
