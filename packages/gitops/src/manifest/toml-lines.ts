/**
 * A line-level view of a TOML file: which lines are table headers (and of which table),
 * key/value lines, their continuations (multi-line strings and arrays), comments and
 * blanks. Enough to find where a table's body ends, so a new key can be inserted
 * right after the table's last value instead of after the comments of the next table.
 */

export type TomlLineKind = 'header' | 'array-header' | 'value' | 'continuation' | 'comment' | 'blank';

export interface TomlLine {
  kind: TomlLineKind;
  /** Offset of the line's first character. */
  start: number;
  /** Offset of the line end (before `\r\n` / `\n`). */
  end: number;
  /** For headers: the table's key path. */
  path?: string[];
}

export function scanTomlLines(text: string): TomlLine[] {
  const lines: TomlLine[] = [];
  let multiline: '"""' | "'''" | null = null;
  let depth = 0;
  let start = 0;
  while (start <= text.length) {
    let next = text.indexOf('\n', start);
    if (next < 0) next = text.length;
    const end = next > start && text[next - 1] === '\r' ? next - 1 : next;
    const content = text.slice(start, end);
    const trimmed = content.trim();
    let kind: TomlLineKind;
    let path: string[] | undefined;
    if (multiline || depth > 0) kind = 'continuation';
    else if (trimmed === '') kind = 'blank';
    else if (trimmed.startsWith('#')) kind = 'comment';
    else if (trimmed.startsWith('[')) {
      kind = trimmed.startsWith('[[') ? 'array-header' : 'header';
      path = headerPath(trimmed);
    } else kind = 'value';
    if (kind === 'value' || kind === 'continuation') ({ multiline, depth } = scanValue(content, multiline, depth));
    lines.push({ kind, start, end, ...(path ? { path } : {}) });
    if (next >= text.length) break;
    start = next + 1;
  }
  return lines;
}

/** The dotted key of `[a.b]` / `[[a."b c"]]`. */
function headerPath(line: string): string[] {
  const inner = line.replace(/^\[\[?/, '').replace(/\]\]?\s*(#.*)?$/, '');
  const parts: string[] = [];
  for (const match of inner.matchAll(/\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*(?:\.|$)/g)) {
    const raw = match[1]!;
    parts.push(raw.startsWith('"') ? (JSON.parse(raw) as string) : raw.startsWith("'") ? raw.slice(1, -1) : raw);
  }
  return parts;
}

/** Tracks multi-line strings and open brackets across a value's lines. */
function scanValue(line: string, multiline: '"""' | "'''" | null, depth: number): { multiline: '"""' | "'''" | null; depth: number } {
  let i = 0;
  while (i < line.length) {
    if (multiline) {
      const close = line.indexOf(multiline, i);
      if (close < 0) return { multiline, depth };
      i = close + 3;
      multiline = null;
      continue;
    }
    const ch = line[i]!;
    if (ch === '#') break;
    if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
      multiline = line.slice(i, i + 3) as '"""' | "'''";
      i += 3;
    } else if (ch === '"' || ch === "'") {
      i++;
      while (i < line.length && line[i] !== ch) i += ch === '"' && line[i] === '\\' ? 2 : 1;
      i++;
    } else {
      if (ch === '[' || ch === '{') depth++;
      else if (ch === ']' || ch === '}') depth--;
      i++;
    }
  }
  return { multiline, depth };
}

/**
 * Where a new key of the table at `path` goes: just past the table's last value line
 * (or its header). Undefined when the table has no `[header]` of its own (`[]` means
 * the root, whose body ends at the first header).
 */
export function tableInsertionPoint(lines: readonly TomlLine[], path: readonly string[]): number | undefined {
  let index = -1;
  if (path.length > 0) {
    index = lines.findIndex((line) => line.kind === 'header' && line.path!.length === path.length && line.path!.every((p, i) => p === path[i]));
    if (index < 0) return undefined;
  }
  let last = index >= 0 ? lines[index]!.end : -1;
  for (let i = index + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.kind === 'header' || line.kind === 'array-header') break;
    if (line.kind === 'value' || line.kind === 'continuation') last = line.end;
  }
  return last < 0 ? undefined : last;
}
