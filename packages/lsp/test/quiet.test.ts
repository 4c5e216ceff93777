/** QuietWatch: background work waits until turns of the event loop pass with no message handled. */
import { describe, expect, it } from 'vitest';
import { createState, type DocumentState } from '../src/document-state.js';
import { DiagnosticScheduler } from '../src/diagnostic-scheduler.js';
import { QuietWatch } from '../src/quiet.js';

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
    expect(scheduler.stats).toEqual({ validations: 1, publications: 1, dropped: 0 });
  });
});
