import type { RawDiagnostic } from '../diagnostic.js';
import { scanYaml } from './yaml-scan.js';

/** Bounds that keep the validator safe on untrusted input. Every one is reported as a located diagnostic. */
export interface Limits {
  /** Largest input, in UTF-8 bytes. */
  maxBytes: number;
  /** Deepest nesting of collections, checked on the raw text before any parser runs. */
  maxDepth: number;
  /**
   * Most nodes the value may have once aliases are expanded (stops "billion laughs"). Aliases
   * are bounded by what they cost, not by how many there are: measuring and building the
   * value take time linear in the text plus this bound.
   */
  maxExpandedNodes: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxBytes: 1024 * 1024,
  maxDepth: 64,
  maxExpandedNodes: 200_000,
});

export function resolveLimits(overrides?: Partial<Limits>): Limits {
  return { ...DEFAULT_LIMITS, ...(overrides ?? {}) };
}

/** UTF-16 offset of the first character whose UTF-8 encoding ends past `maxBytes`, or -1 when the text fits. */
export function offsetPastByteLimit(text: string, maxBytes: number): number {
  if (text.length * 3 <= maxBytes) return -1;
  const native = nativeUtf8Length(text);
  if (native !== undefined && native <= maxBytes) return -1;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const pair = isSurrogatePairAt(text, i);
    bytes += pair ? 4 : unitBytes(text.charCodeAt(i));
    if (bytes > maxBytes) return i;
    if (pair) i++;
  }
  return -1;
}

/**
 * Node's count of a text's UTF-8 bytes, much faster than the loops here, which remain for other
 * runtimes (a browser has no `Buffer`); undefined there.
 */
function nativeUtf8Length(text: string): number | undefined {
  const nodeBuffer = (globalThis as { Buffer?: { byteLength(text: string, encoding: 'utf8'): number } }).Buffer;
  return nodeBuffer?.byteLength(text, 'utf8');
}

/** Whether the UTF-16 units at `i` and `i + 1` are a surrogate pair: one character, 4 bytes in UTF-8. */
function isSurrogatePairAt(text: string, i: number): boolean {
  return (text.charCodeAt(i) & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
}

/** The UTF-8 length of a UTF-16 unit that starts no surrogate pair (an unpaired half is encoded as U+FFFD, 3 bytes). */
function unitBytes(code: number): number {
  return code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
}

// C0 controls other than tab, LF and CR, DEL, C1 controls, and UTF-16 halves that have no partner.
const FORBIDDEN_CHARACTER =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// The same, and in TOML a carriage return not followed by a line feed: TOML's line breaks are LF
// and CRLF only, so a lone CR is a control character there (YAML counts it as a line break).
const FORBIDDEN_IN_TOML = new RegExp(`${FORBIDDEN_CHARACTER.source}|\\r(?!\\n)`, 'g');

function forbiddenIn(format: 'yaml' | 'toml'): RegExp {
  return format === 'toml' ? FORBIDDEN_IN_TOML : FORBIDDEN_CHARACTER;
}

/** Whether `text` has a character no manifest of `format` may contain (see {@link checkCharacters}). */
export function hasForbiddenCharacter(text: string, format: 'yaml' | 'toml'): boolean {
  const forbidden = forbiddenIn(format);
  forbidden.lastIndex = 0;
  const found = forbidden.test(text);
  forbidden.lastIndex = 0;
  return found;
}

/** The UTF-8 length of a text (an unpaired surrogate counts as the 3 bytes of U+FFFD, as when encoded). */
export function utf8Length(text: string): number {
  const native = nativeUtf8Length(text);
  if (native !== undefined) return native;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    if (isSurrogatePairAt(text, i)) {
      bytes += 4;
      i++;
    } else bytes += unitBytes(text.charCodeAt(i));
  }
  return bytes;
}

/**
 * Finds characters no manifest of `format` may contain. Returns one diagnostic (at the first
 * one, with the count in the message) and the text with each such character replaced by a
 * space, so the parsers still see every other character at its original offset.
 */
