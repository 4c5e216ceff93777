/**
 * The `svc-manifest-lsp` command: picks the transport from the command line (`--stdio`,
 * `--node-ipc`, `--socket=<port>`, `--pipe=<name>`) and starts the server on it.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server.js';
import { nodeWorkspaceFiles, nodeWorkspaceManifests, nodeWorkspacePolicy } from './workspace-files.js';

export function runLanguageServer(args: readonly string[]): void {
  if (args.includes('--version')) {
    process.stdout.write('svc-manifest-lsp 0.1.0\n');
    process.exit(0);
  }
  if (
    args.includes('--help') ||
    !args.some(
      (arg) => arg === '--stdio' || arg === '--node-ipc' || arg.startsWith('--socket') || arg.startsWith('--pipe'),
    )
  ) {
    process.stderr.write('usage: svc-manifest-lsp --stdio | --node-ipc | --socket=<port>\n');
    process.exit(args.includes('--help') ? 0 : 2);
  }

  // createConnection reads the transport from process.argv.
  const connection = createConnection(ProposedFeatures.all);
  // The server never dies of one bad input: log and keep serving.
  process.on('uncaughtException', (error) => connection.console.error(`uncaught: ${error.stack ?? error.message}`));
  process.on('unhandledRejection', (reason) => connection.console.error(`unhandled rejection: ${String(reason)}`));
  // Path checks read the files beside a manifest on disk, and its policy file; a browser build passes neither.
  startServer(connection, {
    files: nodeWorkspaceFiles,
    manifests: nodeWorkspaceManifests,
    policy: nodeWorkspacePolicy,
  });
  connection.listen();
}
