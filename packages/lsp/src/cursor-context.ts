/**
 * Where the cursor is in a manifest, read from the text around it rather than the parsed
 * tree: while a person types, the document is usually half-written (a key without a value, a
 * TOML line that does not parse), yet completion must still know the path it is at.
 *
 * YAML: the path comes from indentation: the nearest lines above with less indentation are
 * the ancestors (`key:` or a `- ` item). TOML: from the nearest `[table]`/`[[array]]` header.
 */
import { LineIndex, lineOfOffset, type ManifestFormat } from '@svc-manifest/validator';
import type { PathSegment } from './schema-model.js';

export interface CursorContext {
  /**
   * `key`: a key is being typed in the object at `path`.
   * `value`: the value of the key that ends `path` is being typed.
   * `item`: an item of the array at `path` is being typed (`- x`, `[a, x`).
   */
  kind: 'key' | 'value' | 'item';
  path: PathSegment[];
  /** The partial word being typed (quotes excluded). */
  prefix: string;
  /** The text to replace with the chosen item (the partial word, any opening quote included). */
  replaceStart: number;
  replaceEnd: number;
  /** `key` only: keys already written in the object. */
  present: string[];
  /** YAML: the column where keys of this object start. */
  column: number;
  /** YAML `key` only: the line is a fresh `- ` item with nothing typed but the word. */
  freshItem: boolean;
  /** The partial value starts with a quote. */
  quote?: '"' | "'";
  /** TOML: the line is a table header being typed (`[tri`). */
  header?: boolean;
  /** YAML: the cursor is right after `key:`; a value needs a space before it. */
  spaceBefore?: boolean;
  /** The key is typed inside a flow map / inline table: insert `key: ` / `key = ` only. */
  flow?: boolean;
}

/** The context at `offset`, or null where nothing can be completed (a comment, inside a flow map). */
export function cursorContext(text: string, offset: number, format: ManifestFormat, starts?: readonly number[]): CursorContext | null {
  const lines = starts ?? lineStarts(text);
  return format === 'toml' ? tomlContext(text, offset, lines) : yamlContext(text, offset, lines);
}

/**
 * The column of a line's first character, or -1 for a blank or comment line. Cheap: scans
 * skip lines by indentation before tokenizing any, so a cursor deep in a 50k-line file
 * costs a pass over line starts, not a regex per line.
 */
function indentOf(text: string, starts: readonly number[], line: number): number {
  const start = starts[line]!;
  const end = line + 1 < starts.length ? starts[line + 1]! - 1 : text.length;
  let at = start;
  while (at < end && text.charCodeAt(at) === 32) at += 1;
  if (at >= end) return -1;
  const code = text.charCodeAt(at);
  if (code === 35 /* # */ || code === 13) return -1;
  return at - start;
}

// ---------------------------------------------------------------------------------------------
// YAML

interface LineToken {
  col: number;
  kind: 'dash' | 'key' | 'other';
  name?: string;
}

const KEY_RE = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"\-?:,[\]{}][^#]*?|-[^\s#][^#]*?)[ \t]*:(?=[ \t]|$)/;

/** The structure tokens at the start of a line: `- ` markers and a `key:`. */
function tokenizeLine(line: string): LineToken[] {
  const tokens: LineToken[] = [];
  let at = 0;
  while (at < line.length && line[at] === ' ') at += 1;
  if (at >= line.length || line[at] === '#' || line[at] === '\r') return tokens;
  for (;;) {
    if (line[at] === '-' && (at + 1 >= line.length || line[at + 1] === ' ' || line[at + 1] === '\r')) {
      tokens.push({ col: at, kind: 'dash' });
      at += 1;
      while (at < line.length && line[at] === ' ') at += 1;
      if (at >= line.length || line[at] === '#' || line[at] === '\r') return tokens;
      continue;
    }
    break;
  }
  const rest = line.slice(at);
  const match = KEY_RE.exec(rest);
  if (match) tokens.push({ col: at, kind: 'key', name: unquoteKey(match[1]!.trim()) });
  else tokens.push({ col: at, kind: 'other' });
  return tokens;
}

