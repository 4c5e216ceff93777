/**
 * Plans how a YAML manifest splits into independently parsable chunks, so an edit re-parses
 * only the chunk it falls in (the `yaml` parser runs at about 2 MB/s; a keystroke in a
 * 50k-line file must not re-parse all of it).
 *
 * A top-level chunk starts at each line that begins a top-level key (a content line at
 * column 0 outside any open flow collection or quoted scalar). A large top-level chunk whose
 * key holds a block sequence or block mapping is split again into one chunk per item. Any
 * construct that links chunks (anchors, aliases, tags, directives, document markers) or a
 * root that is not a block mapping gives `null`: parse the whole text instead.
 */

export interface ItemChunks {
  kind: 'seq' | 'map';
  /** Offset where the first item starts; the text before it (from the chunk start) is the header. */
  itemsStart: number;
  /** Start offsets of every item, the first equal to `itemsStart`. */
  itemStarts: number[];
}

export interface TopChunk {
  start: number;
  end: number;
  items?: ItemChunks;
}

/** Top-level chunks with fewer lines than this are parsed whole. */
export const ITEM_SPLIT_MIN_LINES = 48;

interface LineInfo {
  start: number;
  indent: number;
  /** First non-space character, '' for a blank line. */
  first: string;
  /** The line begins inside a flow collection or quoted scalar opened on an earlier line. */
  continuation: boolean;
  comment: boolean;
}

export function planYamlChunks(text: string): TopChunk[] | null {
  const lines = scanLines(text);
  if (!lines) return null;
  const tops: { line: number; start: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.continuation || line.first === '' || line.comment || line.indent > 0) continue;
    const ch = line.first;
    // `key:` followed by a sequence at column 0: the dashes are items of the current chunk.
    if (ch === '-' && tops.length > 0 && /^-( |\r|\n|$)/.test(text.slice(line.start, line.start + 2))) continue;
    if ('-[{?:|>!&*%@`'.includes(ch)) return null;
    tops.push({ line: i, start: line.start });
  }
  if (tops.length === 0) return null;
  const chunks: TopChunk[] = [];
  for (let t = 0; t < tops.length; t++) {
    // The first chunk also holds any comments before the first key.
    const start = t === 0 ? 0 : tops[t]!.start;
    const endLine = t + 1 < tops.length ? tops[t + 1]!.line : lines.length;
    const end = t + 1 < tops.length ? tops[t + 1]!.start : text.length;
    const chunk: TopChunk = { start, end };
    if (endLine - tops[t]!.line >= ITEM_SPLIT_MIN_LINES) {
      const items = planItems(text, lines, tops[t]!.line, endLine);
      if (items) chunk.items = items;
    }
    chunks.push(chunk);
  }
  return chunks;
}

function planItems(text: string, lines: LineInfo[], headerLine: number, endLine: number): ItemChunks | undefined {
  const header = lines[headerLine]!;
  const headerEnd = headerLine + 1 < lines.length ? lines[headerLine + 1]!.start : text.length;
  // Only `key:` with nothing but a comment after the colon introduces a block collection.
  if (!/^[A-Za-z0-9_.-]+:[ \t]*(#.*)?\r?\n?$/.test(text.slice(header.start, headerEnd))) return undefined;
  let indent = -1;
  let kind: 'seq' | 'map' = 'map';
  const itemStarts: number[] = [];
  for (let i = headerLine + 1; i < endLine; i++) {
    const line = lines[i]!;
    if (line.continuation || line.first === '' || line.comment) continue;
    if (indent === -1) {
      indent = line.indent;
      kind = line.first === '-' ? 'seq' : 'map';
    }
    if (line.indent < indent) return undefined;
    if (line.indent > indent) continue;
    const isDash = line.first === '-' && /^-( |\r|\n|$)/.test(text.slice(line.start + line.indent, line.start + line.indent + 2));
    if (kind === 'seq' ? !isDash : isDash || '[{?:|>!&*%@`#'.includes(line.first)) return undefined;
    itemStarts.push(line.start);
  }
  if (itemStarts.length < 2) return undefined;
  return { kind, itemsStart: itemStarts[0]!, itemStarts };
}

/** One pass over the text: per line, its indent and whether it continues an open flow collection or quote. */
function scanLines(text: string): LineInfo[] | null {
  const lines: LineInfo[] = [];
  let flowDepth = 0;
  let quote = '';
  let lineStart = 0;
  const length = text.length;
  while (lineStart <= length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = length;
    const continuation = flowDepth > 0 || quote !== '';
    let i = lineStart;
    while (i < lineEnd && text.charCodeAt(i) === 32) i++;
    const first = i < lineEnd && text[i] !== '\r' ? text[i]! : '';
    if (first === '\t') return null;
    const info: LineInfo = { start: lineStart, indent: i - lineStart, first, continuation, comment: first === '#' && !continuation };
    lines.push(info);
    if (!continuation && info.indent === 0 && (text.startsWith('---', i) || text.startsWith('...', i) || first === '%')) return null;
    let scalarStart = true;
    for (; i < lineEnd; i++) {
      const ch = text[i]!;
      if (quote) {
        if (quote === '"' && ch === '\\') i++;
        else if (ch === quote) {
          if (quote === "'" && text[i + 1] === "'") i++;
          else quote = '';
        }
        continue;
      }
      if (ch === '#' && (i === lineStart || text[i - 1] === ' ' || text[i - 1] === '\t')) break;
      if (ch === ' ' || ch === '\t') continue;
      if (scalarStart && (ch === '"' || ch === "'")) {
        quote = ch;
        continue;
      }
      if (scalarStart && (ch === '&' || ch === '*' || ch === '!')) return null; // anchors, aliases and tags link chunks
      if (ch === '[' || ch === '{') {
        flowDepth += 1;
        scalarStart = true;
      } else if (ch === ']' || ch === '}') {
        flowDepth = Math.max(0, flowDepth - 1);
        scalarStart = false;
      } else if (ch === ',' || ch === '-' || ch === '?') {
        scalarStart = true;
      } else if (ch === ':') {
        scalarStart = text[i + 1] === ' ' || text[i + 1] === undefined || text[i + 1] === '\n' || text[i + 1] === '\r' || flowDepth > 0;
      } else if ((ch === '|' || ch === '>') && scalarStart) {
        break; // a block scalar header; its body is indented and cannot look like a boundary
      } else {
        scalarStart = false;
      }
    }
    lineStart = lineEnd + 1;
  }
  return lines;
}
