/** What both halves of the cursor context share: its shape, flow maps, and key and line reading. */
import type { LineTable, ManifestFormat, TextSource } from '@svc-manifest/validator/library';
import type { PathSegment } from '../schema-model.js';

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

export function lineText(text: TextSource, lines: LineTable, line: number): string {
  const end = line + 1 < lines.lineCount ? lines.lineStart(line + 1) - 1 : text.length;
  return text.slice(lines.lineStart(line), end).replace(/\r$/, '');
}

/** A YAML key without its quotes. */
export function unquoteKey(key: string): string {
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

/**
 * Inside a one-level flow map / inline table (`auth: { type: be`, `auth = { type = "be`):
 * a key of the map (with the keys already written) or the value of one of its keys.
 */
export function flowMapContext(
  value: string,
  path: PathSegment[],
  offset: number,
  format: ManifestFormat,
): CursorContext | null {
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
  context.present = parts
    .slice(0, -1)
    .map((part) => keyOf(part)[0]!)
    .filter(Boolean);
  context.flow = true;
  return context;
}

export function baseContext(
  kind: CursorContext['kind'],
  path: PathSegment[],
  partial: string,
  offset: number,
): CursorContext {
  let quote: CursorContext['quote'];
  let prefix = partial;
  if (partial.startsWith('"') || partial.startsWith("'")) {
    quote = partial[0] as '"' | "'";
    prefix = partial.slice(1);
  }
  return {
    kind,
    path,
    prefix,
    replaceStart: offset - partial.length,
    replaceEnd: offset,
    present: [],
    column: 0,
    freshItem: false,
    quote,
  };
}
