/**
 * Plans how a YAML manifest splits into independently parsable chunks, so an edit re-parses
 * only the chunk it falls in: a keystroke in a large file must not re-parse all of it
 * (docs/decisions.md, "(#17) An edit re-reads only the lines around it").
 *
 * A top-level chunk starts at each line that begins a top-level key (a content line at
 * column 0 outside any open flow collection or quoted scalar). A large top-level chunk whose
 * key holds a block sequence or block mapping is split again into one chunk per item. Any
 * construct that links chunks (anchors, aliases, tags, directives, document markers) or a
 * root that is not a block mapping gives `null`: parse the whole text instead.
 */

export interface ItemChunks {
  kind: 'seq' | 'map';
  /** The indentation of the items' first lines. */
  indent: number;
  /** Offset where the first item starts; the text before it (from the chunk start) is the header. */
  itemsStart: number;
  /** Start offsets of every item, the first equal to `itemsStart`. */
  itemStarts: number[];
}

export interface TopChunk {
  start: number;
  end: number;
  /** Lines from the chunk's key line to the next chunk's (what `ITEM_SPLIT_MIN_LINES` counts). */
  lines: number;
  items?: ItemChunks;
}

import type { YamlLineTable, YamlScan } from './yaml-scan.js';
import type { TextSource } from './piece-text.js';

/** Top-level chunks with fewer lines than this are parsed whole. */
export const ITEM_SPLIT_MIN_LINES = 48;

/** Plans the chunks of a text from its line table (see `scanYaml`); null when it must be parsed whole. */
export function planYamlChunks(text: string, scan: YamlScan): TopChunk[] | null {
  if (!scan.chunkable) return null;
  return planTopChunks(text, scan.lines, 0, scan.lines.start.length, text.length, false);
}

/**
 * The chunks of the lines `from..to` of a line table, which run to offset `end`: the first
 * chunk starts at the first line's start (the text's start, or a top-level key line), the last
 * ends at `end`. `earlierKeys` says whether top-level keys come before these lines. Null when
 * the text must be parsed whole.
 */
export function planTopChunks(
  text: TextSource,
  lines: YamlLineTable,
  from: number,
  to: number,
  end: number,
  earlierKeys: boolean,
): TopChunk[] | null {
  const tops: { line: number; start: number }[] = [];
  for (let i = from; i < to; i++) {
    if (lines.continuation[i] || lines.first[i] === 0 || lines.comment[i] || lines.indent[i]! > 0) continue;
    const ch = String.fromCharCode(lines.first[i]!);
    const start = lines.start[i]!;
    // `key:` followed by a sequence at column 0: the dashes are items of the current chunk.
    if (ch === '-' && (tops.length > 0 || earlierKeys) && /^-( |\r|\n|$)/.test(text.slice(start, start + 2))) continue;
    // U+FEFF too: at the start of a chunk the parser would take it for a byte-order mark and drop
    // it, where in the whole text it is part of the line (a key's first character, or an error).
    if ('-[{?:|>!&*%@`"\'\ufeff'.includes(ch)) return null;
    tops.push({ line: i, start });
  }
  if (tops.length === 0) return null;
  const chunks: TopChunk[] = [];
  for (let t = 0; t < tops.length; t++) {
    // The first chunk also holds any comments before the first key.
    const start = t === 0 ? lines.start[from]! : tops[t]!.start;
    const endLine = t + 1 < tops.length ? tops[t + 1]!.line : to;
    const chunk: TopChunk = {
      start,
      end: t + 1 < tops.length ? tops[t + 1]!.start : end,
      lines: endLine - tops[t]!.line,
    };
    if (chunk.lines >= ITEM_SPLIT_MIN_LINES) {
      const items = planItems(text, lines, tops[t]!.line, endLine);
      if (items) chunk.items = items;
    }
    chunks.push(chunk);
  }
  return chunks;
}

/** What a line is to a block collection whose items start at `indent` (see `planItems`). */
export function itemLine(
  text: TextSource,
  lines: YamlLineTable,
  i: number,
  indent: number,
  kind: 'seq' | 'map',
): 'other' | 'item' | 'invalid' {
  if (lines.continuation[i] || lines.first[i] === 0 || lines.comment[i]) return 'other';
  const lineIndent = lines.indent[i]!;
  if (lineIndent < indent) return 'invalid';
  if (lineIndent > indent) return 'other';
  const first = String.fromCharCode(lines.first[i]!);
  const at = lines.start[i]! + lineIndent;
  const isDash = first === '-' && /^-( |\r|\n|$)/.test(text.slice(at, at + 2));
  if (kind === 'seq' ? !isDash : isDash || '[{?:|>!&*%@`#"\''.includes(first)) return 'invalid';
  return 'item';
}

/** Whether a top-level chunk's key line introduces a block collection (`key:` and at most a comment). */
export function isCollectionHeader(line: string): boolean {
  return /^[A-Za-z0-9_.-]+:[ \t]*(#.*)?\r?\n?$/.test(line);
}

function planItems(
  text: TextSource,
  lines: YamlLineTable,
  headerLine: number,
  endLine: number,
): ItemChunks | undefined {
  const headerStart = lines.start[headerLine]!;
  const headerEnd = headerLine + 1 < lines.start.length ? lines.start[headerLine + 1]! : text.length;
  // Only `key:` with nothing but a comment after the colon introduces a block collection.
  if (!isCollectionHeader(text.slice(headerStart, headerEnd))) return undefined;
  let indent = -1;
  let kind: 'seq' | 'map' = 'map';
  const itemStarts: number[] = [];
  for (let i = headerLine + 1; i < endLine; i++) {
    if (lines.continuation[i] || lines.first[i] === 0 || lines.comment[i]) continue;
    if (indent === -1) {
      indent = lines.indent[i]!;
      kind = lines.first[i] === 45 ? 'seq' : 'map';
    }
    const what = itemLine(text, lines, i, indent, kind);
    if (what === 'invalid') return undefined;
    if (what === 'item') itemStarts.push(lines.start[i]!);
  }
  if (itemStarts.length < 2) return undefined;
  return { kind, indent, itemsStart: itemStarts[0]!, itemStarts };
}
