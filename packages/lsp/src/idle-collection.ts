/**
 * One full garbage collection while the server is idle, after a parse of a large text.
 *
 * Opening a file of megabytes (or parsing one whole again) builds its tree in V8's old generation
 * and leaves the parse's garbage beside it. The heap then needs a full collection, and V8 starts
 * one when the heap next grows: during the first keystrokes after the open, each of which it slows
 * by milliseconds (marking steps, then the pause that ends the cycle; bench/findings.md, "At
 * 6c83f5e: what a keystroke allocates, and the first keystrokes after opening a large file").
 * Done once the server has had no message for a moment, the same work costs nobody a wait. Node
 * has no idle-time collection of its own, so the server takes `gc` as test runners do (the
 * `--expose-gc` flag set at run time, the function read from a fresh context); where that is
 * refused, nothing is collected and nothing else changes.
 */

/** Parses at least this long (characters read, see ManifestDocument.parsedCharacters) leave enough behind to collect. */
export const LARGE_PARSE = 512 * 1024;
/** No message for this long counts as idle. */
const IDLE_MS = 100;
/**
 * At most one collection in this long: a large file that is parsed whole on every keystroke (a
 * TOML syntax error) asks after each one, and each pause in typing would otherwise pay for one.
 */
const MIN_INTERVAL_MS = 10_000;

/**
 * V8's full collection, or undefined when this runtime does not give it. Asked for only when a
 * collection is due: loading `node:v8` is a cost start-up should not pay (docs/decisions.md, "(#17) After
 * a large parse, the server collects garbage once while idle").
 */
export function fullCollection(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  try {
    process.getBuiltinModule('node:v8').setFlagsFromString('--expose-gc');
    const gc: unknown = process.getBuiltinModule('node:vm').runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

/** {@link fullCollection}, looked up on the first call; a runtime without one makes every call do nothing. */
export function collectWhenAsked(): () => void {
  let collect: (() => void) | undefined | null = null;
  return () => {
    if (collect === null) collect = fullCollection();
    collect?.();
  };
}

export interface IdleCollectionOptions {
  /** The collection to run; undefined turns this off. */
  collect: (() => void) | undefined;
  /** A count that grows with every message the server handles (QuietWatch.activity). */
  activity: () => number;
  idleMs?: number;
  minIntervalMs?: number;
  now?: () => number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export class IdleCollection {
  private timer: unknown;
  private lastCollected = -Infinity;
  private readonly idleMs: number;
  private readonly minIntervalMs: number;
  private readonly now: () => number;
  private readonly setTimer: (callback: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly options: IdleCollectionOptions) {
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.minIntervalMs = options.minIntervalMs ?? MIN_INTERVAL_MS;
    this.now = options.now ?? (() => performance.now());
    // Unreferenced: a pending collection never keeps the process alive.
    this.setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms).unref());
    this.clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  }

  /** Collect once the server is next idle (one collection for any number of requests before it, none soon after another). */
  request(): void {
    if (!this.options.collect || this.timer !== undefined || this.now() - this.lastCollected < this.minIntervalMs)
      return;
    this.arm(this.options.activity());
  }

  dispose(): void {
    if (this.timer !== undefined) this.clearTimer(this.timer);
    this.timer = undefined;
  }

  private arm(seen: number): void {
    this.timer = this.setTimer(() => {
      const now = this.options.activity();
      // A message came in meanwhile: the user is at work; wait for the next quiet moment.
      if (now !== seen) return this.arm(now);
      this.timer = undefined;
      this.lastCollected = this.now();
      this.options.collect!();
    }, this.idleMs);
  }
}
