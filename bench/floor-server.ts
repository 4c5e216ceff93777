/**
 * The benchmark's floor (bench/servers.ts, floorSpec): a language server that validates nothing.
 * It keeps each file in the LSP library's `TextDocuments` and, for every version, publishes the
 * diagnostics in the JSON file `--publishes=<file>` names (none: an empty list). `--reads-text`
 * also reads the text once per edit, as any server that checks something must.
 */
import { readFileSync } from 'node:fs';
import {
  createConnection,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type Diagnostic,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

const publishes = process.argv.find((arg) => arg.startsWith('--publishes='))?.slice('--publishes='.length);
const published = publishes ? (JSON.parse(readFileSync(publishes, 'utf8')) as Diagnostic[]) : [];
const readsText = process.argv.includes('--reads-text');
const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
connection.onInitialize(() => ({
  capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental, completionProvider: {}, hoverProvider: true },
}));
connection.onCompletion(() => []);
connection.onHover(() => null);
let sink = 0;
documents.onDidChangeContent(({ document }) => {
  if (readsText) sink += document.getText().charCodeAt(document.getText().length >> 1);
  void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics: published });
});
process.on('exit', () => void sink);
documents.listen(connection);
connection.listen();
