/**
 * The one place that commits. An operation is an {@link Edit}: a function from a
 * snapshot of the branch head to the files it wants changed. The applier runs it, checks
 * the manifest it produced with the validator, builds a tree in a temporary index and
 * moves the branch (and the hidden pristine ref) by compare-and-swap. When another
 * writer moved the branch in between, it reads the new head and runs the edit again,
 * so every precondition is checked against what it will actually commit on top of.
 */
// Synchronous metadata calls, and fs.promises read at each call: a one-shot operation never loads Node's promise-based fs.
import { promises as fsp, realpathSync } from 'node:fs';
import type { ManifestDocument } from '@svc-manifest/validator';
import { EditError, printable, RefusedError } from './errors.js';
import { GitRepo, type Identity, type IndexChange, type RefUpdate } from './git/repo.js';
import { Snapshot } from './git/snapshot.js';
import { ManifestFile, MANIFEST_CANDIDATES, type ManifestFormat } from './manifest/manifest-file.js';
import { FetchNeeded } from './marketplace/catalog.js';
import { checkItemWrites, describeEntry, isRegularFile, LOCK_FILE_PATH, TreeShape } from './policy/item-paths.js';
import { checkMessageLine, nameProblem } from './policy/names.js';
import { withRepoLock } from './repo-lock.js';
import { defaultValidate, formatDiagnostics, type ValidateFn } from './validation.js';
import { PRISTINE_REF, pristinePath } from './pristine.js';

export type { Identity } from './git/repo.js';

/** One file an edit wants written (`content`) or deleted (`content: null`). */
export interface FileWrite {
  path: string;
  content: Uint8Array | null;
  /** For a manifest the editing engine wrote: the document it parsed from `content` to prove the edit. */
  document?: ManifestDocument;
  /** Set when the write is a manifest (also one in a subfolder): it is validated, and never an item file. */
  manifestFormat?: ManifestFormat;
}

/** What an edit wants committed. */
export interface EditPlan<T = unknown> {
  writes: FileWrite[];
  /** Default commit message (the caller's `message` option wins). */
  message: string;
  /** Blob contents that must stay reachable (pristine upstream copies), stored under {@link PRISTINE_REF}. */
  pristine?: Uint8Array[];
  /** Operation-specific outcome returned to the caller. */
  info: T;
  /**
   * Tracked paths the operation may replace or delete besides the manifest and the lock
   * file (the files its items own per the lock). Every other write must create a new
   * path; see policy/item-paths.ts.
   */
  ownedPaths?: readonly string[];
}

/**
 * Where an edit's network and catalog reads happen. The applier opens the gate and runs
 * the edit once before taking the repository lock (so every fetch is done there), then
 * seals it for the run under the lock.
 */
export interface FetchGate {
  open(): void;
  seal(): void;
}

/** An operation: re-run from scratch on every attempt, against the then-current head. */
export type Edit<T = unknown> = ((snapshot: Snapshot, repo: GitRepo) => Promise<EditPlan<T>>) & {
  readonly fetches?: FetchGate;
};

export interface ApplyOptions {
  /** Branch to commit to; default: the branch the repository's HEAD names. */
  branch?: string;
  author?: Identity;
  /** Default: the author. */
  committer?: Identity;
  /** Commit message; default: one describing the operation. */
  message?: string;
  /** How many times to try when other writers keep winning the race (default 40). */
  maxAttempts?: number;
  /** Manifest validation; default: `validateManifest` from `@svc-manifest/validator`. */
  validate?: ValidateFn;
}

export interface ApplyResult<T = unknown> {
  /** `committed`: a new commit is on the branch; `unchanged`: the edit changed nothing, no commit. */
  status: 'committed' | 'unchanged';
  branch: string;
  /** The branch head after the operation (the new commit when committed). */
  commit: string;
  /** The head the edit was applied on. */
  parent: string;
  message: string;
  changedPaths: string[];
  attempts: number;
  info: T;
  /**
   * Non-fatal notes: the validator's warnings about the committed manifest
   * (`svc.yaml:3:5 warning code: message`), a checked-out work tree that could not be updated.
   */
  warnings: string[];
}

