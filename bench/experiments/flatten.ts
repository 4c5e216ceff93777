/**
 * Why an edit to a text held as one JavaScript string costs more the larger the file: after
 * `text.slice(0, at) + 'x' + text.slice(at)` V8 holds a pair of pieces, and the first read copies
 * them into one new flat string. For the benchmark's files (1k, 10k and 50k lines, in YAML), this
 * times that edit and read against three others, each with the minor page faults it took:
 *   - a plain copy of as many bytes into a buffer allocated once;
 *   - a new string made from a byte copy of the text edited in place (Node makes a large Latin-1
 *     string outside V8's heap);
 *   - reading the one changed line from pieces kept apart (what a text held in pieces would pay).
 * Each figure is the median of `rounds` edits at the benchmark's spot.
 *
 *   npx tsx bench/experiments/flatten.ts [sizes=1000,10000,50000] [rounds=40]
 */
import { generateManifest } from '../generate.ts';
import { offsetAt, stat } from '../lsp-harness.ts';

const sizes = (process.argv[2] ?? '1000,10000,50000').split(',').map(Number);
const rounds = Number(process.argv[3] ?? 40);

/**
 * `step(round)` run `rounds` times: the median time of one, and the minor page faults (new memory
 * touched for the first time) per round. A step answers a character code or byte it read from what
 * it made, so that none of its work can be skipped.
 */
function measure(step: (round: number) => number): string {
  const times: number[] = [];
  let faults = 0;
  for (let round = 0; round < rounds; round++) {
    const before = process.resourceUsage().minorPageFault;
    const t = performance.now();
    const read = step(round);
    times.push(performance.now() - t);
    faults += process.resourceUsage().minorPageFault - before;
    if (!(read >= 0)) throw new Error(`a step read ${read}, not a character code or byte`);
  }
  return `${stat(times).median.toFixed(4)} ms, ${(faults / rounds).toFixed(0)} page faults`;
}

/** Inserts `x` at `at` in even rounds and removes it in odd ones, as the benchmark's edits do. */
const inserts = (round: number): boolean => round % 2 === 0;

for (const lines of sizes) {
  const manifest = generateManifest({ targetLines: lines, errorRate: 0, seed: 42 });
  const at = offsetAt(manifest.text, manifest.spots.edit);
  // The byte copies below hold one byte per character.
  if (/[^\x00-\xff]/.test(manifest.text)) throw new Error(`${manifest.name}: the generated text is not Latin-1`);
  // Flat to begin with, as a text the server has already read.
  let text = manifest.text;
  text.charCodeAt(0);

  const flatten = measure((round) => {
    text = inserts(round) ? text.slice(0, at) + 'x' + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
    return text.charCodeAt(at - 1); // the first read: V8 copies the pieces into one new string
  });

  const from = Buffer.from(text, 'latin1');
  const into = Buffer.alloc(from.length + 1);
  const copy = measure((round) => {
    from.copy(into, round % 2);
    return into[at]!;
  });

  const mirror = Buffer.alloc(from.length + 1);
  let length = mirror.write(text, 'latin1');
  const fromMirror = measure((round) => {
    if (inserts(round)) {
      mirror.copyWithin(at + 1, at, length);
      mirror[at] = 0x78;
      length += 1;
    } else {
      mirror.copyWithin(at, at + 1, length);
      length -= 1;
    }
    return mirror.toString('latin1', 0, length).charCodeAt(at - 1);
  });

  const before = text.slice(0, at);
  const after = text.slice(at);
  const pieces = measure((round) => {
    const line =
      before.slice(before.lastIndexOf('\n') + 1) + (inserts(round) ? 'x' : '') + after.slice(0, after.indexOf('\n'));
    return line.charCodeAt(line.length >> 1);
  });

  console.log(`${manifest.name} (${manifest.bytes} bytes)`);
  console.log(`  edit, then the first read (flatten)     ${flatten}`);
  console.log(`  copy into a buffer already held         ${copy}`);
  console.log(`  string from an edited byte copy         ${fromMirror}`);
  console.log(`  read the changed line from pieces       ${pieces}`);
}
