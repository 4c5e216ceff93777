/**
 * Runs diagnostics after the last edit of a document, and never publishes a result for a
 * version that is no longer the current one. With `whenQuiet` (the server passes
 * `QuietWatch.wait` (quiet.ts)), a validation also waits until every message already received has
 * been handled: a burst of edits costs one validation of its last version, and requests sent
 * after the burst are answered first.
 */
import type { Diagnostic } from 'vscode-languageserver';
import type { DocumentState } from './document-state.js';

export interface SchedulerOptions {
  /**
   * Quiet time after an edit before validating, in milliseconds, or a function of how long
   * the document's last validation took (undefined before the first).
   */
  delayMs: number | ((lastRunMs: number | undefined) => number);
  /** The current state of a document (undefined once closed). */
  current(uri: string): DocumentState | undefined;
  /** Diagnostics for a state; may be async. */
  compute(state: DocumentState): Diagnostic[] | Promise<Diagnostic[]>;
  publish(uri: string, version: number, diagnostics: Diagnostic[]): void;
  onError(error: unknown, uri: string): void;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** The clock a validation's duration is read from, in milliseconds (default `performance.now`). */
  now?: () => number;
  /**
   * Calls back once the messages already received are handled (see `QuietWatch.wait` (quiet.ts));
   * answers a cancel function. Without it, a validation runs as soon as its delay is over.
   */
  whenQuiet?: (callback: () => void) => () => void;
}

/** What the scheduler did: read by tests and benchmarks through the server's `svc/stats` request. */
export interface SchedulerStats {
  /** Validations asked for (`schedule`: one per edit of a document whose diagnostics are pushed). */
  scheduled: number;
  /** Diagnostics computed (each one validation of one version). */
  validations: number;
  /** Diagnostics sent to the client. */
  publications: number;
  /** Results dropped because the document changed while they were computed. */
  dropped: number;
}

export class DiagnosticScheduler {
  private readonly timers = new Map<string, unknown>();
  /** Validations whose delay is over, waiting for the message queue to drain: their cancel functions. */
  private readonly waiting = new Map<string, () => void>();
  readonly stats: SchedulerStats = { scheduled: 0, validations: 0, publications: 0, dropped: 0 };
  private readonly lastRunMs = new Map<string, number>();
  private readonly setTimer: (callback: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly now: () => number;

  constructor(private readonly options: SchedulerOptions) {
    this.now = options.now ?? (() => performance.now());
    // No delay: run right after the messages already read (setImmediate), not a timer's ≥ 1 ms later.
    this.setTimer =
      options.setTimer ??
      ((callback, ms) => (ms <= 0 ? { immediate: setImmediate(callback) } : { timeout: setTimeout(callback, ms) }));
    this.clearTimer =
      options.clearTimer ??
      ((handle) => {
        const { immediate, timeout } = handle as {
          immediate?: ReturnType<typeof setImmediate>;
          timeout?: ReturnType<typeof setTimeout>;
        };
        if (immediate) clearImmediate(immediate);
        if (timeout) clearTimeout(timeout);
      });
  }

  /** (Re)starts the quiet period of a document. */
  schedule(uri: string): void {
    this.stats.scheduled += 1;
    this.cancel(uri);
    this.timers.set(
      uri,
      this.setTimer(
        () => {
          this.timers.delete(uri);
          const whenQuiet = this.options.whenQuiet;
          if (!whenQuiet) {
            void this.run(uri);
            return;
          }
          this.waiting.set(
            uri,
            whenQuiet(() => {
              this.waiting.delete(uri);
              void this.run(uri);
            }),
          );
        },
        typeof this.options.delayMs === 'number' ? this.options.delayMs : this.options.delayMs(this.lastRunMs.get(uri)),
      ),
    );
  }

  /** Forgets a closed document. */
  forget(uri: string): void {
    this.cancel(uri);
    this.lastRunMs.delete(uri);
  }

  cancel(uri: string): void {
    const handle = this.timers.get(uri);
    if (handle !== undefined) this.clearTimer(handle);
    this.timers.delete(uri);
    this.waiting.get(uri)?.();
    this.waiting.delete(uri);
  }

  /** Validates the current version now; drops the result if the document changed meanwhile. */
  async run(uri: string): Promise<boolean> {
    const state = this.options.current(uri);
    if (!state) return false;
    try {
      const started = this.now();
      this.stats.validations += 1;
      const diagnostics = await this.options.compute(state);
      this.lastRunMs.set(uri, this.now() - started);
      const now = this.options.current(uri);
      if (!now || now.version !== state.version || now.doc !== state.doc) {
        this.stats.dropped += 1;
        return false;
      }
      this.stats.publications += 1;
      this.options.publish(uri, state.version, diagnostics);
      return true;
    } catch (error) {
      this.options.onError(error, uri);
      return false;
    }
  }

  dispose(): void {
    for (const uri of new Set([...this.timers.keys(), ...this.waiting.keys()])) this.cancel(uri);
  }
}