/** The default identity when neither the caller nor git config provides one. */
export const DEFAULT_IDENTITY: Identity = { name: 'svc-manifest', email: 'svc-manifest@users.noreply.invalid' };

/** Applies `edit` to `repoPath`'s branch as one commit, or refuses with a {@link RefusedError}. */
export async function applyEdit<T>(
  repoPath: string,
  edit: Edit<T>,
  options: ApplyOptions = {},
): Promise<ApplyResult<T>> {
  const repo = await GitRepo.open(repoPath);
  try {
    return await applyOpened(repo, edit, options);
  } finally {
    repo.close();
  }
}

async function applyOpened<T>(repo: GitRepo, edit: Edit<T>, options: ApplyOptions): Promise<ApplyResult<T>> {
  const branch = options.branch ?? (await repo.headBranch().catch(() => null));
  if (!branch)
    throw new RefusedError('unknown-branch', `HEAD of ${repo.gitDir} does not name a branch; pass a branch explicitly`);
  await GitRepo.checkBranchName(branch);
  const author = checkIdentity(options.author ?? (await repo.configuredIdentity()) ?? DEFAULT_IDENTITY, 'author');
  const committer = checkIdentity(options.committer ?? author, 'committer');
  const key = realpathSync(repo.gitDir);
  const maxAttempts = options.maxAttempts ?? 40;
  for (let round = 1; ; round++) {
    if (edit.fetches) {
      // Every catalog read happens here, before the lock: a slow or hung catalog holds up no one else.
      edit.fetches.open();
      const head = await repo.resolve(`refs/heads/${branch}`);
      if (head) await runEdit(edit, new Snapshot(repo, head), repo);
      edit.fetches.seal();
    }
    try {
      return await withRepoLock(key, () =>
        applyLocked(repo, edit, { ...options, maxAttempts }, branch, author, committer),
      );
    } catch (error) {
      // The branch moved to a state that needs a read the first run did not do: fetch it outside the lock, then try again.
      if (error instanceof FetchNeeded && round < maxAttempts) continue;
      if (error instanceof FetchNeeded)
        throw new RefusedError(
          'too-many-retries',
          `gave up after ${maxAttempts} attempts: '${branch}' kept changing while items were fetched`,
        );
      throw error;
    }
  }
}

/** Runs the edit; a manifest that cannot be decoded or parsed is a refusal, never a raw error. */
async function runEdit<T>(edit: Edit<T>, snapshot: Snapshot, repo: GitRepo): Promise<EditPlan<T>> {
  try {
    return await edit(snapshot, repo);
  } catch (error) {
    if (error instanceof EditError) throw new RefusedError('manifest-unparsable', error.message);
    throw error;
  }
}

/**
 * A branch without a commit: when it is the one HEAD names (no `--branch`), the repository
 * has no commits yet (a fresh `git init`), which is what to say.
 */
export function noBranchMessage(branch: string, fromHead: boolean, gitDir: string): string {
  return fromHead
    ? `the repository has no commits yet (its HEAD names branch '${branch}', which has none); commit the manifest first`
    : `branch '${branch}' does not exist in ${gitDir}`;
}

function checkIdentity(identity: Identity, what: string): Identity {
  for (const [field, value] of [
    ['name', identity.name],
    ['email', identity.email],
  ] as const) {
    const problem = nameProblem(value) ?? (/[<>]/.test(value) ? 'must not contain < or >' : undefined);
    if (problem) throw new RefusedError('invalid-name', `${what} ${field} ${JSON.stringify(value)} ${problem}`);
  }
  return identity;
}

