import type { RawDiagnostic } from '../diagnostic.js';

/** Bounds that keep the validator safe on untrusted input. Every one is reported as a located diagnostic. */
export interface Limits {
  /** Largest input, in UTF-8 bytes. */
  maxBytes: number;
  /** Deepest nesting of collections, checked on the raw text before any parser runs. */
  maxDepth: number;
  /** Most alias nodes (`*name`) a YAML document may contain. */
  maxAliases: number;
  /** Most nodes the value may have once aliases are expanded (stops "billion laughs"). */
  maxExpandedNodes: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxBytes: 1024 * 1024,
  maxDepth: 64,
  maxAliases: 100,
  maxExpandedNodes: 200_000,
});

export function resolveLimits(overrides?: Partial<Limits>): Limits {
  return { ...DEFAULT_LIMITS, ...(overrides ?? {}) };
}

/** UTF-16 offset of the first character whose UTF-8 encoding ends past `maxBytes`, or -1 when the text fits. */
export function offsetPastByteLimit(text: string, maxBytes: number): number {
  if (text.length * 3 <= maxBytes) return -1;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
    if (bytes > maxBytes) return code >= 0xd800 && code <= 0xdbff ? i - 1 : i;
  }
  return -1;
}

// C0 controls other than tab, LF and CR, DEL, C1 controls, and UTF-16 halves that have no partner.
const FORBIDDEN_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Finds characters no manifest may contain. Returns one diagnostic (at the first one, with
 * the count in the message) and the text with each such character replaced by a space, so
 * the parsers still see every other character at its original offset.
 */
