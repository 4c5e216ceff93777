/**
 * Lists made from an earlier list by replacing a run in the middle, and what they share with it.
 *
 * After an edit, a collection's items (nodes, values, declarations) are a new list whose items are
 * the earlier list's, but for the ones the edit reached. Whoever reuses work per item (kept rule
 * results, kept schema results, kept declarations) needs how many items at each end are the same
 * objects. Comparing the two lists finds it, but that costs a step per item, on every edit, and in
 * the first edits after an open those steps run in V8's interpreter. The code that splices a list
 * knows the answer: it returns it as a {@link KeptEnds} value, which travels with the list. A
 * sequence node carries its items' as `kept`; a spliced plain array (a value's array, a
 * declarations list, the anchors of kept rule results) carries its own, made by
 * {@link withKept} and read by {@link keptOf}. Neither is enumerable, so a value an update made
 * still compares and serialises as a fresh parse's. The readers ({@link commonEnds},
 * {@link endsKeptFrom}, {@link mapSpliced}) take the kept ends as an argument from what they were
 * handed, and compare when there are none or they are about another list.
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

/** The property a spliced array carries its kept ends under: not enumerable, so invisible to comparisons and JSON. */
const KEPT = Symbol('kept ends');

/**
 * `list`, now carrying `kept` (how it was spliced from `kept.from`). Only for an array the caller
 * has just made. The list spliced from drops its own kept ends: they are for reading it against
 * the list before it, which a newer list has replaced, and through them each list would keep every
 * earlier one alive (a chain as long as the edits; without it, a reader of the older list
 * compares, as with none).
 */
export function withKept<L extends readonly unknown[]>(list: L, kept: KeptEnds): L {
  Object.defineProperty(list, KEPT, { value: kept, writable: true });
  const from = kept.from as { [KEPT]?: KeptEnds };
  if (from[KEPT] !== undefined) from[KEPT] = undefined;
  return list;
}

/** The kept ends a spliced array carries ({@link withKept}), if any. */
export function keptOf(list: readonly unknown[]): KeptEnds | undefined {
  return (list as { readonly [KEPT]?: KeptEnds })[KEPT];
}

/**
 * The ends `list` shares with `old` by `kept` (what `list`, or the structure holding it, carries);
 * undefined when there are none or they are not about `old`.
 */
export function endsKeptFrom(
  list: readonly unknown[],
  old: readonly unknown[],
  kept?: KeptEnds,
): { prefix: number; suffix: number } | undefined {
  if (!kept || kept.from !== old || kept.prefix + kept.suffix > Math.min(list.length, old.length)) return undefined;
  return { prefix: kept.prefix, suffix: kept.suffix };
}

/**
 * How many items at the start and at the end of `list` are `old`'s same items (the two counts
 * never overlap): from `kept`, the kept ends `list` (or the structure holding it) carries, else by
 * comparing. Kept ends give counts the comparison may exceed (an item replaced by itself); they
 * are never larger, so what they keep is kept rightly, and what is between is looked at again.
 */
export function commonEnds(
  list: readonly unknown[],
  old: readonly unknown[],
  kept?: KeptEnds,
): { prefix: number; suffix: number } {
  const carried = endsKeptFrom(list, old, kept);
  if (carried) return carried;
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
 * (`mappedOld`): only the items between the kept ends (`kept`, what `list` or its holder carries)
 * are mapped. The result carries its own kept ends, about `mappedOld` ({@link withKept}).
 */
export function mapSpliced<T, U>(
  list: readonly T[],
  map: (item: T) => U,
  mappedOf: (old: readonly T[]) => readonly U[] | undefined,
  kept?: KeptEnds,
): U[] {
  const mappedOld = kept ? mappedOf(kept.from as readonly T[]) : undefined;
  if (!kept || !mappedOld || mappedOld.length !== kept.from.length) return list.map(map);
  const n = list.length;
  const m = mappedOld.length;
  const middle: U[] = [];
  for (let i = kept.prefix; i < n - kept.suffix; i++) middle.push(map(list[i]!));
  return withKept(
    withRunReplaced(mappedOld, kept.prefix, m - kept.suffix, middle),
    keptEnds(mappedOld, kept.prefix, kept.suffix),
  );
}

/**
 * Appends every item of `items` to `into`, in order. The per-diagnostic paths of an edit run it
 * hundreds of times per keystroke, the first ones before V8 optimises them: an indexed loop costs
 * no iterator there, and no arguments list as large as `items` (as `push(...items)` would).
 */
export function appendAll<T>(into: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) into.push(items[i]!);
}
