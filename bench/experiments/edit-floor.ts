/**
 * What an edit costs a Node language server that validates nothing (bench/servers.ts, floorSpec):
 * the harness's edit → diagnostics (bench/lsp-harness.ts, the same client, files and edits as
 * `npm run bench`) on the floor servers, which publish an empty list for every version, against
 * ours, at 1k and 50k lines. One floor only keeps the text; the other also reads it once per edit,
 * which is the least a server that holds the file as one JavaScript string pays.
 * ERROR_RATE=0.01 injects the benchmark's mistakes; the floor is then a server that validates
 * nothing but publishes, for every version, the list ours publishes for the file (the harness
 * checks that the mistakes are reported): what the protocol alone costs when each publication
 * carries hundreds of diagnostics.
 *
 *   [ERROR_RATE=0.01] npx tsx bench/experiments/edit-floor.ts [sizes=1000,50000] [rounds=3]
 */
import { generateManifest } from '../generate.ts';
import { runOnce, stat } from '../lsp-harness.ts';
import { renderToml } from '../render-toml.ts';
import { floorSpec, ourSpec, writeOurPublication } from '../servers.ts';

const sizes = (process.argv[2] ?? '1000,50000').split(',').map(Number);
const rounds = Number(process.argv[3] ?? 3);
const errorRate = Number(process.env.ERROR_RATE ?? 0);

const floors =
  errorRate > 0
    ? []
    : [await floorSpec({ name: 'floor-keeps-text' }), await floorSpec({ name: 'floor-reads-text', readsText: true })];
const rows: string[] = [];
for (const lines of sizes) {
  const yaml = generateManifest({ targetLines: lines, errorRate, seed: 42 });
  for (const manifest of [yaml, renderToml(yaml)]) {
    // With mistakes injected the harness checks that each is reported, which a floor publishing nothing does not.
    const published = errorRate > 0 ? writeOurPublication(manifest) : undefined;
    const servers = published
      ? [await floorSpec({ name: `floor-publishes-${published.count}`, published: published.file }), ourSpec()]
      : [...floors, ourSpec()];
    for (const spec of servers) {
      const edits: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const sample = await runOnce(spec, manifest, { inner: 10, workDir: '/tmp/svc-manifest-bench' });
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
