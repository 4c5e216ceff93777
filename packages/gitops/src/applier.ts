/**
 * The one place that commits. An operation is an {@link Edit}: a function from a
 * snapshot of the branch head to the files it wants changed. The applier runs it, checks
 * the manifest it produced with the validator, builds a tree in a temporary index and
 * moves the branch (and the hidden pristine ref) by compare-and-swap. When another
 * writer moved the branch in between, it reads the new head and runs the edit again,
 * so every precondition is checked against what it will actually commit on top of.
 */
import { realpath } from 'node:fs/promises';
import { RefusedError } from './errors.js';
import { GitRepo, type Identity, type IndexChange, type RefUpdate } from './git/repo.js';
import { Snapshot } from './git/snapshot.js';
import { ManifestFile, MANIFEST_CANDIDATES } from './manifest/manifest-file.js';
import { withRepoLock } from './repo-lock.js';
import { defaultValidate, formatDiagnostics, type ValidateFn } from './validation.js';
import { PRISTINE_REF, pristinePath } from './pristine.js';

export type { Identity } from './git/repo.js';

/** One file an edit wants written (`content`) or deleted (`content: null`). */
export interface FileWrite {
  path: string;
  content: Uint8Array | null;
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
}

/** An operation: re-run from scratch on every attempt, against the then-current head. */
export type Edit<T = unknown> = (snapshot: Snapshot, repo: GitRepo) => Promise<EditPlan<T>>;

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
  /** Non-fatal notes, e.g. a checked-out work tree that could not be updated. */
  warnings: string[];
}

/** The default identity when neither the caller nor git config provides one. */
export const DEFAULT_IDENTITY: Identity = { name: 'svc-manifest', email: 'svc-manifest@users.noreply.invalid' };

/** Applies `edit` to `repoPath`'s branch as one commit, or refuses with a {@link RefusedError}. */
export async function applyEdit<T>(repoPath: string, edit: Edit<T>, options: ApplyOptions = {}): Promise<ApplyResult<T>> {
  const repo = await GitRepo.open(repoPath);
  return withRepoLock(await realpath(repo.gitDir), () => applyLocked(repo, edit, options));
}

async function applyLocked<T>(repo: GitRepo, edit: Edit<T>, options: ApplyOptions): Promise<ApplyResult<T>> {
  const branch = options.branch ?? (await repo.headBranch().catch(() => null));
  if (!branch) throw new RefusedError('unknown-branch', `HEAD of ${repo.gitDir} does not name a branch; pass a branch explicitly`);
  const ref = `refs/heads/${branch}`;
  const maxAttempts = options.maxAttempts ?? 40;
  const author = options.author ?? (await repo.configuredIdentity()) ?? DEFAULT_IDENTITY;
  const committer = options.committer ?? author;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const head = await repo.resolve(ref);
    if (!head) throw new RefusedError('unknown-branch', `branch '${branch}' does not exist in ${repo.gitDir}`);
    // Both refs are read before the edit runs, so any move of either during the attempt fails the transaction.
    const pristineHead = await repo.resolve(PRISTINE_REF);
    const snapshot = new Snapshot(repo, head);
    const plan = await edit(snapshot, repo);
    const message = options.message ?? plan.message;
    const changes = await indexChanges(repo, snapshot, plan.writes);
    const base = { branch, parent: head, message, attempts: attempt, info: plan.info, warnings: [] as string[] };
    if (changes.length === 0) return { ...base, status: 'unchanged', commit: head, changedPaths: [] };
    await validateManifest(plan.writes, options.validate ?? defaultValidate);

    const baseTree = await repo.treeOf(head);
    const tree = await repo.buildTree(baseTree, changes);
    if (tree === baseTree) return { ...base, status: 'unchanged', commit: head, changedPaths: [] };
    const changedPaths = changes.map((change) => change.path);
    const worktree = await checkedOutWorktree(repo, branch);
    if (worktree) await refuseLocalChanges(repo, worktree, changedPaths);

    const commit = await repo.commitTree(tree, [head], message, author, committer);
    const updates: RefUpdate[] = [{ ref, newOid: commit, oldOid: head }];
    const pristine = await pristineUpdate(repo, pristineHead, plan.pristine ?? [], author, committer);
    if (pristine) updates.push(pristine);
    if (await repo.updateRefs(updates, `svc-manifest: ${firstLine(message)}`)) {
      const warnings = worktree ? await syncWorktree(repo, worktree, head, commit) : [];
      return { ...base, status: 'committed', commit, changedPaths, warnings };
    }
    await backoff(attempt);
  }
  throw new RefusedError('too-many-retries', `gave up after ${maxAttempts} attempts: other writers kept moving '${branch}'`);
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
    if (existing?.oid === oid && existing.type === 'blob') continue;
    const mode = existing?.type === 'blob' ? existing.mode : '100644';
    changes.push({ path: write.path, mode, oid });
  }
  return changes;
}

/** Refuses when a manifest the edit writes would not validate. */
async function validateManifest(writes: readonly FileWrite[], validate: ValidateFn): Promise<void> {
  for (const write of writes) {
    const candidate = MANIFEST_CANDIDATES.find((c) => c.path === write.path);
    if (!candidate || write.content === null) continue;
    const text = ManifestFile.fromBytes(write.path, candidate.format, write.content).text;
    const outcome = await validate(text, { filename: write.path, format: candidate.format });
    const errors = outcome.diagnostics.filter((d) => d.severity === 'error');
    if (!outcome.ok || errors.length > 0) {
      throw new RefusedError(
        'invalid-result',
        `the change would leave ${write.path} invalid:\n${formatDiagnostics(write.path, errors)}`,
        { diagnostics: errors, file: write.path },
      );
    }
  }
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
    if (!existing.has(path) && !changes.some((change) => change.path === path)) changes.push({ path, mode: '100644', oid });
  }
  if (changes.length === 0) return null;
  const tree = await repo.buildTree(old ? await repo.treeOf(old) : null, changes);
  const commit = await repo.commitTree(tree, old ? [old] : [], 'svc-manifest: keep pristine upstream copies', author, committer);
  return { ref: PRISTINE_REF, newOid: commit, oldOid: old };
}

/** The work tree that has `branch` checked out (non-bare repositories only). */
async function checkedOutWorktree(repo: GitRepo, branch: string): Promise<string | null> {
  if (!repo.workTree) return null;
  return (await repo.headBranch().catch(() => null)) === branch ? repo.workTree : null;
}

/** A checked-out branch must not be moved under uncommitted edits of the same files. */
async function refuseLocalChanges(repo: GitRepo, worktree: string, paths: readonly string[]): Promise<void> {
  const status = await repo.git(['--work-tree', worktree, 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...paths], {
    cwd: worktree,
    env: { GIT_OPTIONAL_LOCKS: '0' },
  });
  const dirty = status.stdout
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map((record) => record.slice(3));
  if (dirty.length > 0) {
    throw new RefusedError('dirty-worktree', `uncommitted changes in the working tree would be overwritten: ${dirty.join(', ')}; commit or stash them first`);
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
