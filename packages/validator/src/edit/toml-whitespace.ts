/**
 * Whether two TOML texts read the same when they differ only in whitespace, decided in one pass
 * over both, without parsing: the formatter's check for TOML before it falls back to a re-parse
 * (docs/decisions.md, "(#37) The formatter"). Browser-safe.
 */

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const HASH = 35;
const QUOTE = 34;
const APOSTROPHE = 39;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

function isWhitespace(code: number): boolean {
  return code === SPACE || code === TAB || code === LF || code === CR;
}

/** Characters that whitespace may be added next to or removed from without changing what TOML reads: `=`, `,`, braces and brackets. */
function isSeparator(code: number): boolean {
  return (
    code === 61 /* = */ ||
    code === 44 /* , */ ||
    code === 123 /* { */ ||
    code === 125 /* } */ ||
    code === OPEN_BRACKET ||
    code === CLOSE_BRACKET
  );
}

function isBracket(code: number): boolean {
  return code === OPEN_BRACKET || code === CLOSE_BRACKET;
}

/** Whether `text[from, to)` (whitespace) has a line feed; undefined when it has a carriage return not followed by one (TOML refuses that). */
function hasLineEnd(text: string, from: number, to: number): boolean | undefined {
  let found = false;
  for (let at = from; at < to; at++) {
    const code = text.charCodeAt(at);
    if (code === LF) found = true;
    else if (code === CR && text.charCodeAt(at + 1) !== LF) return undefined;
  }
  return found;
}

function sameSlice(a: string, aFrom: number, b: string, bFrom: number, length: number): boolean {
  if (aFrom + length > a.length || bFrom + length > b.length) return false;
  for (let k = 0; k < length; k++) if (a.charCodeAt(aFrom + k) !== b.charCodeAt(bFrom + k)) return false;
  return true;
}

/**
 * The end of the string that starts at `start` (a quote or apostrophe): one past its closing
 * delimiter, or -1 when it does not close as TOML 1.0 reads it.
 */
function stringEnd(text: string, start: number): number {
  const quote = text.charCodeAt(start);
  const escapes = quote === QUOTE;
  const triple = text.charCodeAt(start + 1) === quote && text.charCodeAt(start + 2) === quote;
  for (let at = start + (triple ? 3 : 1); at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (escapes && code === BACKSLASH) {
      at++;
      continue;
    }
    if (!triple && (code === LF || code === CR)) return -1;
    if (code !== quote) continue;
    if (!triple) return at + 1;
    if (text.charCodeAt(at + 1) !== quote || text.charCodeAt(at + 2) !== quote) continue;
    // A multi-line string may end with one or two quotes of its own before its closing three.
    let end = at + 3;
    for (let extra = 0; extra < 2 && text.charCodeAt(end) === quote; extra++) end++;
    return end;
  }
  return -1;
}

/**
 * Whether `b` reads as TOML exactly as `a` does, judged by their text alone: with whitespace
 * removed they are equal, strings (quotes included) are equal byte for byte, and every run of
 * whitespace that differs lies where TOML ignores how much there is. That is: before the first
 * character and after the last; a run with a line end against another with one (outside strings,
 * TOML reads any number of line ends and blank lines as one, and a comment ends at the first);
 * next to `=`, `,`, a brace or a bracket, any run, empty or not, except that two brackets keep
 * whether they touch (`[[`); elsewhere (inside a comment, a dotted key, a date-time) only the
 * same run. False means "not shown here", not "different": the caller then parses.
 */
export function sameTomlReading(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  // The last character read outside strings and comments; -1 before the first.
  let previous = -1;
  let inComment = false;
  for (;;) {
    const runA = i;
    const runB = j;
    while (i < a.length && isWhitespace(a.charCodeAt(i))) i++;
    while (j < b.length && isWhitespace(b.charCodeAt(j))) j++;
    const lineEndA = hasLineEnd(a, runA, i);
    const lineEndB = hasLineEnd(b, runB, j);
    if (lineEndA === undefined || lineEndB === undefined) return false;
    if (i === a.length || j === b.length) return i === a.length && j === b.length;
    const next = a.charCodeAt(i);
    if (next !== b.charCodeAt(j)) return false;
    if (previous !== -1 || inComment) {
      if (lineEndA !== lineEndB) return false;
      if (lineEndA) {
        inComment = false;
      } else {
        const lengthA = i - runA;
        const lengthB = j - runB;
        const same = lengthA === lengthB && sameSlice(a, runA, b, runB, lengthA);
        if (!same) {
          if (inComment) return false;
          const loose = isSeparator(previous) || isSeparator(next);
          const touchingChanged = (lengthA === 0) !== (lengthB === 0);
          if (!loose || (touchingChanged && isBracket(previous) && isBracket(next))) return false;
        }
      }
    }
    if (inComment) {
      i++;
      j++;
      continue;
    }
    if (next === QUOTE || next === APOSTROPHE) {
      const end = stringEnd(a, i);
      if (end === -1 || !sameSlice(a, i, b, j, end - i)) return false;
      j += end - i;
      i = end;
      previous = next;
      continue;
    }
    if (next === HASH) inComment = true;
    previous = next;
    i++;
    j++;
  }
}
