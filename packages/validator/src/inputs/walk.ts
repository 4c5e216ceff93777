/**
 * Walking folders and globs for `manifest-files.ts`, with the ignore rules of `ignore-rules.ts`.
 * The CLI bundle loads this module (and picomatch and `ignore` with it) only when an argument is
 * a folder or a glob (scripts/lazy-parts-plugin.mjs).
 *
 * Symbolic links met while walking are not followed (a link to `/` or to a parent must not make
 * a walk endless or leave the tree); a link named as an argument is.
 */
// The lsp and gitops programs compile these sources without this package's tsconfig, which includes the file.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- an ambient module declaration has no import form
/// <reference path="./picomatch.d.ts" />
import { readdirSync, type Dirent } from 'node:fs';
import { join, resolve } from 'node:path';
import picomatch from 'picomatch';
import { MANIFEST_FILE_NAMES } from '../model/files.js';
import { describeFileError } from './file-errors.js';
import { ALWAYS_SKIPPED_FOLDERS, IgnoreRules } from './ignore-rules.js';
import type { InputProblem, ManifestFile } from './input-types.js';

export interface WalkOptions {
  cwd: string;
  honourIgnoreFiles: boolean;
  /** Stop after this many entries (files and folders) listed in all (default: no bound; the language server bounds its walk of a workspace). */
  maxEntries?: number;
}

export interface WalkResult {
  /** Sorted by path, segment by segment. */
  files: ManifestFile[];
  /** Whether the ignore rules (or the always-skipped folders) left anything out. */
  ignored: boolean;
  /** Folders below the argument that could not be listed. */
  problems: InputProblem[];
  /** The names each folder the walk listed held, by absolute path (what is not there needs no system call to ask again). */
  listings: Map<string, string[]>;
}

/** The files a glob may select: the manifest names, and any other YAML or TOML file the glob names. */
const CHECKABLE_FILE = /\.(ya?ml|toml)$/i;

/** Every `svc.yaml`, `svc.yml` and `svc.toml` in a folder and below it. */
export function manifestsUnder(folder: string, options: WalkOptions): WalkResult {
  return walkTree(folder, options, Infinity, (_relativePath, name) => MANIFEST_FILE_NAMES.includes(name));
}

/**
 * The YAML and TOML files a glob matches (picomatch's syntax: `*`, `**`, `?`, `[…]`, `{a,b}`),
 * files only; a leading dot is matched only where the glob writes it. The walk starts at the
 * glob's last folder without glob characters, and goes no deeper than the glob can match.
 */
export function filesMatchingGlob(glob: string, options: WalkOptions): WalkResult {
  const segments = glob.split('/');
  const firstGlobSegment = segments.findIndex((segment) => /[*?[\]{}]/.test(segment));
  const base = segments.slice(0, firstGlobSegment).join('/') || (glob.startsWith('/') ? '/' : '.');
  const patternSegments = segments.slice(firstGlobSegment);
  const matches = picomatch(patternSegments.join('/'), { dot: false });
  const maxDepth = patternSegments.some((segment) => segment.includes('**')) ? Infinity : patternSegments.length;
  return walkTree(base, options, maxDepth, (relativePath, name) => CHECKABLE_FILE.test(name) && matches(relativePath));
}

/**
 * Files under `folder` (at most `maxDepth` folders deep, 1 being the folder itself) that `wanted`
 * accepts, given their `/`-separated path relative to `folder`; sorted folder by folder, so the
 * list is in path order.
 */
function walkTree(
  folder: string,
  options: WalkOptions,
  maxDepth: number,
  wanted: (relativePath: string, name: string) => boolean,
): WalkResult {
  const rules = options.honourIgnoreFiles ? new IgnoreRules() : undefined;
  const result: WalkResult = { files: [], ignored: false, problems: [], listings: new Map() };
  let entriesLeft = options.maxEntries ?? Infinity;
  const visit = (displayFolder: string, absoluteFolder: string, relativeFolder: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(absoluteFolder, { withFileTypes: true });
    } catch (error) {
      // A glob whose folder part does not exist matches nothing; that is the glob's problem, not a folder's.
      if (depth === 1 && (error as NodeJS.ErrnoException).code === 'ENOENT') return;
      result.problems.push({ input: displayFolder, kind: 'unreadable', reason: describeFileError(error) });
      return;
    }
    entries.sort((a, b) => compareNames(a.name, b.name));
    result.listings.set(
      absoluteFolder,
      entries.map((entry) => entry.name),
    );
    for (const entry of entries) {
      if (--entriesLeft < 0) return;
      const absolutePath = join(absoluteFolder, entry.name);
      const relativePath = relativeFolder === '' ? entry.name : `${relativeFolder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (depth >= maxDepth) continue;
        if (
          rules !== undefined &&
          (ALWAYS_SKIPPED_FOLDERS.includes(entry.name) || rules.isIgnored(absolutePath, true))
        ) {
          result.ignored = true;
          continue;
        }
        visit(join(displayFolder, entry.name), absolutePath, relativePath, depth + 1);
      } else if (entry.isFile() && wanted(relativePath, entry.name)) {
        if (rules?.isIgnored(absolutePath, false)) {
          result.ignored = true;
          continue;
        }
        result.files.push({ displayPath: join(displayFolder, entry.name), absolutePath });
      }
    }
  };
  visit(folder, resolve(options.cwd, folder), '', 1);
  return result;
}

/** Code-point order (the same on every machine and locale). */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A matcher for any of these globs (picomatch's syntax), given a `/`-separated relative path; `dir/` also matches what is below it. */
export function globMatcher(globs: readonly string[]): (relativePath: string) => boolean {
  const patterns = globs.flatMap((glob) => (glob.endsWith('/') ? [`${glob}**`] : [glob, `${glob}/**`]));
  return picomatch(patterns, { dot: true });
}
