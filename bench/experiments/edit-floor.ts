/**
 * What an edit costs a Node language server that validates nothing: the harness's edit →
 * diagnostics (bench/lsp-harness.ts, the same client, files and edits as `npm run bench`) on
 * minimal vscode-languageserver servers that keep each file in the library's `TextDocuments` (one
 * string per file; ours holds PieceTexts) and publish an empty list for every version, against
 * ours, at 1k and 50k lines.
 * One floor only keeps the text; the other also reads it once per edit (a server that checks
 * anything must: V8 then copies the edited text into one flat string), which is the least a
 * server that holds the file as one JavaScript string pays.
 *
 *   npx tsx bench/experiments/edit-floor.ts [sizes=1000,50000] [rounds=3]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { generateManifest } from '../generate.ts';
import { runOnce, stat, type ServerSpec } from '../lsp-harness.ts';
import { renderToml } from '../render-toml.ts';
import { ourSpec, WORK } from '../servers.ts';

const sizes = (process.argv[2] ?? '1000,50000').split(',').map(Number);
const rounds = Number(process.argv[3] ?? 3);
const dir = join(WORK, 'exp');
mkdirSync(dir, { recursive: true });

async function floorServer(name: string, readsText: boolean): Promise<ServerSpec> {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(
    entry,
    `import { createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
connection.onInitialize(() => ({ capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental, completionProvider: {}, hoverProvider: true } }));
connection.onCompletion(() => []);
connection.onHover(() => null);
let sink = 0;
documents.onDidChangeContent(({ document }) => {
  ${readsText ? 'sink += document.getText().charCodeAt(document.getText().length >> 1);' : ''}
  void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics: [] });
});
process.on('exit', () => void sink);
documents.listen(connection);
connection.listen();
`,
  );
  const outfile = join(dir, `${name}.cjs`);
  await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', minify: true, logLevel: 'warning' });
  return { name, command: process.execPath, args: [outfile, '--stdio'], crossReferences: false, configuration: () => null };
}

const servers = [await floorServer('floor-keeps-text', false), await floorServer('floor-reads-text', true), ourSpec()];
const rows: string[] = [];
for (const lines of sizes) {
  const yaml = generateManifest({ targetLines: lines, errorRate: 0, seed: 42 });
  for (const manifest of [yaml, renderToml(yaml)]) {
    for (const spec of servers) {
      const edits: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const sample = await runOnce(spec, manifest, { spawns: 1, inner: 10, workDir: '/tmp/svc-manifest-bench' });
        edits.push(...sample.editToDiagnosticsMs);
      }
      const s = stat(edits);
      rows.push(
        `${manifest.name.padEnd(10)} ${spec.name.padEnd(18)} edit → diagnostics ${s.median.toFixed(2).padStart(6)} ms (${s.min.toFixed(1)}–${s.max.toFixed(1)}, n=${s.n})`,
      );
      console.log(rows[rows.length - 1]);
    }
  }
}
