/**
 * The git plumbing the applier needs, on a bare or non-bare repository, without ever
 * touching a work tree: objects are written with `hash-object -w`, trees are built in a
 * from the changed directories (tree-builder.ts; a temporary index, GIT_INDEX_FILE, for
 * file/folder swaps), commits with `commit-tree`, and refs move only
 * through one `update-ref --stdin` transaction with expected old values.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitCommandError, RefusedError } from '../errors.js';
import { gitText, runGit, type GitRunOptions } from './exec.js';
import { buildTreeFromChanges } from './tree-builder.js';

export interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
}

/** A change to one path of a tree: a blob to place, or `null` to remove the path. */
export interface IndexChange {
  path: string;
  mode: string;
  oid: string | null;
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
    const info = await stat(path).catch(() => null);
    if (!info) throw new RefusedError('not-a-repository', `${path} does not exist`);
    if (!info.isDirectory()) throw new RefusedError('not-a-repository', `${path} is not a folder`);
    let lines: string[];
    try {
      lines = (await gitText(['rev-parse', '--absolute-git-dir', '--is-bare-repository', '--is-inside-git-dir'], { cwd: path })).split('\n');
    } catch (error) {
      const why = error instanceof GitCommandError ? error.stderr.trim().split('\n')[0] : (error as Error).message;
      throw new RefusedError('not-a-repository', `${path} is not a git repository (${why})`);
    }
    const [gitDir, bare, insideGitDir] = lines;
    if (bare !== 'true' && insideGitDir === 'true') {
      throw new RefusedError('not-a-repository', `${path} is inside the git folder of a repository with a work tree (${gitDir}); pass the work tree instead`);
    }
    const workTree = bare === 'true' ? null : await gitText(['rev-parse', '--show-toplevel'], { cwd: path });
    return new GitRepo(gitDir!, workTree || null);
  }

  /** Refuses (`invalid-branch`) a branch name git would not accept as `refs/heads/<name>`. */
  static async checkBranchName(branch: string): Promise<void> {
    const ok = !/[\u0000-\u001f\u007f]/.test(branch) && !branch.startsWith('-') && (await runGit(['check-ref-format', `refs/heads/${branch}`], { okCodes: [1] })).code === 0;
    if (!ok) throw new RefusedError('invalid-branch', `${JSON.stringify(branch)} is not a valid branch name (see git check-ref-format)`);
  }

  git(args: readonly string[], options?: GitRunOptions) {
    return runGit(['--git-dir', this.gitDir, ...args], options);
  }

  private text(args: readonly string[], options?: GitRunOptions): Promise<string> {
    return gitText(['--git-dir', this.gitDir, ...args], options);
  }

  /** The branch HEAD points at (also in a bare repository). */
  async headBranch(): Promise<string> {
    return this.text(['symbolic-ref', '--short', 'HEAD']);
  }

  /** The object a ref names, or null when the ref does not exist. */
  async resolve(ref: string): Promise<string | null> {
    const result = await this.git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { okCodes: [1, 128] });
    const oid = result.stdout.toString('utf8').trim();
    return result.code === 0 && oid ? oid : null;
  }

  async treeOf(commit: string): Promise<string> {
    return this.text(['rev-parse', `${commit}^{tree}`]);
  }

  /** Entries of `commit` at or under `paths` (the whole tree when `paths` is empty). */
  async lsTree(commit: string, paths: readonly string[] = [], options: { trees?: boolean } = {}): Promise<Map<string, TreeEntry>> {
    const result = await this.git(['ls-tree', '-r', ...(options.trees ? ['-t'] : []), '-z', '--full-tree', commit, '--', ...paths]);
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
    return (await this.git(['cat-file', 'blob', oid])).stdout;
  }

  async hasObject(oid: string): Promise<boolean> {
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
    return (await buildTreeFromChanges(this.gitDir, baseTree, changes)) ?? this.buildTreeInIndex(baseTree, changes);
  }

  private async buildTreeInIndex(baseTree: string | null, changes: readonly IndexChange[]): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'svc-gitops-index-'));
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
      await rm(dir, { recursive: true, force: true });
    }
  }

  async commitTree(tree: string, parents: readonly string[], message: string, author: Identity, committer: Identity): Promise<string> {
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
        return { ok: false, lockFile: /Unable to create '([^']+\.lock)': File exists/i.exec(error.stderr)?.[1] ?? null };
      }
      throw error;
    }
  }

  /** The user's identity from git config, when both name and email are set. */
  async configuredIdentity(): Promise<Identity | null> {
    const get = async (key: string) => (await this.git(['config', '--get', key], { okCodes: [1] })).stdout.toString('utf8').trim();
    const [name, email] = await Promise.all([get('user.name'), get('user.email')]);
    return name && email ? { name, email } : null;
  }
}

/** update-ref's words for "someone else moved or is moving this ref". */
function isLostRace(stderr: string): boolean {
  return /cannot lock ref|but expected|reference already exists|\.lock': File exists|unable to create .*\.lock/i.test(stderr);
}
