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

export function scanYaml(text: string, maxDepth: number, partial?: PartialScan): YamlScan {
  const lines: YamlLineTable = { start: [], indent: [], first: [], continuation: [], comment: [] };
  let chunkable = true;
  let flowDepth = 0;
  let quote = 0; // 0, or the code of the open quote character
  let quoteIndent = 0;
  let blockScalarIndent = -1;
  const indents: number[] = partial ? [...partial.indents] : [];
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
    if (firstCode === TAB) chunkable = false;

    if (quote !== 0 && flowDepth === 0 && !blank && indent <= quoteIndent) quote = 0;
    let continuation = flowDepth > 0 || quote !== 0;
    if (!continuation && blockScalarIndent >= 0) {
      if (blank || indent > blockScalarIndent) continuation = true;
      else blockScalarIndent = -1;
    }
    const isComment = !continuation && firstCode === 35; // '#'
    if (stopAt && lineStart >= stopFrom && !continuation && !blank && !isComment) {
      let enclosing = indents.length;
      while (enclosing > 0 && indents[enclosing - 1]! >= indent) enclosing--;
      if (stopAt(lineStart, indent, enclosing === indents.length ? indents : indents.slice(0, enclosing))) {
        return { tooDeepAt: -1, chunkable, lines, end: lineStart, stopped: true };
      }
    }
    lines.start.push(lineStart);
    lines.indent.push(indent);
    lines.first.push(blank ? 0 : firstCode);
    lines.continuation.push(continuation);
    lines.comment.push(isComment);

    if ((continuation && blockScalarIndent >= 0) || blank || isComment) {
      lineStart = lineEnd + 1;
      continue;
    }

    let lineDepth = 0;
    if (!continuation) {
      if (indent === 0 && (text.startsWith('---', i) || text.startsWith('...', i) || firstCode === 37))
        chunkable = false;
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
      if (lineDepth + flowDepth > maxDepth)
        return {
          tooDeepAt: Math.min(i, Math.max(lineStart, lineEnd - 1)),
          chunkable,
          lines,
          end: length,
          stopped: false,
        };
    }

    let nodeStart = true;
    for (; i < lineEnd; i++) {
      const code = text.charCodeAt(i);
      if (quote !== 0) {
        if (quote === 34 && code === 92)
          i++; // backslash escape in "…"
        else if (code === quote) {
          if (quote === 39 && text.charCodeAt(i + 1) === 39)
            i++; // '' inside '…'
          else {
            quote = 0;
            nodeStart = false;
          }
        }
        continue;
      }
      if (code === SPACE || code === TAB) continue;
      if (code === 35 && (i === lineStart || isBreakOrSpace(text.charCodeAt(i - 1)))) break; // comment
      if (nodeStart && (code === 34 || code === 39)) {
        quote = code;
        quoteIndent = indent;
        continue;
      }
      if (nodeStart && (code === 38 || code === 33 || code === 42)) {
        // An anchor (&a), a tag (!t) or an alias (*a): skip its name, which ends at a space or a
        // flow indicator (`{k: *a}`: the `}` closes the collection; YAML 1.2, ns-anchor-char).
        chunkable = false;
        const verbatimEnd = code === 33 && text.charCodeAt(i + 1) === 60 ? text.indexOf('>', i) : -1; // `!<tag:x,y>`
        if (verbatimEnd !== -1 && verbatimEnd < lineEnd) i = verbatimEnd;
        else
          while (i + 1 < lineEnd && !isBreakOrSpace(text.charCodeAt(i + 1)) && !isFlowIndicator(text.charCodeAt(i + 1)))
            i++;
        nodeStart = code !== 42;
        continue;
      }
      if (code === 91 || code === 123) {
        // `[` or `{`: a flow collection where a node can start; elsewhere plain text.
        if (nodeStart || flowDepth > 0) {
          flowDepth += 1;
          if (lineDepth + flowDepth > maxDepth) return { tooDeepAt: i, chunkable, lines, end: length, stopped: false };
          nodeStart = true;
        } else nodeStart = false;
        continue;
      }
      if (code === 93 || code === 125) {
        if (flowDepth > 0) flowDepth -= 1;
        nodeStart = false;
        continue;
      }
      if (code === 44) {
        nodeStart = flowDepth > 0;
        continue;
      }
      const next = text.charCodeAt(i + 1);
      if ((code === 45 || code === 63) && nodeStart && isBreakOrSpace(next)) continue; // `- ` / `? ` keep a node start
      if (
        code === 58 &&
        (isBreakOrSpace(next) ||
          (flowDepth > 0 && (next === 44 || next === 91 || next === 93 || next === 123 || next === 125)))
      ) {
        nodeStart = true; // `: ` — a value follows
        continue;
      }
      if ((code === 124 || code === 62) && nodeStart && flowDepth === 0) {
        // `|` or `>`: a block scalar; the more-indented lines that follow are its text.
        blockScalarIndent = indents.length ? indents[indents.length - 1]! : 0;
        break;
      }
      nodeStart = false;
    }
    lineStart = lineEnd + 1;
  }
  return { tooDeepAt: -1, chunkable, lines, end: length, stopped: false };
}

/** `,` `[` `]` `{` `}`: no anchor, alias or tag name contains one. */
function isFlowIndicator(code: number): boolean {
  return code === 44 || code === 91 || code === 93 || code === 123 || code === 125;
}
