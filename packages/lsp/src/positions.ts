/**
 * Offsets ↔ LSP positions. The validator's offsets are UTF-16 code units, the unit LSP
 * positions use, so a position is (line, offset − line start) with no re-encoding. Lines
 * are LSP lines: `\n`, `\r\n` and a lone `\r` each end one (the validator's own line index
 * counts only `\n`, so positions sent to a client never come from it).
 */
import type { Position, Range } from 'vscode-languageserver';
import { textOf, type DocumentState } from './document-state.js';

export class LspLines {
  readonly lineStarts: readonly number[];

  /** Lines of a text without `\r`, from line starts computed elsewhere. */
  static fromLineStarts(text: string, lineStarts: readonly number[]): LspLines {
    return new LspLines(text, lineStarts);
  }

  constructor(readonly text: string, lineStarts?: readonly number[]) {
    if (lineStarts) {
      this.lineStarts = lineStarts;
      return;
    }
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 10) starts.push(i + 1);
      else if (code === 13) {
        if (text.charCodeAt(i + 1) === 10) i += 1;
        starts.push(i + 1);
      }
    }
    this.lineStarts = starts;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** 0-based line containing `offset`. */
  lineOf(offset: number): number {
    const starts = this.lineStarts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** Offset just past the last character of a line, before its line break. */
  lineEnd(line: number): number {
    const next = this.lineStarts[line + 1];
    if (next === undefined) return this.text.length;
    let end = next - 1;
    if (this.text.charCodeAt(end) === 10 && end > this.lineStarts[line]! && this.text.charCodeAt(end - 1) === 13) end -= 1;
    return end;
  }
}

const cache = new WeakMap<object, LspLines>();

export function lspLines(state: DocumentState): LspLines {
  // A state with an unparsed newer text has lines of its own; others share the document's.
  const key: object = state.text !== undefined && state.text !== state.doc.text ? state : state.doc;
  let lines = cache.get(key);
  if (!lines) {
    const text = textOf(state);
    // Without a \r, LSP lines are the validator's lines: share its index.
    lines = key === state.doc && !text.includes('\r') ? LspLines.fromLineStarts(text, state.doc.lines.lineStarts) : new LspLines(text);
    cache.set(key, lines);
  }
  return lines;
}

export function positionAt(state: DocumentState, offset: number): Position {
  const lines = lspLines(state);
  const clamped = Math.max(0, Math.min(offset, textOf(state).length));
  const line = lines.lineOf(clamped);
  return { line, character: clamped - lines.lineStarts[line]! };
}

export function rangeAt(state: DocumentState, start: number, end: number): Range {
  return { start: positionAt(state, start), end: positionAt(state, Math.max(start, end)) };
}

/** The offset of an LSP position; a character past the line's end means the end of the line. */
export function offsetAt(state: DocumentState, position: Position): number {
  const lines = lspLines(state);
  if (position.line < 0) return 0;
  if (position.line >= lines.lineCount) return textOf(state).length;
  const start = lines.lineStarts[position.line]!;
  return Math.min(start + Math.max(0, position.character), lines.lineEnd(position.line));
}
