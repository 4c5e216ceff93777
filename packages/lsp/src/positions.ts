/**
 * Offsets ↔ LSP positions. The validator's offsets are UTF-16 code units, the unit LSP
 * positions use, so a position is (line, offset − line start) with no re-encoding.
 */
import type { Position, Range } from 'vscode-languageserver';
import type { DocumentState } from './document-state.js';

export function positionAt(state: DocumentState, offset: number): Position {
  const lines = state.doc.lines;
  const clamped = Math.max(0, Math.min(offset, state.doc.text.length));
  const line = lines.lineOf(clamped);
  return { line, character: clamped - lines.lineStarts[line]! };
}

export function rangeAt(state: DocumentState, start: number, end: number): Range {
  return { start: positionAt(state, start), end: positionAt(state, Math.max(start, end)) };
}

/** The offset of an LSP position; a character past the line's end means the end of the line. */
export function offsetAt(state: DocumentState, position: Position): number {
  const lines = state.doc.lines;
  if (position.line < 0) return 0;
  if (position.line >= lines.lineCount) return state.doc.text.length;
  const start = lines.lineStarts[position.line]!;
  const next = lines.lineStarts[position.line + 1];
  const end = next === undefined ? state.doc.text.length : next - 1;
  return Math.min(start + Math.max(0, position.character), end);
}
