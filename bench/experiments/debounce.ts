/**
 * How much of our edit → diagnostics is packages/lsp's diagnostics debounce: builds our
 * server from its sources with `startServer(connection, { debounceMs })` taken from the
 * environment (an entry file in .bench-work/, same esbuild settings as the shipped bundle)
 * and drives it with the harness at 15 ms (the shipped default) and 0 ms.
 *
 *   npx tsx bench/experiments/debounce.ts [lines=1000,10000] [errors=0|1]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateManifest } from '../generate.ts';
import { runOnce, stat } from '../lsp-harness.ts';
import { bundleServerCopy, ourSpec, ROOT, WORK } from '../servers.ts';

const sizes = (process.argv[2] ?? '1000,10000').split(',').map(Number);
const errorRate = process.argv[3] === '1' ? 0.01 : 0;
const dir = join(WORK, 'exp');
mkdirSync(dir, { recursive: true });
const entry = join(dir, 'main-debounce.ts');
writeFileSync(
  entry,
  `import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from ${JSON.stringify(join(ROOT, 'packages', 'lsp', 'src', 'server.ts'))};
const connection = createConnection(ProposedFeatures.all);
startServer(connection, { debounceMs: Number(process.env.SVC_BENCH_DEBOUNCE ?? 15) });
connection.listen();
`,
);
const outfile = join(dir, 'lsp-debounce.cjs');
await bundleServerCopy(entry, outfile, { minify: true });
for (const size of sizes) {
  const manifest = generateManifest({ targetLines: size, errorRate, seed: 42 });
  for (const debounce of ['15', '0']) {
    process.env.SVC_BENCH_DEBOUNCE = debounce;
    const spec = { ...ourSpec(), name: `ours-debounce-${debounce}`, args: [outfile, '--stdio'] };
    const samples: number[] = [];
    for (let i = 0; i < 2; i++)
      samples.push(
        ...(await runOnce(spec, manifest, { inner: 5, workDir: '/tmp/svc-manifest-bench' })).editToDiagnosticsMs,
      );
    const s = stat(samples);
    console.log(
      `${manifest.name}: debounce ${debounce.padStart(2)} ms → edit→diagnostics median ${s.median.toFixed(1)} ms (${s.min.toFixed(1)}–${s.max.toFixed(1)}, n=${s.n})`,
    );
  }
}
