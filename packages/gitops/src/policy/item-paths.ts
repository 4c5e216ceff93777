/**
 * The one path policy for files a marketplace item places, replaces or deletes. Item
 * paths come from third parties (catalog descriptors) or from a lock file anyone with
 * write access can edit, so every path is checked here before anything is written:
 *
 * - {@link itemPathProblem}: the path on its own — relative, normalised, portable, never
 *   a name git or a file system treats specially (`.git` in any spelling, `.gitmodules`,
 *   8.3 short names, trailing dots or spaces, NTFS streams, Windows device names,
 *   characters HFS+ ignores), never the manifest or the lock file.
 * - {@link checkItemWrites}: the paths against the tree they are written into — never
 *   through or onto a tracked file, directory, symlink or submodule the item does not own,
 *   never a case-only twin of a tracked path.
 *
 * The applier calls {@link checkItemWrites} on every plan; item and lock parsing call
 * {@link itemPathProblem} so a bad path is refused with the name of what listed it.
 */
import { RefusedError } from '../errors.js';
import type { TreeEntry } from '../git/repo.js';
import { MANIFEST_CANDIDATES } from '../manifest/manifest-file.js';

/** The lock file's path (kept here so the policy does not depend on the marketplace code). */
export const LOCK_FILE_PATH = 'svc.lock.json';

/** Paths that are never item files: every manifest name and the lock file. */
export const RESERVED_PATHS: readonly string[] = [
  ...MANIFEST_CANDIDATES.map((candidate) => candidate.path),
  LOCK_FILE_PATH,
];

/** Longest accepted path and path component, in UTF-8 bytes (ext4/NTFS/APFS limit components to 255). */
export const MAX_PATH_BYTES = 1024;
export const MAX_COMPONENT_BYTES = 255;

