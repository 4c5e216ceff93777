/**
 * Typing a new entry, one character per edit, into the middle of the 50k-line benchmark file, in
 * process as the server holds and passes the text: a `- slug: …` item in YAML's triggers list, a
 * `[[triggers]]` table in TOML. Three rounds of typing it and deleting it again; the last round
 * is timed (update + diagnostics per keystroke).
 *
 *   npx tsx bench/experiments/typing-new-entry.ts [yaml|toml]
 */
import { computeDiagnostics, createState, PieceText, updateState } from '@svc-manifest/lsp';
import { generateManifest } from '../generate.ts';
import { offsetAt } from '../lsp-harness.ts';
import { renderToml } from '../render-toml.ts';
const format = process.argv[2] ?? 'toml';
const m = generateManifest({ targetLines: 50000, errorRate: 0, seed: 42 });
const r = format === 'toml' ? renderToml(m) : m;
let state = createState(`file:///tmp/x/svc.${format}`, 1, r.text, { maxFileSizeBytes: 64 << 20 });
computeDiagnostics(state);
let text = PieceText.from(r.text);
const marker = format === 'toml' ? '\n[[triggers]]' : '\n  - slug: ';
const at = r.text.indexOf(marker, offsetAt(r.text, r.spots.edit)) + 1;
const typed = format === 'toml' ? '[[triggers]]\nslug = "new-one"\n' : '  - slug: new-one\n    type: cron\n';
let v = 2;
const times: number[] = [];
for (let round = 0; round < 3; round++) {
  for (let i = 0; i < typed.length; i++) {
    const t0 = performance.now();
    text = text.edit(at + i, at + i, typed[i]!);
    state = updateState(state, v++, text, [{ start: at + i, end: at + i, newLength: 1 }]);
    computeDiagnostics(state);
    if (round === 2) times.push(performance.now() - t0);
  }
  for (let i = typed.length - 1; i >= 0; i--) {
    text = text.edit(at + i, at + i + 1, '');
    state = updateState(state, v++, text, [{ start: at + i, end: at + i + 1, newLength: 0 }]);
    computeDiagnostics(state);
  }
}
const sorted = [...times].sort((a, b) => a - b);
console.log(
  format,
  'typing a new entry:',
  'median',
  sorted[sorted.length >> 1]!.toFixed(1),
  'max',
  sorted[sorted.length - 1]!.toFixed(1),
  'ms; over 20 ms:',
  times.filter((t) => t > 20).length,
  'of',
  times.length,
);
