/**
 * Lists spliced from an earlier list (document/spliced-lists.ts): what they share with it is read
 * from the kept ends the holder carries (a sequence node's `kept`) or the spliced list carries
 * itself (`keptOf`), else found by comparing; either way never more than is shared.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { declarationsOf, ManifestDocument, validateDocument, type ValueNode } from '@svc-manifest/validator';
import {
  commonEnds,
  endsKeptFrom,
  keptEnds,
  keptOf,
  mapSpliced,
  withKept,
  withRunReplaced,
  type KeptEnds,
} from '../src/document/spliced-lists.js';
import {
  largeManifest,
  largeTomlManifest,
  structuralEdit,
  tomlEdit,
  type Mutation,
} from './support/manifest-arbitraries.js';

/** The counts a comparison of references finds (the reference kept ends must never exceed). */
function compared(list: readonly unknown[], old: readonly unknown[]): { prefix: number; suffix: number } {
  let prefix = 0;
  let suffix = 0;
  while (prefix < list.length && prefix < old.length && list[prefix] === old[prefix]) prefix++;
  while (
    suffix < list.length - prefix &&
    suffix < old.length - prefix &&
    list[list.length - 1 - suffix] === old[old.length - 1 - suffix]
  )
    suffix++;
  return { prefix, suffix };
}

describe('spliced lists', () => {
  const spliced = fc
    .record({ length: fc.nat(40), from: fc.nat(40), removed: fc.nat(5), added: fc.nat(5) })
    .map(({ length, from, removed, added }) => {
      const old = Array.from({ length }, (_, i) => ({ i }));
      const at = Math.min(from, length);
      const cut = Math.min(removed, length - at);
      const list = [
        ...old.slice(0, at),
        ...Array.from({ length: added }, (_, i) => ({ added: i })),
        ...old.slice(at + cut),
      ];
      return { old, list, prefix: at, suffix: length - at - cut };
    });

  it('kept ends, held beside a list or carried by it, give their counts, which a comparison of references confirms', () => {
    fc.assert(
      fc.property(spliced, ({ old, list, prefix, suffix }) => {
        // Held beside the list (what a sequence node holds), and carried by the list itself (what derived lists do).
        expect(commonEnds(list, old, keptEnds(old, prefix, suffix))).toEqual({ prefix, suffix });
        const fresh = list.slice();
        withKept(list, keptEnds(old, prefix, suffix));
        // Not enumerable: the list still equals, and serialises as, one that carries nothing.
        expect(list).toStrictEqual(fresh);
        expect(JSON.stringify(list)).toBe(JSON.stringify(fresh));
        expect(keptOf(fresh)).toBeUndefined();
        const ends = commonEnds(list, old, keptOf(list));
        expect(ends).toEqual({ prefix, suffix });
        const reference = compared(list, old);
        expect(ends.prefix).toBeLessThanOrEqual(reference.prefix);
        expect(ends.prefix + ends.suffix).toBeLessThanOrEqual(reference.prefix + reference.suffix);
      }),
      { numRuns: 300, seed: 1717 },
    );
  });

  it('without kept ends, or with ones about another list, compares', () => {
    fc.assert(
      fc.property(spliced, ({ old, list }) => {
        expect(commonEnds(list, old)).toEqual(compared(list, old));
        const other = old.slice();
        withKept(list, keptEnds(other, 0, 0));
        expect(commonEnds(list, old, keptOf(list))).toEqual(compared(list, old));
        expect(commonEnds(list, old, keptEnds(other, 0, 0))).toEqual(compared(list, old));
      }),
      { numRuns: 200, seed: 1718 },
    );
  });

  it('maps only the middle of a list spliced from one mapped before, and the mapped list carries its kept ends too', () => {
    const old = Array.from({ length: 10 }, (_, i) => ({ i }));
    const mapped = new Map<readonly unknown[], { i?: number; added?: boolean; k: number }[]>();
    let calls = 0;
    const map = (item: { i?: number; added?: boolean }) => (calls++, { ...item, k: calls });
    const oldMapped = old.map(map);
    mapped.set(old, oldMapped);
    const list = withKept([...old.slice(0, 4), { added: true }, ...old.slice(6)], keptEnds(old, 4, 4));
    calls = 0;
    const result = mapSpliced(list, map, (from) => mapped.get(from), keptOf(list));
    expect(calls).toBe(1);
    expect(result.slice(0, 4)).toEqual(oldMapped.slice(0, 4));
    expect(result[0]).toBe(oldMapped[0]);
    expect(result[4]).toMatchObject({ added: true });
    expect(result.slice(5)).toEqual(oldMapped.slice(6));
    expect(endsKeptFrom(result, oldMapped, keptOf(result))).toEqual({ prefix: 4, suffix: 4 });
    // No mapped form of the earlier list, or no kept ends handed over: every item is mapped.
    calls = 0;
    expect(mapSpliced(list, map, () => undefined, keptOf(list))).toHaveLength(9);
    expect(calls).toBe(9);
    calls = 0;
    expect(mapSpliced(list, map, (from) => mapped.get(from))).toHaveLength(9);
    expect(calls).toBe(9);
  });

  it('a list spliced from a spliced list takes its place: the older one drops its kept ends, so no chain of lists stays alive', () => {
    const first = [{ i: 0 }, { i: 1 }, { i: 2 }];
    const second = withKept([first[0]!, { i: 10 }, first[2]!], keptEnds(first, 1, 1));
    const third = withKept([second[0]!, second[1]!, { i: 20 }], keptEnds(second, 2, 0));
    expect(keptOf(third)).toEqual(keptEnds(second, 2, 0));
    expect(keptOf(second)).toBeUndefined();
    // Read against the list before it, the older list now compares, and finds the same ends.
    expect(commonEnds(second, first, keptOf(second))).toEqual({ prefix: 1, suffix: 1 });
  });

  it('replaces a run in one new array, as slicing and concatenating would, leaving the old list alone', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(9), { maxLength: 30 }),
        fc.nat(30),
        fc.nat(6),
        fc.array(fc.nat(9), { maxLength: 6 }),
        (old, at, removed, middle) => {
          const from = Math.min(at, old.length);
          const to = Math.min(from + removed, old.length);
          const copy = old.slice();
          const made = withRunReplaced(old, from, to, middle);
          expect(made).toEqual(old.slice(0, from).concat(middle, old.slice(to)));
          expect(made).not.toBe(old);
          expect(old).toEqual(copy);
        },
      ),
    );
  });
});

