/**
 * Renders new YAML text for values the applier inserts. Only new content is rendered;
 * existing text is never re-serialized. Strings are plain when that is unambiguous and
 * double-quoted (JSON escapes are valid YAML) otherwise.
 */
import { isPlainObject } from './json.js';

/** How the surrounding document is laid out, so inserted blocks look like their neighbours. */
export interface YamlStyle {
  /** Spaces per nesting level of block maps. */
  indent: number;
  /** Extra spaces before `-` of a block sequence that is a map value (0 for `key:\n- item`). */
  seqIndent: number;
  eol: string;
}

export type QuoteStyle = 'PLAIN' | 'QUOTE_SINGLE' | 'QUOTE_DOUBLE' | undefined;

/**
 * Plain text that YAML reads as something other than a string, in 1.2's core schema or in 1.1 as
 * the `yaml` library reads it: a boolean, a null, a number (`.5`, `-1`, `0x1F`, and in 1.1 `.`,
 * `._` and `e1`, which its float pattern takes), infinity or not-a-number (`.inf`, `-.NaN`).
 */
const NOT_A_STRING =
  /^(?:true|false|yes|no|on|off|y|n|null|~|[-+]?\.(?:inf|nan))$|^[-+]?(?:\.?\d|\.[\d_]*$|(?:\.[\d_]*)?e[-+]?\d+$)/i;
const PLAIN_SAFE = /^[A-Za-z_][A-Za-z0-9_./@+-]*$/;

/** Whether YAML 1.2 or 1.1 may read `text`, written plain, as something other than this string. */
export function readsAsNonString(text: string): boolean {
  return NOT_A_STRING.test(text);
}

function plainSafe(text: string): boolean {
  return PLAIN_SAFE.test(text) && !readsAsNonString(text);
}

/** A scalar in flow or block context; `hint` keeps the quoting the user chose for the value being replaced. */
export function renderScalar(value: unknown, hint?: QuoteStyle): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (typeof value === 'object') return renderFlow(value);
  const text = String(value);
  if (hint === 'QUOTE_SINGLE' && !/[\n\r]/.test(text)) return `'${text.replace(/'/g, "''")}'`;
  if (hint === 'QUOTE_DOUBLE') return JSON.stringify(text);
  return plainSafe(text) ? text : JSON.stringify(text);
}

export function renderKey(key: string): string {
  return plainSafe(key) ? key : JSON.stringify(key);
}

/** Flow form of any JSON value: `[a, b]`, `{k: v}`. */
export function renderFlow(value: unknown, hint?: QuoteStyle): string {
  if (Array.isArray(value)) return `[${value.map((item) => renderFlow(item)).join(', ')}]`;
  if (isPlainObject(value)) {
    const entries = Object.entries(value).map(([k, v]) => `${renderKey(k)}: ${renderFlow(v)}`);
    return `{${entries.join(', ')}}`;
  }
  return renderScalar(value, hint);
}

/** Values written on the key's own line: scalars, empty collections and lists of scalars (as `[a, b]`). */
export function isInline(value: unknown): boolean {
  if (Array.isArray(value)) return value.every((item) => !Array.isArray(item) && !isPlainObject(item));
  if (isPlainObject(value)) return Object.keys(value).length === 0;
  return true;
}

/** `key: value` at `indent`, with nested block content below when the value is not inline. */
export function renderEntryLines(keyText: string, value: unknown, indent: number, style: YamlStyle): string[] {
  const pad = ' '.repeat(indent);
  if (isInline(value)) return [`${pad}${keyText}: ${renderFlow(value)}`];
  if (Array.isArray(value)) return [`${pad}${keyText}:`, ...renderSeqLines(value, indent + style.seqIndent, style)];
  return [`${pad}${keyText}:`, ...renderMapLines(value as Record<string, unknown>, indent + style.indent, style)];
}

export function renderMapLines(map: Record<string, unknown>, indent: number, style: YamlStyle): string[] {
  return Object.entries(map).flatMap(([key, value]) => renderEntryLines(renderKey(key), value, indent, style));
}

export function renderSeqLines(items: readonly unknown[], dashIndent: number, style: YamlStyle): string[] {
  return items.flatMap((item) => renderSeqItemLines(item, dashIndent, style));
}

/** One `- item`; a map item starts on the dash line, its other keys aligned under the first. */
export function renderSeqItemLines(item: unknown, dashIndent: number, style: YamlStyle): string[] {
  const pad = ' '.repeat(dashIndent);
  if (isPlainObject(item) && !isInline(item)) {
    const lines = renderMapLines(item, dashIndent + 2, style);
    lines[0] = `${pad}- ${lines[0]!.slice(dashIndent + 2)}`;
    return lines;
  }
  return [`${pad}- ${renderFlow(item)}`];
}
