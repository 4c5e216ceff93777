/**
 * A new tree from a base tree plus changed paths, without an index: only the directories
 * on the changed paths are read (one `cat-file --batch`) and only the ones that change
 * are written (one `mktree --batch`), so the cost follows the change, not the size of
 * the repository. The result is the tree `read-tree` + `update-index --index-info` +
 * `write-tree` would give; the cases where an index would behave differently (a file
 * where a directory is, or the other way round) are declined (null), and the caller
 * uses the index instead.
 */
import { createHash } from 'node:crypto';
import { runGit } from './exec.js';

/** A change to one path of a tree: a blob to place, or `null` to remove the path. */
export interface IndexChange {
  path: string;
  mode: string;
  oid: string | null;
}

/** A tree entry; `name` is its bytes as a latin1 string (tree names need not be UTF-8). */
export interface Entry {
  mode: string;
  oid: string;
}

interface DirNode {
  files: Map<string, IndexChange>;
  dirs: Map<string, DirNode>;
}

const TREE_MODE = '40000';

function newDir(): DirNode {
  return { files: new Map(), dirs: new Map() };
}

/**
 * Names git's index may refuse or treat specially (`.git` in any case or spelling that
 * Windows or macOS would read as `.git`: trailing dots or spaces, the 8.3 name `GIT~1`,
 * ignorable Unicode; backslashes). Such a change goes through the index, which silently
 * leaves the path out, so the applier's tree check sees it missing and refuses: a tree
 * built here must never hold a path git itself would not write.
 */
function gitMayRefuse(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('.git') || lower.startsWith('git~') || name.includes('\\') || /[^\x20-\x7e]/.test(name);
}

/** A path as latin1 bytes, split into names; null when an index would read it differently. */
function splitPath(path: string): string[] | null {
  const names = Buffer.from(path, 'utf8').toString('latin1').split('/');
  return names.every(
    (name) => name !== '' && name !== '.' && name !== '..' && !name.includes('\0') && !gitMayRefuse(name),
  )
    ? names
    : null;
}

/** Reads a tree object's entries by id (the repository's long-lived reader). */
export type TreeReader = (oid: string) => Promise<Map<string, Entry>>;

/**
 * Builds the tree, or returns null when the change is one only an index handles faithfully.
 * With `readTree`, the directories are read through it; without, through one `cat-file --batch`.
 */
export async function buildTreeFromChanges(
  gitDir: string,
  baseTree: string | null,
  changes: readonly IndexChange[],
  readTree?: TreeReader,
): Promise<string | null> {
  const oidLength = baseTree?.length ?? changes.find((change) => change.oid)?.oid?.length ?? 40;
  const root = newDir();
  for (const change of changes) {
    const names = splitPath(change.path);
    if (!names) return null;
    let dir = root;
    for (const name of names.slice(0, -1)) {
      if (dir.files.has(name)) return null;
      let next = dir.dirs.get(name);
      if (!next) dir.dirs.set(name, (next = newDir()));
      dir = next;
    }
    const last = names[names.length - 1]!;
    if (dir.dirs.has(last)) return null;
    // A later change of the same path wins, as on an index.
    dir.files.set(last, change);
  }

  const listings = !baseTree
    ? new Map<string, Map<string, Entry> | null>()
    : readTree
      ? await readTreesWith(readTree, baseTree, root)
      : await readTrees(gitDir, baseTree, root, oidLength / 2);
  const written: { path: string; entries: Map<string, Entry>; oid: string }[] = [];

  /** The new oid of the directory at `path` (null: it ends up empty), or undefined to decline. */
  const build = (node: DirNode, path: string): string | null | undefined => {
    const listing = listings.get(path);
    const entries = new Map(listing ?? []);
    for (const [name, change] of node.files) {
      const existing = entries.get(name);
      if (existing?.mode === TREE_MODE) return undefined;
      if (change.oid === null) entries.delete(name);
      else entries.set(name, { mode: change.mode.replace(/^0+/, ''), oid: change.oid });
    }
    for (const [name, child] of node.dirs) {
      const existing = entries.get(name);
      if (existing && existing.mode !== TREE_MODE) return undefined;
      const oid = build(child, path === '' ? name : `${path}/${name}`);
      if (oid === undefined) return undefined;
      if (oid === null) entries.delete(name);
      else entries.set(name, { mode: TREE_MODE, oid });
    }
    if (entries.size === 0 && path !== '') return null;
    const oid = treeOid(entries, oidLength);
    const unchanged =
      listing &&
      listing.size === entries.size &&
      [...entries].every(
        ([name, entry]) => listing.get(name)?.oid === entry.oid && listing.get(name)?.mode === entry.mode,
      );
    if (!unchanged) written.push({ path, entries, oid });
    return oid;
  };
  const tree = build(root, '');
  if (tree === undefined) return null;
  if (written.length > 0) await writeTrees(gitDir, written);
  return tree!;
}