function unquoteKey(key: string): string {
  if (key.startsWith('"') && key.endsWith('"') && key.length >= 2) {
    try {
      return JSON.parse(key) as string;
    } catch {
      return key.slice(1, -1);
    }
  }
  if (key.startsWith("'") && key.endsWith("'") && key.length >= 2) return key.slice(1, -1).replace(/''/g, "'");
  return key;
}

function lineStarts(text: string): readonly number[] {
  return new LineIndex(text).lineStarts;
}

function lineText(text: string, starts: readonly number[], line: number): string {
  const end = line + 1 < starts.length ? starts[line + 1]! - 1 : text.length;
  return text.slice(starts[line]!, end).replace(/\r$/, '');
}

function yamlContext(text: string, offset: number, starts: readonly number[]): CursorContext | null {
  const lineNo = lineOfOffset(starts, offset);
  const lineStart = starts[lineNo]!;
  const full = lineText(text, starts, lineNo);
  const before = full.slice(0, offset - lineStart);
  if (/(^|\s)#/.test(before.replace(/"[^"]*"|'[^']*'/g, '""'))) return null;

  const head = /^( *)((?:- +)*)/.exec(before)!;
  const dashCols: number[] = [];
  {
    let col = head[1]!.length;
    for (const dash of head[2]!.match(/- +/g) ?? []) {
      dashCols.push(col);
      col += dash.length;
    }
  }
  const column = head[0].length;
  const rest = before.slice(column);
  const wordAfter = /^[^\s:#,\]}]*/.exec(full.slice(offset - lineStart))![0];

  let kind: CursorContext['kind'];
  let spaceBefore = false;
  let flowValue: string | undefined;
  let key: string | undefined;
  let partial: string;
  let partialStart: number;
  const keyMatch = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"?:,[\]{}][^#:]*?)[ \t]*:(?:[ \t]+(.*))?$/.exec(rest);
  if (keyMatch && (keyMatch[2] !== undefined || rest.endsWith(':'))) {
    key = unquoteKey(keyMatch[1]!.trim());
    const value = keyMatch[2] ?? '';
    const valueStart = offset - value.length;
    if (value.startsWith('{')) flowValue = value;
    if (value.startsWith('[')) {
      const inner = value.slice(1);
      const lastComma = inner.lastIndexOf(',');
      const item = inner.slice(lastComma + 1).replace(/^\s+/, '');
      if (/[\]]/.test(item)) return null;
      kind = 'item';
      partial = item;
      partialStart = offset - item.length;
    } else {
      kind = 'value';
      partial = value;
      partialStart = valueStart;
      spaceBefore = keyMatch[2] === undefined;
    }
  } else if (/^[^:#]*$/.test(rest)) {
    kind = 'key';
    partial = rest;
    partialStart = offset - rest.length;
  } else {
    return null;
  }

  // Ancestors: tokens on this line left of the cursor's column, then lines above.
  const ancestors: { token: LineToken; line: number }[] = [];
  const present = new Set<string>();
  let threshold = column;
  for (let i = dashCols.length - 1; i >= 0; i--) {
    ancestors.push({ token: { col: dashCols[i]!, kind: 'dash' }, line: lineNo });
    threshold = dashCols[i]!;
  }
  // After a `- ` ancestor, the key owning the sequence may sit at the same column
  // (`triggers:` over `- slug: a`, YAML's compact form).
  let afterDash = dashCols.length > 0;
  const collectSiblings = kind === 'key' && dashCols.length === 0;
  let siblingsOpen = collectSiblings;
  for (let line = lineNo - 1; line >= 0 && (threshold > 0 || siblingsOpen || afterDash); line--) {
    const indent = indentOf(text, starts, line);
    // Only a line starting left of the threshold (or a sibling's, at the column) can matter.
    if (indent < 0) continue;
    if (indent >= threshold && !(siblingsOpen && indent === column) && !(afterDash && indent === threshold)) continue;
    const tokens = tokenizeLine(lineText(text, starts, line));
    for (let t = tokens.length - 1; t >= 0; t--) {
      const token = tokens[t]!;
      if (siblingsOpen && token.col === column && token.kind === 'key') present.add(token.name!);
      if (afterDash && token.col === threshold && token.kind === 'key') {
        ancestors.push({ token, line });
        afterDash = false;
        continue;
      }
      if (token.col < threshold) {
        siblingsOpen = false;
        threshold = token.col;
        // A plain scalar line shallower than the cursor: not structure we understand.
        if (token.kind === 'other') continue;
        ancestors.push({ token, line });
        afterDash = token.kind === 'dash';
      }
    }
  }
  if (collectSiblings || (kind === 'key' && dashCols.length > 0)) {
    for (let line = lineNo + 1; line < starts.length; line++) {
      const indent = indentOf(text, starts, line);
      if (indent < 0 || indent > column) continue;
      if (indent < column) break;
      const tokens = tokenizeLine(lineText(text, starts, line));
      for (const token of tokens) if (token.col === column && token.kind === 'key') present.add(token.name!);
    }
  }

  const path: PathSegment[] = [];
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const { token, line } = ancestors[i]!;
    if (token.kind === 'key') path.push(token.name!);
    else path.push(itemIndex(text, starts, line, token.col));
  }
  if (kind === 'value') path.push(key!);
  else if (kind === 'item') path.push(key!);
  // `- x` under an array of scalars is an item, decided by the caller from the schema.

  if (flowValue !== undefined) {
    const context = flowMapContext(flowValue, path, offset, 'yaml');
    if (!context) return null;
    context.replaceEnd = offset + wordAfter.length;
    if (context.quote && full[context.replaceEnd - lineStart] === context.quote) context.replaceEnd += 1;
    return context;
  }

  let quote: CursorContext['quote'];
  let prefix = partial;
  if (partial.startsWith('"') || partial.startsWith("'")) {
    quote = partial[0] as '"' | "'";
    prefix = partial.slice(1);
  }
  let replaceEnd = offset + wordAfter.length;
  if (quote && full[replaceEnd - lineStart] === quote) replaceEnd += 1;
  return {
    kind,
    path,
    prefix,
    replaceStart: partialStart,
    replaceEnd,
    present: [...present],
    column,
    freshItem: kind === 'key' && dashCols.length > 0,
    quote,
    ...(spaceBefore ? { spaceBefore } : {}),
  };
}

/** The index of the `- ` item at `col` on `line` among its siblings above. */
function itemIndex(text: string, starts: readonly number[], line: number, col: number): number {
  let index = 0;
  for (let above = line - 1; above >= 0; above--) {
    const indent = indentOf(text, starts, above);
    if (indent < 0 || indent > col) continue;
    if (indent < col) break;
    const at = starts[above]! + indent;
    // At the sequence's column every line is an item; anything else (its key) ends it.
    if (text.charCodeAt(at) === 45 /* - */ && /[ \r\n]/.test(text[at + 1] ?? '\n')) index += 1;
    else break;
  }
  return index;
}

// ---------------------------------------------------------------------------------------------
// TOML

const HEADER_RE = /^[ \t]*(\[\[?)[ \t]*((?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)(?:[ \t]*\.[ \t]*(?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+))*)[ \t]*\]\]?/;

/** Splits a dotted TOML key (`a."b.c".d`) into its parts. */
export function splitDottedKey(key: string): string[] {
  const parts: string[] = [];
  const re = /[ \t]*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]*)[ \t]*(\.|$)/y;
  let at = 0;
  while (at <= key.length) {
    re.lastIndex = at;
    const match = re.exec(key);
    if (!match || match[0] === '') break;
    const part = match[1]!;
    parts.push(part.startsWith('"') ? safeJson(part) : part.startsWith("'") ? part.slice(1, -1) : part);
    at = re.lastIndex;
    if (match[2] !== '.') break;
  }
  return parts;
}

