/**
 * The git plumbing the applier needs, on a bare or non-bare repository, without ever
 * touching a work tree: refs, trees and blobs are read through one long-lived
 * `cat-file --batch` (trees parsed here, so a lookup reads only the directories on its
 * path), objects are written with `hash-object -w`, trees are built from the changed
 * directories (tree-builder.ts; a temporary index, GIT_INDEX_FILE, for file/folder swaps),
 * commits with `commit-tree`, and refs move only through one `update-ref --stdin`
 * transaction with expected old values.
 */
// Synchronous metadata reads, and fs.promises read at each call: a one-shot operation never loads Node's promise-based fs.
import { promises as fsp, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitCommandError, RefusedError } from '../errors.js';
import { CatFileBatch, gitText, runGit, type BatchObject, type GitRunOptions } from './exec.js';
import { buildTreeFromChanges, parseTree, type Entry, type IndexChange } from './tree-builder.js';

export type { IndexChange };

export interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
}

export interface RefUpdate {
  ref: string;
  newOid: string;
  /** The value the ref must have now; `null` means it must not exist yet. */
  oldOid: string | null;
}

export type RefUpdateOutcome = { ok: true } | { ok: false; lockFile: string | null };

export interface Identity {
  name: string;
  email: string;
  /** Any date git accepts (e.g. ISO 8601); defaults to now. */
  date?: string;
}

export class GitRepo {
  private constructor(
    /** Absolute path of the git directory (the repository itself when bare). */
    readonly gitDir: string,
    /** Top of the work tree, or null for a bare repository. */
    readonly workTree: string | null,
  ) {}

  /**
   * Opens the repository at or above `path`. Refuses (`not-a-repository`) a path that
   * does not exist, is not in a repository, or is the inside of a work tree's `.git`.
   */
  static async open(path: string): Promise<GitRepo> {
    const info = fileInfo(path);
    if (!info) throw new RefusedError('not-a-repository', `${path} does not exist`);
    if (!info.isDirectory()) throw new RefusedError('not-a-repository', `${path} is not a folder`);
    // One process for everything: in a bare repository (or inside a git folder) git prints the
    // first three answers and then fails on --show-toplevel, which is not needed there.
    const result = await runGit(
      ['rev-parse', '--absolute-git-dir', '--is-bare-repository', '--is-inside-git-dir', '--show-toplevel'],
      {
        cwd: path,
        anyExit: true,
      },
    );
    const [gitDir, bare, insideGitDir, workTree] = result.stdout.toString('utf8').split('\n');
    const why = () => result.stderr.trim().split('\n')[0];
    if (!gitDir || (bare !== 'true' && bare !== 'false'))
      throw new RefusedError('not-a-repository', `${path} is not a git repository (${why()})`);
    if (bare !== 'true' && insideGitDir === 'true') {
      throw new RefusedError(
        'not-a-repository',
        `${path} is inside the git folder of a repository with a work tree (${gitDir}); pass the work tree instead`,
      );
    }
    if (bare !== 'true' && (result.code !== 0 || !workTree))
      throw new RefusedError('not-a-repository', `${path} is not a git repository (${why()})`);
    return new GitRepo(gitDir, bare === 'true' ? null : workTree!);
  }

  /** Refuses (`invalid-branch`) a branch name git would not accept as `refs/heads/<name>`. */
  static async checkBranchName(branch: string): Promise<void> {
    if (plainBranchName(branch)) return;
    const ok =
      !/[\u0000-\u001f\u007f]/.test(branch) &&
      !branch.startsWith('-') &&
      (await runGit(['check-ref-format', `refs/heads/${branch}`], { okCodes: [1] })).code === 0;
    if (!ok)
      throw new RefusedError(
        'invalid-branch',
        `${JSON.stringify(branch)} is not a valid branch name (see git check-ref-format)`,
      );
  }

