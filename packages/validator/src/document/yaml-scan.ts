/**
 * One pass over YAML text, before any parser runs, that answers two questions:
 *
 * 1. How deep do collections nest? The `yaml` package can abort the whole process on ~1000-deep
 *    input, so depth must be known before composing. Block nesting is counted from indentation
 *    and from compact indicators (`- - x`, `? ? x`, `: - x`); flow nesting from `[`/`{` where a
 *    node can start (line start, after `: `, `- `, `? `, `,`, `[`, `{`, an anchor or a tag) or
 *    inside a flow collection. Brackets inside quoted scalars and plain text do not count, and a
 *    "quote" that a less-indented line shows was plain text is dropped (re-sync).
 * 2. Where does each line start, how is it indented, and does it continue a flow collection or a
 *    quoted scalar opened earlier? `yaml-chunks.ts` plans incremental parsing from this.
 *
 * Anchors, aliases, tags, directives and document markers link parts of the text together;
 * when any is present `chunkable` is false (the depth answer is still complete).
 */

import { wholeLinesEnd, type TextSource } from './piece-text.js';

export interface YamlLineTable {
  start: number[];
  indent: number[];
  /** Code of the first non-space character; 0 for a blank line. */
  first: number[];
  /** The line begins inside a flow collection, a quoted scalar or a block scalar's body. */
  continuation: boolean[];
  /** The line holds only a comment. */
  comment: boolean[];
}

export interface YamlScan {
  /** Offset where nesting first exceeds the limit, or -1. */
  tooDeepAt: number;
  /** Whether the text can be parsed chunk by chunk. */
  chunkable: boolean;
  lines: YamlLineTable;
  /** Where the scan ended: the text's length, or the line start where `stopAt` said stop. */
  end: number;
  /** Whether `stopAt` stopped the scan. */
  stopped: boolean;
}

/**
 * A scan of part of a text (see `ManifestDocument.update`): it starts at `from`, a line that
 * the whole text's scan reaches with no flow collection, quoted or block scalar open (a line
 * that is not a continuation) and with `indents` as the indentations of the enclosing lines
 * that are less indented than it; from there it reads exactly as the whole scan does.
 */
export interface PartialScan {
  from: number;
  indents: number[];
  /**
   * Called at each line from `stopFrom` on that is not a continuation, a blank line or a
   * comment, with its indentation and the enclosing lines' indentations (those less indented
   * than it); `true` ends the scan before that line.
   */
  stopAt?: (lineStart: number, indent: number, enclosing: readonly number[]) => boolean;
  stopFrom?: number;
}

/**
 * {@link scanYaml} from `partial.from` over a text read by ranges: a string is scanned as it is;
 * any other source through a window of whole lines from `from`, grown until the scan stops (or
 * finds the text too deep) inside it or the window reaches the end of the text. Every line the
 * answer reports is whole in the window, so it reads as the whole text's scan reads it.
 */
export function scanYamlPart(text: TextSource, maxDepth: number, partial: PartialScan): YamlScan {
  if (typeof text === 'string') return scanYaml(text, maxDepth, partial);
  const base = partial.from;
  const stopAt = partial.stopAt;
  for (let size = 64 * 1024; ; size *= 4) {
    const end = wholeLinesEnd(text, base, size);
    if (end < 0) continue;
    const scan = scanYaml(text.slice(base, end), maxDepth, {
      from: 0,
      indents: partial.indents,
      stopFrom: (partial.stopFrom ?? 0) - base,
      stopAt: stopAt && ((lineStart, indent, enclosing) => stopAt(lineStart + base, indent, enclosing)),
    });
    if (scan.stopped || scan.tooDeepAt >= 0 || end === text.length) {
      const lines = scan.lines;
      for (let i = 0; i < lines.start.length; i++) lines.start[i]! += base;
      return { ...scan, lines, end: scan.end + base, tooDeepAt: scan.tooDeepAt >= 0 ? scan.tooDeepAt + base : -1 };
    }
  }
}

const SPACE = 32;
const TAB = 9;
const CR = 13;
const LF = 10;

function isBreakOrSpace(code: number): boolean {
  return code === SPACE || code === TAB || code === CR || code === LF || Number.isNaN(code);
}

/** What the scan carries from one line to the next. */
interface ScanState {
  readonly text: string;
  readonly maxDepth: number;
  readonly lines: YamlLineTable;
  chunkable: boolean;
  flowDepth: number;
  /** 0, or the code of the open quote character. */
  quote: number;
  /** The indentation of the line where the open quote started. */
  quoteIndent: number;
  /** The indentation a block scalar's body must exceed, or -1 outside one. */
  blockScalarIndent: number;
  /** The indentations of the open block lines, outermost first. */
  indents: number[];
}

