import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PieceText } from '../src/document/piece-text.js';
import { LineIndex } from '../src/document/line-index.js';

/** Text made of lines with every kind of line end, long enough (with `repeat`) to be cut into many pieces. */
const lineArb = fc.tuple(
  fc.string({ unit: fc.constantFrom('a', 'b', ' ', ':', '\t', 'é', '😀'), maxLength: 12 }),
  fc.constantFrom('\n', '\r\n', '\r', ''),
);
const textArb = fc
  .tuple(fc.array(lineArb, { maxLength: 40 }), fc.integer({ min: 1, max: 1200 }))
  .map(([lines, repeat]) =>
    lines
      .map(([l, e]) => l + e)
      .join('')
      .repeat(repeat),
  );

interface Edit {
  start: number;
  end: number;
  text: string;
}
const insertArb = fc.string({ unit: fc.constantFrom('x', '\n', '\r', '\r\n', '😀'), maxLength: 6 });

/** Edits that stay in range, given as fractions of the length of the text they apply to. */
function editsFor(fractions: [number, number, string][], length: number): Edit[] {
  const edits: Edit[] = [];
  let n = length;
  for (const [a, b, text] of fractions) {
    const start = Math.floor(a * n);
    const end = Math.min(n, start + Math.floor(b * Math.min(n - start, 40000)));
    edits.push({ start, end, text });
    n = n - (end - start) + text.length;
  }
  return edits;
}
const editsArb = fc.array(
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), insertArb),
  { maxLength: 8 },
);
/** The size of the pieces a text is cut into: the default, and sizes that make many pieces. */
const pieceSizeArb = fc.constantFrom(undefined, 1, 7, 300);