/** Every sequence's items and every array value of a tree, by pointer; `kept` gets what each sequence carries. */
function listsByPointer(
  node: ValueNode | null,
  kept: Map<string, KeptEnds>,
  pointer = '',
  out = new Map<string, readonly unknown[]>(),
): Map<string, readonly unknown[]> {
  if (!node) return out;
  if (node.kind === 'seq') {
    out.set(`items ${pointer}`, node.items);
    if (node.kept) kept.set(`items ${pointer}`, node.kept);
    node.items.forEach((item, i) => listsByPointer(item, kept, `${pointer}/${i}`, out));
  } else if (node.kind === 'map') {
    for (const entry of node.entries) listsByPointer(entry.value, kept, `${pointer}/${entry.key}`, out);
  }
  return out;
}

function valueLists(
  value: unknown,
  pointer = '',
  out = new Map<string, readonly unknown[]>(),
): Map<string, readonly unknown[]> {
  if (Array.isArray(value)) {
    out.set(`value ${pointer}`, value);
    value.forEach((item, i) => valueLists(item, `${pointer}/${i}`, out));
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) valueLists(child, `${pointer}/${key}`, out);
  }
  return out;
}

/** The lists a document's readers reuse work over: its sequences' items, its array values, its declarations. */
function listsOf(document: ManifestDocument, kept: Map<string, KeptEnds>): Map<string, readonly unknown[]> {
  const lists = valueLists(document.value, '', listsByPointer(document.root, kept));
  const declarations = declarationsOf(document);
  for (const kind of ['agent', 'connector', 'template', 'trigger'] as const)
    lists.set(`declarations ${kind}`, declarations.declarations(kind));
  return lists;
}

/** How many kept ends were checked, by where they came from. */
interface Checked {
  items: number;
  value: number;
  declarations: number;
}

describe('the kept ends the document layer and the declarations index hand on', () => {
  /**
   * After real edits (update(), then a validation and the declarations index, which splice lists
   * of their own), the kept ends a list carries (a value's array, a declarations list) or its
   * sequence node carries, about the list at the same place before, are held to an independent
   * comparison of the two lists' items by reference: they never claim more.
   */
  function checkKept(start: string, format: 'yaml' | 'toml', edits: Mutation[]): Checked {
    let document = ManifestDocument.parse(start, { format });
    validateDocument(document);
    let before = listsOf(document, new Map());
    let text = start;
    const checked: Checked = { items: 0, value: 0, declarations: 0 };
    for (const edit of edits) {
      text = edit(text);
      document = document.update(text);
      validateDocument(document);
      const kept = new Map<string, KeptEnds>();
      const after = listsOf(document, kept);
      for (const [where, list] of after) {
        const old = before.get(where);
        const carried = kept.get(where);
        const ends = old && endsKeptFrom(list, old, carried ?? keptOf(list));
        if (!ends) continue;
        // Where the kept ends came from: a sequence node's items, a value's array, a declarations list.
        checked[where.slice(0, where.indexOf(' ')) as keyof Checked] += 1;
        const reference = compared(list, old);
        expect(ends.prefix, where).toBeLessThanOrEqual(reference.prefix);
        expect(ends.prefix + ends.suffix, where).toBeLessThanOrEqual(reference.prefix + reference.suffix);
      }
      before = after;
    }
    return checked;
  }

  it('never claim more than a comparison finds, after random edits of large YAML and TOML manifests', () => {
    const checked: Checked = { items: 0, value: 0, declarations: 0 };
    const add = (found: Checked) => {
      checked.items += found.items;
      checked.value += found.value;
      checked.declarations += found.declarations;
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(structuralEdit, { minLength: 1, maxLength: 6 }),
        (seed, edits) => {
          add(checkKept(largeManifest(2, 40, 12, seed), 'yaml', edits));
        },
      ),
      { numRuns: 40, seed: 1719 },
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(tomlEdit, { minLength: 1, maxLength: 6 }),
        (seed, edits) => {
          add(checkKept(largeTomlManifest(30, 10, seed), 'toml', edits));
        },
      ),
      { numRuns: 40, seed: 1720 },
    );
    // Kept ends of every kind were handed on and checked, not merely absent (47, 50 and 73 in these runs).
    expect(checked.items).toBeGreaterThan(20);
    expect(checked.value).toBeGreaterThan(20);
    expect(checked.declarations).toBeGreaterThan(20);
  });
});
