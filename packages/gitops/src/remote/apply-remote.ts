/**
 * The applier on a remote repository. Each attempt fetches the branch and the hidden
 * refs into the cache, runs the edit there with the local applier (same snapshot, same
 * validation, same commit), and pushes branch and pristine ref in one atomic push with
 * a lease on each. A lost race drops our commit at the next fetch and redoes the edit
 * from scratch on the new head, with randomised exponential backoff.
 */
import { applyEdit as applyLocal, type ApplyOptions, type ApplyResult, type Edit } from '../applier.js';
import { RefusedError } from '../errors.js';
import { GitRepo } from '../git/repo.js';
import { Snapshot } from '../git/snapshot.js';
import { PRISTINE_REF } from '../pristine.js';
import { cachePath, withCache } from './cache.js';
import { RemoteRepo } from './remote-repo.js';
import { redactText, type RemoteUrl } from './url.js';

/** How a remote repository is reached (ignored for a local path). */
export interface RemoteOptions {
  /** Folder holding the bare caches of remote repositories (default `$XDG_CACHE_HOME/svc-manifest`, else `~/.cache/svc-manifest`). */
  cache?: string;
  /** Time limit of each network git call (ls-remote, fetch, push), in milliseconds (default 60 000). */
  timeoutMs?: number;
}

export const DEFAULT_NETWORK_TIMEOUT_MS = 60_000;

function open(remote: RemoteUrl, options: RemoteOptions): { gitDir: string; timeoutMs: number } {
  const timeoutMs = options.timeoutMs ?? DEFAULT_NETWORK_TIMEOUT_MS;
  // setTimeout's own limit (about 24.8 days); beyond it a timer would fire at once.
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= 2_147_483_647))
    throw new TypeError('timeoutMs must be a positive number of milliseconds, at most 2147483647');
  return { gitDir: cachePath(remote, options.cache), timeoutMs };
}

/** Applies `edit` to the remote's branch as one commit, or refuses; see the module comment. */
export async function applyRemoteEdit<T>(
  remote: RemoteUrl,
  edit: Edit<T>,
  options: ApplyOptions & RemoteOptions = {},
): Promise<ApplyResult<T>> {
  const { gitDir, timeoutMs } = open(remote, options);
  return redacting(remote, () =>
    withCache(gitDir, async (compromised) => {
      const repo = new RemoteRepo(remote, gitDir, timeoutMs);
      const branch = options.branch ?? (await repo.defaultBranch());
      const maxAttempts = options.maxAttempts ?? 40;
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        const before = await repo.fetch(branch);
        // The cache's branch is now the remote's: the local applier builds on exactly that.
        const result = await applyLocal(gitDir, edit, { ...options, branch, maxAttempts: 1 });
        if (result.status === 'unchanged') return { ...result, attempts: attempt };
        const pristine = (await repo.localRefs([PRISTINE_REF])).get(PRISTINE_REF) ?? null;
        const lost = compromised();
        if (lost) throw new Error(`lost the lock on the cache ${gitDir} (${lost.message}); nothing was pushed`);
        const pushed = await repo.push({
          branch,
          head: { old: before.head, new: result.commit },
          pristine: { old: before.pristine, new: pristine },
        });
        if (pushed) {
          await repo.housekeeping();
          return { ...result, attempts: attempt };
        }
        if (attempt < maxAttempts) await backoff(attempt);
      }
      throw new RefusedError(
        'too-many-retries',
        `gave up after ${maxAttempts} attempts: other writers kept moving '${branch}' on ${remote.display}`,
      );
    }),
  );
}

/** Runs `read` on a fresh snapshot of the remote's branch (fetched into the cache). */
export async function readRemote<T>(
  remote: RemoteUrl,
  options: RemoteOptions & { branch?: string },
  read: (snapshot: Snapshot) => Promise<T>,
): Promise<T> {
  const { gitDir, timeoutMs } = open(remote, options);
  return redacting(remote, () =>
    withCache(gitDir, async () => {
      const repo = new RemoteRepo(remote, gitDir, timeoutMs);
      const branch = options.branch ?? (await repo.defaultBranch());
      const { head } = await repo.fetch(branch);
      const git = await GitRepo.open(gitDir);
      try {
        return await read(new Snapshot(git, head));
      } finally {
        git.close();
      }
    }),
  );
}

/** Whatever escapes, escapes without the remote's credentials in its message. */
async function redacting<T>(remote: RemoteUrl, task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (error) {
    if (error instanceof Error) {
      const message = redactText(error.message, remote);
      if (message !== error.message) {
        try {
          Object.defineProperty(error, 'message', { value: message, configurable: true, writable: true });
        } catch {
          throw new Error(message);
        }
      }
      if (error.stack) error.stack = redactText(error.stack, remote);
      for (const key of ['stderr', 'args'] as const) {
        const value = (error as unknown as Record<string, unknown>)[key];
        if (typeof value === 'string') Object.defineProperty(error, key, { value: redactText(value, remote) });
        else if (Array.isArray(value))
          Object.defineProperty(error, key, {
            value: value.map((v) => (typeof v === 'string' ? redactText(v, remote) : v)),
          });
      }
    }
    throw error;
  }
}

/** Randomised exponential backoff, so losers of a race do not collide again in lockstep. */
function backoff(attempt: number): Promise<void> {
  const cap = Math.min(1_000, 20 * 2 ** Math.min(attempt, 6));
  return new Promise((resolve) => setTimeout(resolve, Math.random() * cap));
}