export function checkCharacters(text: string): { text: string; diagnostics: RawDiagnostic[] } {
  FORBIDDEN_CHARACTER.lastIndex = 0;
  const first = FORBIDDEN_CHARACTER.exec(text);
  if (!first) return { text, diagnostics: [] };
  let count = 0;
  const cleaned = text.replace(FORBIDDEN_CHARACTER, (match) => {
    count += 1;
    return ' '.repeat(match.length);
  });
  const code = first[0].charCodeAt(0);
  const what =
    code >= 0xd800 && code <= 0xdfff
      ? 'an unpaired UTF-16 surrogate'
      : `control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const more = count > 1 ? ` (${count} such characters in the file; this is the first)` : '';
  return {
    text: cleaned,
    diagnostics: [
      {
        code: 'forbidden-character',
        severity: 'error',
        message: `the file contains ${what}${more}; a manifest is text and may only contain printable characters, tabs and line breaks`,
        path: '',
        start: first.index,
        end: first.index + first[0].length,
      },
    ],
  };
}

/**
 * Measures collection nesting on the raw text, before a parser sees it: the `yaml` package
 * can abort the whole process on ~1000-deep input, so depth must be known before composing.
 * Flow brackets are counted outside quotes and comments; YAML block nesting is counted from
 * indentation and compact `- - -` sequence entries, skipping block scalar bodies. The count
 * errs on the high side, never the low one.
 *
 * Returns the offset where the nesting first exceeds `maxDepth`, or -1.
 */
export function findExcessiveNesting(text: string, format: 'yaml' | 'toml', maxDepth: number): number {
  let flowDepth = 0;
  let quote: '' | '"' | "'" | '"""' | "'''" = '';
  /** Indentation of the line a YAML quote opened on. */
  let quoteIndent = 0;
  const indents: number[] = [];
  let blockScalarIndent = -1;
  let lineStart = 0;
  const length = text.length;
  while (lineStart <= length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = length;
    let i = lineStart;
    let lineDepth = 0;
    if (quote && flowDepth === 0 && format === 'yaml') {
      // A quoted scalar's continuation lines are indented past the line it opened on. A line
      // that is not was never inside a quote (the "quote" was text in a plain scalar): re-sync.
      let indent = 0;
      while (lineStart + indent < lineEnd && text.charCodeAt(lineStart + indent) === 32) indent++;
      const blank = lineStart + indent >= lineEnd || text[lineStart + indent] === '\r';
      if (!blank && indent <= quoteIndent) quote = '';
    }
    if (!quote && flowDepth === 0) {
      let indent = 0;
      while (i < lineEnd && text.charCodeAt(i) === 32) i++;
      indent = i - lineStart;
      const blank = i >= lineEnd || text[i] === '#' || text[i] === '\r';
      if (blockScalarIndent >= 0 && (blank || indent > blockScalarIndent)) {
        lineStart = lineEnd + 1;
        continue;
      }
      blockScalarIndent = -1;
      if (blank) {
        lineStart = lineEnd + 1;
        continue;
      }
      if (format === 'yaml') {
        while (indents.length && indents[indents.length - 1]! >= indent) indents.pop();
        indents.push(indent);
        lineDepth = indents.length;
        // Compact nested collections: "- - - x", "? ? x", ": - x" open one level per indicator.
        while ((text[i] === '-' || text[i] === '?' || text[i] === ':') && (text[i + 1] === ' ' || i + 1 === lineEnd || text[i + 1] === '\r')) {
          lineDepth += 1;
          i += 2;
          while (text[i] === ' ') i++;
        }
        if (lineDepth > maxDepth) return i < lineEnd ? i : lineStart;
      } else {
        // TOML: every dot in a table header or a key path opens a level.
        lineDepth = 0;
      }
    }
    let scalarStart = true;
    let seenEquals = false;
    const tomlHeader = format === 'toml' && flowDepth === 0 && !quote && text[i] === '[';
    for (; i < lineEnd; i++) {
      const ch = text[i]!;
      if (quote) {
        if ((quote === '"' || quote === '"""') && ch === '\\') {
          i++;
          continue;
        }
        if (quote.length === 3) {
          if (text.startsWith(quote, i)) {
            quote = '';
            i += 2;
          }
        } else if (ch === quote) {
          if (quote === "'" && format === 'yaml' && text[i + 1] === "'") i++;
          else quote = '';
        }
        continue;
      }
      if (ch === '#' && (i === lineStart || /\s/.test(text[i - 1]!) || format === 'toml')) break;
      if (ch === '"' || ch === "'") {
        if (format === 'toml') {
          quote = text.startsWith(ch.repeat(3), i) ? (ch.repeat(3) as '"""' | "'''") : (ch as '"' | "'");
          if (quote.length === 3) i += 2;
        } else if (scalarStart) {
          quote = ch as '"' | "'";
          let indent = 0;
          while (text.charCodeAt(lineStart + indent) === 32) indent++;
          quoteIndent = indent;
        }
        continue;
      }
      if (ch === '[' || ch === '{') {
        flowDepth += 1;
        if (lineDepth + flowDepth > maxDepth) return i;
        scalarStart = true;
        continue;
      }
      if (ch === ']' || ch === '}') {
        flowDepth = Math.max(0, flowDepth - 1);
        scalarStart = false;
        continue;
      }
      if (format === 'toml' && ch === '.' && ((flowDepth === 0 && !seenEquals) || tomlHeader)) {
        lineDepth += 1;
        if (lineDepth > maxDepth) return i;
      }
      if (ch === ',' || ch === ':' || ch === '-' || ch === '?' || ch === '=') {
        if (ch === '=') seenEquals = true;
        scalarStart = true;
        continue;
      }
      if (ch === ' ' || ch === '\t') continue;
      if (format === 'yaml' && (ch === '|' || ch === '>') && scalarStart && flowDepth === 0) {
        // A block scalar header: the more-indented lines that follow are its text.
        const rest = text.slice(i + 1, lineEnd).replace(/#.*$/, '').trim();
        if (/^[-+0-9]*$/.test(rest)) {
          blockScalarIndent = indents.length ? indents[indents.length - 1]! : 0;
          break;
        }
      }
      scalarStart = false;
    }
    lineStart = lineEnd + 1;
  }
  return -1;
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
