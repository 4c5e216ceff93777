/** The TOML half of the cursor context: the path comes from the nearest `[table]`/`[[array]]` header. */
import { PieceText, type LineTable, type TextSource } from '@svc-manifest/validator/library';
import type { PathSegment } from '../schema-model.js';
import { baseContext, flowMapContext, lineText, splitDottedKey, type CursorContext } from './common.js';

const HEADER_RE =
  /^[ \t]*(\[\[?)[ \t]*((?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)(?:[ \t]*\.[ \t]*(?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+))*)[ \t]*\]\]?/;

export function tomlContext(text: TextSource, offset: number, lines: LineTable): CursorContext | null {
  const lineNo = lines.lineOf(offset);
  const lineStart = lines.lineStart(lineNo);
  const full = lineText(text, lines, lineNo);
  const before = full.slice(0, offset - lineStart);
  if (/(^|\s)#/.test(before.replace(/"[^"]*"|'[^']*'/g, '""'))) return null;
  const wordAfter = /^[A-Za-z0-9_.-]*/.exec(full.slice(offset - lineStart))![0];

  // The table the line is in, with array-of-table indexes filled in.
  const arrayCounts = new Map<string, number>();
  let table: PathSegment[] = [];
  let tableHeaderLine = -1;
  const resolveTable = (parts: string[], isArray: boolean): PathSegment[] => {
    const path: PathSegment[] = [];
    const names: string[] = [];
    parts.forEach((part, i) => {
      path.push(part);
      names.push(part);
      // JSON of the path, not the keys joined: a quoted key may hold any separator.
      const key = JSON.stringify(names);
      if (i === parts.length - 1 && isArray) {
        const count = (arrayCounts.get(key) ?? 0) + 1;
        arrayCounts.set(key, count);
        path.push(count - 1);
      } else if (arrayCounts.has(key)) {
        path.push(arrayCounts.get(key)! - 1);
      }
    });
    return path;
  };
  let tableHeaderStart = -1;
  forEachHeader(text, lineStart, (header, start) => {
    table = resolveTable(header.keys, header.array);
    tableHeaderStart = start;
  });
  if (tableHeaderStart >= 0) tableHeaderLine = lines.lineOf(tableHeaderStart);

  const headerTyping = /^[ \t]*\[\[?[ \t]*([A-Za-z0-9_.-]*)$/.exec(before);
  if (headerTyping) {
    const partial = headerTyping[1]!;
    const dot = partial.lastIndexOf('.');
    const parent = dot === -1 ? [] : resolveTable(splitDottedKey(partial.slice(0, dot)), false);
    return {
      kind: 'key',
      path: parent,
      prefix: partial.slice(dot + 1),
      replaceStart: offset - (partial.length - dot - 1),
      replaceEnd: offset + wordAfter.length,
      present: [],
      column: 0,
      freshItem: false,
      header: true,
    };
  }

  const indent = /^[ \t]*/.exec(before)![0].length;
  const rest = before.slice(indent);
  const assignment =
    /^((?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)(?:[ \t]*\.[ \t]*(?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+))*)[ \t]*=[ \t]*(.*)$/.exec(
      rest,
    );
  let context: CursorContext;
  if (assignment) {
    const keyParts = splitDottedKey(assignment[1]!);
    const value = assignment[2]!;
    if (value.startsWith('{')) {
      const flow = flowMapContext(value, [...table, ...keyParts], offset, 'toml');
      if (!flow) return null;
      context = flow;
    } else if (value.startsWith('[')) {
      const inner = value.slice(1);
      const item = inner.slice(inner.lastIndexOf(',') + 1).replace(/^\s+/, '');
      if (/[\]]/.test(item)) return null;
      context = baseContext('item', [...table, ...keyParts], item, offset);
    } else {
      context = baseContext('value', [...table, ...keyParts], value, offset);
    }
  } else if (/^[A-Za-z0-9_."'-]*$/.test(rest)) {
    const dot = rest.lastIndexOf('.');
    const parents = dot === -1 ? [] : splitDottedKey(rest.slice(0, dot));
    context = baseContext('key', [...table, ...parents], rest.slice(dot + 1), offset);
    if (parents.length === 0) context.present = tomlPresentKeys(text, lines, tableHeaderLine, lineNo, table);
  } else {
    return null;
  }
  let replaceEnd = offset + wordAfter.length;
  if (context.quote && full[replaceEnd - lineStart] === context.quote) replaceEnd += 1;
  context.replaceEnd = replaceEnd;
  return context;
}

/** Keys written in the table at `table`: `key = …` lines of its section and sub-table headers anywhere. */
function tomlPresentKeys(
  text: TextSource,
  lines: LineTable,
  headerLine: number,
  cursorLine: number,
  table: PathSegment[],
): string[] {
  const present = new Set<string>();
  const names = table.filter((s): s is string => typeof s === 'string');
  const sectionLine = (line: number): boolean => {
    const content = lineText(text, lines, line);
    if (HEADER_RE.test(content)) return false;
    const key = /^[ \t]*((?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+))[ \t]*[.=]/.exec(content);
    if (key) present.add(splitDottedKey(key[1]!)[0]!);
    return true;
  };
  for (let line = headerLine + 1; line < cursorLine; line++) sectionLine(line);
  for (let line = cursorLine + 1; line < lines.lineCount; line++) if (!sectionLine(line)) break;
  forEachHeader(text, text.length, ({ keys }) => {
    if (keys.length > names.length && names.every((name, i) => keys[i] === name)) present.add(keys[names.length]!);
  });
  return [...present];
}

/** A line that starts, after blanks, with `[`: found by the regular expression engine, not line by line. */
const BRACKET_LINE = /^[ \t]*\[/gm;

/** A table header: `[a.b]`, or `[[a.b]]` for an array table. */
interface Header {
  array: boolean;
  /** The dotted key, split and unquoted. */
  keys: string[];
}

/** The key of the headers a PieceText keeps per piece. */
const HEADERS_OF_PIECE = {};

/**
 * Calls `visit` with each header line (in order) starting before `end`. A file has far fewer
 * headers than lines, and reading every line above the cursor made a completion in a large file
 * slow (measured in docs/decisions.md, "(#17) The open file is held in pieces"). A text held in pieces keeps each piece's headers, so after an edit only the edited
 * piece is read again, and a completion never makes the whole file one string.
 */
function forEachHeader(text: TextSource, end: number, visit: (header: Header, start: number) => void): void {
  if (!(text instanceof PieceText)) {
    scanHeaders(typeof text === 'string' ? text : text.slice(0, end), end, visit);
    return;
  }
  const { values, starts } = text.derived(HEADERS_OF_PIECE, headersIn);
  for (let i = 0; i < values.length && starts[i]! < end; i++) {
    for (const { at, header } of values[i]!) {
      if (starts[i]! + at >= end) return;
      visit(header, starts[i]! + at);
    }
  }
}

/** The headers of `chunk`, whole lines of a text, with where each starts in it. */
function headersIn(chunk: string): { at: number; header: Header }[] {
  const found: { at: number; header: Header }[] = [];
  scanHeaders(chunk, chunk.length, (header, at) => found.push({ at, header }));
  return found;
}

/** Calls `visit` with each header of `chunk` (whole lines of a text) that starts before `end`. */
function scanHeaders(chunk: string, end: number, visit: (header: Header, start: number) => void): void {
  BRACKET_LINE.lastIndex = 0;
  for (let bracket = BRACKET_LINE.exec(chunk); bracket && bracket.index < end; bracket = BRACKET_LINE.exec(chunk)) {
    const start = bracket.index;
    const lineEnd = chunk.indexOf('\n', start);
    // The engine's `^` also follows a lone CR or a line separator; the editor's lines end at LF only.
    if (start === 0 || chunk.charCodeAt(start - 1) === 10) {
      const header = HEADER_RE.exec(chunk.slice(start, lineEnd === -1 ? chunk.length : lineEnd));
      if (header) visit({ array: header[1] === '[[', keys: splitDottedKey(header[2]!) }, start);
    }
    if (lineEnd === -1) break;
    BRACKET_LINE.lastIndex = lineEnd + 1;
  }
}
