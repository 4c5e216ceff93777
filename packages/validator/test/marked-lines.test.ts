/**
 * The marked-lines search (document/marked-lines.ts), on which the suppression comments' search
 * and the language server's directive search stand: its answers after edits before, in and after
 * a marked line and after one is deleted, read only from the edited lines; an answer is never
 * carried to a document not made from its own; and over random bursts of edits the carried
 * answer is a search of the whole new text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManifestDocument, MarkedLines, type LineMarker, type MarkedLine } from '@svc-manifest/validator/library';

/** Lines holding `@mark`, unless they also hold `skip`; each is what follows the marker up to a space. */
function marker(): LineMarker<string> & { readLines: string[] } {
  const readLines: string[] = [];
  return {
    marker: '@mark',
    readLines,
    read(line) {
      readLines.push(line);
      if (line.includes('skip')) return null;
      const at = line.indexOf('@mark') + '@mark'.length;
      return line.slice(at, (line.indexOf(' ', at) + 1 || line.length + 1) - 1);
    },
  };
}

/** The marked lines of `text` read line by line: lines end at "\n", "\r\n" or a lone "\r". */
function reference(text: string): MarkedLine<string>[] {
  const found: MarkedLine<string>[] = [];
  const m = marker();
  let start = 0;
  for (const lineBreak of [...text.matchAll(/\r\n|\r|\n/g), null]) {
    const end = lineBreak ? lineBreak.index : text.length;
    const line = text.slice(start, end);
    const value = line.includes(m.marker) ? m.read(line) : null;
    if (value !== null) found.push({ start, value });
    if (lineBreak) start = end + lineBreak[0].length;
  }
  return found;
}

/** `text` with `old` (its first occurrence) replaced by `by`, and the change that does it. */
function replaced(text: string, old: string, by: string) {
  const start = text.indexOf(old);
  expect(start).toBeGreaterThanOrEqual(0);
  return {
    text: text.slice(0, start) + by + text.slice(start + old.length),
    change: { start, end: start + old.length, newLength: by.length },
  };
}

const TEXT = ['a: 1', '# @markone', 'b: 2', 'c: 3', '# @marktwo', 'd: 4', ''].join('\n');

