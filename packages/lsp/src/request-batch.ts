/**
 * Requests that read the parsed document wait, like validation, until the messages already
 * received are handled, and are then answered together from the newest text: one parse serves
 * them all. In a storm of edits each request used to parse the text as it stood when the request
 * arrived, so the server fell further and further behind (a request cost a parse of the whole
 * list it sat in, and the next request waited for all those before it). A request is answered at
 * the latest {@link MAX_WAIT_MS} after it arrived, whatever keeps coming.
 */
import type { QuietWatch } from './quiet.js';

/** The longest a request waits for the queue to drain before it is answered anyway. */
export const MAX_WAIT_MS = 50;

export class RequestBatch {
  private pending: (() => void)[] = [];
  private cancelWait: (() => void) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly quiet: QuietWatch) {}

  /** Runs `answer` once the queue is quiet (or the wait is over), with the requests waiting beside it, in arrival order. */
  defer<T>(answer: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push(() => {
        try {
          resolve(answer());
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
      if (!this.cancelWait) {
        this.cancelWait = this.quiet.wait(() => this.flush());
        this.timer = setTimeout(() => this.flush(), MAX_WAIT_MS);
      }
    });
  }

  /** Answers every waiting request now (before a validation starts, for one). */
  flush(): void {
    this.cancelWait?.();
    this.cancelWait = undefined;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    for (const answer of batch) answer();
  }

  get size(): number {
    return this.pending.length;
  }

  dispose(): void {
    this.flush();
  }
}
