/**
 * An in-process lock per repository. Appliers in one process take turns on the same
 * repository instead of racing each other through compare-and-swap retries; appliers in
 * other processes are still handled by the ref transaction.
 */
const tails = new Map<string, Promise<void>>();

export async function withRepoLock<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const current = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => current);
  tails.set(key, tail);
  await previous;
  try {
    return await task();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}

/** Whether some task holds (or waits for) the lock of `key` (the repository's real git directory). */
export function isRepoLocked(key: string): boolean {
  return tails.has(key);
}