  private batch: CatFileBatch | undefined;
  /** Parsed tree objects by id (trees never change). */
  private readonly trees = new Map<string, Promise<Map<string, Entry>>>();

  /** Reads one object through the repository's long-lived `cat-file --batch`. */
  readObject(spec: string | Buffer, maxBytes?: number): Promise<BatchObject | null> {
    this.batch ??= new CatFileBatch(this.gitDir);
    return this.batch.read(spec, maxBytes);
  }

  /** Ends the repository's `cat-file --batch` process (a later read starts another). */
  close(): void {
    this.batch?.close();
    this.batch = undefined;
  }

  git(args: readonly string[], options?: GitRunOptions) {
    return runGit(['--git-dir', this.gitDir, ...args], options);
  }

  private text(args: readonly string[], options?: GitRunOptions): Promise<string> {
    return gitText(['--git-dir', this.gitDir, ...args], options);
  }

  /** The branch HEAD points at (also in a bare repository). */
  async headBranch(): Promise<string> {
    // HEAD's file names a branch as `ref: refs/heads/<name>`; anything else is git's to interpret.
    const text = readText(join(this.gitDir, 'HEAD'));
    const branch = /^ref: refs\/heads\/([^\n]+)\n?$/.exec(text)?.[1];
    if (branch && branch !== '.invalid') return branch;
    return this.text(['symbolic-ref', '--short', 'HEAD']);
  }

