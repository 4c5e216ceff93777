/**
 * What start-up (spawn → initialize result) can be on node at all: a minimal
 * vscode-languageserver server that only answers `initialize` (bundled with esbuild into
 * .bench-work/), against ours and YLS (patched), interleaved round-robin.
 *
 *   npx tsx bench/experiments/startup.ts [rounds=10]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { stat } from '../lsp-harness.ts';
import { OUR_SERVER, ourSpec, WORK, ylsSpec } from '../servers.ts';

const rounds = Number(process.argv[2] ?? 10);
const dir = join(WORK, 'exp');
mkdirSync(dir, { recursive: true });
const entry = join(dir, 'minimal-server.ts');
writeFileSync(
  entry,
  `import { createConnection, ProposedFeatures, TextDocumentSyncKind } from 'vscode-languageserver/node';
const connection = createConnection(ProposedFeatures.all);
connection.onInitialize(() => ({ capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental } }));
connection.listen();
`,
);
const minimal = join(dir, 'minimal-server.mjs');
await build({
  entryPoints: [entry],
  outfile: minimal,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  banner: { js: "import { createRequire as __c } from 'node:module'; const require = __c(import.meta.url);" },
  logLevel: 'warning',
});

async function startup(command: string, args: string[]): Promise<number> {
  const t = performance.now();
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  connection.listen();
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
  const ms = performance.now() - t;
  child.kill();
  connection.dispose();
  return ms;
}

const yls = ylsSpec('patched');
const ours = ourSpec();
const entries: [string, string, string[]][] = [
  ['node -e 0 (spawn → exit)', process.execPath, ['-e', '0']],
  [
    `minimal vscode-languageserver server (${Math.round(statSync(minimal).size / 1024)} KiB bundle)`,
    process.execPath,
    [minimal, '--stdio'],
  ],
  [`ours (${Math.round(statSync(OUR_SERVER).size / 1024)} KiB bundle)`, ours.command, ours.args],
  ['yaml-language-server (patched copy)', yls.command, yls.args],
];
const times = entries.map(() => [] as number[]);
for (let r = 0; r < rounds + 1; r++) {
  for (let i = 0; i < entries.length; i++) {
    const [, command, args] = entries[i]!;
    let ms: number;
    if (i === 0) {
      const t = performance.now();
      await new Promise((resolve) => spawn(command, args).on('exit', resolve));
      ms = performance.now() - t;
    } else ms = await startup(command, args);
    if (r > 0) times[i]!.push(ms);
  }
}
entries.forEach(([name], i) => {
  const s = stat(times[i]!);
  console.log(`${s.median.toFixed(1).padStart(7)} ms (${s.min.toFixed(0)}–${s.max.toFixed(0)})  ${name}`);
});
