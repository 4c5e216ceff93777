import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { offsetAt, positionAt, rangeAt } from '../src/positions.js';
import { toLspRange } from '../src/features/diagnostics.js';
import { completion } from '../src/features/completion.js';
import { RequestCancelled } from '../src/feature-context.js';
import { doc, at } from './helpers.js';

describe('LSP positions', () => {
  it('count UTF-16 code units and treat \\n, \\r\\n and a lone \\r as line ends', () => {
    const text = 'a: 😀名\r\nb: 1\rc: 2\nd';
    const state = doc(text);
    expect(positionAt(state, text.indexOf('名'))).toEqual({ line: 0, character: 5 });
    expect(positionAt(state, text.indexOf('b'))).toEqual({ line: 1, character: 0 });
    expect(positionAt(state, text.indexOf('c'))).toEqual({ line: 2, character: 0 });
    expect(positionAt(state, text.indexOf('d'))).toEqual({ line: 3, character: 0 });
    expect(offsetAt(state, { line: 2, character: 3 })).toBe(text.indexOf('2'));
    // Past the end of a line means its end, before the line break.
    expect(offsetAt(state, { line: 0, character: 99 })).toBe(text.indexOf('\r'));
    expect(offsetAt(state, { line: 99, character: 0 })).toBe(text.length);
  });
});

describe('diagnostic ranges', () => {
  it("are the validator's positions in LSP's convention: the same as ranges rebuilt from the offsets", () => {
    const text = fc.tuple(
      fc.boolean(),
      fc.string({ unit: fc.constantFrom('a', ' ', ':', '\n', '\r', '\r\n', '😀', '名'), maxLength: 60 }),
    );
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), ([bom, body], a, b) => {
        const source = bom ? `\uFEFF${body}` : body;
        const state = doc(source);
        const [start, end] = [a % (source.length + 1), b % (source.length + 1)].sort((x, y) => x - y) as [
          number,
          number,
        ];
        expect(toLspRange(state, state.doc.lines.range(start, end))).toEqual(rangeAt(state, start, end));
      }),
      { numRuns: 400 },
    );
  });
});

describe('cancellation', () => {
  it('a feature stops with RequestCancelled when its request was cancelled', () => {
    const fixture = at('svc_version: 2\n‸');
    expect(() =>
      completion(fixture.state, { position: fixture.position }, { token: { isCancellationRequested: true } }),
    ).toThrow(RequestCancelled);
  });
});
