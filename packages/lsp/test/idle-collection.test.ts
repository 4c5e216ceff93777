/**
 * After a large parse the server runs one full garbage collection once it has had no message for
 * a moment (src/idle-collection.ts): never while messages keep coming, once however many parses
 * asked, and not at all after small ones.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConnection } from 'vscode-languageserver/node';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { collectWhenAsked, fullCollection, IdleCollection, LARGE_PARSE } from '../src/idle-collection.js';
import { startServer } from '../src/server.js';

/** Timers run by hand: `fire()` runs the pending one. */
function handTimers() {
  const pending: { callback: () => void; ms: number }[] = [];
  return {
    setTimer: (callback: () => void, ms: number) => {
      const timer = { callback, ms };
      pending.push(timer);
      return timer;
    },
    clearTimer: (handle: unknown) => {
      const at = pending.indexOf(handle as (typeof pending)[number]);
      if (at >= 0) pending.splice(at, 1);
    },
    fire: () => pending.shift()?.callback(),
    pending,
  };
}

describe('IdleCollection', () => {
  it('collects once the server had no message for the idle time, once for any number of requests, and not again soon after', () => {
    const timers = handTimers();
    let activity = 0;
    let clock = 0;
    const collect = vi.fn();
    const collection = new IdleCollection({
      collect,
      activity: () => activity,
      idleMs: 100,
      minIntervalMs: 10_000,
      now: () => clock,
      ...timers,
    });
    collection.request();
    collection.request();
    expect(timers.pending).toHaveLength(1);
    expect(timers.pending[0]!.ms).toBe(100);
    // Messages came in while it waited: it waits again.
    activity += 3;
    timers.fire();
    expect(collect).not.toHaveBeenCalled();
    expect(timers.pending).toHaveLength(1);
    timers.fire();
    expect(collect).toHaveBeenCalledTimes(1);
    expect(timers.pending).toHaveLength(0);
    // Another large parse soon after (a large file parsed whole on every keystroke) does not collect again.
    clock += 9_999;
    collection.request();
    expect(timers.pending).toHaveLength(0);
    // Later, one does.
    clock += 1;
    collection.request();
    timers.fire();
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it('does nothing without a collection to run, and forgets a pending one when disposed', () => {
    const timers = handTimers();
    new IdleCollection({ collect: undefined, activity: () => 0, ...timers }).request();
    expect(timers.pending).toHaveLength(0);
    const collect = vi.fn();
    const collection = new IdleCollection({ collect, activity: () => 0, ...timers });
    collection.request();
    collection.dispose();
    expect(timers.pending).toHaveLength(0);
    expect(collect).not.toHaveBeenCalled();
  });

  it("takes V8's full collection from this runtime: it frees what nothing holds", async () => {
    const gc = fullCollection();
    expect(typeof gc).toBe('function');
    const ref = ((): WeakRef<object> => new WeakRef({ items: Array.from({ length: 1000 }, (_, i) => i) }))();
    // A weak reference holds its target until the task that made it ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc!();
    expect(ref.deref()).toBeUndefined();
  });
});

describe('collectWhenAsked', () => {
  afterEach(() => vi.restoreAllMocks());

  it('loads node:v8 on the first collection, not before (start-up does not pay for it)', () => {
    const gc = (globalThis as { gc?: unknown }).gc;
    delete (globalThis as { gc?: unknown }).gc;
    try {
      const lookup = vi.spyOn(process, 'getBuiltinModule');
      const collect = collectWhenAsked();
      expect(lookup).not.toHaveBeenCalled();
      collect();
      collect();
      expect(lookup.mock.calls.map(([id]) => id)).toEqual(['node:v8', 'node:vm']);
    } finally {
      if (gc !== undefined) (globalThis as { gc?: unknown }).gc = gc;
    }
  });
});

describe('the server', () => {
  let client: ProtocolConnection | undefined;
  /** The idle collection's clock, in milliseconds. */
  let clock = 0;
  afterEach(() => {
    client?.dispose();
    clock = 0;
  });

  /** A server whose idle collection runs on hand timers, and a client that opens a file and waits for its diagnostics. */
  async function serve(collectGarbage: () => void, timers: ReturnType<typeof handTimers>, capabilities: object = {}) {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const connection = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
    startServer(connection, { debounceMs: 0, collectGarbage, idleTimers: { ...timers, now: () => clock } });
    connection.listen();
    client = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
    let published: (() => void) | undefined;
    client.onNotification('textDocument/publishDiagnostics', () => published?.());
    client.onRequest('workspace/configuration', () => [null]);
    client.listen();
    await client.sendRequest('initialize', { processId: null, rootUri: null, capabilities });
    await client.sendNotification('initialized', {});
    /** Opens a file; resolves once its diagnostics are published (the validation that may ask for a collection is done). */
    const open = async (uri: string, text: string) => {
      const publication = new Promise<void>((resolve) => (published = resolve));
      await client!.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'yaml', version: 1, text },
      });
      await publication;
    };
    return { open, client };
  }

  it('collects once after opening a large file, when the client is quiet', async () => {
    const collect = vi.fn();
    const timers = handTimers();
    const { open } = await serve(collect, timers);
    const agents = Array.from({ length: 16_000 }, (_, i) => `  agent-${i}:\n    connectors: [gh]\n`).join('');
    const text = `svc_version: 2\ndefault_agent: agent-0\nagents:\n${agents}connectors:\n  - slug: gh\n`;
    expect(text.length).toBeGreaterThan(LARGE_PARSE);
    await open('file:///work/large/svc.yaml', text);
    // The parse asked for one collection: one idle timer, and nothing collected before it fires.
    expect(timers.pending).toHaveLength(1);
    expect(collect).not.toHaveBeenCalled();
    timers.fire();
    expect(collect).toHaveBeenCalledTimes(1);
    expect(timers.pending).toHaveLength(0);
  });

  it('collects once after a large file is parsed for a client that pulls its diagnostics (nothing is pushed to it)', async () => {
    const collect = vi.fn();
    const timers = handTimers();
    const { client: pulling } = await serve(collect, timers, { textDocument: { diagnostic: {} } });
    const agents = Array.from({ length: 16_000 }, (_, i) => `  agent-${i}:\n    connectors: [gh]\n`).join('');
    const text = `svc_version: 2\ndefault_agent: agent-0\nagents:\n${agents}connectors:\n  - slug: gh\n`;
    const uri = 'file:///work/large/svc.yaml';
    await pulling.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'yaml', version: 1, text },
    });
    expect(await pulling.sendRequest('textDocument/diagnostic', { textDocument: { uri } })).toMatchObject({
      kind: 'full',
    });
    expect(timers.pending).toHaveLength(1);
    expect(collect).not.toHaveBeenCalled();
    timers.fire();
    expect(collect).toHaveBeenCalledTimes(1);
    // The same document read again long after (another pull, a hover): its parse asked already.
    clock = 60_000;
    await pulling.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
    expect(timers.pending).toHaveLength(0);
  });

  it('does not collect after opening a small file', async () => {
    const collect = vi.fn();
    const timers = handTimers();
    const { open } = await serve(collect, timers);
    await open('file:///work/small/svc.yaml', 'svc_version: 2\ndefault_agent: a\nagents:\n  a: {}\n');
    // The validation is done and asked for nothing: no timer to wait for.
    expect(timers.pending).toHaveLength(0);
    expect(collect).not.toHaveBeenCalled();
  });
});
