/** "Did you mean" support: the closest candidate by edit distance, when it is close enough to be a typo. */

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  // Optimal string alignment: insertions, deletions, substitutions and swaps of neighbours each cost 1.
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1]!;
}

/** The candidate most like `input` (case and `-`/`_` differences count little), or undefined if none is close. */
export function closestMatch(input: string, candidates: Iterable<string>): string | undefined {
  const normalized = normalize(input);
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  const inputLength = input.length;
  for (const candidate of candidates) {
    if (candidate === input) continue;
    // No close match is more than 3 edits away, so neither is a much shorter or longer name.
    if (Math.abs(candidate.length - inputLength) > 3 && normalize(candidate) !== normalized) continue;
    const score =
      normalize(candidate) === normalized ? 0.5 : editDistance(input.toLowerCase(), candidate.toLowerCase());
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  if (best === undefined) return undefined;
  const allowed = Math.max(1, Math.min(3, Math.floor(Math.max(input.length, best.length) / 4)));
  return bestScore <= allowed ? best : undefined;
}

/** ` (did you mean 'x'?)` for the candidate close to `input` (as {@link closestMatch} finds it), or '' when none is. */
export function didYouMeanNote(input: string, candidates: Iterable<string>): string {
  const match = closestMatch(input, candidates);
  return match === undefined ? '' : ` (did you mean '${match}'?)`;
}

/** What a name's spelling may vary in without being another name: hyphens, underscores, white space. */
const SEPARATORS = /[-_\s]/g;

function normalize(name: string): string {
  return name.toLowerCase().replace(SEPARATORS, '');
}

/** `'a', 'b' or 'c'` */
export function listAlternatives(values: readonly unknown[], conjunction = 'or'): string {
  const quoted = values.map((value) => (typeof value === 'string' ? `'${value}'` : String(value)));
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} ${conjunction} ${quoted[quoted.length - 1]}`;
}