export function scanYaml(text: string, maxDepth: number, partial?: PartialScan): YamlScan {
  const state: ScanState = {
    text,
    maxDepth,
    lines: { start: [], indent: [], first: [], continuation: [], comment: [] },
    chunkable: true,
    flowDepth: 0,
    quote: 0,
    quoteIndent: 0,
    blockScalarIndent: -1,
    indents: partial ? [...partial.indents] : [],
  };
  const { lines } = state;
  const length = text.length;
  let lineStart = partial ? partial.from : 0;
  const stopAt = partial?.stopAt;
  const stopFrom = partial?.stopFrom ?? 0;

  while (lineStart <= length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = length;
    let i = lineStart;
    while (i < lineEnd && text.charCodeAt(i) === SPACE) i++;
    const indent = i - lineStart;
    const firstCode = i < lineEnd ? text.charCodeAt(i) : 0;
    const blank = firstCode === 0 || firstCode === CR;
    if (firstCode === TAB) state.chunkable = false;

    const continuation = continuesEarlierLine(state, indent, blank);
    const isComment = !continuation && firstCode === 35; // '#'
    if (stopAt && lineStart >= stopFrom && !continuation && !blank && !isComment) {
      if (stopAt(lineStart, indent, enclosingIndents(state.indents, indent))) {
        return { tooDeepAt: -1, chunkable: state.chunkable, lines, end: lineStart, stopped: true };
      }
    }
    lines.start.push(lineStart);
    lines.indent.push(indent);
    lines.first.push(blank ? 0 : firstCode);
    lines.continuation.push(continuation);
    lines.comment.push(isComment);

    if (!((continuation && state.blockScalarIndent >= 0) || blank || isComment)) {
      const tooDeepAt = scanLine(state, lineStart, lineEnd, i, continuation);
      if (tooDeepAt >= 0) return { tooDeepAt, chunkable: state.chunkable, lines, end: length, stopped: false };
    }
    lineStart = lineEnd + 1;
  }
  return { tooDeepAt: -1, chunkable: state.chunkable, lines, end: length, stopped: false };
}

/**
 * Whether a line begins inside something an earlier line opened: a flow collection, a quoted
 * scalar or a block scalar's body. A quote that a line indented no deeper than the quote's own
 * line shows was plain text is dropped here (re-sync), and a block scalar ends at the first
 * non-blank line that is not more indented than its owner.
 */
function continuesEarlierLine(state: ScanState, indent: number, blank: boolean): boolean {
  if (state.quote !== 0 && state.flowDepth === 0 && !blank && indent <= state.quoteIndent) state.quote = 0;
  if (state.flowDepth > 0 || state.quote !== 0) return true;
  if (state.blockScalarIndent >= 0) {
    if (blank || indent > state.blockScalarIndent) return true;
    state.blockScalarIndent = -1;
  }
  return false;
}

/** The indentations of the open block lines that enclose a line indented by `indent`. */
function enclosingIndents(indents: number[], indent: number): number[] {
  let enclosing = indents.length;
  while (enclosing > 0 && indents[enclosing - 1]! >= indent) enclosing--;
  return enclosing === indents.length ? indents : indents.slice(0, enclosing);
}

/**
 * Reads one line that holds nodes, from its first non-space character at `i`: a line that
 * continues none opens its block level and one more per compact indicator; then its flow
 * brackets and quotes are counted. Returns where nesting first exceeds the limit, or -1.
 */
function scanLine(state: ScanState, lineStart: number, lineEnd: number, i: number, continuation: boolean): number {
  const { text } = state;
  const indent = i - lineStart;
  let lineDepth = 0;
  if (!continuation) {
    if (indent === 0 && startsDirectiveOrMarker(text, i)) state.chunkable = false;
    const { indents } = state;
    while (indents.length && indents[indents.length - 1]! >= indent) indents.pop();
    indents.push(indent);
    lineDepth = indents.length;
    // Compact nested collections: "- - - x", "? ? x", ": - x" open one level per indicator.
    for (;;) {
      const code = text.charCodeAt(i);
      if ((code === 45 || code === 63 || code === 58) && isBreakOrSpace(text.charCodeAt(i + 1)) && i < lineEnd) {
        lineDepth += 1;
        i += 1;
        while (text.charCodeAt(i) === SPACE) i++;
      } else break;
    }
    if (lineDepth + state.flowDepth > state.maxDepth) return Math.min(i, Math.max(lineStart, lineEnd - 1));
  }
  return scanNodes(state, lineStart, lineEnd, i, indent, lineDepth);
}

