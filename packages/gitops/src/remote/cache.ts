/**
 * The bare cache of a remote repository: one per URL (credentials left out of the key)
 * under `$XDG_CACHE_HOME/svc-manifest/repos/`, or a folder the caller chooses. Every use
 * holds the cache's lock for its whole fetch → edit → push cycle: calls in one process
 * queue on an in-process lock, other processes on a lock directory next to the cache
 * (proper-lockfile: mkdir is atomic, a crashed holder's lock goes stale).
 */
import { promises as fsp } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { runGit } from '../git/exec.js';
import { withRepoLock } from '../repo-lock.js';
import { cacheName, type RemoteUrl } from './url.js';

/** Where caches live when the caller names no folder. */
export function defaultCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'svc-manifest');
}

/** The cache's git directory for `remote` under `root` (default {@link defaultCacheRoot}). */
export function cachePath(remote: RemoteUrl, root?: string): string {
  return join(resolve(root ?? defaultCacheRoot()), 'repos', cacheName(remote));
}

/**
 * Runs `task` holding the cache's lock, creating the bare cache first when needed.
 * `compromised()` tells the task whether the lock was lost (e.g. the process stalled
 * past the stale limit and another one took over); it must then not push.
 */
export async function withCache<T>(gitDir: string, task: (compromised: () => Error | null) => Promise<T>): Promise<T> {
  return withRepoLock(`remote-cache:${gitDir}`, async () => {
    await fsp.mkdir(join(gitDir, '..'), { recursive: true });
    let lost: Error | null = null;
    // Loaded here, not at start-up: operations on local paths never pay for it (it patches fs through graceful-fs).
    const { lock } = (await import('proper-lockfile')).default;
    const release = await lock(gitDir, {
      realpath: false,
      lockfilePath: `${gitDir}.lock`,
      stale: 30_000,
      retries: { retries: 2_000, factor: 1.3, minTimeout: 20, maxTimeout: 500, randomize: true },
      onCompromised: (error) => {
        lost = error;
      },
    });
    try {
      await ensureBare(gitDir);
      return await task(() => lost);
    } finally {
      await release().catch(() => {
        /* already released because it was compromised */
      });
    }
  });
}

async function ensureBare(gitDir: string): Promise<void> {
  if ((await fsp.stat(join(gitDir, 'HEAD')).catch(() => null))?.isFile()) return;
  await runGit(['init', '--bare', '--quiet', gitDir]);
  // Housekeeping runs in the foreground, inside our lock, never as a detached process.
  for (const [key, value] of [
    ['gc.autoDetach', 'false'],
    ['maintenance.autoDetach', 'false'],
    ['core.logAllRefUpdates', 'false'],
  ] as const) {
    await runGit(['--git-dir', gitDir, 'config', key, value]);
  }
}