async function applyLocked<T>(
  repo: GitRepo,
  edit: Edit<T>,
  options: ApplyOptions & { maxAttempts: number },
  branch: string,
  author: Identity,
  committer: Identity,
): Promise<ApplyResult<T>> {
  const ref = `refs/heads/${branch}`;
  const { maxAttempts } = options;
  const staleLock = new StaleLockWatch();
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    // Both refs are read before the edit runs, so any move of either during the attempt fails the transaction.
    const [head, pristineHead] = await Promise.all([repo.resolve(ref), repo.resolve(PRISTINE_REF)]);
    if (!head)
      throw new RefusedError('unknown-branch', noBranchMessage(branch, options.branch === undefined, repo.gitDir));
    const snapshot = new Snapshot(repo, head);
    const plan = await runEdit(edit, snapshot, repo);
    checkMessageLine(plan.message, 'the commit message');
    await checkWrites(snapshot, plan);
    const message = options.message ?? plan.message;
    // git writes the blobs while the manifest is validated here (its verdict counts only when something changes).
    const pending = indexChanges(repo, snapshot, plan.writes);
    pending.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
    await new Promise((resolve) => setImmediate(resolve));
    const validation = validateManifest(plan.writes, options.validate ?? defaultValidate).then(
      (warnings) => ({ warnings }),
      (error: unknown) => ({ error }),
    );
    const changes = await pending;
    const base = { branch, parent: head, message, attempts: attempt, info: plan.info, warnings: [] as string[] };
    if (changes.length === 0) return { ...base, status: 'unchanged', commit: head, changedPaths: [] };
    const verdict = await validation;
    if ('error' in verdict) throw verdict.error;
    const { warnings } = verdict;

    const baseTree = await repo.treeOf(head);
    const tree = await repo.buildTree(baseTree, changes);
    if (tree === baseTree) return { ...base, status: 'unchanged', commit: head, changedPaths: [] };
    await verifyTree(repo, baseTree, tree, changes);
    const changedPaths = changes.map((change) => change.path);
    const worktree = await checkedOutWorktree(repo, branch);
    if (worktree) await refuseLocalChanges(repo, worktree, changedPaths);

    const commit = await repo.commitTree(tree, [head], message, author, committer);
    const updates: RefUpdate[] = [{ ref, newOid: commit, oldOid: head }];
    const pristine = await pristineUpdate(repo, pristineHead, plan.pristine ?? [], author, committer);
    if (pristine) updates.push(pristine);
    const outcome = await repo.updateRefs(updates, `svc-manifest: ${firstLine(message)}`);
    if (outcome.ok) {
      if (worktree) warnings.push(...(await syncWorktree(repo, worktree, head, commit)));
      return { ...base, status: 'committed', commit, changedPaths, warnings };
    }
    if (outcome.lockFile) await staleLock.check(outcome.lockFile, branch);
    await backoff(attempt);
  }
  throw new RefusedError(
    'too-many-retries',
    `gave up after ${maxAttempts} attempts: other writers kept moving '${branch}'`,
  );
}

/** How old a ref lock file must be, and seen unchanged twice, before it is called stale. */
const STALE_LOCK_MS = 2000;

/**
 * Tells a stale ref lock (left by a crashed git process) from a live writer: git holds a
 * ref's `.lock` file for milliseconds, so the same file (inode and mtime) blocking two
 * attempts in a row, and older than {@link STALE_LOCK_MS}, is not another writer.
 */
class StaleLockWatch {
  private readonly seen = new Map<string, string>();

  async check(lockFile: string, branch: string): Promise<void> {
    const info = await fsp.lstat(lockFile).catch(() => null);
    if (!info) return;
    const identity = `${info.ino}:${info.mtimeMs}`;
    const before = this.seen.get(lockFile);
    this.seen.set(lockFile, identity);
    if (before === identity && Date.now() - info.mtimeMs >= STALE_LOCK_MS) {
      throw new RefusedError(
        'ref-locked',
        `${lockFile} has existed since ${info.mtime.toISOString()} and blocks every update of '${branch}'; a git process probably crashed while holding it. If no git process is running on this repository, delete that file and try again.`,
        { file: lockFile },
      );
    }
  }
}