function safeJson(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

function tomlContext(text: string, offset: number, starts: readonly number[]): CursorContext | null {
  const lineNo = lineOfOffset(starts, offset);
  const lineStart = starts[lineNo]!;
  const full = lineText(text, starts, lineNo);
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
  for (let line = 0; line < lineNo; line++) {
    if (!startsWithBracket(text, starts, line)) continue;
    const header = HEADER_RE.exec(lineText(text, starts, line));
    if (!header) continue;
    table = resolveTable(splitDottedKey(header[2]!), header[1] === '[[');
    tableHeaderLine = line;
  }

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
  const assignment = /^((?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)(?:[ \t]*\.[ \t]*(?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+))*)[ \t]*=[ \t]*(.*)$/.exec(rest);
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
    if (parents.length === 0) context.present = tomlPresentKeys(text, starts, tableHeaderLine, lineNo, table);
  } else {
    return null;
  }
  let replaceEnd = offset + wordAfter.length;
  if (context.quote && full[replaceEnd - lineStart] === context.quote) replaceEnd += 1;
  context.replaceEnd = replaceEnd;
  return context;
}

/**
 * Inside a one-level flow map / inline table (`auth: { type: be`, `auth = { type = "be`):
 * a key of the map (with the keys already written) or the value of one of its keys.
 */
