/**
 * The svc manifest extension: starts the bundled language server
 * (`dist/server.js`, built from packages/lsp) over node-ipc for svc.yaml,
 * svc.yml, svc.toml and the user's extra patterns.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  State,
  TransportKind,
  type CloseHandlerResult,
  type ErrorHandlerResult,
  type LanguageClientOptions,
  type Middleware,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { keepDiagnostic, REDHAT_YAML_EXTENSION_ID } from './coexistence';
import { documentSelector, normalizeExtraPatterns, type PatternFilter } from './files';
import { RestartPolicy } from './restart-policy';
import { asSafeConversion, registerPalette } from './palette';

const CLIENT_ID = 'svc';
const CLIENT_NAME = 'svc manifest language server';

let controller: Controller | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  controller = new Controller(context);
  context.subscriptions.push(controller);
  await controller.startIfNeeded();
}

export async function deactivate(): Promise<void> {
  await controller?.stop();
  controller = undefined;
}

class Controller implements vscode.Disposable {
  private readonly output: vscode.LogOutputChannel;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly restarts = new RestartPolicy();
  private client: LanguageClient | undefined;
  private selector: PatternFilter[] = documentSelector([]);
  /** Serialises start/stop/restart so commands and setting changes never race. */
  private queue: Promise<unknown> = Promise.resolve();
  private stopping = false;
  /** A restart for new file patterns is queued; the old client stays quiet until then. */
  private restartPending = false;
  /** Clients whose server death was already counted. */
  private readonly downClients = new WeakSet<LanguageClient>();

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('svc manifest', { log: true });
    this.selector = documentSelector(readExtraPatterns());
    this.disposables.push(
      this.output,
      vscode.commands.registerCommand('svc.restartServer', () => this.restart(true)),
      vscode.commands.registerCommand('svc.showOutput', () => this.output.show(true)),
      ...registerPalette((doc) => this.matches(doc)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('svc.files.extraPatterns')) {
          const next = documentSelector(readExtraPatterns());
          if (JSON.stringify(next) !== JSON.stringify(this.selector)) {
            this.selector = next;
            this.log(`file patterns changed: ${next.map((f) => f.pattern).join(', ')}`);
            if (this.client) {
              // The running client is about to be replaced: it must not also
              // send this change (see the didChangeConfiguration middleware).
              this.restartPending = true;
              void this.restart(false);
            } else void this.startIfNeeded();
          }
        }
      }),
      // The extension activates for YAML, TOML and plain-text documents in
      // general; the server process is only started once a manifest is open.
      vscode.workspace.onDidOpenTextDocument((doc) => {
        if (!this.client && this.matches(doc)) void this.startIfNeeded();
      }),
    );
  }

  private log(message: string): void {
    this.output.info(`[client] ${message}`);
  }

  private matches(doc: vscode.TextDocument): boolean {
    return vscode.languages.match(this.selector, doc) > 0;
  }

  private serialise<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Start the server if a manifest is open or the workspace has one. */
  startIfNeeded(): Promise<void> {
    return this.serialise(async () => {
      if (this.client) return;
      const open = vscode.workspace.textDocuments.some((d) => this.matches(d));
      const inWorkspace = !open && (await this.workspaceHasManifest());
      if (open || inWorkspace) await this.startClient();
    });
  }

  private async workspaceHasManifest(): Promise<boolean> {
    if (!vscode.workspace.workspaceFolders?.length) return false;
    const patterns = this.selector.map((f) => f.pattern);
    const glob = patterns.length === 1 ? patterns[0]! : `{${patterns.join(',')}}`;
    try {
      const found = await vscode.workspace.findFiles(glob, '**/node_modules/**', 1);
      return found.length > 0;
    } catch {
      return false;
    }
  }

  private async startClient(): Promise<void> {
    const serverModule = this.context.asAbsolutePath(path.join('dist', 'server.js'));
    const serverOptions: ServerOptions = {
      run: { module: serverModule, transport: TransportKind.ipc },
      debug: {
        module: serverModule,
        transport: TransportKind.ipc,
        options: { execArgv: ['--nolazy', '--inspect=6019'] },
      },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: this.selector,
      outputChannel: this.output,
      // Settings are pulled by the server (workspace/configuration, section
      // `svc`); it registers for didChangeConfiguration itself, so no
      // `synchronize.configurationSection` here (that would notify it twice).
      diagnosticCollectionName: 'svc',
      // Crashes are handled here, not by the client's own restart: it gives
      // up silently when the server dies again while starting.
      errorHandler: {
        error: (error, _message, count): ErrorHandlerResult => {
          this.log(`connection error: ${errorText(error)}`);
          if ((count ?? 0) <= 3) return { action: ErrorAction.Continue, handled: true };
          // A few transport errors in a row mean the connection is gone. The
          // client shuts it down and, being stopped on purpose, would not
          // report the close: count it as a crash here.
          if (!this.stopping && this.client === client) this.serverDown(client, 'connection failed');
          return { action: ErrorAction.Shutdown, handled: true };
        },
        closed: (): CloseHandlerResult => {
          if (this.stopping || this.client !== client) return { action: CloseAction.DoNotRestart, handled: true };
          this.serverDown(client, 'exited unexpectedly');
          return { action: CloseAction.DoNotRestart, message: 'The svc language server stopped.', handled: true };
        },
      },
      middleware: {
        workspace: {
          // A client that is being replaced (new file patterns) or stopped
          // would fail to send the notification; its successor reads the
          // settings at start anyway.
          didChangeConfiguration: (sections, next) =>
            this.restartPending || this.stopping || this.client !== client ? Promise.resolve() : next(sections),
        },
        ...WITHOUT_REDHAT_SHARE,
        // "Convert to svc.yaml" from the Refactor menu runs the palette's conversion (written and read back before the TOML file goes).
        provideCodeActions: async (document, range, context, token, next) =>
          (await next(document, range, context, token))?.map((action) => asSafeConversion(document, action)),
        provideDocumentFormattingEdits: (document, options, token, next) =>
          next(document, formattingOptions(document, options), token),
        provideDocumentRangeFormattingEdits: (document, range, options, token, next) =>
          next(document, range, formattingOptions(document, options), token),
      },
    };
    const client: LanguageClient = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) this.log('server running');
    });
    this.client = client;
    this.restartPending = false;
    this.log(`starting ${serverModule} for ${this.selector.map((f) => f.pattern).join(', ')}`);
    try {
      await client.start();
    } catch (err) {
      if (!this.stopping) this.serverDown(client, `failed to start (${errorText(err)})`);
    }
  }

  /**
   * The server of `client` died or could not start: restart it (a new client)
   * unless it has done so too often lately. Counted once per client, though
   * both the close handler and a failed start may report it.
   */
  private serverDown(client: LanguageClient, reason: string): void {
    if (this.downClients.has(client) || this.client !== client) return;
    this.downClients.add(client);
    const decision = this.restarts.onCrash();
    const minutes = this.restarts.windowMs / 60_000;
    if (decision.restart) {
      this.log(
        `server ${reason}; restarting (${decision.crashesInWindow} of ${this.restarts.maxRestarts} restarts allowed in ${minutes} minutes)`,
      );
      // After the client has finished handling the close.
      setTimeout(() => void this.replace(client), 0);
      return;
    }
    const message = `svc: the language server stopped ${decision.crashesInWindow} times in ${minutes} minutes and will not be restarted. Run "svc: Restart language server" to try again.`;
    this.log(`server ${reason}; giving up`);
    void vscode.window.showErrorMessage(message, 'Show output', 'Restart').then((choice) => {
      if (choice === 'Show output') this.output.show(true);
      if (choice === 'Restart') void this.restart(true);
    });
  }

  /** Start a new client in place of `old`, unless something else replaced it meanwhile. */
  private replace(old: LanguageClient): Promise<void> {
    return this.serialise(async () => {
      if (this.client !== old) return;
      await this.stopClient();
      await this.startClient();
    });
  }

  /** Restart the server; `manual` (the command) also forgets earlier crashes. */
  restart(manual: boolean): Promise<void> {
    return this.serialise(async () => {
      if (manual) {
        this.restarts.reset();
        this.log('restart requested');
      }
      await this.stopClient();
      await this.startClient();
    });
  }

  stop(): Promise<void> {
    return this.serialise(() => this.stopClient());
  }

  private async stopClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    this.stopping = true;
    try {
      if (client.state !== State.Stopped) await client.stop(5_000);
    } catch (err) {
      this.log(`error while stopping the server: ${errorText(err)}`);
    } finally {
      this.stopping = false;
    }
    try {
      await client.dispose();
    } catch {
      // already stopped
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/**
 * Middleware for every way diagnostics reach the editor (pushed, pulled, and the workspace's):
 * Red Hat YAML's share is dropped (coexistence.ts). The per-folder switches
 * (`svc.<name>.enable`) are the server's: it asks for each document's settings.
 */
const WITHOUT_REDHAT_SHARE: Pick<
  Middleware,
  'handleDiagnostics' | 'provideDiagnostics' | 'provideWorkspaceDiagnostics'
> = {
  handleDiagnostics: (uri, diagnostics, next) => {
    const redhat = redhatValidatesYaml(uri);
    next(
      uri,
      diagnostics.filter((d) => keepDiagnostic(uri.path, d.code, redhat)),
    );
  },
  // The same for diagnostics the client pulls (LSP 3.17), which do not pass handleDiagnostics.
  provideDiagnostics: async (document, previousResultId, token, next) => {
    const uri = document instanceof vscode.Uri ? document : document.uri;
    const report = await next(document, previousResultId, token);
    // A full report has items; an unchanged one keeps what was filtered before.
    if (!report || !('items' in report)) return report;
    const redhat = redhatValidatesYaml(uri);
    return {
      ...report,
      items: report.items.filter((d) => keepDiagnostic(uri.path, d.code, redhat)),
    };
  },
  // And for the workspace's manifests (workspace/diagnostic), per file, in partial results too.
  provideWorkspaceDiagnostics: async (resultIds, token, resultReporter, next) => {
    const filtered = <T extends { uri: vscode.Uri }>(items: T[]): T[] =>
      items.map((item) => {
        if (!('items' in item)) return item;
        const redhat = redhatValidatesYaml(item.uri);
        const kept = (item.items as vscode.Diagnostic[]).filter((d) => keepDiagnostic(item.uri.path, d.code, redhat));
        return { ...item, items: kept };
      });
    const report = await next(resultIds, token, (chunk) =>
      resultReporter(chunk ? { items: filtered(chunk.items) } : chunk),
    );
    return report ? { items: filtered(report.items) } : report;
  },
};

/**
 * The indentation the formatter is asked for. With `editor.detectIndentation` (VS Code's default)
 * the editor's tab size is whatever the file already has, so formatting would keep a file's odd
 * indentation: the configured `editor.tabSize` for the document's language is the policy then
 * (2 for YAML by VS Code's defaults). Without detection the editor's own options are the policy
 * (an EditorConfig extension sets them).
 */
function formattingOptions(document: vscode.TextDocument, options: vscode.FormattingOptions): vscode.FormattingOptions {
  const editor = vscode.workspace.getConfiguration('editor', document);
  if (!editor.get<boolean>('detectIndentation', true)) return options;
  return {
    ...options,
    tabSize: editor.get<number>('tabSize', 2),
    insertSpaces: editor.get<boolean>('insertSpaces', true),
  };
}

function readExtraPatterns(): string[] {
  return normalizeExtraPatterns(vscode.workspace.getConfiguration('svc').get('files.extraPatterns'));
}

/** Red Hat's YAML extension is installed, enabled and validating this file. */
function redhatValidatesYaml(uri: vscode.Uri): boolean {
  if (!vscode.extensions.getExtension(REDHAT_YAML_EXTENSION_ID)) return false;
  return vscode.workspace.getConfiguration('yaml', uri).get<boolean>('validate', true) !== false;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
