/**
 * Lists spliced from an earlier list (document/spliced-lists.ts): what they share with it is read
 * from the note the splice left, else found by comparing; either way never more than is shared.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commonEnds, mapSpliced, noteSplice, withRunReplaced } from '../src/document/spliced-lists.js';

/** The counts a comparison of references finds (the reference the note must never exceed). */
function compared(list: readonly unknown[], old: readonly unknown[]): { prefix: number; suffix: number } {
  let prefix = 0;
  let suffix = 0;
  while (prefix < list.length && prefix < old.length && list[prefix] === old[prefix]) prefix++;
  while (suffix < list.length - prefix && suffix < old.length - prefix && list[list.length - 1 - suffix] === old[old.length - 1 - suffix]) suffix++;
  return { prefix, suffix };
}

describe('spliced lists', () => {
  const spliced = fc.record({ length: fc.nat(40), from: fc.nat(40), removed: fc.nat(5), added: fc.nat(5) }).map(({ length, from, removed, added }) => {
    const old = Array.from({ length }, (_, i) => ({ i }));
    const at = Math.min(from, length);
    const cut = Math.min(removed, length - at);
    const list = [...old.slice(0, at), ...Array.from({ length: added }, (_, i) => ({ added: i })), ...old.slice(at + cut)];
    return { old, list, prefix: at, suffix: length - at - cut };
  });

  it('a noted splice gives its counts, which a comparison of references confirms', () => {
    fc.assert(
      fc.property(spliced, ({ old, list, prefix, suffix }) => {
        noteSplice(list, old, prefix, suffix);
        const ends = commonEnds(list, old);
        expect(ends).toEqual({ prefix, suffix });
        const reference = compared(list, old);
        expect(ends.prefix).toBeLessThanOrEqual(reference.prefix);
        expect(ends.prefix + ends.suffix).toBeLessThanOrEqual(reference.prefix + reference.suffix);
      }),
      { numRuns: 300, seed: 1717 },
    );
  });

  it('without a note, or with a note about another list, compares', () => {
    fc.assert(
      fc.property(spliced, ({ old, list }) => {
        expect(commonEnds(list, old)).toEqual(compared(list, old));
        const other = old.slice();
        noteSplice(list, other, 0, 0);
        expect(commonEnds(list, old)).toEqual(compared(list, old));
      }),
      { numRuns: 200, seed: 1718 },
    );
  });

  it('maps only the middle of a list spliced from one mapped before, and notes the mapped list as spliced too', () => {
    const old = Array.from({ length: 10 }, (_, i) => ({ i }));
    const mapped = new Map<readonly unknown[], { i?: number; added?: boolean; k: number }[]>();
    let calls = 0;
    const map = (item: { i?: number; added?: boolean }) => (calls++, { ...item, k: calls });
    const oldMapped = old.map(map);
    mapped.set(old, oldMapped);
    const list = [...old.slice(0, 4), { added: true }, ...old.slice(6)];
    noteSplice(list, old, 4, 4);
    calls = 0;
    const result = mapSpliced(list, map, (from) => mapped.get(from));
    expect(calls).toBe(1);
    expect(result.slice(0, 4)).toEqual(oldMapped.slice(0, 4));
    expect(result[0]).toBe(oldMapped[0]);
    expect(result[4]).toMatchObject({ added: true });
    expect(result.slice(5)).toEqual(oldMapped.slice(6));
    expect(commonEnds(result, oldMapped)).toEqual({ prefix: 4, suffix: 4 });
    // No mapped form of the earlier list: every item is mapped.
    calls = 0;
    expect(mapSpliced(list, map, () => undefined)).toHaveLength(9);
    expect(calls).toBe(9);
  });

  it('replaces a run in one new array, as slicing and concatenating would, leaving the old list alone', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(9), { maxLength: 30 }), fc.nat(30), fc.nat(6), fc.array(fc.nat(9), { maxLength: 6 }), (old, at, removed, middle) => {
        const from = Math.min(at, old.length);
        const to = Math.min(from + removed, old.length);
        const copy = old.slice();
        const made = withRunReplaced(old, from, to, middle);
        expect(made).toEqual(old.slice(0, from).concat(middle, old.slice(to)));
        expect(made).not.toBe(old);
        expect(old).toEqual(copy);
      }),
    );
  });
});
