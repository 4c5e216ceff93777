/**
 * The byte limit counts UTF-8 as an encoder writes it (an unpaired UTF-16 half as U+FFFD's 3
 * bytes), with Node's native count and with the loops a runtime without `Buffer` (a browser) uses.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { offsetPastByteLimit, utf8Length } from '../src/document/limits.js';

const encoder = new TextEncoder();
const UNITS = ['a', 'é', '€', '😀', '\ud800', '\udc00', '\n'];

/** The first offset whose character's encoding ends past `maxBytes`, by encoding character by character. */
function expectedOffset(text: string, maxBytes: number): number {
  let bytes = 0;
  for (let i = 0; i < text.length;) {
    const pair = /^[\ud800-\udbff][\udc00-\udfff]/.test(text.slice(i, i + 2));
    const unit = text.slice(i, i + (pair ? 2 : 1));
    bytes += encoder.encode(unit).length;
    if (bytes > maxBytes) return i;
    i += unit.length;
  }
  return -1;
}

/** Texts of every pair and triple of the units, an unpaired half before and after each other unit. */
const TEXTS = UNITS.flatMap((a) => UNITS.flatMap((b) => UNITS.map((c) => a + b + c)));

const realBuffer = globalThis.Buffer;
afterEach(() => {
  globalThis.Buffer = realBuffer;
});

describe.each([
  ['with Node’s Buffer', () => {}],
  [
    'without Buffer (a browser)',
    () => {
      (globalThis as { Buffer?: unknown }).Buffer = undefined;
    },
  ],
])('the UTF-8 count %s', (_name, setUp) => {
  it('is the encoder’s length', () => {
    setUp();
    for (const text of TEXTS) expect(utf8Length(text), JSON.stringify(text)).toBe(encoder.encode(text).length);
  });

  it('finds the first character past the limit', () => {
    setUp();
    for (const text of TEXTS)
      for (let maxBytes = 0; maxBytes <= 12; maxBytes++)
        expect(offsetPastByteLimit(text, maxBytes), `${JSON.stringify(text)} ${maxBytes}`).toBe(
          expectedOffset(text, maxBytes),
        );
  });
});
