/**
 * A language server of another project (yaml-language-server, Taplo) driven over stdio (or an IPC
 * channel) the way an editor drives it: `initialize` with the settings it pulls through
 * `workspace/configuration`, documents opened by `didOpen`, and completion, hover and published
 * diagnostics read back. Every other server→client request is answered null. Waits are bounded;
 * nothing asserts on timing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  CompletionRequest,
  createProtocolConnection,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  IPCMessageReader,
  IPCMessageWriter,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type CompletionItem,
  type CompletionList,
  type Diagnostic,
  type Hover,
  type Position,
  type ProtocolConnection,
  type ServerCapabilities,
} from 'vscode-languageserver-protocol/node';

/** Upper bound for one answer or publication; generous for a slow, shared machine. */
const WAIT_MS = 30_000;

/** redhat's yaml-language-server from node_modules (what vscode-yaml runs), over stdio: spread into a spec. */
export const YAML_LANGUAGE_SERVER = {
  name: 'yaml-language-server',
  command: process.execPath,
  args: [
    fileURLToPath(new URL('../../node_modules/yaml-language-server/bin/yaml-language-server', import.meta.url)),
    '--stdio',
  ],
};

export interface EditorServerSpec {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  rootUri: string;
  /** The value for one `workspace/configuration` item, by section (null when unknown). */
  settings(section: string | undefined): unknown;
  initializationOptions?: unknown;
  /** JSON-RPC over an IPC channel (vscode-languageclient's TransportKind.ipc) instead of stdin/stdout. */
  ipc?: boolean;
  /** Whether a publication ends the validation of a document (Taplo publishes once per stage). */
  published?(diagnostics: Diagnostic[], count: number): boolean;
}

export class EditorServer {
  private readonly publications = new Map<string, Diagnostic[][]>();
  private readonly waiters = new Set<() => void>();
  private stderrText = '';
  private versions = 0;
  /** What the server answered to `initialize`. */
  capabilities: ServerCapabilities = {};

  private constructor(
    readonly spec: EditorServerSpec,
    private readonly process: ChildProcess,
    private readonly connection: ProtocolConnection,
  ) {}

  static async start(spec: EditorServerSpec): Promise<EditorServer> {
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      stdio: spec.ipc ? ['pipe', 'pipe', 'pipe', 'ipc'] : 'pipe',
    });
    const connection = spec.ipc
      ? createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child))
      : createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const server = new EditorServer(spec, child, connection);
    child.stderr!.on('data', (chunk: Buffer) => (server.stderrText += chunk.toString()));
    if (process.env.DEBUG_EDITOR_SERVER) child.stderr!.pipe(process.stderr);
    connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) =>
      params.items.map((item) => spec.settings(item.section)),
    );
    // Catch-all handlers: the JSON-RPC connection takes them; ProtocolConnection's types do not list them.
    const anyMethod = connection as unknown as {
      onRequest(handler: (method: string) => null): void;
      onNotification(handler: (method: string) => undefined): void;
    };
    anyMethod.onRequest(() => null);
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      const list = server.publications.get(params.uri) ?? [];
      list.push(params.diagnostics);
      server.publications.set(params.uri, list);
      for (const waiter of [...server.waiters]) waiter();
    });
    anyMethod.onNotification(() => undefined);
    connection.listen();
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) =>
        reject(new Error(`${spec.name} exited (${code}) during start-up:\n${server.stderrText}`)),
      ),
    );
    const initialize = connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: spec.rootUri,
      workspaceFolders: [{ uri: spec.rootUri, name: 'project' }],
      initializationOptions: spec.initializationOptions,
      capabilities: {
        workspace: {
          configuration: true,
          workspaceFolders: true,
          didChangeConfiguration: { dynamicRegistration: true },
        },
        textDocument: {
          publishDiagnostics: { relatedInformation: true },
          completion: {
            completionItem: {
              snippetSupport: true,
              documentationFormat: ['markdown', 'plaintext'],
              deprecatedSupport: true,
              tagSupport: { valueSet: [1] },
            },
          },
          hover: { contentFormat: ['markdown', 'plaintext'] },
        },
      },
    });
    server.capabilities = (await Promise.race([initialize, exited])).capabilities;
    await connection.sendNotification(InitializedNotification.type, {});
    return server;
  }

  /** Opens `text` under `uri`; the server associates the schema by the URI's file name. */
  async open(uri: string, text: string, languageId: string): Promise<void> {
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version: ++this.versions, text },
    });
  }

  async completion(uri: string, position: Position): Promise<CompletionItem[]> {
    const result: CompletionList | CompletionItem[] | null = await this.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position,
    });
    if (!result) return [];
    return Array.isArray(result) ? result : result.items;
  }

  async hover(uri: string, position: Position): Promise<Hover | null> {
    return (await this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position })) ?? null;
  }

  /** What the server wrote to stderr so far (for failure messages). */
  get stderr(): string {
    return this.stderrText;
  }

  /**
   * The diagnostics of the validation that ends the server's publications for `uri` (or the newest
   * after the wait): the first newest publication `accept` takes (by default the spec's `published`).
   */
  diagnostics(uri: string, accept?: (diagnostics: Diagnostic[], count: number) => boolean): Promise<Diagnostic[]> {
    const done = accept ?? this.spec.published?.bind(this.spec) ?? (() => true);
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const list = this.publications.get(uri);
        if (list?.length && done(list[list.length - 1]!, list.length)) finish(list[list.length - 1]!);
      };
      const finish = (value: Diagnostic[]): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        const list = this.publications.get(uri);
        if (list?.length) resolve(list[list.length - 1]!);
        else reject(new Error(`${this.spec.name} published no diagnostics for ${uri}:\n${this.stderrText}`));
      }, WAIT_MS);
      this.waiters.add(check);
      check();
    });
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 5_000))]);
      await this.connection.sendNotification(ExitNotification.type);
    } catch {
      // the server may already be gone
    }
    this.connection.dispose();
    if (this.process.exitCode === null) this.process.kill();
  }
}

/** The text without its cursor marker (`‸`; `|` is YAML's block scalar), and the marker's position. */
export function atMarker(marked: string, marker = '‸'): { text: string; position: Position } {
  const offset = marked.indexOf(marker);
  if (offset < 0 || marked.indexOf(marker, offset + 1) >= 0)
    throw new Error(`expected exactly one ${marker} in:\n${marked}`);
  const before = marked.slice(0, offset);
  const line = before.split('\n').length - 1;
  return {
    text: before + marked.slice(offset + marker.length),
    position: { line, character: offset - (before.lastIndexOf('\n') + 1) },
  };
}
