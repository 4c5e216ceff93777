/**
 * Where an operation runs: a local repository path, or a git URL reached through a
 * bare cache (see apply-remote.ts). Every operation goes through these two functions.
 */
import {
  applyEdit as applyLocal,
  noBranchMessage,
  type ApplyOptions,
  type ApplyResult,
  type Edit,
} from '../applier.js';
import { RefusedError } from '../errors.js';
import { GitRepo } from '../git/repo.js';
import { Snapshot } from '../git/snapshot.js';
import { applyRemoteEdit, readRemote, type RemoteOptions } from './apply-remote.js';
import { parseRemote } from './url.js';

/** Options of every write: the applier's, plus how to reach a remote. */
export type WriteOptions = ApplyOptions & RemoteOptions;

/** Options of every read. */
export interface ReadOptions extends RemoteOptions {
  /** Branch to read; default: the branch HEAD names (the remote's HEAD for a URL). */
  branch?: string;
}

/**
 * Applies `edit` to `repo` — a path (bare or not) or a git URL (`file://`, `ssh://`,
 * `git://`, `http(s)://`, `[user@]host:path`) — as one commit, or refuses.
 */
export function applyEdit<T>(repo: string, edit: Edit<T>, options: WriteOptions = {}): Promise<ApplyResult<T>> {
  const remote = parseRemote(repo);
  return remote ? applyRemoteEdit(remote, edit, options) : applyLocal(repo, edit, options);
}

/** Runs `read` on a snapshot of `repo`'s branch head (fetched first for a URL). */
export async function readBranch<T>(
  repo: string,
  options: ReadOptions,
  read: (snapshot: Snapshot) => Promise<T>,
): Promise<T> {
  const remote = parseRemote(repo);
  if (remote) return readRemote(remote, options, read);
  const git = await GitRepo.open(repo);
  try {
    const branch = options.branch ?? (await git.headBranch().catch(() => null));
    if (!branch)
      throw new RefusedError(
        'unknown-branch',
        `HEAD of ${git.gitDir} does not name a branch; pass a branch explicitly`,
      );
    await GitRepo.checkBranchName(branch);
    const head = await git.resolve(`refs/heads/${branch}`);
    if (!head)
      throw new RefusedError('unknown-branch', noBranchMessage(branch, options.branch === undefined, git.gitDir));
    return await read(new Snapshot(git, head));
  } finally {
    git.close();
  }
}