/**
 * Goes through a line's characters from `i`, keeping the open quote, the flow depth and whether
 * a node can start at the next character (where a `[`, `{` or quote opens something rather than
 * being plain text). `indent` is the line's, `lineDepth` its block depth. Returns where flow
 * nesting first exceeds the limit, or -1.
 */
function scanNodes(
  state: ScanState,
  lineStart: number,
  lineEnd: number,
  i: number,
  indent: number,
  lineDepth: number,
): number {
  const { text } = state;
  let nodeStart = true;
  for (; i < lineEnd; i++) {
    const code = text.charCodeAt(i);
    if (state.quote !== 0) {
      if (state.quote === 34 && code === 92)
        i++; // backslash escape in "…"
      else if (code === state.quote) {
        if (state.quote === 39 && text.charCodeAt(i + 1) === 39)
          i++; // '' inside '…'
        else {
          state.quote = 0;
          nodeStart = false;
        }
      }
      continue;
    }
    if (code === SPACE || code === TAB) continue;
    if (code === 35 && (i === lineStart || isBreakOrSpace(text.charCodeAt(i - 1)))) break; // comment
    if (nodeStart && (code === 34 || code === 39)) {
      state.quote = code;
      state.quoteIndent = indent;
      continue;
    }
    if (nodeStart && (code === 38 || code === 33 || code === 42)) {
      state.chunkable = false;
      i = nodePropertyEnd(text, i, lineEnd);
      nodeStart = code !== 42;
      continue;
    }
    if (code === 91 || code === 123) {
      // `[` or `{`: a flow collection where a node can start; elsewhere plain text.
      if (nodeStart || state.flowDepth > 0) {
        state.flowDepth += 1;
        if (lineDepth + state.flowDepth > state.maxDepth) return i;
        nodeStart = true;
      } else nodeStart = false;
      continue;
    }
    if (code === 93 || code === 125) {
      if (state.flowDepth > 0) state.flowDepth -= 1;
      nodeStart = false;
      continue;
    }
    if (code === 44) {
      nodeStart = state.flowDepth > 0;
      continue;
    }
    const next = text.charCodeAt(i + 1);
    if ((code === 45 || code === 63) && nodeStart && isBreakOrSpace(next)) continue; // `- ` / `? ` keep a node start
    if (
      code === 58 &&
      (isBreakOrSpace(next) ||
        (state.flowDepth > 0 && (next === 44 || next === 91 || next === 93 || next === 123 || next === 125)))
    ) {
      nodeStart = true; // `: ` — a value follows
      continue;
    }
    if ((code === 124 || code === 62) && nodeStart && state.flowDepth === 0) {
      // `|` or `>`: a block scalar; the more-indented lines that follow are its text.
      state.blockScalarIndent = state.indents.length ? state.indents[state.indents.length - 1]! : 0;
      break;
    }
    nodeStart = false;
  }
  return -1;
}

/**
 * The last character of an anchor (`&a`), a tag (`!t`, `!<tag:x,y>`) or an alias (`*a`) that
 * starts at `i`: its name ends at a space or a flow indicator (`{k: *a}`: the `}` closes the
 * collection; YAML 1.2, ns-anchor-char).
 */
function nodePropertyEnd(text: string, i: number, lineEnd: number): number {
  const verbatimEnd = text.charCodeAt(i) === 33 && text.charCodeAt(i + 1) === 60 ? text.indexOf('>', i) : -1;
  if (verbatimEnd !== -1 && verbatimEnd < lineEnd) return verbatimEnd;
  while (i + 1 < lineEnd && !isBreakOrSpace(text.charCodeAt(i + 1)) && !isFlowIndicator(text.charCodeAt(i + 1))) i++;
  return i;
}

/** A line starting `---`, `...` or `%` at `at`: a document marker or a directive, which only the library reads. */
export function startsDirectiveOrMarker(text: string, at: number): boolean {
  return text.startsWith('---', at) || text.startsWith('...', at) || text.charCodeAt(at) === 0x25;
}

/** `,` `[` `]` `{` `}`: no anchor, alias or tag name contains one. */
function isFlowIndicator(code: number): boolean {
  return code === 44 || code === 91 || code === 93 || code === 123 || code === 125;
}
