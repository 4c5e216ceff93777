/**
 * The formatter's shortcuts (`sameTomlReading`: a re-parse avoided when the two texts alone show
 * the same TOML reading; no text comparison when every edit but the quote changes is whitespace):
 * on every fixture and example (TOML also messed up, YAML also with single quotes to change back),
 * formatting and range formatting give the same bytes and refuse the same files with the
 * shortcuts as with the re-parse, and every text the TOML shortcut accepts reads, once parsed (by
 * our parser and by Python's tomllib), as the original does.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ManifestDocument } from '@svc-manifest/validator';
import { formatManifestCheckedBy, formatManifestRangeCheckedBy, type FormatCheck } from '../src/edit/format.js';
import { sameTomlReading } from '../src/edit/toml-whitespace.js';
import { manifestPaths } from '../../../test/support/fixtures.js';
import { tomlReferences } from './support/tomllib.js';

const files = manifestPaths();
const tomlFiles = files.filter((file) => file.endsWith('.toml'));

/** A TOML file as a careless hand leaves it: indented, `=` spaced unevenly, trailing spaces, extra blank lines. */
function messUpToml(text: string): string {
  return text
    .replace(/^(?=[A-Za-z_"[])/gm, '  ')
    .replace(/^( *[A-Za-z0-9_.-]+) = /gm, '$1   =  ')
    .replace(/^( *\[[^\]\n]*\]+)$/gm, '$1   ')
    .replace(/\n\n/g, '\n \n\n');
}

/** A YAML file with its simple double-quoted values in single quotes, which the formatter writes back in double quotes. */
function singleQuoteYaml(text: string): string {
  return text.replace(/(: |- )"([\w .:/-]*)"/g, "$1'$2'");
}

/** The formatter's answer as a value: its result, or the reason it refused. */
function outcome(check: FormatCheck, text: string, file: string, indentWidth?: number): unknown {
  try {
    return formatManifestCheckedBy(check, text, { filename: file, indentWidth });
  } catch (error) {
    return { refused: (error as { reason?: string }).reason, message: (error as Error).message };
  }
}

describe('the TOML shortcut against the re-parse', () => {
  it('gives the same bytes and refuses the same files on every fixture and example, as written and messed up', () => {
    let shortcutTaken = 0;
    let changed = 0;
    let requoted = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const input of file.endsWith('.toml') ? [text, messUpToml(text)] : [text, singleQuoteYaml(text)]) {
        const slow = outcome('reparse', input, file);
        expect(outcome('shortcut', input, file), file).toEqual(slow);
        const result = slow as { text?: string; changed?: boolean };
        if (result.changed) {
          changed++;
          if (file.endsWith('.yaml') && input !== text) requoted++;
          if (file.endsWith('.toml') && sameTomlReading(input, result.text!)) shortcutTaken++;
        }
      }
    }
    // Not vacuous: many files change, and the shortcut decides most TOML ones.
    expect(changed).toBeGreaterThan(150);
    expect(shortcutTaken).toBeGreaterThan(60);
    expect(requoted).toBeGreaterThan(20);
  });

  it('refuses, as the re-parse does, a result that would pass the size limit', () => {
    // `a=1` → `a = 1` adds two bytes a line: past the limit the input just meets.
    const text = 'a=1\nb=2\n';
    const limited = (check: FormatCheck): unknown => {
      try {
        return formatManifestCheckedBy(check, text, { format: 'toml', limits: { maxBytes: text.length } });
      } catch (error) {
        return { refused: (error as { reason?: string }).reason };
      }
    };
    expect(limited('reparse')).toEqual({ refused: 'mismatch' });
    expect(limited('shortcut')).toEqual({ refused: 'mismatch' });
    expect(
      formatManifestCheckedBy('shortcut', text, { format: 'toml', limits: { maxBytes: text.length + 4 } }).text,
    ).toBe('a = 1\nb = 2\n');
  });

  it('gives the same range edits for every third of each messed-up TOML file', () => {
    for (const file of tomlFiles) {
      const text = messUpToml(readFileSync(file, 'utf8'));
      for (const [from, to] of [
        [0, 1 / 3],
        [1 / 3, 2 / 3],
        [2 / 3, 1],
      ] as const) {
        const range = { start: Math.floor(text.length * from), end: Math.floor(text.length * to) };
        const run = (check: FormatCheck): unknown => {
          try {
            return formatManifestRangeCheckedBy(check, text, range, { filename: file });
          } catch (error) {
            return { refused: (error as { reason?: string }).reason };
          }
        };
        expect(run('shortcut'), file).toEqual(run('reparse'));
      }
    }
  });
});

/** A deterministic source of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** `text` with one whitespace change: a space or a line end added, a whitespace character removed, or a space turned into a tab. */
function mutate(text: string, random: () => number): string {
  const at = Math.floor(random() * (text.length + 1));
  switch (Math.floor(random() * 4)) {
    case 0:
      return text.slice(0, at) + ' ' + text.slice(at);
    case 1:
      return text.slice(0, at) + '\n' + text.slice(at);
    case 2: {
      const space = text.slice(at).search(/[ \t\n]/);
      return space === -1 ? text : text.slice(0, at + space) + text.slice(at + space + 1);
    }
    default: {
      const space = text.indexOf(' ', at);
      return space === -1 ? text : text.slice(0, space) + '\t' + text.slice(space + 1);
    }
  }
}

