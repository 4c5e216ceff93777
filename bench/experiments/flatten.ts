/**
 * Why an edit to a text held as one JavaScript string costs more the larger the file: after
 * `text.slice(0, at) + 'x' + text.slice(at)` V8 holds a pair of pieces, and the first read copies
 * them into one new flat string. This times that copy for the benchmark's files (1k, 10k and 50k
 * lines, in YAML), against a plain copy of as many bytes into a buffer allocated once, against a
 * new string made from a byte copy of the text edited in place (Node makes a large Latin-1
 * string outside V8's heap), and against reading the one changed line from pieces kept apart
 * (what a text held in pieces would pay). Each figure is the median of `rounds` edits at the
 * benchmark's spot.
 *
 *   npx tsx bench/experiments/flatten.ts [sizes=1000,10000,50000] [rounds=40]
 */
import { generateManifest } from '../generate.ts';
import { offsetAt, stat } from '../lsp-harness.ts';

const sizes = (process.argv[2] ?? '1000,10000,50000').split(',').map(Number);
const rounds = Number(process.argv[3] ?? 40);

const median = (values: number[]): number => stat(values).median;

for (const lines of sizes) {
  const manifest = generateManifest({ targetLines: lines, errorRate: 0, seed: 42 });
  const at = offsetAt(manifest.text, manifest.spots.edit);
  let text = manifest.text;
  // Flat to begin with, as a text the server has already read.
  let sink = text.charCodeAt(text.length >> 1);

  const flatten: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const edited = i % 2 === 0 ? text.slice(0, at) + 'x' + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
    const t = performance.now();
    sink += edited.charCodeAt(at - 1); // the first read: V8 copies the pieces into one string
    flatten.push(performance.now() - t);
    text = edited;
  }

  // The same number of bytes copied into memory that is already the process's (no new pages).
  const from = Buffer.from(text, 'latin1');
  const into = Buffer.alloc(from.length + 1);
  const copy: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    from.copy(into, i % 2);
    copy.push(performance.now() - t);
    sink += into[at]!;
  }

  // A byte copy of the text, edited in place, and a new string made from it at each edit.
  const mirror = Buffer.alloc(from.length + 16);
  let length = mirror.write(text, 'latin1');
  const fromMirror: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    if (i % 2 === 0) {
      mirror.copyWithin(at + 1, at, length);
      mirror[at] = 0x78;
      length += 1;
    } else {
      mirror.copyWithin(at, at + 1, length);
      length -= 1;
    }
    const made = mirror.toString('latin1', 0, length);
    sink += made.charCodeAt(at - 1);
    fromMirror.push(performance.now() - t);
  }

  // A text kept in pieces: the line around the edit is read from the pieces, nothing else is copied.
  const before = text.slice(0, at);
  const after = text.slice(at);
  sink += before.charCodeAt(0) + after.charCodeAt(0);
  const pieces: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const inserted = i % 2 === 0 ? 'x' : '';
    const t = performance.now();
    const lineStart = before.lastIndexOf('\n') + 1;
    const lineEnd = after.indexOf('\n');
    const line = before.slice(lineStart) + inserted + after.slice(0, lineEnd);
    sink += line.charCodeAt(line.length >> 1);
    pieces.push(performance.now() - t);
  }

  console.log(
    `${manifest.name.padEnd(4)} ${String(manifest.bytes).padStart(8)} bytes: flatten ${median(flatten).toFixed(3)} ms, ` +
      `copy into a kept buffer ${median(copy).toFixed(3)} ms, string from an edited byte copy ${median(fromMirror).toFixed(3)} ms, read the line from pieces ${median(pieces).toFixed(4)} ms`,
  );
  if (sink === -1) console.log('');
}
