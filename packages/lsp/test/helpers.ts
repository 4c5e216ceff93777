/** Test helpers: documents with the cursor placed by a text marker, and ranges found by text. */
import type { Position, Range } from 'vscode-languageserver';
import { createState, type DocumentState } from '../src/document-state.js';

/** The cursor marker in test documents (not `|`, which YAML uses for block scalars). */
export const CURSOR = '‸';

export interface Fixture {
  state: DocumentState;
  text: string;
  position: Position;
  offset: number;
}

/** A document whose cursor is where `‸` is written (the marker is removed). */
export function at(textWithCursor: string, uri = 'file:///work/svc.yaml'): Fixture {
  const offset = textWithCursor.indexOf(CURSOR);
  if (offset === -1) throw new Error('no cursor marker in the fixture');
  const text = textWithCursor.slice(0, offset) + textWithCursor.slice(offset + CURSOR.length);
  const state = createState(uri, 1, text);
  return { state, text, offset, position: positionOf(text, offset) };
}

export function doc(text: string, uri = 'file:///work/svc.yaml'): DocumentState {
  return createState(uri, 1, text);
}

export const yamlUri = 'file:///work/svc.yaml';
export const tomlUri = 'file:///work/svc.toml';

export function positionOf(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

/** The range of the `occurrence`-th (0-based) appearance of `needle` in `text`. */
export function rangeOf(text: string, needle: string, occurrence = 0): Range {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    if (at === -1) throw new Error(`'${needle}' occurs fewer than ${occurrence + 1} times`);
  }
  return { start: positionOf(text, at), end: positionOf(text, at + needle.length) };
}

/** The position just inside the `occurrence`-th `needle` (at its first character plus `delta`). */
export function positionIn(text: string, needle: string, occurrence = 0, delta = 1): Position {
  const range = rangeOf(text, needle, occurrence);
  return { line: range.start.line, character: range.start.character + delta };
}

/** Applies LSP text edits to a text (edits must not overlap). */
export function applyEdits(text: string, edits: { range: Range; newText: string }[]): string {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const offset = (p: Position) => (lineStarts[p.line] ?? text.length) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const edit of sorted)
    out = out.slice(0, offset(edit.range.start)) + edit.newText + out.slice(offset(edit.range.end));
  return out;
}
