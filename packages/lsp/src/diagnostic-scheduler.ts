/**
 * Runs diagnostics a short while after the last edit of a document, and never publishes a
 * result for a version that is no longer the current one.
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
}

export class DiagnosticScheduler {
  private readonly timers = new Map<string, unknown>();
  private readonly lastRunMs = new Map<string, number>();
  private readonly setTimer: (callback: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly options: SchedulerOptions) {
    // No delay: run right after the messages already read (setImmediate), not a timer's ≥ 1 ms later.
    this.setTimer =
      options.setTimer ?? ((callback, ms) => (ms <= 0 ? { immediate: setImmediate(callback) } : { timeout: setTimeout(callback, ms) }));
    this.clearTimer =
      options.clearTimer ??
      ((handle) => {
        const { immediate, timeout } = handle as { immediate?: ReturnType<typeof setImmediate>; timeout?: ReturnType<typeof setTimeout> };
        if (immediate) clearImmediate(immediate);
        if (timeout) clearTimeout(timeout);
      });
  }

  /** (Re)starts the quiet period of a document. */
  schedule(uri: string): void {
    this.cancel(uri);
    this.timers.set(
      uri,
      this.setTimer(() => {
        this.timers.delete(uri);
        void this.run(uri);
      }, typeof this.options.delayMs === 'number' ? this.options.delayMs : this.options.delayMs(this.lastRunMs.get(uri))),
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
  }

  /** Validates the current version now; drops the result if the document changed meanwhile. */
  async run(uri: string): Promise<boolean> {
    const state = this.options.current(uri);
    if (!state) return false;
    try {
      const started = performance.now();
      const diagnostics = await this.options.compute(state);
      this.lastRunMs.set(uri, performance.now() - started);
      const now = this.options.current(uri);
      if (!now || now.version !== state.version || now.doc !== state.doc) return false;
      this.options.publish(uri, state.version, diagnostics);
      return true;
    } catch (error) {
      this.options.onError(error, uri);
      return false;
    }
  }

  dispose(): void {
    for (const uri of [...this.timers.keys()]) this.cancel(uri);
  }
}
