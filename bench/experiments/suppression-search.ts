/**
 * What does the suppression search cost a keystroke (issue #32)? The edit loop of edit-loop.ts
 * (update, diagnostics, in process, the text held in pieces), its edits interleaved between two
 * modes in one run: `carried`, the state's SuppressionSearch carried over the edit (what the
 * server does), and `whole`, a fresh search of the edited document's whole text (what every
 * validation did before). Edits go A B B A …, so each mode gets as many inserts as deletes.
 *   npx tsx bench/experiments/suppression-search.ts [lines=50000] [yaml|toml] [edits=400]
 */
import { computeDiagnostics, createState, PieceText, updateState, type DocumentState } from '@svc-manifest/lsp';
import { SuppressionSearch } from '@svc-manifest/validator/library';
import { generateManifest } from '../generate.ts';
import { offsetAt } from '../lsp-harness.ts';
import { renderToml } from '../render-toml.ts';

const lines = Number(process.argv[2] ?? 50000);
const format = process.argv[3] === 'toml' ? 'toml' : 'yaml';
const edits = Number(process.argv[4] ?? 400);
const manifest = generateManifest({ targetLines: lines, errorRate: Number(process.env.ERROR_RATE ?? 0), seed: 42 });
const rendered = format === 'toml' ? renderToml(manifest) : manifest;
const text0 = rendered.text;
let state: DocumentState = createState(`file:///tmp/edit-loop/svc.${format}`, 1, text0, {
  maxFileSizeBytes: 64 * 1024 * 1024,
});
computeDiagnostics(state);
const at = offsetAt(text0, rendered.spots.edit);
const times = { carried: [] as number[], whole: [] as number[] };
let text = PieceText.from(text0);
for (let i = 0; i < edits; i++) {
  const mode = i % 4 === 0 || i % 4 === 3 ? 'carried' : 'whole';
  const insert = i % 2 === 0;
  const t0 = performance.now();
  text = insert ? text.edit(at, at, 'x') : text.edit(at, at + 1, '');
  state = updateState(state, i + 2, text, [
    insert ? { start: at, end: at, newLength: 1 } : { start: at, end: at + 1, newLength: 0 },
  ]);
  if (mode === 'whole') state = { ...state, suppressions: SuppressionSearch.of(state.doc) };
  computeDiagnostics(state);
  times[mode].push(performance.now() - t0);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
// The first dozen edits after an open are still warming up: left out of both.
const settled = (xs: number[]) => xs.slice(6);
console.log(
  `${format} ${lines}: carried median ${median(settled(times.carried)).toFixed(3)} ms, whole-text search median ${median(settled(times.whole)).toFixed(3)} ms (${settled(times.carried).length} edits each)`,
);