describe('marked lines', () => {
  it('finds the marked lines of a text, and reads only up to the first when only it is asked for', () => {
    const m = marker();
    const search = MarkedLines.of(ManifestDocument.parse(TEXT), m);
    expect(search.first()).toEqual({ start: TEXT.indexOf('# @markone'), value: 'one' });
    expect(m.readLines).toEqual(['# @markone']);
    expect(search.all()).toEqual([
      { start: TEXT.indexOf('# @markone'), value: 'one' },
      { start: TEXT.indexOf('# @marktwo'), value: 'two' },
    ]);
    expect(m.readLines).toEqual(['# @markone', '# @marktwo']);
  });

  /** One edit from TEXT, searched in full first: the answers after it, and the lines it read. */
  function afterOneEdit(old: string, by: string, ask: 'first' | 'all' = 'all') {
    const m = marker();
    const document = ManifestDocument.parse(TEXT);
    const search = MarkedLines.of(document, m);
    if (ask === 'all') search.all();
    else search.first();
    const edit = replaced(TEXT, old, by);
    const next = search.after(document.update(edit.text, [edit.change]));
    m.readLines.length = 0;
    return { text: edit.text, marks: ask === 'all' ? next.all() : [next.first()], read: m.readLines };
  }

  it('keeps a marked line before the edit where it was', () => {
    const { text, marks, read } = afterOneEdit('c: 3', 'c: 33');
    expect(marks).toEqual([
      { start: TEXT.indexOf('# @markone'), value: 'one' },
      { start: TEXT.indexOf('# @marktwo') + 1, value: 'two' },
    ]);
    expect(text.indexOf('# @marktwo')).toBe(TEXT.indexOf('# @marktwo') + 1);
    expect(read).toEqual([]);
  });

  it('moves a marked line after the edit by what the edit added', () => {
    const { text, marks, read } = afterOneEdit('a: 1\n', 'a: 1\nnew: line\n');
    expect(marks).toEqual([
      { start: TEXT.indexOf('# @markone') + 10, value: 'one' },
      { start: TEXT.indexOf('# @marktwo') + 10, value: 'two' },
    ]);
    expect(marks.map((mark) => text.slice(mark!.start, mark!.start + 10))).toEqual(['# @markone', '# @marktwo']);
    expect(read).toEqual([]);
  });

  it('reads a marked line the edit changed, and only that line', () => {
    const { text, marks, read } = afterOneEdit('@markone', '@markONE');
    expect(marks).toEqual([
      { start: TEXT.indexOf('# @markone'), value: 'ONE' },
      { start: TEXT.indexOf('# @marktwo'), value: 'two' },
    ]);
    expect(text.indexOf('# @marktwo')).toBe(TEXT.indexOf('# @marktwo'));
    expect(read).toEqual(['# @markONE']);
  });

  it('drops a marked line the edit deleted, and moves those after it back', () => {
    const { text, marks, read } = afterOneEdit('# @markone\n', '');
    expect(marks).toEqual([{ start: TEXT.indexOf('# @marktwo') - 11, value: 'two' }]);
    expect(text.slice(marks[0]!.start, marks[0]!.start + 10)).toBe('# @marktwo');
    expect(read).toEqual([]);
  });

  it('finds the next marked line, after the edit, when the first one asked for was deleted', () => {
    const { text, marks, read } = afterOneEdit('# @markone\n', '', 'first');
    expect(marks).toEqual([{ start: TEXT.indexOf('# @marktwo') - 11, value: 'two' }]);
    expect(text.indexOf('# @marktwo')).toBe(TEXT.indexOf('# @marktwo') - 11);
    expect(read).toEqual(['# @marktwo']);
  });

  it('finds a marked line the edit added', () => {
    const { marks, read } = afterOneEdit('d: 4', 'd: 4 # @markthree and more');
    expect(marks).toEqual([
      { start: TEXT.indexOf('# @markone'), value: 'one' },
      { start: TEXT.indexOf('# @marktwo'), value: 'two' },
      { start: TEXT.indexOf('d: 4'), value: 'three' },
    ]);
    expect(read).toEqual(['d: 4 # @markthree and more']);
  });

  it('carries nothing to a document that was not made from its own', () => {
    const document = ManifestDocument.parse(TEXT);
    const shifted = document.update(`x: 0\n${TEXT}`);
    const search = MarkedLines.of(shifted, marker());
    expect(search.first()).toEqual({ start: TEXT.indexOf('# @markone') + 5, value: 'one' });
    // Another document made from the same one: `shifted`'s answer would be five characters off.
    const sibling = document.update(TEXT.replace('a: 1', 'a: 2'));
    expect(search.after(sibling).all()).toEqual(reference(sibling.text));
    expect(search.after(sibling).first()).toEqual({ start: TEXT.indexOf('# @markone'), value: 'one' });
  });

  it('over random bursts of edits, the carried answer is a search of the whole new text', () => {
    const pieces = ['@mark', '@markx', '@marky ', ' skip', 'a: 1', '#', ' ', '\n', '\r\n', '\r', '@ma', 'rk', 'x'];
    const line = fc.array(fc.constantFrom(...pieces), { maxLength: 5 }).map((parts) => parts.join(''));
    const edit = fc.record({
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      span: fc.double({ min: 0, max: 0.4, noNaN: true }),
      insert: fc.oneof(
        line,
        line.map((l) => `${l}\n`),
      ),
      // What is asked after the edit: nothing (a burst of edits validated once), the first line, or all.
      ask: fc.constantFrom('none', 'first', 'all'),
    });
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.constantFrom('none', 'first', 'all'),
        fc.array(edit, { minLength: 1, maxLength: 15 }),
        (lines, askFirst, edits) => {
          let text = lines.map((l) => `${l}\n`).join('');
          let document = ManifestDocument.parse(text);
          let search = MarkedLines.of(document, marker());
          const check = (ask: string) => {
            if (ask === 'first') expect(search.first()).toEqual(reference(text)[0] ?? null);
            if (ask === 'all') expect(search.all()).toEqual(reference(text));
          };
          check(askFirst);
          for (const { at, span, insert, ask } of edits) {
            const start = Math.floor(at * text.length);
            const end = Math.min(text.length, start + Math.floor(span * text.length));
            text = text.slice(0, start) + insert + text.slice(end);
            document = document.update(text, [{ start, end, newLength: insert.length }]);
            search = search.after(document);
            check(ask);
          }
          expect(search.first()).toEqual(reference(text)[0] ?? null);
          expect(search.all()).toEqual(reference(text));
        },
      ),
      { numRuns: 500, seed: 4101 },
    );
  });
});