export function checkCharacters(text: string, format: 'yaml' | 'toml'): { text: string; diagnostics: RawDiagnostic[] } {
  const forbidden = forbiddenIn(format);
  forbidden.lastIndex = 0;
  const first = forbidden.exec(text);
  forbidden.lastIndex = 0;
  if (!first) return { text, diagnostics: [] };
  let count = 0;
  const cleaned = text.replace(forbidden, (match) => {
    count += 1;
    return ' '.repeat(match.length);
  });
  const code = first[0].charCodeAt(0);
  const what =
    code >= 0xd800 && code <= 0xdfff
      ? 'an unpaired UTF-16 surrogate'
      : code === 0x0d
        ? 'a carriage return (U+000D) without a line feed after it, which TOML does not take as a line break'
        : `control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const more = count > 1 ? ` (${count} such characters in the file; this is the first)` : '';
  return {
    text: cleaned,
    diagnostics: [
      {
        code: 'forbidden-character',
        message: `the file contains ${what}${more}; a manifest is text and may only contain printable characters, tabs and line breaks`,
        path: '',
        start: first.index,
        end: first.index + first[0].length,
      },
    ],
  };
}

/**
 * Measures collection nesting on the raw text, before a parser sees it: deep input must be
 * refused before any parser recurses into it. YAML is measured by `scanYaml`; TOML here:
 * arrays and inline tables count outside strings and comments, and every dot of a table header
 * or of a key path opens a level. The count errs on the high side, never the low one.
 *
 * Returns the offset where the nesting first exceeds `maxDepth`, or -1.
 */
const SPACE = 0x20;
const TAB = 0x09;
const HASH = 0x23;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const EQUALS = 0x3d;
const DOT = 0x2e;

export function findExcessiveNesting(text: string, format: 'yaml' | 'toml', maxDepth: number): number {
  if (format === 'yaml') return scanYaml(text, maxDepth).tooDeepAt;
  return scanTomlNesting(text, maxDepth).tooDeepAt;
}

/**
 * The TOML nesting check of {@link findExcessiveNesting} over the lines from `from` (a line
 * start where no string or collection is open) to `to` (a line start, or the end). `fresh`
 * says whether no string or collection is open at `to` and at each of the line starts
 * `freshAt` (ascending) lists: then the check of the text from such a line on does not depend
 * on what comes before it, which lets an edit re-check only the lines around it.
 */
export function scanTomlNesting(
  text: string,
  maxDepth: number,
  from = 0,
  to = text.length,
  freshAt?: readonly number[],
): { tooDeepAt: number; fresh: boolean } {
  // Character codes, not one-character strings: this runs on every edit of a large file.
  let flowDepth = 0;
  /** The open string's quote (`"` or `'`), 0 when none; `triple` for `"""` and `'''`. */
  let quote = 0;
  let triple = false;
  let lineStart = from;
  let fresh = true;
  let next = 0;
  const length = to;
  while (lineStart <= length) {
    if (freshAt) {
      while (next < freshAt.length && freshAt[next]! < lineStart) next++;
      if (next < freshAt.length && freshAt[next] === lineStart && (flowDepth !== 0 || quote !== 0)) fresh = false;
    }
    if (lineStart === length && length < text.length) break;
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = length;
    let i = lineStart;
    while (i < lineEnd && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
    let keyDepth = 0;
    let seenEquals = false;
    const header = flowDepth === 0 && quote === 0 && text.charCodeAt(i) === OPEN_BRACKET;
    for (; i < lineEnd; i++) {
      const ch = text.charCodeAt(i);
      if (quote !== 0) {
        if (quote === DQUOTE && ch === BACKSLASH) {
          i++;
        } else if (
          triple ? ch === quote && text.charCodeAt(i + 1) === quote && text.charCodeAt(i + 2) === quote : ch === quote
        ) {
          if (triple) i += 2;
          quote = 0;
        }
        continue;
      }
      if (ch === HASH) break;
      if (ch === DQUOTE || ch === SQUOTE) {
        quote = ch;
        triple = text.charCodeAt(i + 1) === ch && text.charCodeAt(i + 2) === ch;
        if (triple) i += 2;
      } else if (ch === OPEN_BRACKET || ch === OPEN_BRACE) {
        flowDepth += 1;
        if (keyDepth + flowDepth > maxDepth) return { tooDeepAt: i, fresh: false };
      } else if (ch === CLOSE_BRACKET || ch === CLOSE_BRACE) {
        flowDepth = Math.max(0, flowDepth - 1);
      } else if (ch === EQUALS) {
        seenEquals = true;
      } else if (ch === DOT && ((flowDepth === 0 && !seenEquals) || header)) {
        keyDepth += 1;
        if (keyDepth + flowDepth > maxDepth) return { tooDeepAt: i, fresh: false };
      }
    }
    // A one-line string ends with its line, closed or not (the parser reports one left open), and
    // so does a table header, balanced or not: the block planner reads them so, and a `"` or `[`
    // being typed then does not change how the lines after it are read.
    if (header) {
      flowDepth = 0;
      quote = 0;
    } else if (quote !== 0 && !triple) quote = 0;
    lineStart = lineEnd + 1;
  }
  return { tooDeepAt: -1, fresh: fresh && flowDepth === 0 && quote === 0 };
}

/** Describes where the first invalid UTF-8 sequence is, in the decoded text's UTF-16 offsets. */
export function decodeUtf8(bytes: Uint8Array): { text: string; invalidAt: number } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), invalidAt: -1 };
  } catch {
    const lossy = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
    // Find the longest valid prefix by bisection on the byte length.
    let low = 0;
    let high = bytes.length;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      try {
        // stream: a sequence cut at the end of the prefix is not an error yet.
        new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, mid), { stream: true });
        low = mid;
      } catch {
        high = mid - 1;
      }
    }
    const prefix = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, low), { stream: true });
    return { text: lossy.decode(bytes), invalidAt: prefix.length };
  }
}