function reading(text: string): { errors: string[]; value: unknown } {
  const document = ManifestDocument.parse(text, { format: 'toml' });
  return {
    errors: document.diagnostics.filter((d) => /syntax|duplicate|too-|forbidden/.test(d.code)).map((d) => d.code),
    value: document.value,
  };
}

describe('sameTomlReading', () => {
  it('accepts only whitespace changes after which our parser and tomllib read the same value without errors', () => {
    const random = seeded(37);
    let accepted = 0;
    let refused = 0;
    // Each accepted change after the text it changes, for one batch read by tomllib.
    const pairs: string[] = [];
    for (const file of tomlFiles) {
      const text = readFileSync(file, 'utf8');
      const original = reading(text);
      if (original.errors.length > 0 || original.value === undefined) continue;
      for (let round = 0; round < 40; round++) {
        // One to three changes at once.
        let changed = text;
        for (let count = 1 + Math.floor(random() * 3); count > 0; count--) changed = mutate(changed, random);
        if (!sameTomlReading(text, changed)) {
          refused++;
          continue;
        }
        accepted++;
        expect(reading(changed), `${file}\n--- changed to ---\n${changed}`).toEqual(original);
        pairs.push(text, changed);
      }
    }
    const references = tomlReferences(pairs);
    for (let k = 0; k < pairs.length; k += 2) {
      expect(references[k], pairs[k]).toHaveProperty('value');
      expect(references[k + 1], `${pairs[k]}\n--- changed to ---\n${pairs[k + 1]}`).toEqual(references[k]);
    }
    expect(accepted).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(300);
  });

  it('takes the whitespace TOML ignores', () => {
    const text = 'a=1\n[t]\nb = [1,2]\n# note\nc = {x=1}\n[[u]]\nd = "s"\n';
    expect(
      sameTomlReading(
        text,
        '\n  a = 1   \n\n\n  [ t ]\n\tb   =   [ 1, 2 ]\n# note   \nc = { x = 1 }\n[[ u ]]\nd = "s"',
      ),
    ).toBe(true);
    expect(sameTomlReading('a = [\n  1,\n\n  2,\n]\n', 'a = [\n1,\n2,\n    ]\n')).toBe(true);
    // After strings that end where a shorter reading would not: an escaped quote, a closing
    // delimiter with quotes of the string's own before it; CRLF line ends.
    const afterStrings: [string, string][] = [
      ['a = "x\\"y"\nb=1\n', 'a = "x\\"y"\nb = 1\n'],
      ['a = """x\\""""\nb=1\n', 'a = """x\\""""\nb = 1\n'],
      ['a = """x""""\nb=1\n', 'a = """x""""\nb = 1\n'],
      ["a = '''x'''''\nb=1\n", "a = '''x'''''\nb = 1\n"],
      ['a = "x"\r\n\r\nb=1\r\n', 'a = "x"\r\nb = 1\r\n'],
    ];
    for (const [a, b] of afterStrings)
      expect(sameTomlReading(a, b), `${JSON.stringify(a)} → ${JSON.stringify(b)}`).toBe(true);
  });

  it('refuses what would change the reading or may: inside strings, comments, date-times and dotted keys, line ends, touching brackets', () => {
    const refusals: [string, string][] = [
      ['a = "x y"\n', 'a = "x  y"\n'],
      ['a = "x = [y]"\n', 'a = "x=[ y ]"\n'],
      ["a = '''x, y'''\n", "a = '''x,y'''\n"],
      ['a = 1 # x = y\n', 'a = 1 # x= y\n'],
      ["a = 'x y'\n", "a = 'x\ty'\n"],
      ['a = """\nx\n\ny"""\n', 'a = """\nx\ny"""\n'],
      ['a = """x"""" # q\n', 'a = """x""""  # q\n'],
      ['a = "x#y" # c d\n', 'a = "x#y" # c  d\n'],
      ['a = 1979-05-27 07:32:00\n', 'a = 1979-05-27  07:32:00\n'],
      ['a = 1\nb = 2\n', 'a = 1 b = 2\n'],
      ['a.b = 1\n', 'a . b = 1\n'],
      ['a = -1\n', 'a = - 1\n'],
      ['[[t]]\n', '[ [t] ]\n'],
      ['a = 1\n', 'a = 1\r'],
      ['a = 1\n', 'a = 1\nb'],
      // Strings are compared byte for byte: not even a change of quotes that keeps the value is taken.
      ["a = 'x'\n", 'a = "x"\n'],
      ["'k' = 1\n", '"k" = 1\n'],
      // Up to the closing quote.
      ["a = 'x'\nb = 1\n", 'a = \'x"\nb = 1\n'],
    ];
    for (const [a, b] of refusals)
      expect(sameTomlReading(a, b), `${JSON.stringify(a)} → ${JSON.stringify(b)}`).toBe(false);
  });
});
