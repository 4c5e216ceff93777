/**
 * The extension on vscode.dev and github.dev (package.json `browser`), and in code-server when it
 * runs web extensions: the same language server as the desktop extension, the lsp package's
 * `startWorkerServer` (dist/web/server.js), reached through vscode-languageclient's browser
 * client. Files are selected by the same patterns as on the desktop (files.ts), in any URI scheme:
 * a virtual workspace's files are not `file:` URIs, and the server reads only what the editor
 * sends it. The palette commands, the status bar and the Refactor menu's safe "Convert to
 * svc.yaml" are the desktop's (palette.ts). The desktop's restart policy is left out: a server
 * that dies takes nothing with it and the client's own restart applies.
 *
 * Where the server runs: in a Web Worker of its own when the extension host lets us create one
 * (vscode.dev, github.dev: validation never holds up the extension host), else in the extension
 * host's own thread. VS Code's web worker extension host refuses `new Worker` for an extension
 * installed on the remote (a `vscode-remote:` address, where code-server installs every
 * extension): "Creating workers from remote extensions is currently not supported".
 */
import * as vscode from 'vscode';
import {
  BrowserMessageReader,
  BrowserMessageWriter,
  LanguageClient,
  type LanguageClientOptions,
  type MessageTransports,
} from 'vscode-languageclient/browser';
import { keepDiagnostic, REDHAT_YAML_EXTENSION_ID } from './coexistence';
import { documentSelector, normalizeExtraPatterns } from './files';
import { asSafeConversion, registerPalette } from './palette';

let client: LanguageClient | undefined;

/**
 * The browser globals the transports need (the Node types this package compiles against do not
 * declare the DOM's): a worker, and a channel whose ports both ends of the connection use as a
 * worker's message port.
 */
interface MessagePortLike {
  postMessage(message: unknown): void;
  addEventListener(type: string, listener: (event: unknown) => void): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  close(): void;
}
interface WorkerLike {
  postMessage(message: unknown): void;
  addEventListener(type: string, listener: (event: unknown) => void): void;
  terminate(): void;
}
declare const Worker: new (url: string, options?: { name?: string }) => WorkerLike;
declare const MessageChannel: new () => { port1: MessagePortLike; port2: MessagePortLike };

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('svc manifest', { log: true });
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('svc.showOutput', () => output.show(true)),
  );
  const extraPatterns = normalizeExtraPatterns(vscode.workspace.getConfiguration('svc').get('files.extraPatterns'));
  const selector = documentSelector(extraPatterns).map(({ pattern }) => ({ pattern }));
  context.subscriptions.push(...registerPalette((document) => vscode.languages.match(selector, document) > 0));
  const clientOptions: LanguageClientOptions = {
    documentSelector: selector,
    diagnosticCollectionName: 'svc',
    outputChannel: output,
    middleware: {
      handleDiagnostics: (uri, diagnostics, next) => {
        const redhat =
          !!vscode.extensions.getExtension(REDHAT_YAML_EXTENSION_ID) &&
          vscode.workspace.getConfiguration('yaml', uri).get<boolean>('validate', true) !== false;
        next(
          uri,
          diagnostics.filter((d) => keepDiagnostic(uri.path, d.code, redhat)),
        );
      },
      // As on the desktop: "Convert to svc.yaml" from the Refactor menu runs the palette's conversion.
      provideCodeActions: async (document, range, context, token, next) =>
        (await next(document, range, context, token))?.map((action) => asSafeConversion(document, action)),
    },
  };
  const serverUri = vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'server.js');
  let stopServer = (): void => undefined;
  // A function, so that the client asks again on its own restart after the server died.
  const serverOptions = async (): Promise<MessageTransports> => {
    stopServer();
    const started = startInWorker(serverUri, output) ?? (await startInThread(serverUri, output));
    stopServer = started.stop;
    return started.transports;
  };
  client = new LanguageClient('svc', 'svc manifest language server', serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => void client?.stop() }, { dispose: () => stopServer() });
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

interface StartedServer {
  transports: MessageTransports;
  stop: () => void;
}

/** The server in a Web Worker of its own, or undefined when the extension host refuses one. */
function startInWorker(serverUri: vscode.Uri, output: vscode.LogOutputChannel): StartedServer | undefined {
  let worker: WorkerLike;
  try {
    worker = new Worker(serverUri.toString(true), { name: 'svc-manifest-lsp' });
  } catch (error) {
    output.info(
      `[client] no Web Worker for the language server (${error instanceof Error ? error.message : String(error)})`,
    );
    return undefined;
  }
  output.info('[client] language server started in a Web Worker');
  return {
    transports: { reader: new BrowserMessageReader(worker), writer: new BrowserMessageWriter(worker) },
    stop: () => worker.terminate(),
  };
}

/**
 * The same server script evaluated in the extension host's thread, serving one end of a
 * MessageChannel while the client uses the other. The script is a classic worker script that
 * starts on its worker's own scope unless `svcManifestServerPort` names a port (see
 * scripts/bundle.mjs); evaluated here, that name is the function's parameter, so the server never
 * touches the extension host's own messages. The extension host evaluates extensions' code the
 * same way (fetch, then `new Function`), and its `fetch` reads the extension's own files wherever
 * they are installed.
 */
async function startInThread(serverUri: vscode.Uri, output: vscode.LogOutputChannel): Promise<StartedServer> {
  const response = await fetch(serverUri.toString(true));
  if (!response.ok)
    throw new Error(`could not load the language server (${serverUri.toString(true)}): HTTP ${response.status}`);
  const source = `${await response.text()}\n//# sourceURL=${serverUri.toString(true)}`;
  const channel = new MessageChannel();
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the extension host loads extension code this way; see above
  new Function('svcManifestServerPort', source)(channel.port2);
  output.info("[client] language server started in the extension host's thread");
  return {
    transports: { reader: new BrowserMessageReader(channel.port1), writer: new BrowserMessageWriter(channel.port1) },
    stop: () => {
      channel.port1.close();
      channel.port2.close();
    },
  };
}
