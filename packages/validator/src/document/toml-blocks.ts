/**
 * Splits a TOML text into blocks at its table headers, so an edit re-parses only the block it
 * falls in. Block 0 holds the root keys before the first header (possibly nothing); every
 * other block starts at the line of a header (`[a.b]` or `[[a]]`) and runs to the line of the
 * next one. A header is a line whose first non-blank character is `[` while no string, array
 * or inline table is open.
 *
 * Each block also gets a signature: its header line and, for each key/value statement, the
 * key as written and what kind of value it has (table, array or other). Everything one block
 * can do to another (a table defined twice, a key that a later header extends, an array of
 * tables continued) depends only on these, so a text whose signatures equal those of a text
 * that parsed without error can be parsed block by block (see ManifestDocument.update).
 *
 * Returns null when the scan ends inside an open string or collection: parse the whole text.
 */
import { wholeLinesEnd, type TextSource } from './piece-text.js';

export interface TomlBlock {
  start: number;
  end: number;
  signature: string;
}

const NEWLINE = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const HASH = 35;
const DQUOTE = 34;
const SQUOTE = 39;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const EQUALS = 61;

export function planTomlBlocks(text: string): TomlBlock[] | null {
  return planTomlRange(text, 0)?.blocks ?? null;
}

/**
 * {@link planTomlRange} over a text read by ranges: a string is planned as it is; any other
 * source through a window of whole lines from `from`, grown until the plan stops inside it or
 * the window reaches the end of the text. A plan that runs to the window's end, or finds a value
 * still open there, is not an answer until the window is the whole rest of the text.
 */
export function planTomlPart(
  text: TextSource,
  from: number,
  stopAt: (offset: number) => boolean,
  stopFrom: number,
): { blocks: TomlBlock[]; end: number; stopped: boolean } | null {
  if (typeof text === 'string') return planTomlRange(text, from, stopAt, stopFrom);
  for (let size = 16 * 1024; ; size *= 4) {
    const end = wholeLinesEnd(text, from, size);
    if (end < 0) continue;
    const plan = planTomlRange(
      text.slice(from, end),
      0,
      (offset) => stopAt(offset + from),
      stopFrom - from,
      from === 0,
    );
    if (end === text.length || plan?.stopped) {
      if (!plan) return null;
      for (const block of plan.blocks) {
        block.start += from;
        block.end += from;
      }
      return { blocks: plan.blocks, end: plan.end + from, stopped: plan.stopped };
    }
  }
}

/**
 * The blocks from `from` (a block's start: the text's start, or a header line) on. With
 * `stopAt`, the plan ends before the first line start from `stopFrom` on, outside any value,
 * that it accepts (`stopped`); the blocks then end there. Null as for {@link planTomlBlocks}.
 * `atTextStart` says that `from` is the start of the whole text, where block 0 begins even
 * when the first line is a header (a window of a larger text passes false).
 */
