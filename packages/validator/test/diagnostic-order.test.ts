/** The order diagnostics are reported in, sorted natively (sortedByPlace) and by the comparator. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareByPlace, sortedByPlace, type RawDiagnostic } from '../src/diagnostic.js';

const codes = ['wrong-type', 'invalid-value', 'missing-key', 'possible-typo', 'unknown-key'] as const;

/** Diagnostics on few places, so that starts, ends and codes tie often; each message names its report order. */
const reports = (maxStart: number) =>
  fc
    .array(
      fc.record({
        start: fc.integer({ min: 0, max: maxStart }),
        length: fc.integer({ min: 0, max: 3 }),
        code: fc.constantFrom(...codes),
      }),
      {
        maxLength: 80,
      },
    )
    .map((list) =>
      list.map(({ start, length, code }, i): RawDiagnostic => ({
        code,
        message: `report ${i}`,
        path: '',
        start,
        end: start + length,
      })),
    );

describe('sortedByPlace', () => {
  it('is the comparator’s stable sort, ties kept in report order', () => {
    fc.assert(
      fc.property(reports(6), (list) => {
        expect(sortedByPlace(list)).toEqual(list.slice().sort(compareByPlace));
      }),
      { numRuns: 500 },
    );
  });

  it('sorts large offsets, and falls back to the comparator for offsets it cannot key', () => {
    fc.assert(
      fc.property(reports(2 ** 31 + 5), (list) => {
        expect(sortedByPlace(list)).toEqual(list.slice().sort(compareByPlace));
      }),
    );
    const odd: RawDiagnostic[] = [
      { code: 'wrong-type', message: 'b', path: '', start: 5, end: 6 },
      { code: 'wrong-type', message: 'a', path: '', start: -1, end: 0 },
      { code: 'wrong-type', message: 'c', path: '', start: 2.5, end: 3 },
    ];
    expect(sortedByPlace(odd).map((d) => d.message)).toEqual(['a', 'c', 'b']);
  });

  it('orders diagnostics on one place by their codes’ code units, whatever the locale would say', () => {
    // A locale's collation puts `a_b` before `a-b` and `b` before `B`; code units put `B` first.
    const list = ['b', 'a_b', 'B', 'a-b', 'ab'].map(
      (code) => ({ code, message: code, path: '', start: 4, end: 7 }) as unknown as RawDiagnostic,
    );
    expect(sortedByPlace(list).map((d) => d.code)).toEqual(['B', 'a-b', 'a_b', 'ab', 'b']);
  });

  it('leaves its input as it was', () => {
    const list: RawDiagnostic[] = [
      { code: 'wrong-type', message: 'second', path: '', start: 9, end: 9 },
      { code: 'wrong-type', message: 'first', path: '', start: 1, end: 2 },
    ];
    const before = list.slice();
    expect(sortedByPlace(list).map((d) => d.message)).toEqual(['first', 'second']);
    expect(list).toEqual(before);
  });
});
