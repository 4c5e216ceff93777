/** QuietWatch: background work waits until turns of the event loop pass with no message handled. */
import { describe, expect, it, vi } from 'vitest';
import { createState, type DocumentState } from '../src/document-state.js';
import { DiagnosticScheduler } from '../src/diagnostic-scheduler.js';
import { QuietWatch } from '../src/quiet.js';
import { MAX_WAIT_MS, RequestBatch } from '../src/request-batch.js';

/** Turns of a fake event loop, run one at a time by the test. */
function fakeLoop() {
  let queue: (() => void)[] = [];
  return {
    nextTurn: (callback: () => void) => {
      const entry = () => callback();
      queue.push(entry);
      return { cancel: () => (queue = queue.filter((e) => e !== entry)) };
    },
    /** Runs the callbacks queued before this turn. */
    turn: () => {
      const now = queue;
      queue = [];
      for (const callback of now) callback();
    },
    pending: () => queue.length,
  };
}

describe('QuietWatch', () => {
  it('calls back after three turns in a row without a message', () => {
    const loop = fakeLoop();
    const watch = new QuietWatch(loop.nextTurn);
    let called = 0;
    watch.wait(() => (called += 1));
    loop.turn();
    loop.turn();
    expect(called).toBe(0);
    loop.turn();
    expect(called).toBe(1);
    expect(loop.pending()).toBe(0);
  });

  it('starts counting again after every message', () => {
    const loop = fakeLoop();
    const watch = new QuietWatch(loop.nextTurn);
    let called = 0;
    watch.wait(() => (called += 1));
    // A message handled in each of 50 turns (a burst): no call back.
    for (let i = 0; i < 50; i++) {
      loop.turn();
      watch.note();
    }
    loop.turn();
    loop.turn();
    expect(called).toBe(0);
    watch.note();
    loop.turn();
    loop.turn();
    loop.turn();
    expect(called).toBe(0);
    loop.turn();
    expect(called).toBe(1);
  });

  it('never calls back once cancelled', () => {
    const loop = fakeLoop();
    const watch = new QuietWatch(loop.nextTurn);
    let called = 0;
    const cancel = watch.wait(() => (called += 1));
    loop.turn();
    cancel();
    for (let i = 0; i < 5; i++) loop.turn();
    expect(called).toBe(0);
    expect(loop.pending()).toBe(0);
  });

  it('waits on the real event loop until a chain of messages ends', async () => {
    const watch = new QuietWatch();
    const order: string[] = [];
    const done = new Promise<void>((resolve) =>
      watch.wait(() => {
        order.push('validate');
        resolve();
      }),
    );
    // Messages handed over one per turn, as vscode-jsonrpc does.
    let left = 20;
    const message = () => {
      watch.note();
      order.push('message');
      if (--left > 0) setImmediate(message);
    };
    setImmediate(message);
    await done;
    expect(order).toEqual([...Array(20).fill('message'), 'validate']);
  });
});

describe('DiagnosticScheduler with whenQuiet', () => {
  it('validates once the queue is quiet, and an edit meanwhile starts the wait again', async () => {
    const uri = 'file:///work/svc.yaml';
    const states = new Map<string, DocumentState>([[uri, createState(uri, 1, 'svc_version: 2\n')]]);
    const published: number[] = [];
    const timers: (() => void)[] = [];
    const waits: { callback: () => void; cancelled: boolean }[] = [];
    const scheduler = new DiagnosticScheduler({
      delayMs: 0,
      current: (u) => states.get(u),
      compute: () => [],
      publish: (_uri, version) => published.push(version),
      onError: (error) => {
        throw error;
      },
      setTimer: (callback) => timers.push(callback),
      clearTimer: () => undefined,
      whenQuiet: (callback) => {
        const wait = { callback, cancelled: false };
        waits.push(wait);
        return () => (wait.cancelled = true);
      },
    });
    scheduler.schedule(uri);
    timers.at(-1)!();
    expect(waits).toHaveLength(1);
    expect(scheduler.stats.validations).toBe(0);
    // An edit while waiting for quiet: that wait is cancelled, a new one starts after the delay.
    states.set(uri, createState(uri, 2, 'svc_version: 2\nagents: {}\n'));
    scheduler.schedule(uri);
    expect(waits[0]!.cancelled).toBe(true);
    timers.at(-1)!();
    expect(waits).toHaveLength(2);
    waits[1]!.callback();
    await Promise.resolve();
    expect(published).toEqual([2]);
    expect(scheduler.stats).toEqual({ scheduled: 2, validations: 1, publications: 1, dropped: 0 });
  });
});

describe('RequestBatch', () => {
  it('answers waiting requests together, in arrival order, once the queue is quiet', async () => {
    const loop = fakeLoop();
    const watch = new QuietWatch(loop.nextTurn);
    const batch = new RequestBatch(watch);
    const order: string[] = [];
    let text = 'v1';
    const answers = [
      batch.defer(() => (order.push('a'), `a@${text}`)),
      batch.defer(() => (order.push('b'), `b@${text}`)),
    ];
    // Edits keep arriving: nothing is answered yet.
    for (let i = 2; i <= 5; i++) {
      loop.turn();
      text = `v${i}`;
      watch.note();
    }
    expect(order).toEqual([]);
    expect(batch.size).toBe(2);
    // The turn that sees the last edit, then three quiet ones.
    loop.turn();
    loop.turn();
    loop.turn();
    expect(order).toEqual([]);
    loop.turn();
    expect(order).toEqual(['a', 'b']);
    // Both were answered from the newest text.
    expect(await Promise.all(answers)).toEqual(['a@v5', 'b@v5']);
    expect(batch.size).toBe(0);
  });

  it('answers anyway when the queue never goes quiet', async () => {
    vi.useFakeTimers();
    try {
      const loop = fakeLoop();
      const watch = new QuietWatch(loop.nextTurn);
      const batch = new RequestBatch(watch);
      const answer = batch.defer(() => 'late');
      vi.advanceTimersByTime(MAX_WAIT_MS - 1);
      expect(batch.size).toBe(1);
      vi.advanceTimersByTime(1);
      expect(batch.size).toBe(0);
      expect(await answer).toBe('late');
      // The quiet wait was cancelled with it.
      expect(loop.pending()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('flush answers at once (the server flushes before a validation)', async () => {
    const batch = new RequestBatch(new QuietWatch(fakeLoop().nextTurn));
    const answer = batch.defer(() => 42);
    batch.flush();
    expect(await answer).toBe(42);
  });
});