// C0 and C1 control characters, DEL, and the line/paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// Characters HFS+ ignores when comparing names (git's protectHFS list), and other invisible format characters.
const IGNORABLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u206a-\u206f\ufeff]/;
// Not allowed in a Windows file name (the backslash is a separator there, ':' opens an NTFS stream).
const NOT_PORTABLE = /[\\:*?"<>|]/;
const WINDOWS_DEVICE =
  /^(con|prn|aux|nul|conin\$|conout\$|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\..*)?$/i;
// Names git itself gives meaning to inside a tree, and their NTFS 8.3 short forms (git~1, gitmod~1, gitatt~1).
const GIT_SPECIAL = /^\.git(modules|attributes)?$/;
const GIT_SHORT_NAME = /^git(mod|att)?~\d+$/i;
// Any other 8.3 short-name form (`PROGRA~1`, `README~1.MD`): on NTFS it may name a different, longer file.
const SHORT_NAME = /^[^.~]{1,6}~\d+(\.[^.]{0,3})?$/;

/** How two paths compare on a case-insensitive, normalising file system (macOS, Windows). */
export function foldPath(path: string): string {
  return path.normalize('NFC').toLowerCase();
}

function describeChar(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why `path` can never be an item file, or undefined when the path itself is acceptable. */
export function itemPathProblem(path: unknown): string | undefined {
  if (typeof path !== 'string') return 'must be a string';
  if (path === '') return 'must not be empty';
  if (Buffer.byteLength(path, 'utf8') > MAX_PATH_BYTES) return `is longer than ${MAX_PATH_BYTES} bytes`;
  const control = CONTROL.exec(path);
  if (control) return `contains control character ${describeChar(control[0])}`;
  if (path.includes('\\')) return 'contains a backslash (paths use /)';
  if (path.startsWith('/')) return 'must be relative (it starts with /)';
  const ignorable = IGNORABLE.exec(path);
  if (ignorable) return `contains invisible character ${describeChar(ignorable[0])}`;
  if (path !== path.normalize('NFC')) return 'is not in Unicode normal form C';
  const segments = path.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') return 'must be normalised (no empty, . or .. segments)';
  }
  for (const segment of segments) {
    const bare = segment.replace(/[. ]+$/, '').toLowerCase();
    const special = GIT_SPECIAL.exec(bare) ?? GIT_SHORT_NAME.exec(bare);
    if (special) {
      const meaning = special[1]
        ? `.git${special[1].replace(/^mod$/, 'modules').replace(/^att$/, 'attributes')}`
        : '.git';
      return `has a component '${segment}' that git treats as ${meaning}`;
    }
    const unportable = NOT_PORTABLE.exec(segment);
    if (unportable) return `contains '${unportable[0]}', which is not allowed in file names on Windows`;
    if (/[. ]$/.test(segment)) return `has a component '${segment}' ending in a dot or space (Windows drops them)`;
    if (SHORT_NAME.test(segment))
      return `has a component '${segment}' that looks like an NTFS 8.3 short name (it may name another file)`;
    if (WINDOWS_DEVICE.test(segment)) return `has a component '${segment}' that is a Windows device name`;
    if (Buffer.byteLength(segment, 'utf8') > MAX_COMPONENT_BYTES)
      return `has a component longer than ${MAX_COMPONENT_BYTES} bytes`;
  }
  const first = foldPath(segments[0]!);
  const reserved = RESERVED_PATHS.find((candidate) => foldPath(candidate) === first);
  if (reserved)
    return segments.length === 1
      ? `is the ${reserved === LOCK_FILE_PATH ? 'lock file' : 'manifest'} (${reserved})`
      : `is inside ${reserved}, which is reserved`;
  return undefined;
}

/** Refuses (`unsafe-path`) when `path` is not acceptable as an item file; `what` names who listed it. */
export function checkItemPath(path: unknown, what: string): asserts path is string {
  const problem = itemPathProblem(path);
  if (problem)
    throw new RefusedError('unsafe-path', `${what}: ${JSON.stringify(path)} ${problem}`, {
      file: typeof path === 'string' ? path : undefined,
    });
}

/** The tree of the commit an operation builds on, indexed for the policy. */
export class TreeShape {
  private readonly folded = new Map<string, string[]>();

  /** `entries`: every path of the tree, directories included (`git ls-tree -r -t`). */
  constructor(readonly entries: ReadonlyMap<string, TreeEntry>) {
    for (const path of entries.keys()) {
      const key = foldPath(path);
      const list = this.folded.get(key);
      if (list) list.push(path);
      else this.folded.set(key, [path]);
    }
  }

  /** A tracked path that differs from `path` only in case or Unicode normalisation, if any. */
  twin(path: string): string | undefined {
    return this.folded.get(foldPath(path))?.find((other) => other !== path);
  }
}

export function describeEntry(entry: TreeEntry): string {
  if (entry.type === 'tree') return 'a tracked directory';
  if (entry.type === 'commit' || entry.mode === '160000') return 'a tracked submodule';
  if (entry.mode === '120000') return 'a tracked symlink';
  return 'a tracked file';
}

/** A regular file (not a symlink or submodule): the only kind of entry an item may replace or delete. */
export function isRegularFile(entry: TreeEntry | null | undefined): boolean {
  return !!entry && entry.type === 'blob' && (entry.mode === '100644' || entry.mode === '100755');
}

export interface ItemWrite {
  path: string;
  /** `true`: written (created or replaced); `false`: deleted. */
  write: boolean;
}

/**
 * Refuses (`unsafe-path` / `path-conflict`) unless every item write is safe in `tree`:
 * the path passes {@link itemPathProblem}; no parent of it is a tracked file, symlink or
 * submodule; it is not a tracked directory, symlink or submodule; a tracked file there
 * is replaced or deleted only when `owned` lists it; no path (or parent) is a case-only
 * twin of a tracked path or of another write; no write is a parent of another.
 */
export function checkItemWrites(tree: TreeShape, writes: readonly ItemWrite[], owned: ReadonlySet<string>): void {
  const conflict = (path: string, why: string): never => {
    throw new RefusedError('path-conflict', `item file '${path}' ${why}; nothing was written`, { file: path });
  };
  const seen = new Map<string, string>();
  for (const { path, write } of writes) {
    checkItemPath(path, 'item file');
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) {
      const parent = segments.slice(0, i).join('/');
      const entry = tree.entries.get(parent);
      if (entry && entry.type !== 'tree')
        conflict(path, `would go through '${parent}', which is ${describeEntry(entry)}`);
      const twin = tree.twin(parent);
      if (twin)
        conflict(
          path,
          `has a folder '${parent}' that differs only in case from '${twin}' (one path on case-insensitive file systems)`,
        );
    }
    const entry = tree.entries.get(path);
    if (entry && !isRegularFile(entry)) conflict(path, `is ${describeEntry(entry)}`);
    if (entry && !owned.has(path)) conflict(path, `is a tracked file the item does not own (per ${LOCK_FILE_PATH})`);
    if (!entry && !write && owned.has(path)) continue;
    const twin = tree.twin(path);
    if (twin) conflict(path, `differs only in case from '${twin}' (one path on case-insensitive file systems)`);
    const key = foldPath(path);
    const other = seen.get(key);
    if (other !== undefined)
      conflict(path, other === path ? 'is listed twice' : `differs only in case from '${other}', also written`);
    seen.set(key, path);
  }
  for (const [key, path] of seen) {
    const parts = key.split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = seen.get(parts.slice(0, i).join('/'));
      if (parent !== undefined) conflict(path, `is inside '${parent}', also an item file`);
    }
  }
}
