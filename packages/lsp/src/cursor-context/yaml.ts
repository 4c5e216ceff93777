/**
 * The YAML half of the cursor context: the path comes from indentation: the nearest lines above
 * with less indentation are the ancestors (`key:` or a `- ` item).
 */
import type { LineTable, TextSource } from '@svc-manifest/validator/library';
import type { PathSegment } from '../schema-model.js';
import { flowMapContext, lineText, unquoteKey, type CursorContext } from './common.js';

/**
 * The column of a line's first character, or -1 for a blank or comment line. Cheap: scans
 * skip lines by indentation before tokenizing any, so a cursor deep in a 50k-line file
 * costs a pass over line starts, not a regex per line.
 */
function indentOf(text: TextSource, lines: LineTable, line: number): number {
  const start = lines.lineStart(line);
  const end = line + 1 < lines.lineCount ? lines.lineStart(line + 1) - 1 : text.length;
  let at = start;
  while (at < end && text.charCodeAt(at) === 32) at += 1;
  if (at >= end) return -1;
  const code = text.charCodeAt(at);
  if (code === 35 /* # */ || code === 13) return -1;
  return at - start;
}

// ---------------------------------------------------------------------------------------------

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

export function yamlContext(text: TextSource, offset: number, lines: LineTable): CursorContext | null {
  const lineNo = lines.lineOf(offset);
  const lineStart = lines.lineStart(lineNo);
  const full = lineText(text, lines, lineNo);
  const before = full.slice(0, offset - lineStart);
  if (/(^|\s)#/.test(before.replace(/"[^"]*"|'[^']*'/g, '""'))) return null;

  const { dashCols, column } = itemMarkers(before);
  const wordAfter = /^[^\s:#,\]}]*/.exec(full.slice(offset - lineStart))![0];
  const at = cursorPlace(before.slice(column), offset);
  if (!at) return null;
  const { kind, partial } = at;

  // Ancestors: tokens on this line left of the cursor's column, then lines above.
  const present = new Set<string>();
  const collectSiblings = kind === 'key' && dashCols.length === 0;
  const ancestors = ancestorsAbove(text, lines, { lineNo, column, dashCols }, collectSiblings ? present : undefined);
  if (collectSiblings || (kind === 'key' && dashCols.length > 0))
    siblingKeysBelow(text, lines, lineNo, column, present);

  const path = pathOf(text, lines, ancestors);
  if (kind === 'value') path.push(at.key!);
  else if (kind === 'item') path.push(at.key!);
  // `- x` under an array of scalars is an item, decided by the caller from the schema.

  if (at.flowValue !== undefined) {
    const context = flowMapContext(at.flowValue, path, offset, 'yaml');
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
    replaceStart: at.partialStart,
    replaceEnd,
    present: [...present],
    column,
    freshItem: kind === 'key' && dashCols.length > 0,
    quote,
    ...(at.spaceBefore ? { spaceBefore: at.spaceBefore } : {}),
  };
}

/** The columns of the `- ` markers that start the cursor's line, and the column after them (and the indentation). */
function itemMarkers(before: string): { dashCols: number[]; column: number } {
  const head = /^( *)((?:- +)*)/.exec(before)!;
  const dashCols: number[] = [];
  let col = head[1]!.length;
  for (const dash of head[2]!.match(/- +/g) ?? []) {
    dashCols.push(col);
    col += dash.length;
  }
  return { dashCols, column: head[0].length };
}

/** What the cursor is in, from the line's text after its item markers up to the cursor. */
interface CursorPlace {
  kind: CursorContext['kind'];
  /** The key whose value (or flow sequence item) the cursor is in. */
  key?: string;
  /** The text typed so far, from `partialStart` to the cursor. */
  partial: string;
  partialStart: number;
  /** A flow mapping value (`key: {…`), completed by flowMapContext. */
  flowValue?: string;
  /** The cursor is right after `key:`, with no space yet. */
  spaceBefore: boolean;
}

/** A key being typed, a value after `key:`, or an item of a flow sequence (`key: [a, b`); null for anything else. */
function cursorPlace(rest: string, offset: number): CursorPlace | null {
  const keyMatch = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"?:,[\]{}][^#:]*?)[ \t]*:(?:[ \t]+(.*))?$/.exec(rest);
  if (keyMatch && (keyMatch[2] !== undefined || rest.endsWith(':'))) {
    const key = unquoteKey(keyMatch[1]!.trim());
    const value = keyMatch[2] ?? '';
    const flowValue = value.startsWith('{') ? value : undefined;
    if (value.startsWith('[')) {
      const inner = value.slice(1);
      const lastComma = inner.lastIndexOf(',');
      const item = inner.slice(lastComma + 1).replace(/^\s+/, '');
      if (/[\]]/.test(item)) return null;
      return { kind: 'item', key, partial: item, partialStart: offset - item.length, flowValue, spaceBefore: false };
    }
    return {
      kind: 'value',
      key,
      partial: value,
      partialStart: offset - value.length,
      flowValue,
      spaceBefore: keyMatch[2] === undefined,
    };
  }
  if (/^[^:#]*$/.test(rest))
    return { kind: 'key', partial: rest, partialStart: offset - rest.length, spaceBefore: false };
  return null;
}

/**
 * The cursor's ancestors, innermost first: the `- ` markers left of it on its line, then the
 * `key:` and `- ` tokens on the lines above that start left of what was found so far. Given
 * `present`, it also collects the keys above at the cursor's column (its siblings) until an
 * ancestor is found.
 */
function ancestorsAbove(
  text: TextSource,
  lines: LineTable,
  cursor: { lineNo: number; column: number; dashCols: readonly number[] },
  present: Set<string> | undefined,
): { token: LineToken; line: number }[] {
  const { lineNo, column, dashCols } = cursor;
  const ancestors: { token: LineToken; line: number }[] = [];
  let threshold = column;
  for (let i = dashCols.length - 1; i >= 0; i--) {
    ancestors.push({ token: { col: dashCols[i]!, kind: 'dash' }, line: lineNo });
    threshold = dashCols[i]!;
  }
  // After a `- ` ancestor, the key owning the sequence may sit at the same column
  // (`triggers:` over `- slug: a`, YAML's compact form).
  let afterDash = dashCols.length > 0;
  let siblingsOpen = present !== undefined;
  for (let line = lineNo - 1; line >= 0 && (threshold > 0 || siblingsOpen || afterDash); line--) {
    const indent = indentOf(text, lines, line);
    // Only a line starting left of the threshold (or a sibling's, at the column) can matter.
    if (indent < 0) continue;
    if (indent >= threshold && !(siblingsOpen && indent === column) && !(afterDash && indent === threshold)) continue;
    const tokens = tokenizeLine(lineText(text, lines, line));
    for (let t = tokens.length - 1; t >= 0; t--) {
      const token = tokens[t]!;
      if (siblingsOpen && token.col === column && token.kind === 'key') present!.add(token.name!);
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
  return ancestors;
}

/** Adds to `present` the keys at `column` on the lines below the cursor's, up to the first line left of it. */
function siblingKeysBelow(
  text: TextSource,
  lines: LineTable,
  lineNo: number,
  column: number,
  present: Set<string>,
): void {
  for (let line = lineNo + 1; line < lines.lineCount; line++) {
    const indent = indentOf(text, lines, line);
    if (indent < 0 || indent > column) continue;
    if (indent < column) break;
    const tokens = tokenizeLine(lineText(text, lines, line));
    for (const token of tokens) if (token.col === column && token.kind === 'key') present.add(token.name!);
  }
}

/** The path the ancestors (innermost first) spell, outermost first: a key's name, an item's index. */
function pathOf(
  text: TextSource,
  lines: LineTable,
  ancestors: readonly { token: LineToken; line: number }[],
): PathSegment[] {
  const path: PathSegment[] = [];
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const { token, line } = ancestors[i]!;
    if (token.kind === 'key') path.push(token.name!);
    else path.push(itemIndex(text, lines, line, token.col));
  }
  return path;
}

/** The index of the `- ` item at `col` on `line` among its siblings above. */
function itemIndex(text: TextSource, lines: LineTable, line: number, col: number): number {
  let index = 0;
  for (let above = line - 1; above >= 0; above--) {
    const indent = indentOf(text, lines, above);
    if (indent < 0 || indent > col) continue;
    if (indent < col) break;
    const at = lines.lineStart(above) + indent;
    // At the sequence's column every line is an item; anything else (its key) ends it.
    if (text.charCodeAt(at) === 45 /* - */ && /[ \r\n]/.test(text.slice(at + 1, at + 2) || '\n')) index += 1;
    else break;
  }
  return index;
}
