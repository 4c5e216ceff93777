/**
 * Lists made from an earlier list by replacing a run in the middle, and what they share with it.
 *
 * After an edit, a collection's items (nodes, values, declarations) are a new list whose items are
 * the earlier list's, but for the ones the edit reached. Whoever reuses work per item (kept rule
 * results, kept schema results, kept declarations) needs how many items at each end are the same
 * objects. Comparing the two lists finds it, but that costs a step per item, on every edit, and in
 * the first edits after an open those steps run in V8's interpreter. The code that splices a list
 * knows the answer: it returns it as a {@link KeptEnds} value, which the structure that holds the
 * list carries (a sequence node's `kept`), and {@link commonEnds} reads it instead of comparing.
 * Lists derived from those (array values, declarations, anchors) are still noted in a WeakMap here:
 * they are plain arrays handed to code that has no node to read a value from.
 */

/**
 * How a list was made from `from`: its first `prefix` and last `suffix` items are `from`'s, the
 * same objects. Made by the code that splices the list, never changed after.
 */
export interface KeptEnds {
  readonly from: readonly unknown[];
  readonly prefix: number;
  readonly suffix: number;
}

/** The kept ends of a list spliced from `from`, as one immutable value. */
export function keptEnds(from: readonly unknown[], prefix: number, suffix: number): KeptEnds {
  return Object.freeze({ from, prefix, suffix });
}

const notes = new WeakMap<readonly unknown[], KeptEnds>();

/** Records that `list` holds `from`'s first `prefix` and last `suffix` items (the same objects), with other items between. */
export function noteSplice(list: readonly unknown[], from: readonly unknown[], prefix: number, suffix: number): void {
  notes.set(list, { from, prefix, suffix });
}

/**
 * The ends `list` shares with `old` by `kept` (what the structure holding `list` carries), else
 * by the note of the splice that made it from `old`; undefined when neither is about `old`.
 */
export function notedEnds(
  list: readonly unknown[],
  old: readonly unknown[],
  kept?: KeptEnds,
): { prefix: number; suffix: number } | undefined {
  const note = kept ?? notes.get(list);
  if (!note || note.from !== old || note.prefix + note.suffix > Math.min(list.length, old.length)) return undefined;
  return { prefix: note.prefix, suffix: note.suffix };
}

/**
 * How many items at the start and at the end of `list` are `old`'s same items (the two counts
 * never overlap): from the note of the splice that made `list` from `old`, else by comparing.
 * A note gives counts the comparison may exceed (an item replaced by itself); they are never
 * larger, so what they keep is kept rightly, and what is between is looked at again.
 */
export function commonEnds(
  list: readonly unknown[],
  old: readonly unknown[],
  kept?: KeptEnds,
): { prefix: number; suffix: number } {
  const noted = notedEnds(list, old, kept);
  if (noted) return noted;
  const n = list.length;
  const m = old.length;
  let prefix = 0;
  let suffix = 0;
  while (prefix < n && prefix < m && list[prefix] === old[prefix]) prefix++;
  while (suffix < n - prefix && suffix < m - prefix && list[n - 1 - suffix] === old[m - 1 - suffix]) suffix++;
  return { prefix, suffix };
}

/**
 * `old` with its items from `from` to `to` replaced by `middle`, as one new array. An edit splices
 * lists of thousands of items (blocks, their trees, item results) on every keystroke;
 * `old.slice(0, from).concat(middle, old.slice(to))` makes three such arrays to keep one, and the
 * garbage makes the young-generation collections come sooner.
 */
export function withRunReplaced<T>(old: readonly T[], from: number, to: number, middle: readonly T[]): T[] {
  const count = middle.length;
  if (count === to - from) {
    const out = old.slice();
    for (let i = 0; i < count; i++) out[from + i] = middle[i]!;
    return out;
  }
  const out = old.slice(0, from);
  for (let i = 0; i < count; i++) out.push(middle[i]!);
  for (let i = to; i < old.length; i++) out.push(old[i]!);
  return out;
}

/**
 * `list.map(map)`, made from the mapped form of the list it was spliced from when there is one
 * (`mappedOld`): only the items between the kept ends (`kept`, else the list's note) are mapped.
 * The result is noted as spliced from `mappedOld` in the same way.
 */
export function mapSpliced<T, U>(
  list: readonly T[],
  map: (item: T) => U,
  mappedOf: (old: readonly T[]) => readonly U[] | undefined,
  kept?: KeptEnds,
): U[] {
  const note = kept ?? notes.get(list);
  const mappedOld = note ? mappedOf(note.from as readonly T[]) : undefined;
  if (!note || !mappedOld || mappedOld.length !== note.from.length) return list.map(map);
  const n = list.length;
  const m = mappedOld.length;
  const middle: U[] = [];
  for (let i = note.prefix; i < n - note.suffix; i++) middle.push(map(list[i]!));
  const mapped = withRunReplaced(mappedOld, note.prefix, m - note.suffix, middle);
  noteSplice(mapped, mappedOld, note.prefix, note.suffix);
  return mapped;
}

/**
 * Appends every item of `items` to `into`, in order. The per-diagnostic paths of an edit run it
 * hundreds of times per keystroke, the first ones before V8 optimises them: an indexed loop costs
 * no iterator there, and no arguments list as large as `items` (as `push(...items)` would).
 */
export function appendAll<T>(into: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) into.push(items[i]!);
}