/** Reads every directory of `root`'s shape from `baseTree` in one `cat-file --batch`: path → entries (null: absent). */
async function readTrees(
  gitDir: string,
  baseTree: string,
  root: DirNode,
  oidBytes: number,
): Promise<Map<string, Map<string, Entry> | null>> {
  const paths: string[] = [];
  const walk = (node: DirNode, path: string) => {
    paths.push(path);
    for (const [name, child] of node.dirs) walk(child, path === '' ? name : `${path}/${name}`);
  };
  walk(root, '');
  // `<tree>:<path>` names one line of input; a directory name with a newline cannot be asked for.
  if (paths.some((path) => path.includes('\n'))) {
    return new Map(
      await Promise.all(
        paths.map(async (path) => [path, await readTreeAlone(gitDir, baseTree, path, oidBytes)] as const),
      ),
    );
  }
  const input = paths.map((path) => (path === '' ? baseTree : `${baseTree}:${path}`)).join('\n');
  const out = (
    await runGit(['--git-dir', gitDir, 'cat-file', '--batch'], { input: Buffer.from(`${input}\n`, 'latin1') })
  ).stdout;
  const listings = new Map<string, Map<string, Entry> | null>();
  let offset = 0;
  for (const path of paths) {
    const newline = out.indexOf(0x0a, offset);
    const header = out.subarray(offset, newline).toString('latin1');
    offset = newline + 1;
    const match = /^([0-9a-f]+) (\S+) (\d+)$/.exec(header);
    if (!match) {
      listings.set(path, null);
      continue;
    }
    const size = Number(match[3]);
    listings.set(path, match[2] === 'tree' ? parseTree(out.subarray(offset, offset + size), oidBytes) : null);
    offset += size + 1;
  }
  return listings;
}

/** The same listings as {@link readTrees}, each directory read by id through `readTree`, from the root down. */
async function readTreesWith(
  readTree: TreeReader,
  baseTree: string,
  root: DirNode,
): Promise<Map<string, Map<string, Entry> | null>> {
  const listings = new Map<string, Map<string, Entry> | null>();
  const walk = async (node: DirNode, path: string, oid: string | null) => {
    const listing = oid === null ? null : await readTree(oid);
    listings.set(path, listing);
    for (const [name, child] of node.dirs) {
      const entry = listing?.get(name);
      await walk(child, path === '' ? name : `${path}/${name}`, entry?.mode === TREE_MODE ? entry.oid : null);
    }
  };
  await walk(root, '', baseTree);
  return listings;
}

async function readTreeAlone(
  gitDir: string,
  baseTree: string,
  path: string,
  oidBytes: number,
): Promise<Map<string, Entry> | null> {
  const spec = path === '' ? baseTree : `${baseTree}:${Buffer.from(path, 'latin1').toString('utf8')}`;
  const type = await runGit(['--git-dir', gitDir, 'cat-file', '-t', spec], { okCodes: [1, 128] });
  if (type.code !== 0 || type.stdout.toString('utf8').trim() !== 'tree') return null;
  return parseTree((await runGit(['--git-dir', gitDir, 'cat-file', 'tree', spec])).stdout, oidBytes);
}

/** A tree object's entries: `<mode> <name>\0<raw oid>` repeated. */
export function parseTree(bytes: Buffer, oidBytes: number): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  let offset = 0;
  while (offset < bytes.length) {
    const space = bytes.indexOf(0x20, offset);
    const nul = bytes.indexOf(0x00, space);
    if (space < 0 || nul < 0 || nul + 1 + oidBytes > bytes.length) throw new Error('cannot parse a tree object');
    const mode = bytes.subarray(offset, space).toString('latin1');
    const name = bytes.subarray(space + 1, nul).toString('latin1');
    const oid = bytes.subarray(nul + 1, nul + 1 + oidBytes).toString('hex');
    entries.set(name, { mode, oid });
    offset = nul + 1 + oidBytes;
  }
  return entries;
}

/** Git's entry order: by name bytes, a directory compared as if its name ended in `/`. */
function sortedEntries(entries: Map<string, Entry>): [string, Entry][] {
  const key = (name: string, entry: Entry) => Buffer.from(entry.mode === TREE_MODE ? `${name}/` : name, 'latin1');
  return [...entries].sort(([a, ea], [b, eb]) => Buffer.compare(key(a, ea), key(b, eb)));
}

function treeOid(entries: Map<string, Entry>, oidLength: number): string {
  const body = Buffer.concat(
    sortedEntries(entries).map(([name, entry]) =>
      Buffer.concat([Buffer.from(`${entry.mode} ${name}\0`, 'latin1'), Buffer.from(entry.oid, 'hex')]),
    ),
  );
  const hash = createHash(oidLength === 64 ? 'sha256' : 'sha1');
  hash.update(`tree ${body.length}\0`);
  hash.update(body);
  return hash.digest('hex');
}

/** A name as `mktree` reads it: C-quoted when it holds a quote, a backslash or a control character. */
function quoteName(name: string): string {
  if (!/["\\\u0000-\u001f\u007f]/.test(name)) return name;
  let out = '"';
  for (const char of name) {
    const code = char.charCodeAt(0);
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code < 0x20 || code === 0x7f) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

function typeOf(mode: string): string {
  return mode === TREE_MODE ? 'tree' : mode === '160000' ? 'commit' : 'blob';
}

/** Writes the trees (children before parents) with one `mktree --batch`, checking git computed the same ids. */
async function writeTrees(
  gitDir: string,
  trees: readonly { path: string; entries: Map<string, Entry>; oid: string }[],
): Promise<void> {
  const input = trees
    .map(
      ({ entries }) =>
        sortedEntries(entries)
          .map(
            ([name, entry]) =>
              `${entry.mode.padStart(6, '0')} ${typeOf(entry.mode)} ${entry.oid}\t${quoteName(name)}\n`,
          )
          .join('') + '\n',
    )
    .join('');
  const out = (await runGit(['--git-dir', gitDir, 'mktree', '--batch'], { input: Buffer.from(input, 'latin1') })).stdout
    .toString('latin1')
    .trim()
    .split('\n');
  trees.forEach((tree, i) => {
    if (out[i] !== tree.oid)
      throw new Error(`git wrote tree ${out[i]} for '${tree.path || '.'}' where ${tree.oid} was computed`);
  });
}
