/**
 * The extension on vscode.dev and github.dev (package.json `browser`): the same language server
 * as the desktop extension, the lsp package's `startWorkerServer`, running in a Web Worker
 * (dist/web/server.js) and reached through vscode-languageclient's browser client. Files are
 * selected by the same patterns as on the desktop (files.ts), in any URI scheme: a virtual
 * workspace's files are not `file:` URIs, and the server reads only what the editor sends it.
 * The desktop's restart policy and commands are left out: a worker that dies takes nothing with it
 * and the client's own restart applies.
 */
import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/browser';
import { keepDiagnostic, REDHAT_YAML_EXTENSION_ID } from './coexistence';
import { documentSelector, normalizeExtraPatterns } from './files';

let client: LanguageClient | undefined;

/** The worker constructor of the web extension host (a browser global the Node types do not declare). */
declare const Worker: new (url: string, options?: { name?: string }) => ServerOptions;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const extraPatterns = normalizeExtraPatterns(vscode.workspace.getConfiguration('svc').get('files.extraPatterns'));
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(extraPatterns).map(({ pattern }) => ({ pattern })),
    diagnosticCollectionName: 'svc',
    middleware: {
      handleDiagnostics: (uri, diagnostics, next) => {
        const redhat =
          !!vscode.extensions.getExtension(REDHAT_YAML_EXTENSION_ID) && vscode.workspace.getConfiguration('yaml', uri).get<boolean>('validate', true) !== false;
        next(
          uri,
          diagnostics.filter((d) => keepDiagnostic(uri.path, d.code, redhat)),
        );
      },
    },
  };
  const serverUrl = vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'server.js').toString(true);
  client = new LanguageClient('svc', 'svc manifest language server', new Worker(serverUrl, { name: 'svc-manifest-lsp' }), clientOptions);
  context.subscriptions.push({ dispose: () => void client?.stop() });
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
