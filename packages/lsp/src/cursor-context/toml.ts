/** The TOML half of the cursor context: the path comes from the nearest `[table]`/`[[array]]` header. */
import type { LineTable, TextSource } from '@svc-manifest/validator';
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
      const key = names.join('\u0000');
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
    table = resolveTable(splitDottedKey(header[2]!), header[1] === '[[');
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
  const assignment = /^((?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)(?:[ \t]*\.[ \t]*(?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+))*)[ \t]*=[ \t]*(.*)$/.exec(
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
function tomlPresentKeys(text: TextSource, lines: LineTable, headerLine: number, cursorLine: number, table: PathSegment[]): string[] {
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
  forEachHeader(text, text.length, (header) => {
    const parts = splitDottedKey(header[2]!);
    if (parts.length > names.length && names.every((name, i) => parts[i] === name)) present.add(parts[names.length]!);
  });
  return [...present];
}

/** A line that starts, after blanks, with `[`: found by the regular expression engine, not line by line. */
const BRACKET_LINE = /^[ \t]*\[/gm;

/** How much of a text held in pieces {@link forEachHeader} reads as one string. */
const HEADER_WINDOW = 64 * 1024;

/**
 * Calls `visit` with each header line (in order) starting before `end`. A file has far fewer
 * headers than lines: in a 50k-line file, reading every line above the cursor cost ~20 ms a
 * completion. A text held in pieces is read in windows of whole lines, so a completion does not
 * make the whole file one string.
 */
function forEachHeader(text: TextSource, end: number, visit: (header: RegExpExecArray, start: number) => void): void {
  if (typeof text === 'string') {
    headersIn(text, 0, end, visit);
    return;
  }
  for (let from = 0; from < end && from < text.length;) {
    let to = Math.min(text.length, from + HEADER_WINDOW);
    if (to < text.length) {
      const newline = text.lastIndexOf('\n', to - 1);
      // A line longer than the window: read to its end.
      const lineEnd = newline >= from ? newline : text.indexOf('\n', to);
      to = lineEnd === -1 ? text.length : lineEnd + 1;
    }
    headersIn(text.slice(from, to), from, end, visit);
    from = to;
  }
}

/** {@link forEachHeader} over `chunk`, whole lines of the text from offset `base`. */
function headersIn(chunk: string, base: number, end: number, visit: (header: RegExpExecArray, start: number) => void): void {
  BRACKET_LINE.lastIndex = 0;
  for (let found = BRACKET_LINE.exec(chunk); found && base + found.index < end; found = BRACKET_LINE.exec(chunk)) {
    const start = found.index;
    const lineEnd = chunk.indexOf('\n', start);
    // The engine's `^` also follows a lone CR or a line separator; the editor's lines end at LF only.
    if (start === 0 || chunk.charCodeAt(start - 1) === 10) {
      const header = HEADER_RE.exec(chunk.slice(start, lineEnd === -1 ? chunk.length : lineEnd));
      if (header) visit(header, base + start);
    }
    if (lineEnd === -1) break;
    BRACKET_LINE.lastIndex = lineEnd + 1;
  }
}