/**
 * The one place the path policy is applied to a plan, before anything is written:
 * every write other than the manifest and the lock file is an item file and must pass
 * {@link checkItemWrites} against the head's tree; the manifest and the lock file
 * themselves must be regular files.
 */
async function checkWrites(snapshot: Snapshot, plan: EditPlan): Promise<void> {
  const special = new Set([
    ...MANIFEST_CANDIDATES.map((candidate) => candidate.path),
    LOCK_FILE_PATH,
    ...plan.writes.filter((write) => write.manifestFormat !== undefined).map((write) => write.path),
  ]);
  const itemWrites = plan.writes
    .filter((write) => !special.has(write.path))
    .map((write) => ({ path: write.path, write: write.content !== null }));
  const specialWrites = plan.writes.filter((write) => special.has(write.path));
  // With trees listed too: a folder called svc.lock.json must not be replaced by the lock file (and lose its contents).
  const entries =
    specialWrites.length > 0
      ? await snapshot.repo.entriesAt(
          snapshot.commit,
          specialWrites.map((write) => write.path),
        )
      : new Map();
  for (const write of specialWrites) {
    const entry = entries.get(write.path);
    if (entry && !isRegularFile(entry)) {
      throw new RefusedError(
        'not-regular-file',
        `${write.path} is ${describeEntry(entry)} in the repository, not a regular file; it is never replaced`,
        {
          file: write.path,
        },
      );
    }
  }
  if (itemWrites.length > 0)
    checkItemWrites(new TreeShape(await snapshot.tree()), itemWrites, new Set(plan.ownedPaths ?? []));
}

/**
 * The tree git built holds exactly what the plan asked for: every written path as a blob
 * with the intended id and mode, every deleted path gone. (git's index silently skips
 * paths it considers unsafe; the policy refuses those first, and this proves it.)
 */
export async function verifyTree(
  repo: GitRepo,
  baseTree: string,
  tree: string,
  changes: readonly IndexChange[],
): Promise<void> {
  const entries = await repo.entriesAt(
    tree,
    changes.map((change) => change.path),
  );
  for (const change of changes) {
    const found = entries.get(change.path);
    const entry = found?.type === 'tree' ? undefined : found;
    const ok = change.oid === null ? !entry : entry?.oid === change.oid && entry.mode === change.mode;
    if (!ok)
      throw new RefusedError(
        'unsafe-path',
        `git did not record ${JSON.stringify(change.path)} as ${change.oid === null ? 'deleted' : 'written'}; nothing was committed`,
        { file: change.path },
      );
  }
  // Nothing else changed: a file replacing a folder (or a folder a file) would drop what was there without a word.
  const planned = new Set(changes.map((change) => change.path));
  for (const path of await repo.changedPaths(baseTree, tree)) {
    if (path && !planned.has(path)) {
      throw new RefusedError(
        'path-conflict',
        `the change would also remove or replace ${JSON.stringify(path)}, which the operation does not own; nothing was committed`,
        { file: path },
      );
    }
  }
}

/** The index lines for the writes that actually change something. */
async function indexChanges(repo: GitRepo, snapshot: Snapshot, writes: readonly FileWrite[]): Promise<IndexChange[]> {
  const entries = await snapshot.entries(writes.map((write) => write.path));
  const changes: IndexChange[] = [];
  for (const write of writes) {
    const existing = entries.get(write.path) ?? null;
    if (write.content === null) {
      if (existing) changes.push({ path: write.path, mode: existing.mode, oid: null });
      continue;
    }
    const oid = await repo.writeBlob(write.content);
    if (existing?.oid === oid && isRegularFile(existing)) continue;
    // Only a regular file's mode is kept (an executable stays executable); never a symlink's or submodule's.
    const mode = isRegularFile(existing) ? existing!.mode : '100644';
    changes.push({ path: write.path, mode, oid });
  }
  return changes;
}