  /** The commit a ref (or any revision) names, or null when there is none. */
  async resolve(ref: string): Promise<string | null> {
    if (/[\n\r]/.test(ref)) {
      const result = await this.git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { okCodes: [1, 128] });
      const oid = result.stdout.toString('utf8').trim();
      return result.code === 0 && oid ? oid : null;
    }
    return (await this.readObject(`${ref}^{commit}`, 0))?.oid ?? null;
  }

  async treeOf(commit: string): Promise<string> {
    const tree = /[\n\r]/.test(commit) ? null : await this.readObject(`${commit}^{tree}`, 0);
    if (!tree) return this.text(['rev-parse', `${commit}^{tree}`]);
    return tree.oid;
  }

  /** A tree object's entries (names as latin1 strings of their bytes), read once per repository. */
  tree(oid: string): Promise<Map<string, Entry>> {
    let tree = this.trees.get(oid);
    if (!tree) {
      tree = this.readObject(oid).then((object) => {
        if (object?.type !== 'tree' || !object.content)
          throw new GitCommandError(['cat-file', '--batch'], null, `${oid} is not a tree`);
        return parseTree(object.content, oid.length / 2);
      });
      tree.catch(() => this.trees.delete(oid));
      this.trees.set(oid, tree);
    }
    return tree;
  }

  /**
   * The entries at `paths` in `treeish` (a commit or a tree), directories included, null where
   * a path is absent: only the directories on the paths are read, whatever the tree's size.
   */
  async entriesAt(treeish: string, paths: readonly string[]): Promise<Map<string, TreeEntry | null>> {
    const root = await this.treeOf(treeish);
    const found = new Map<string, TreeEntry | null>();
    for (const path of paths) found.set(path, await this.entryAt(root, path));
    return found;
  }

  private async entryAt(root: string, path: string): Promise<TreeEntry | null> {
    const names = Buffer.from(path, 'utf8').toString('latin1').split('/');
    let tree = root;
    for (let i = 0; i < names.length; i++) {
      const entry = (await this.tree(tree)).get(names[i]!);
      if (!entry) return null;
      if (i === names.length - 1) return treeEntry(entry);
      if (entry.mode !== TREE_MODE) return null;
      tree = entry.oid;
    }
    return null;
  }

  /**
   * The paths of files (and submodules) that differ between two trees, as `diff-tree -r
   * --name-only` lists them: equal subtrees are skipped, so only the changed directories are read.
   */
  async changedPaths(from: string, to: string): Promise<string[]> {
    const out: string[] = [];
    const walk = async (a: string | null, b: string | null, prefix: string) => {
      const left = a ? await this.tree(a) : new Map<string, Entry>();
      const right = b ? await this.tree(b) : new Map<string, Entry>();
      const names = [...new Set([...left.keys(), ...right.keys()])].sort((x, y) =>
        Buffer.compare(Buffer.from(x, 'latin1'), Buffer.from(y, 'latin1')),
      );
      for (const name of names) {
        const l = left.get(name);
        const r = right.get(name);
        if (l && r && l.oid === r.oid && l.mode === r.mode) continue;
        const lTree = l?.mode === TREE_MODE ? l.oid : null;
        const rTree = r?.mode === TREE_MODE ? r.oid : null;
        if ((l && !lTree) || (r && !rTree)) out.push(`${prefix}${name}`);
        if (lTree || rTree) await walk(lTree, rTree, `${prefix}${name}/`);
      }
    };
    await walk(from, to, '');
    return [...new Set(out)].map((path) => Buffer.from(path, 'latin1').toString('utf8'));
  }

  /** Entries of `commit` at or under `paths` (the whole tree when `paths` is empty). */
  async lsTree(
    commit: string,
    paths: readonly string[] = [],
    options: { trees?: boolean } = {},
  ): Promise<Map<string, TreeEntry>> {
    const result = await this.git([
      'ls-tree',
      '-r',
      ...(options.trees ? ['-t'] : []),
      '-z',
      '--full-tree',
      commit,
      '--',
      ...paths,
    ]);
    const entries = new Map<string, TreeEntry>();
    for (const record of result.stdout.toString('utf8').split('\0')) {
      if (!record) continue;
      const tab = record.indexOf('\t');
      const [mode, type, oid] = record.slice(0, tab).split(' ');
      entries.set(record.slice(tab + 1), { mode: mode!, type: type!, oid: oid! });
    }
    return entries;
  }

  async readBlob(oid: string): Promise<Buffer> {
    const object = /^[0-9a-f]+$/.test(oid) ? await this.readObject(oid) : null;
    if (object?.type === 'blob' && object.content) return object.content;
    return (await this.git(['cat-file', 'blob', oid])).stdout;
  }

  async hasObject(oid: string): Promise<boolean> {
    if (/^[0-9a-f]+$/.test(oid)) return (await this.readObject(oid, 0)) !== null;
    return (await this.git(['cat-file', '-e', oid], { okCodes: [1, 128] })).code === 0;
  }

  /** Writes a blob into the object database and returns its id. */
  async writeBlob(content: Uint8Array): Promise<string> {
    return this.text(['hash-object', '-w', '--stdin'], { input: content });
  }

  /** The id `content` would have as a blob, without writing it. */
  async blobId(content: Uint8Array): Promise<string> {
    return this.text(['hash-object', '--stdin'], { input: content });
  }

  /**
   * Builds a tree from `baseTree` (or empty) plus `changes`: from the changed directories
   * only (tree-builder.ts), or, for the cases only an index handles faithfully, in a
   * temporary index that no one else sees.
   */
  async buildTree(baseTree: string | null, changes: readonly IndexChange[]): Promise<string> {
    return (
      (await buildTreeFromChanges(this.gitDir, baseTree, changes, (oid) => this.tree(oid))) ??
      this.buildTreeInIndex(baseTree, changes)
    );
  }

  private async buildTreeInIndex(baseTree: string | null, changes: readonly IndexChange[]): Promise<string> {
    const dir = await fsp.mkdtemp(join(tmpdir(), 'svc-gitops-index-'));
    try {
      const env = { GIT_INDEX_FILE: join(dir, 'index') };
      await this.git(baseTree ? ['read-tree', baseTree] : ['read-tree', '--empty'], { env });
      if (changes.length > 0) {
        const zero = '0'.repeat(baseTree?.length ?? 40);
        const records = changes.map((change) =>
          change.oid === null ? `0 ${zero}\t${change.path}\0` : `${change.mode} ${change.oid}\t${change.path}\0`,
        );
        await this.git(['update-index', '-z', '--index-info'], { env, input: records.join('') });
      }
      return await this.text(['write-tree'], { env });
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }

  async commitTree(
    tree: string,
    parents: readonly string[],
    message: string,
    author: Identity,
    committer: Identity,
  ): Promise<string> {
    const env: Record<string, string> = {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_COMMITTER_NAME: committer.name,
      GIT_COMMITTER_EMAIL: committer.email,
    };
    if (author.date) env.GIT_AUTHOR_DATE = author.date;
    if (committer.date) env.GIT_COMMITTER_DATE = committer.date;
    const args = ['commit-tree', tree, ...parents.flatMap((parent) => ['-p', parent]), '-F', '-'];
    return this.text(args, { env, input: message.endsWith('\n') ? message : `${message}\n` });
  }

  /**
   * Moves all refs at once, each only if it still has its expected old value. Returns
   * `ok: false` when another writer got there first (a lost race: re-read and retry),
   * with the lock file git could not create when that was the reason.
   */
  async updateRefs(updates: readonly RefUpdate[], reflogMessage: string): Promise<RefUpdateOutcome> {
    const lines = ['start'];
    for (const update of updates) {
      const old = update.oldOid ?? '0'.repeat(update.newOid.length);
      lines.push(`update ${update.ref} ${update.newOid} ${old}`);
    }
    lines.push('prepare', 'commit', '');
    try {
      await this.git(['update-ref', '-m', reflogMessage, '--stdin'], { input: lines.join('\n') });
      return { ok: true };
    } catch (error) {
      if (error instanceof GitCommandError && isLostRace(error.stderr)) {
        return {
          ok: false,
          lockFile: /Unable to create '([^']+\.lock)': File exists/i.exec(error.stderr)?.[1] ?? null,
        };
      }
      throw error;
    }
  }

  /** The user's identity from git config, when both name and email are set. */
  async configuredIdentity(): Promise<Identity | null> {
    // One process for both keys; the last value of each wins, as with `git config --get`.
    const result = await this.git(['config', '-z', '--get-regexp', '^user\\.(name|email)$'], { okCodes: [1] });
    const values = new Map<string, string>();
    for (const record of result.stdout.toString('utf8').split('\0')) {
      const newline = record.indexOf('\n');
      if (newline > 0) values.set(record.slice(0, newline).toLowerCase(), record.slice(newline + 1).trim());
    }
    const name = values.get('user.name');
    const email = values.get('user.email');
    return name && email ? { name, email } : null;
  }
}

