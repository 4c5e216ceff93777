/**
 * The built server (dist/svc-manifest-lsp.cjs and the bundle it runs), bundled first when it is missing or older than
 * the sources, and an LSP client talking to it over stdio.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';

export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_BIN = join(PACKAGE_ROOT, 'dist', 'svc-manifest-lsp.cjs');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Bundles the server unless dist/ already holds a bundle newer than every source file. */
export function ensureBuiltServer(): string {
  const sources = Math.max(
    newestSource(join(PACKAGE_ROOT, 'src')),
    newestSource(join(PACKAGE_ROOT, '..', 'validator', 'src')),
    newestSource(join(PACKAGE_ROOT, '..', 'schema', 'src')),
  );
  if (!existsSync(SERVER_BIN) || statSync(SERVER_BIN).mtimeMs < sources) {
    execFileSync(process.execPath, [join(PACKAGE_ROOT, 'scripts', 'bundle.mjs')], { stdio: 'inherit' });
  }
  return SERVER_BIN;
}

export interface StdioClient {
  connection: ProtocolConnection;
  process: ChildProcess;
  /** Notifications the server sent, by method. */
  notifications: { method: string; params: any }[];
  /** Registrations the server asked for (`client/registerCapability`), in order. */
  registrations: { id: string; method: string; registerOptions?: any }[];
  /** How many times the server asked the client to pull diagnostics again (`workspace/diagnostic/refresh`). */
  refreshes: () => number;
  stderr: () => string;
  /**
   * Resolves with `predicate`'s value once it holds: checked now and after every notification
   * the server sends (and every registration or refresh it asks for). Rejects after `timeoutMs`, a guard against a server that never answers.
   */
  until<T>(predicate: () => T | undefined | false, what: string, timeoutMs?: number): Promise<T>;
  /** The server's answer to `initialize` (its capabilities). */
  initializeResult: { capabilities: Record<string, unknown> };
  close(): Promise<void>;
}

/**
 * Starts the built server with `--stdio` and initializes it. `settings` answers workspace/configuration: a value, or a
 * function called for each item asked (with its `scopeUri`, when the server names one).
 */
export async function startStdioClient(
  settings: unknown | ((item: { scopeUri?: string; section?: string }) => unknown) = null,
  bin = ensureBuiltServer(),
  /** Client capabilities beyond the usual ones (merged per section: `textDocument`, `workspace`). */
  extraCapabilities: { textDocument?: Record<string, unknown>; workspace?: Record<string, unknown> } = {},
  /** More initialize params (say, `workspaceFolders`). */
  initialize: Record<string, unknown> = {},
): Promise<StdioClient> {
  const child = spawn(process.execPath, [bin, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const notifications: StdioClient['notifications'] = [];
  /** The checks of pending `until`s, run after each notification. */
  const waiting = new Set<() => void>();
  // Every notification (the star handler of vscode-jsonrpc, not in the protocol typings).
  (
    connection as unknown as { onNotification(handler: (method: string, params: unknown) => void): void }
  ).onNotification((method, params) => {
    notifications.push({ method, params });
    for (const check of [...waiting]) check();
  });
  connection.onRequest('workspace/configuration', (params: { items: { scopeUri?: string; section?: string }[] }) =>
    params.items.map((item) =>
      typeof settings === 'function' ? (settings as (item: { scopeUri?: string }) => unknown)(item) : settings,
    ),
  );
  const registrations: StdioClient['registrations'] = [];
  connection.onRequest('client/registerCapability', (params: { registrations: StdioClient['registrations'] }) => {
    registrations.push(...params.registrations);
    for (const check of [...waiting]) check();
    return null;
  });
  let refreshes = 0;
  connection.onRequest('workspace/diagnostic/refresh', () => {
    refreshes += 1;
    for (const check of [...waiting]) check();
    return null;
  });
  connection.listen();
  const initializeResult: StdioClient['initializeResult'] = await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: {
      workspace: {
        configuration: true,
        didChangeConfiguration: { dynamicRegistration: true },
        ...extraCapabilities.workspace,
      },
      textDocument: {
        publishDiagnostics: { versionSupport: true },
        completion: { completionItem: { snippetSupport: true } },
        ...extraCapabilities.textDocument,
      },
    },
    ...initialize,
  });
  await connection.sendNotification('initialized', {});
  return {
    connection,
    process: child,
    notifications,
    registrations,
    refreshes: () => refreshes,
    stderr: () => stderr,
    until<T>(predicate: () => T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const settle = () => {
          clearTimeout(guard);
          waiting.delete(check);
        };
        const check = () => {
          const value = predicate();
          if (!value) return;
          settle();
          resolve(value);
        };
        const guard = setTimeout(() => {
          settle();
          reject(new Error(`timed out waiting for ${what}`));
        }, timeoutMs);
        waiting.add(check);
        check();
      });
    },
    initializeResult,
    async close() {
      try {
        await Promise.race([connection.sendRequest('shutdown'), new Promise((resolve) => setTimeout(resolve, 2000))]);
        await connection.sendNotification('exit');
      } catch {
        // Already gone.
      }
      connection.dispose();
      if (child.exitCode === null) child.kill();
    },
  };
}

/** The diagnostics of `uri`'s latest publication, once the server has published at least `count` for it. */
export function publication<D>(client: StdioClient, uri: string, count: number): Promise<D[]> {
  return client.until(() => {
    const all = client.notifications.filter(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri,
    );
    return all.length >= count && (all[all.length - 1]!.params.diagnostics as D[]);
  }, `publication ${count} for ${uri}`);
}
