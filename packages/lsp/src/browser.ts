/**
 * The language server in a Web Worker: the same server (server.ts, every feature) over
 * `vscode-languageserver/browser`'s message reader and writer on the worker's own port (or a
 * MessagePort), for the
 * site's playground and the VS Code extension's web entry. Nothing here is a second server:
 * only the transport and the two things a worker lacks differ from the Node entry (command.ts).
 */
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from 'vscode-languageserver/browser';
import { startServer, type ServerOptions } from './server.js';

/** The scope a dedicated worker runs in, as far as the connection needs it. */
interface WorkerScope {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

/**
 * The server schedules work with `setImmediate` (run after the messages already queued, see
 * quiet.ts), which browsers lack. A message to ourselves on a MessageChannel runs after the tasks
 * already queued and without a timer's clamping, which is what the server relies on.
 */
function installSetImmediate(): void {
  const scope = globalThis as { setImmediate?: unknown; clearImmediate?: unknown };
  if (typeof scope.setImmediate === 'function') return;
  const pending = new Map<number, () => void>();
  let next = 0;
  // Typed by hand: this package compiles against Node's types, whose MessagePort is not the DOM's.
  const channel = new MessageChannel() as unknown as {
    port1: { onmessage: ((event: { data: number }) => void) | null };
    port2: { postMessage(id: number): void };
  };
  channel.port1.onmessage = (event) => {
    const callback = pending.get(event.data);
    pending.delete(event.data);
    callback?.();
  };
  scope.setImmediate = (callback: () => void): number => {
    const id = ++next;
    pending.set(id, callback);
    channel.port2.postMessage(id);
    return id;
  };
  scope.clearImmediate = (id: number): void => {
    pending.delete(id);
  };
}

/**
 * Starts the server on `scope`: the worker's global scope by default, or one end of a
 * MessageChannel when the server shares a thread with its client (the VS Code extension's web
 * entry where the extension host refuses a worker; a port delivers messages as the scope does).
 * A worker has no full garbage collection to run when idle, so that is off.
 */
export function startWorkerServer(
  scope: WorkerScope = globalThis as unknown as WorkerScope,
  options: ServerOptions = {},
): void {
  installSetImmediate();
  const connection = createConnection(
    new BrowserMessageReader(scope as never),
    new BrowserMessageWriter(scope as never),
  );
  startServer(connection, { collectGarbage: null, ...options });
  connection.listen();
}