const TREE_MODE = '40000';

function fileInfo(path: string): ReturnType<typeof statSync> | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * A branch name of the everyday kind (`main`, `release/1.2`, `feature/x-y_z`): letters, digits,
 * `.`, `_`, `-` in `/`-separated parts, none empty, starting with `.` or `-`, or ending with
 * `.lock` or `.`, and no `..`. Every such name passes `git check-ref-format`, so it needs no git
 * process; any other name is left to git.
 */
function plainBranchName(branch: string): boolean {
  return (
    /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(branch) &&
    !branch.includes('..') &&
    branch
      .split('/')
      .every((part) => !part.startsWith('.') && !part.startsWith('-') && !part.endsWith('.lock') && !part.endsWith('.'))
  );
}

/** A raw tree entry as `ls-tree` shows it: the mode in six digits and the object's type. */
function treeEntry(entry: Entry): TreeEntry {
  const mode = entry.mode.padStart(6, '0');
  return { mode, type: entry.mode === TREE_MODE ? 'tree' : mode === '160000' ? 'commit' : 'blob', oid: entry.oid };
}

/** update-ref's words for "someone else moved or is moving this ref". */
function isLostRace(stderr: string): boolean {
  return /cannot lock ref|but expected|reference already exists|\.lock': File exists|unable to create .*\.lock/i.test(
    stderr,
  );
}
