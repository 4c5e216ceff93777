/**
 * One server-side edit loop, in-process, with the text held and the change ranges passed as the
 * server holds and passes them (a PieceText; STRING=1 passes plain strings instead),
 * at the spot the benchmark edits (bench/generate.ts); ERROR_RATE=0.01 injects the benchmark's mistakes:
 *   npx tsx bench/experiments/edit-loop.ts [lines=50000] [yaml|toml] [edits=40]
 * PROFILE_OUT=… writes a CPU profile of the loop (from edit PROFILE_FROM on, 0 by default).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { computeDiagnostics, createState, PieceText, updateState } from '@svc-manifest/lsp';
import type { TextSource } from '@svc-manifest/validator';
import { generateManifest } from '../generate.ts';
import { offsetAt } from '../lsp-harness.ts';
import { renderToml } from '../render-toml.ts';

const lines = Number(process.argv[2] ?? 50000);
const format = process.argv[3] === 'toml' ? 'toml' : 'yaml';
const edits = Number(process.argv[4] ?? 40);
const manifest = generateManifest({ targetLines: lines, errorRate: Number(process.env.ERROR_RATE ?? 0), seed: 42 });
const rendered = format === 'toml' ? renderToml(manifest) : manifest;
const text0 = rendered.text;
const uri = `file:///tmp/edit-loop/svc.${format}`;
let state = createState(uri, 1, text0, { maxFileSizeBytes: 64 * 1024 * 1024 });
computeDiagnostics(state);
// Edit where the benchmark edits: inside a trigger's prompt in the middle of the triggers.
const at = offsetAt(text0, rendered.spots.edit);
const session = new Session();
// PROFILE_FROM=1 leaves the first edit out of the profile (after an open it may do more than the next ones).
const profileFrom = Number(process.env.PROFILE_FROM ?? 0);
const times: number[] = [];
let text: TextSource = process.env.STRING ? text0 : PieceText.from(text0);
for (let i = 0; i < edits; i++) {
  if (process.env.PROFILE_OUT && i === profileFrom) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 50 });
    await session.post('Profiler.start');
  }
  const insert = i % 2 === 0;
  const t0 = performance.now();
  if (text instanceof PieceText) text = insert ? text.edit(at, at, 'x') : text.edit(at, at + 1, '');
  else text = insert ? text.slice(0, at) + 'x' + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
  state = updateState(state, i + 2, text, [
    insert ? { start: at, end: at, newLength: 1 } : { start: at, end: at + 1, newLength: 0 },
  ]);
  computeDiagnostics(state);
  times.push(performance.now() - t0);
}
if (process.env.PROFILE_OUT) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
}
// The benchmark measures edits 2 to 12 after an open (code still warming up), so those are shown apart.
const early = times.slice(1, 12).sort((a, b) => a - b);
times.sort((a, b) => a - b);
console.log(
  `${format} ${lines}${text instanceof PieceText ? ` (pieces${text.isMaterialized ? ', made whole' : ''})` : ' (string)'}: median ${times[Math.floor(times.length / 2)]!.toFixed(2)} ms, min ${times[0]!.toFixed(2)}; edits 2-12 median ${early[Math.floor(early.length / 2)]?.toFixed(2)} ms`,
);
