/**
 * Knows when the messages the client already sent have all been handled, so that background
 * work (validation) starts only then.
 *
 * vscode-jsonrpc hands the server one message per turn of the event loop (its reader and its
 * dispatch queue each move one message per `setImmediate`). Work scheduled with a plain
 * `setImmediate` after an edit therefore runs *between* that edit and the next one already
 * waiting in the pipe: a burst of 200 edits became 200 validations, and a request sent after
 * the burst waited behind all of them. Instead, the server notes every message it handles
 * ({@link QuietWatch.note}), and {@link QuietWatch.wait} calls back only after a few turns of
 * the event loop in a row handled none: the queue is drained, the text is the newest, and no
 * request is waiting.
 */

/** Turns of the event loop with no message handled before the queue counts as drained. */
const QUIET_TURNS = 3;
/** A client that never stops sending (a flood of requests) still gets its diagnostics this often. */
const MAX_WAIT_MS = 1000;

export class QuietWatch {
  private activity = 0;

  constructor(
    private readonly nextTurn: (callback: () => void) => { cancel(): void } = (callback) => {
      const handle = setImmediate(callback);
      return { cancel: () => clearImmediate(handle) };
    },
  ) {}

  /** How many messages were handled so far. */
  get handled(): number {
    return this.activity;
  }

  /** A message (an edit, a request) was handled. */
  note(): void {
    this.activity += 1;
  }

  /**
   * Calls `callback` once {@link QUIET_TURNS} turns in a row handled no message, or after
   * {@link MAX_WAIT_MS} whatever comes in. Answers a cancel function.
   */
  wait(callback: () => void): () => void {
    let seen = this.activity;
    let quiet = 0;
    const deadline = performance.now() + MAX_WAIT_MS;
    let handle: { cancel(): void } | undefined;
    const turn = (): void => {
      if (this.activity === seen) quiet += 1;
      else {
        seen = this.activity;
        quiet = 0;
      }
      if (quiet >= QUIET_TURNS || performance.now() > deadline) {
        handle = undefined;
        callback();
      } else handle = this.nextTurn(turn);
    };
    handle = this.nextTurn(turn);
    return () => {
      handle?.cancel();
      handle = undefined;
    };
  }
}