describe('PieceText', () => {
  it('reads what the same string reads, before and after edits, without making the whole string', () => {
    fc.assert(
      fc.property(
        textArb,
        editsArb,
        fc.array(fc.integer({ min: -3, max: 3_000_000 }), { minLength: 4, maxLength: 4 }),
        pieceSizeArb,
        (text, fractions, probes, pieceSize) => {
          let pieces = PieceText.from(text, pieceSize);
          let plain = text;
          for (const edit of editsFor(fractions, text.length)) {
            pieces = pieces.edit(edit.start, edit.end, edit.text);
            plain = plain.slice(0, edit.start) + edit.text + plain.slice(edit.end);
          }
          const wasWhole = pieces.isMaterialized;
          expect(pieces.length).toBe(plain.length);
          const [a, b, c, d] = probes.map((p) => (p < 0 ? p : p % (plain.length + 2)));
          expect(pieces.slice(a, b)).toBe(plain.slice(a, b));
          expect(pieces.slice(c)).toBe(plain.slice(c));
          expect(pieces.charCodeAt(a!)).toBe(plain.charCodeAt(a!));
          expect(pieces.charCodeAt(d!)).toBe(plain.charCodeAt(d!));
          // Pieces end after a `\n`, so only a search with a line break before its end can cross from one piece to the next.
          for (const search of ['\n', '\r\n', 'a:', 'x\n', '😀', '\na', 'b\r\na', '\n\n']) {
            expect(pieces.indexOf(search, a)).toBe(plain.indexOf(search, a));
            expect(pieces.lastIndexOf(search, c)).toBe(plain.lastIndexOf(search, c));
            expect(pieces.startsWith(search, b)).toBe(plain.startsWith(search, b));
          }
          expect(pieces.lineCount).toBe(plain.split(/\r\n|\r|\n/).length);
          // Nothing above needed the whole string (a one-piece text is its own whole string).
          expect(pieces.isMaterialized).toBe(wasWhole);
          expect(pieces.toString()).toBe(plain);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('is its own line index: the same lines, positions and line ends as an index of the string, without making it', () => {
    fc.assert(
      fc.property(textArb, editsArb, pieceSizeArb, fc.boolean(), (text, fractions, pieceSize, bom) => {
        let pieces = PieceText.from(bom ? `\uFEFF${text}` : text, pieceSize);
        let plain = pieces.toString();
        for (const edit of editsFor(fractions, plain.length)) {
          // Keep a byte-order mark, when there is one, where the index looks for it.
          const start = Math.max(edit.start, bom ? 1 : 0);
          const end = Math.max(edit.end, start);
          pieces = pieces.edit(start, end, edit.text);
          plain = plain.slice(0, start) + edit.text + plain.slice(end);
        }
        const wasWhole = pieces.isMaterialized;
        const index = new LineIndex(pieces);
        const expected = new LineIndex(plain);
        expect(index.lineCount).toBe(expected.lineCount);
        for (let line = 0; line < expected.lineCount; line++) {
          expect(index.lineStart(line)).toBe(expected.lineStart(line));
          expect(index.lineEnd(line)).toBe(expected.lineEnd(line));
        }
        for (let offset = 0; offset <= plain.length; offset += Math.max(1, plain.length >> 6)) {
          expect(index.lineOf(offset)).toBe(expected.lineOf(offset));
          expect(index.position(offset)).toEqual(expected.position(offset));
        }
        expect(index.lineOf(plain.length)).toBe(expected.lineOf(plain.length));
        expect(pieces.isMaterialized).toBe(wasWhole);
      }),
      { numRuns: 80 },
    );
  });

  it('knows whether a line ends with CRLF, carrying what earlier texts read through edits', () => {
    fc.assert(
      fc.property(textArb, editsArb, pieceSizeArb, fc.boolean(), (text, fractions, pieceSize, askFirst) => {
        let pieces = PieceText.from(text, pieceSize);
        let plain = text;
        // Asked before the edits, each edit carries the answer per piece; not asked, the last text reads every piece.
        if (askFirst) expect(pieces.hasCrlf).toBe(plain.includes('\r\n'));
        for (const edit of editsFor(fractions, text.length)) {
          pieces = pieces.edit(edit.start, edit.end, edit.text);
          plain = plain.slice(0, edit.start) + edit.text + plain.slice(edit.end);
          if (askFirst) expect(pieces.hasCrlf).toBe(plain.includes('\r\n'));
        }
        expect(pieces.hasCrlf).toBe(plain.includes('\r\n'));
      }),
      { numRuns: 300 },
    );
    // A CRLF made by joining a CR and an LF across the edited range, and one removed the same way.
    const joined = PieceText.from('a\r\nb\n'.replace('\r\n', '\rx\n'), 1);
    expect(joined.hasCrlf).toBe(false);
    expect(joined.edit(2, 3, '').hasCrlf).toBe(true);
    const split = PieceText.from('a\r\nb\n', 1);
    expect(split.hasCrlf).toBe(true);
    expect(split.edit(2, 2, 'x').hasCrlf).toBe(false);
  });

  it('derives per piece once: an edited text derives only the pieces its edit made', () => {
    const text = Array.from({ length: 4000 }, (_, i) => `line ${i}\n`).join('');
    const key = {};
    const seen: string[] = [];
    const derive = (piece: string) => {
      seen.push(piece);
      return piece.split('\n').length - 1;
    };
    const first = PieceText.from(text, 1024);
    const lines = (t: PieceText) => t.derived(key, derive).values.reduce((sum, n) => sum + n, 0);
    expect(lines(first)).toBe(4000);
    expect(seen).toHaveLength(first.pieceCount);
    seen.length = 0;
    const at = text.indexOf('line 2000');
    const edited = first.edit(at, at, 'new line\n');
    expect(lines(edited)).toBe(4001);
    // The pieces the edit made, and no other.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThanOrEqual(3);
    expect(seen.join('')).toContain('new line\nline 2000');
    // The starts are the text's own: each piece's derivation is found at its offset.
    const { starts } = edited.derived(key, derive);
    expect(starts[starts.length - 1]).toBe(edited.length);
    expect(edited.isMaterialized).toBe(false);
  });

  it('keeps pieces whole lines and near their size after many edits in one place', () => {
    let text = PieceText.from('key: value\n'.repeat(20000));
    const at = 100_000;
    for (let i = 0; i < 2000; i++) text = i % 2 === 0 ? text.edit(at, at, 'line\n') : text.edit(at, at + 2, '');
    expect(text.pieceCount).toBeGreaterThan(6);
    expect(text.pieceCount).toBeLessThan(40);
    const whole = text.toString();
    // Every piece but the last ends after a `\n`: a line's start found through the pieces is one.
    for (let line = 0; line < text.lineCount; line += 997) {
      const offset = text.offsetAt(line, 0);
      expect(offset === 0 || whole.charCodeAt(offset - 1) === 10).toBe(true);
    }
  });

  it('refuses a range outside the text, naming it', () => {
    const text = PieceText.from('a\nb\n');
    expect(() => text.edit(3, 9, 'x')).toThrow(RangeError);
    expect(() => text.edit(3, 9, 'x')).toThrow(/\b3\.\.9\b/);
    expect(() => text.edit(2, 1, 'x')).toThrow(/\b2\.\.1\b/);
    expect(() => text.edit(-1, 1, 'x')).toThrow(RangeError);
  });
});
