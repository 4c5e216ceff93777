/** What an argument of the CLI selects, or why it selects nothing (manifest-files.ts and walk.ts share these). */
/** One file to check. */
export interface ManifestFile {
  /** The path to show: as the user typed it, or the folder or glob base they typed joined with the path found under it. */
  displayPath: string;
  absolutePath: string;
  /** Named as an argument itself (not found in a folder or by a glob): checked whatever ignore rules and policy globs say. */
  named?: boolean;
}

/** Why an argument gave no file. */
export type InputProblemKind = 'unreadable' | 'no-manifest-in-folder' | 'glob-matches-nothing';

/** An argument that selected nothing: the CLI reports it and exits 2. */
export interface InputProblem {
  /** The argument as typed. */
  input: string;
  kind: InputProblemKind;
  /** What went wrong, in words, without the argument (e.g. `no such file`). */
  reason: string;
}
