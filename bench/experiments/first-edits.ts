/**
 * The first keystrokes after opening a file against later ones: our server and the floor
 * (bench/servers.ts) through the benchmark's client, 40 edits per spawn. The benchmark times edits
 * 2 to 8 after the open at 50k lines (bench/run.ts, `reps`); this prints their median beside that
 * of edits 12 to 40.
 *
 *   npx tsx bench/experiments/first-edits.ts [lines=50000] [toml|yaml] [spawns=2]
 */
import { generateManifest } from '../generate.ts';
import { runOnce } from '../lsp-harness.ts';
import { renderToml } from '../render-toml.ts';
import { floorSpec, ourSpec, WORK, writeOurPublication } from '../servers.ts';

const lines = Number(process.argv[2] ?? 50000);
const format = process.argv[3] === 'yaml' ? 'yaml' : 'toml';
const spawns = Number(process.argv[4] ?? 2);
const generated = generateManifest({ targetLines: lines, errorRate: 0.01, seed: 42 });
const manifest = format === 'toml' ? renderToml(generated) : generated;
const specs = [await floorSpec({ published: writeOurPublication(manifest).file }), ourSpec()];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const early = new Map<string, number[]>();
const late = new Map<string, number[]>();
for (let s = 0; s < spawns; s++) {
  for (const spec of specs) {
    const sample = await runOnce(spec, manifest, { inner: 20, workDir: `${WORK}/first-edits`, timeoutMs: 120_000 });
    // editToDiagnosticsMs leaves out the first edit: index 0 is edit 2.
    early.set(spec.name, [...(early.get(spec.name) ?? []), ...sample.editToDiagnosticsMs.slice(0, 7)]);
    late.set(spec.name, [...(late.get(spec.name) ?? []), ...sample.editToDiagnosticsMs.slice(10)]);
  }
}
for (const [name, times] of early) {
  console.log(
    `${format} ${lines} ${name}: edits 2-8 median ${median(times).toFixed(2)} ms; edits 12-40 median ${median(late.get(name)!).toFixed(2)} ms`,
  );
}
