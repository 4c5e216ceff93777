/**
 * Builders for the text edits behind quick fixes. Each works on the located tree and the
 * original text, in either format, and touches as few characters as it can.
 */
import type { OffsetEdit } from './diagnostic.js';
import type { ManifestDocument } from './document/manifest-document.js';
import type { MapEntry, MapNode, ValueNode } from './document/nodes.js';
import { renderTomlKey, renderTomlValue } from './edit/toml-edit.js';
import { readsAsNonString, renderScalar } from './edit/yaml-render.js';

/** A scalar written the way the document's format needs it. */
export function formatScalar(value: string | number | boolean, format: 'yaml' | 'toml'): string {
  if (typeof value !== 'string') return String(value);
  if (format === 'toml') return renderTomlValue(value, false);
  // Plain YAML when it cannot be read as anything but this string; else single-quoted, or
  // double-quoted with escapes when it holds a line break.
  const plainSafe = /^[A-Za-z_./][A-Za-z0-9_./-]*$/.test(value) && !readsAsNonString(value);
  return plainSafe ? value : renderScalar(value, 'QUOTE_SINGLE');
}

export function formatKey(key: string, format: 'yaml' | 'toml'): string {
  if (format === 'toml') return renderTomlKey(key);
  return /^[A-Za-z0-9_-]+$/.test(key) && !readsAsNonString(key) ? key : renderScalar(key, 'QUOTE_SINGLE');
}

export function renameKey(entry: MapEntry, newKey: string, format: 'yaml' | 'toml'): OffsetEdit {
  return { start: entry.keyStart, end: entry.keyEnd, newText: formatKey(newKey, format) };
}

export function replaceValue(node: ValueNode, value: string | number | boolean, format: 'yaml' | 'toml'): OffsetEdit {
  return { start: node.start, end: node.end, newText: formatScalar(value, format) };
}

/** Offset of the end of the last non-blank character before `offset`. */
function trimEndBefore(text: string, offset: number): number {
  let end = offset;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  return end;
}

/** Removes a map entry: its whole lines in block style, the entry and one separator in flow style. */
export function removeEntry(document: ManifestDocument, map: MapNode, entry: MapEntry): OffsetEdit {
  const text = document.text;
  const lines = document.lines;
  const index = map.entries.indexOf(entry);
  if (map.flow) {
    const next = map.entries[index + 1];
    if (next) return { start: entry.start, end: next.start, newText: '' };
    const previous = map.entries[index - 1];
    if (previous) return { start: trimEndBefore(text, previous.end), end: entry.end, newText: '' };
    return { start: entry.start, end: entry.end, newText: '' };
  }
  const value = entry.value;
  if (
    document.format === 'toml' &&
    (value.kind === 'map' || value.kind === 'seq') &&
    !value.flow &&
    text[value.start] === '['
  ) {
    // A table (or array of tables) defined by `[header]` lines: remove its whole section.
    const firstLine = lines.lineOf(value.start);
    const lastLine = lines.lineOf(Math.max(value.start, trimEndBefore(text, value.end) - 1));
    return { start: lines.lineStart(firstLine), end: lines.nextLineStart(lastLine), newText: '' };
  }
  const end = trimEndBefore(text, entry.end);
  const firstLine = lines.lineOf(entry.keyStart);
  const lastLine = lines.lineOf(Math.max(entry.keyStart, end - 1));
  const lineStart = lines.lineStart(firstLine);
  const before = text.slice(lineStart, entry.keyStart);
  if (/^\s*$/.test(before)) {
    // The key starts its line: drop the lines it occupies.
    const nextLineStart = lines.nextLineStart(lastLine);
    return { start: lineStart, end: nextLineStart, newText: '' };
  }
  // The key shares its line with a `- ` (the first key of a sequence item): pull the next key up.
  const next = map.entries[index + 1];
  if (next) return { start: entry.keyStart, end: next.keyStart, newText: '' };
  return { start: entry.keyStart, end, newText: '{}' };
}

/**
 * Adds `key: value` (YAML) or `key = value` (TOML) to a map, after its last entry and with
 * the indentation of its first. Returns undefined where no clean place exists.
 */
export function insertEntry(
  document: ManifestDocument,
  map: MapNode,
  key: string,
  valueText: string,
): OffsetEdit | undefined {
  const text = document.text;
  const format = document.format;
  const separator = format === 'toml' ? ' = ' : ': ';
  const pair = `${formatKey(key, format)}${separator}${valueText}`;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const last = map.entries[map.entries.length - 1];
  if (map.flow) {
    const close = trimEndBefore(text, map.end) - 1;
    if (text[close] !== '}') return undefined;
    const insertAt = trimEndBefore(text, close);
    return { start: insertAt, end: insertAt, newText: last ? `, ${pair}` : ` ${pair} ` };
  }
  if (!last) return undefined;
  const first = map.entries[0]!;
  const lines = document.lines;
  const firstLineStart = lines.lineStart(lines.lineOf(first.keyStart));
  const indent = ' '.repeat(Math.max(0, first.keyStart - firstLineStart));
  // For TOML the entries of a table may include sub-tables; insert after the last plain key/value.
  const anchor = format === 'toml' ? lastPlainEntry(map) : last;
  if (!anchor) return undefined;
  const endLine = lines.lineOf(Math.max(anchor.keyStart, trimEndBefore(text, anchor.end) - 1));
  const insertAt = lines.lineEnd(endLine);
  return { start: insertAt, end: insertAt, newText: `${eol}${format === 'toml' ? '' : indent}${pair}` };
}

function lastPlainEntry(map: MapNode): MapEntry | undefined {
  for (let i = map.entries.length - 1; i >= 0; i--) {
    const entry = map.entries[i]!;
    // A table header's entry spans from its key (inside `[...]`) to the table's end.
    const isTable = entry.value.kind === 'map' && !entry.value.flow;
    const isTableArray = entry.value.kind === 'seq' && !entry.value.flow;
    if (!isTable && !isTableArray) return entry;
  }
  return undefined;
}
