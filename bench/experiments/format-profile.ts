/**
 * Where the formatter's time goes on the benchmark's input (bench/format-bench.ts: the generated
 * manifest re-indented to four spaces, trailing spaces added), in process, warm, interleaved in
 * one run: one parse, `formatManifest` (its result checked with the shortcuts), and the same
 * formatting with every result re-parsed and compared in full (`reparse`, the check as it was
 * before the shortcuts). Reads the validator's sources, so run it with the `source` condition:
 *   npx tsx --conditions=source bench/experiments/format-profile.ts [lines=10000] [yaml|toml] [runs=15]
 * Prints the medians and the per-run ratios. PROFILE_OUT=… writes a CPU profile of the runs.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { ManifestDocument } from '@svc-manifest/validator';
import { formatManifestCheckedBy, type FormatCheck } from '../../packages/validator/src/edit/format.ts';
import { messUp } from '../format-bench.ts';
import { generateManifest } from '../generate.ts';
import { stat } from '../lsp-harness.ts';
import { renderToml } from '../render-toml.ts';

const lines = Number(process.argv[2] ?? 10000);
const format = process.argv[3] === 'toml' ? 'toml' : 'yaml';
const runs = Number(process.argv[4] ?? 15);
const LIMITS = { maxBytes: 64 * 1024 * 1024 };
const manifest = generateManifest({ targetLines: lines, errorRate: 0, seed: 42 });
const text = messUp((format === 'toml' ? renderToml(manifest) : manifest).text, format);
const median = (xs: number[]) => stat(xs).median;
const timed = (run: () => unknown): number => {
  const start = performance.now();
  run();
  return performance.now() - start;
};
const formatWith = (check: FormatCheck) => formatManifestCheckedBy(check, text, { format, limits: LIMITS });

const shortcut = formatWith('shortcut');
if (shortcut.text !== formatWith('reparse').text) throw new Error('the two checks disagree');
// Warm-up.
for (let i = 0; i < 3; i++) {
  formatWith('shortcut');
  formatWith('reparse');
}
const session = new Session();
if (process.env.PROFILE_OUT) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}
const parseMs: number[] = [];
const shortcutMs: number[] = [];
const reparseMs: number[] = [];
for (let i = 0; i < runs; i++) {
  parseMs.push(timed(() => ManifestDocument.parse(text, { format, limits: LIMITS })));
  shortcutMs.push(timed(() => formatWith('shortcut')));
  if (!process.env.PROFILE_OUT) reparseMs.push(timed(() => formatWith('reparse')));
}
if (process.env.PROFILE_OUT) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
}
const ratio = (xs: number[], ys: number[]) => median(xs.map((x, i) => x / ys[i]!)).toFixed(2);
console.log(
  `${format} ${text.split('\n').length} lines (changed: ${shortcut.changed}): parse ${median(parseMs).toFixed(1)} ms; ` +
    `formatManifest ${median(shortcutMs).toFixed(1)} ms (${ratio(shortcutMs, parseMs)}× parse)` +
    (reparseMs.length
      ? `; re-parse check ${median(reparseMs).toFixed(1)} ms (${ratio(reparseMs, parseMs)}× parse, ${ratio(shortcutMs, reparseMs)}× of it)`
      : ''),
);