/** Refuses when a manifest the edit writes would not validate; returns the validator's warnings about it. */
async function validateManifest(writes: readonly FileWrite[], validate: ValidateFn): Promise<string[]> {
  const warnings: string[] = [];
  for (const write of writes) {
    const format = write.manifestFormat ?? MANIFEST_CANDIDATES.find((c) => c.path === write.path)?.format;
    if (!format || write.content === null) continue;
    const text = ManifestFile.fromBytes(write.path, format, write.content).text;
    // The engine's document is the text only if encoding kept it (a lone surrogate would not survive).
    const document = write.document?.text === text ? write.document : undefined;
    const outcome = await validate(text, { filename: write.path, format, document });
    const errors = outcome.diagnostics.filter((d) => d.severity === 'error');
    if (!outcome.ok || errors.length > 0) {
      throw new RefusedError(
        'invalid-result',
        `the change would leave ${write.path} invalid:\n${formatDiagnostics(write.path, errors)}`,
        {
          diagnostics: errors,
          file: write.path,
        },
      );
    }
    const notes = outcome.diagnostics.filter((d) => d.severity === 'warning');
    for (const note of notes) warnings.push(printable(formatDiagnostics(write.path, [note]).replace(/\n/g, ' ')));
  }
  return warnings;
}

/**
 * Adds blobs to the hidden pristine ref's tree (a commit chain, so every copy ever
 * stored stays reachable). Null when all of them are already there.
 */
async function pristineUpdate(
  repo: GitRepo,
  old: string | null,
  blobs: readonly Uint8Array[],
  author: Identity,
  committer: Identity,
): Promise<RefUpdate | null> {
  if (blobs.length === 0) return null;
  const existing = old ? await repo.lsTree(old) : new Map();
  const changes: IndexChange[] = [];
  for (const blob of blobs) {
    const oid = await repo.writeBlob(blob);
    const path = pristinePath(oid);
    if (!existing.has(path) && !changes.some((change) => change.path === path))
      changes.push({ path, mode: '100644', oid });
  }
  if (changes.length === 0) return null;
  const tree = await repo.buildTree(old ? await repo.treeOf(old) : null, changes);
  const commit = await repo.commitTree(
    tree,
    old ? [old] : [],
    'svc-manifest: keep pristine upstream copies',
    author,
    committer,
  );
  return { ref: PRISTINE_REF, newOid: commit, oldOid: old };
}

/** The work tree that has `branch` checked out (non-bare repositories only). */
async function checkedOutWorktree(repo: GitRepo, branch: string): Promise<string | null> {
  if (!repo.workTree) return null;
  return (await repo.headBranch().catch(() => null)) === branch ? repo.workTree : null;
}

/** A checked-out branch must not be moved under uncommitted edits of the same files. */
async function refuseLocalChanges(repo: GitRepo, worktree: string, paths: readonly string[]): Promise<void> {
  const status = await repo.git(
    ['--work-tree', worktree, 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...paths],
    {
      cwd: worktree,
      env: { GIT_OPTIONAL_LOCKS: '0' },
    },
  );
  const dirty = status.stdout
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map((record) => record.slice(3));
  if (dirty.length > 0) {
    throw new RefusedError(
      'dirty-worktree',
      `uncommitted changes in the working tree would be overwritten: ${dirty.join(', ')}; commit or stash them first`,
    );
  }
}

/** Brings the checked-out work tree along (two-tree merge: refuses rather than overwrite local edits). */
async function syncWorktree(repo: GitRepo, worktree: string, from: string, to: string): Promise<string[]> {
  try {
    await repo.git(['--work-tree', worktree, 'read-tree', '-m', '-u', from, to], { cwd: worktree });
    return [];
  } catch (error) {
    return [`the branch moved but the working tree at ${worktree} was not updated: ${(error as Error).message}`];
  }
}

function firstLine(message: string): string {
  return message.split('\n', 1)[0]!;
}

/** Randomised exponential backoff, so losers of a race do not collide again in lockstep. */
function backoff(attempt: number): Promise<void> {
  const cap = Math.min(400, 10 * 2 ** Math.min(attempt, 6));
  return new Promise((resolve) => setTimeout(resolve, Math.random() * cap));
}