function flowMapContext(value: string, path: PathSegment[], offset: number, format: ManifestFormat): CursorContext | null {
  const inner = value.slice(1);
  if (/[{}[\]]/.test(inner)) return null;
  const parts = inner.split(',');
  const current = parts[parts.length - 1]!;
  const separator = format === 'toml' ? '=' : ':';
  const keyOf = (part: string): string[] => {
    const at = part.indexOf(separator);
    const key = (at === -1 ? part : part.slice(0, at)).trim();
    return format === 'toml' ? splitDottedKey(key) : [unquoteKey(key)];
  };
  const at = current.indexOf(separator);
  if (at !== -1) {
    const partial = current.slice(at + 1).replace(/^[ \t]+/, '');
    return baseContext('value', [...path, ...keyOf(current)], partial, offset);
  }
  const partial = current.replace(/^[ \t]+/, '');
  if (!/^[A-Za-z0-9_"'-]*$/.test(partial)) return null;
  const context = baseContext('key', path, partial, offset);
  context.present = parts.slice(0, -1).map((part) => keyOf(part)[0]!).filter(Boolean);
  context.flow = true;
  return context;
}

function baseContext(kind: CursorContext['kind'], path: PathSegment[], partial: string, offset: number): CursorContext {
  let quote: CursorContext['quote'];
  let prefix = partial;
  if (partial.startsWith('"') || partial.startsWith("'")) {
    quote = partial[0] as '"' | "'";
    prefix = partial.slice(1);
  }
  return { kind, path, prefix, replaceStart: offset - partial.length, replaceEnd: offset, present: [], column: 0, freshItem: false, quote };
}

/** Keys written in the table at `table`: `key = …` lines of its section and sub-table headers anywhere. */
function tomlPresentKeys(text: string, starts: readonly number[], headerLine: number, cursorLine: number, table: PathSegment[]): string[] {
  const present = new Set<string>();
  const names = table.filter((s): s is string => typeof s === 'string');
  const sectionLine = (line: number): boolean => {
    const content = lineText(text, starts, line);
    if (HEADER_RE.test(content)) return false;
    const key = /^[ \t]*((?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+))[ \t]*[.=]/.exec(content);
    if (key) present.add(splitDottedKey(key[1]!)[0]!);
    return true;
  };
  for (let line = headerLine + 1; line < cursorLine; line++) sectionLine(line);
  for (let line = cursorLine + 1; line < starts.length; line++) if (!sectionLine(line)) break;
  for (let line = 0; line < starts.length; line++) {
    if (!startsWithBracket(text, starts, line)) continue;
    const header = HEADER_RE.exec(lineText(text, starts, line));
    if (!header) continue;
    const parts = splitDottedKey(header[2]!);
    if (parts.length > names.length && names.every((name, i) => parts[i] === name)) present.add(parts[names.length]!);
  }
  return [...present];
}

function startsWithBracket(text: string, starts: readonly number[], line: number): boolean {
  let at = starts[line]!;
  while (text.charCodeAt(at) === 32 || text.charCodeAt(at) === 9) at += 1;
  return text.charCodeAt(at) === 91; /* [ */
}
