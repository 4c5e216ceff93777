/**
 * Which files a command checks, from what the user typed: file paths, folders (walked for
 * `svc.yaml`, `svc.yml` and `svc.toml`), quoted globs, and `-` for standard input. Every command
 * that takes manifests (`validate`, and others to come) asks here, so they all read arguments
 * the same way. Nothing here reads a manifest's content.
 *
 * Folders and globs are walked by `walk.ts`, which the bundles load on first use
 * (scripts/lazy-parts-plugin.mjs): a run that names files never loads the glob and ignore-file
 * libraries.
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { filesMatchingGlob, manifestsUnder } from './walk.js';
import { MANIFEST_FILE_NAMES } from '../model/files.js';
import { describeFileError } from './file-errors.js';

export type { InputProblem, InputProblemKind, ManifestFile } from './input-types.js';
import type { InputProblem, ManifestFile } from './input-types.js';

export interface ManifestFileList {
  /** In the order of the arguments; the files under one folder or glob sorted by path; each file once. */
  files: ManifestFile[];
  /** Whether `-` (standard input) was among the arguments; its place in the order is not kept. */
  stdin: boolean;
  problems: InputProblem[];
  /**
   * The names each folder the walks listed held, by absolute path: a policy lookup there needs no
   * system call for a name that was not among them (`PolicyFinder`).
   */
  listings?: ReadonlyMap<string, readonly string[]>;
}

export interface FindOptions {
  /** What relative arguments are relative to. */
  cwd: string;
  /**
   * Honour `.gitignore` files (and `.git/info/exclude`) and skip `node_modules` and `.git` folders
   * while walking folders and globs (default true; the CLI's `--no-ignore` turns it off). A file
   * named explicitly is checked whatever the ignore files say.
   */
  honourIgnoreFiles?: boolean;
  /** Stop each folder's or glob's walk after this many entries (default: no bound). */
  maxEntries?: number;
}

/** Characters that make an argument a glob when no file or folder has that exact name. */
const GLOB_CHARACTERS = /[*?[\]{}]/;

/**
 * The files the arguments select. A path that exists is a file (checked whatever its name) or a
 * folder (walked); otherwise an argument with glob characters is a glob; anything else, and a
 * folder or glob that selects no manifest, is an `InputProblem`.
 */
export function findManifestFiles(inputs: readonly string[], options: FindOptions): ManifestFileList {
  const honourIgnoreFiles = options.honourIgnoreFiles ?? true;
  const files: ManifestFile[] = [];
  const problems: InputProblem[] = [];
  const seen = new Map<string, ManifestFile>();
  const listings = new Map<string, string[]>();
  let stdin = false;
  // One argument lists each file once (a walk follows no link): only files of several arguments
  // can be one file twice, so only they need a real path (a few system calls per file).
  const identity = inputs.length > 1 ? identityOf : (absolutePath: string) => absolutePath;
  const add = (file: ManifestFile) => {
    const key = identity(file.absolutePath);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      // Found by a walk and also named: it counts as named.
      if (file.named) earlier.named = true;
      return;
    }
    seen.set(key, file);
    files.push(file);
  };
  for (const input of inputs) {
    if (input === '-') {
      stdin = true;
      continue;
    }
    const absolutePath = resolve(options.cwd, input);
    let isDirectory: boolean;
    try {
      isDirectory = statSync(absolutePath).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code === 'ENOENT' || code === 'ENOTDIR') && GLOB_CHARACTERS.test(input)) {
        const found = filesMatchingGlob(input, { cwd: options.cwd, honourIgnoreFiles, maxEntries: options.maxEntries });
        if (found.files.length === 0)
          problems.push({
            input,
            kind: 'glob-matches-nothing',
            reason: nothingFoundReason('matches no file', found.ignored),
          });
        found.files.forEach(add);
        problems.push(...found.problems);
        for (const [folder, names] of found.listings) listings.set(folder, names);
        continue;
      }
      problems.push({ input, kind: 'unreadable', reason: describeFileError(error) });
      continue;
    }
    if (!isDirectory) {
      add({ displayPath: input, absolutePath, named: true });
      continue;
    }
    const found = manifestsUnder(input, { cwd: options.cwd, honourIgnoreFiles, maxEntries: options.maxEntries });
    if (found.files.length === 0) {
      problems.push({
        input,
        kind: 'no-manifest-in-folder',
        reason: nothingFoundReason(`holds no ${MANIFEST_FILE_NAMES.join(', ')}`, found.ignored),
      });
    }
    found.files.forEach(add);
    problems.push(...found.problems);
    for (const [folder, names] of found.listings) listings.set(folder, names);
  }
  return { files, stdin, problems, listings };
}

function nothingFoundReason(what: string, ignored: boolean): string {
  return ignored ? `${what} outside ignored paths (--no-ignore looks there too)` : what;
}

/** The manifests in one folder (not below it), in order of preference: what `validate` with no argument checks. */
export function manifestsInFolder(folder: string): ManifestFile[] {
  return MANIFEST_FILE_NAMES.filter((name) => {
    try {
      return statSync(join(folder, name)).isFile();
    } catch {
      return false;
    }
  }).map((name) => ({ displayPath: name, absolutePath: join(folder, name), named: true }));
}

/** The same file named twice (`a/svc.yaml`, `./a/svc.yaml`, through a symbolic link) has one identity. */
function identityOf(absolutePath: string): string {
  try {
    return realpathSync(absolutePath);
  } catch {
    return isAbsolute(absolutePath) ? absolutePath : resolve(absolutePath);
  }
}