export function planTomlRange(
  text: string,
  from: number,
  stopAt?: (offset: number) => boolean,
  stopFrom = 0,
  atTextStart = from === 0,
): { blocks: TomlBlock[]; end: number; stopped: boolean } | null {
  const length = text.length;
  const blocks: TomlBlock[] = [];
  let blockStart = from;
  let signature: string[] = [];
  let i = from;
  while (i < length) {
    // At the start of a line, outside any value.
    const lineStart = i;
    if (stopAt && i >= stopFrom && i > from && stopAt(i)) {
      blocks.push({ start: blockStart, end: i, signature: signature.join('\n') });
      return { blocks, end: i, stopped: true };
    }
    while (i < length && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
    const first = text.charCodeAt(i);
    if (i >= length) break;
    // A CR is a line end only before LF (CRLF); a lone CR starts no blank line (the text's
    // reader refuses it, see limits.ts), so the line is planned as the statement it precedes.
    if (first === NEWLINE || (first === CR && text.charCodeAt(i + 1) === NEWLINE) || first === HASH) {
      i = lineEndAt(text, i) + 1;
      continue;
    }
    if (first === OPEN_BRACKET) {
      // A range starting at a header has no block before it.
      if (lineStart > from || atTextStart)
        blocks.push({ start: blockStart, end: lineStart, signature: signature.join('\n') });
      blockStart = lineStart;
      const end = lineEndAt(text, i);
      signature = [text.slice(i, end).trimEnd()];
      i = end + 1;
      continue;
    }
    const keyEnd = statementKeyEnd(text, i);
    if (keyEnd < 0) return null;
    if (text.charCodeAt(keyEnd) !== EQUALS) {
      // Not a statement the parser accepts; keep the text in the signature and go on.
      signature.push(`?${text.slice(i, lineEndAt(text, keyEnd))}`);
      i = lineEndAt(text, keyEnd) + 1;
      continue;
    }
    let j = keyEnd + 1;
    while (j < length && (text.charCodeAt(j) === SPACE || text.charCodeAt(j) === TAB)) j++;
    const v = text.charCodeAt(j);
    signature.push(`${text.slice(i, keyEnd).trim()}=${v === OPEN_BRACE ? '{' : v === OPEN_BRACKET ? '[' : ''}`);
    i = statementValueEnd(text, j);
    if (i < 0) return null;
  }
  blocks.push({ start: blockStart, end: length, signature: signature.join('\n') });
  return { blocks, end: length, stopped: false };
}

/** Where the line holding `at` ends: its newline, or the end of the text. */
function lineEndAt(text: string, at: number): number {
  const n = text.indexOf('\n', at);
  return n === -1 ? text.length : n;
}

/**
 * Where a key/value statement's key ends, from its first character at `i`: at its `=`, or at the
 * newline or comment of a line that is no statement (quoted parts of the key are skipped whole).
 * -1 when a quoted part never closes.
 */
function statementKeyEnd(text: string, i: number): number {
  let j = i;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === EQUALS || c === NEWLINE || c === HASH) break;
    if (c === DQUOTE || c === SQUOTE) {
      j = skipString(text, j);
      if (j < 0) return -1;
      continue;
    }
    j++;
  }
  return j;
}

/**
 * Where a statement's value, starting at `j`, ends: after the newline of the line where every
 * collection it opened is closed (or at the text's end). -1 when a string or collection is still
 * open at the end of the text.
 */
function statementValueEnd(text: string, j: number): number {
  const length = text.length;
  let depth = 0;
  while (j < length) {
    const c = text.charCodeAt(j);
    if (c === NEWLINE) {
      j++;
      if (depth === 0) break;
      continue;
    }
    if (c === DQUOTE || c === SQUOTE) {
      j = skipString(text, j);
      if (j < 0) return -1;
      continue;
    }
    if (c === HASH) {
      j = lineEndAt(text, j);
      continue;
    }
    if (c === OPEN_BRACKET || c === OPEN_BRACE) depth++;
    else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth = Math.max(0, depth - 1);
    j++;
  }
  return depth > 0 ? -1 : j;
}

/** Skips a string starting at `at` (a quote); returns the offset after it, or -1 if it never closes. */
function skipString(text: string, at: number): number {
  const length = text.length;
  const quote = text.charCodeAt(at);
  const triple = text.charCodeAt(at + 1) === quote && text.charCodeAt(at + 2) === quote;
  if (triple) {
    let j = at + 3;
    while (j < length) {
      const c = text.charCodeAt(j);
      if (quote === DQUOTE && c === BACKSLASH) {
        j += 2;
        continue;
      }
      if (c === quote && text.charCodeAt(j + 1) === quote && text.charCodeAt(j + 2) === quote) {
        j += 3;
        // Up to two more quotes belong to the content (`""""` ends a string holding `"`).
        for (let extra = 0; extra < 2 && text.charCodeAt(j) === quote; extra++) j++;
        return j;
      }
      j++;
    }
    return -1;
  }
  let j = at + 1;
  while (j < length) {
    const c = text.charCodeAt(j);
    if (c === NEWLINE || c === CR) return j; // unterminated: the parser reports it
    if (quote === DQUOTE && c === BACKSLASH) {
      j += 2;
      continue;
    }
    if (c === quote) return j + 1;
    j++;
  }
  return j;
}
