import { describe, expect, it } from 'vitest';
import { offsetAt, positionAt } from '../src/positions.js';
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

describe('cancellation', () => {
  it('a feature stops with RequestCancelled when its request was cancelled', () => {
    const fixture = at('svc_version: 2\n‸');
    expect(() => completion(fixture.state, { position: fixture.position }, { token: { isCancellationRequested: true } })).toThrow(RequestCancelled);
  });
});
