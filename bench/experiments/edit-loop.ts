/**
 * One server-side edit loop, in-process, with the change ranges passed as the server passes them:
 *   npx tsx bench/experiments/edit-loop.ts [lines=50000] [yaml|toml] [edits=40]
 * PROFILE_OUT=… writes a CPU profile of the loop.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { computeDiagnostics, createState, updateState } from '@svc-manifest/lsp';
import { generateManifest } from '../generate.ts';
import { renderToml } from '../render-toml.ts';

const lines = Number(process.argv[2] ?? 50000);
const format = process.argv[3] === 'toml' ? 'toml' : 'yaml';
const edits = Number(process.argv[4] ?? 40);
const manifest = generateManifest({ targetLines: lines, errorRate: 0, seed: 42 });
const rendered = format === 'toml' ? renderToml(manifest) : manifest;
const text0 = rendered.text;
const uri = `file:///tmp/edit-loop/svc.${format}`;
let state = createState(uri, 1, text0, { maxFileSizeBytes: 64 * 1024 * 1024 });
computeDiagnostics(state);
// Edit inside a line in the middle of the file.
let at = text0.indexOf('\n', Math.floor(text0.length / 2)) + 1;
at = text0.indexOf(':', at) + 2;
if (format === 'toml') at = text0.indexOf('"', text0.indexOf(' = "', Math.floor(text0.length / 2))) + 1;
const session = new Session();
if (process.env.PROFILE_OUT) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 50 });
  await session.post('Profiler.start');
}
const times: number[] = [];
let text = text0;
for (let i = 0; i < edits; i++) {
  const insert = i % 2 === 0;
  const t0 = performance.now();
  text = insert ? text.slice(0, at) + 'x' + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
  state = updateState(state, i + 2, text, [insert ? { start: at, end: at, newLength: 1 } : { start: at, end: at + 1, newLength: 0 }]);
  computeDiagnostics(state);
  times.push(performance.now() - t0);
}
if (process.env.PROFILE_OUT) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
}
times.sort((a, b) => a - b);
console.log(`${format} ${lines}: median ${times[Math.floor(times.length / 2)]!.toFixed(2)} ms, min ${times[0]!.toFixed(2)}`);
