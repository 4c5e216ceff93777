/**
 * Offsets ↔ LSP positions. The validator's offsets are UTF-16 code units, the unit LSP
 * positions use, and its LineIndex ends lines where LSP does (`\n`, `\r\n`, a lone `\r`),
 * so a position is (line, offset − line start) with no re-encoding.
 */
import type { Position, Range, TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LineIndex, type TextChange } from '@svc-manifest/validator';
import { textLength, textOf, type DocumentState } from './document-state.js';

const cache = new WeakMap<object, LineIndex>();

/** The line index of the state's newest text (the parsed document's own when that is the newest). */
export function lspLines(state: DocumentState): LineIndex {
  if (state.text === undefined || state.text === state.doc.text) return state.doc.lines;
  let lines = cache.get(state);
  if (!lines) {
    lines = new LineIndex(textOf(state));
    cache.set(state, lines);
  }
  return lines;
}

export function positionAt(state: DocumentState, offset: number): Position {
  const lines = lspLines(state);
  const clamped = Math.max(0, Math.min(offset, textLength(state)));
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
  if (position.line >= lines.lineCount) return textLength(state);
  const start = lines.lineStarts[position.line]!;
  return Math.min(start + Math.max(0, position.character), lines.lineEnd(position.line));
}

/** A didChange's content changes as offset replacements, in order. */
export type OffsetChanges = TextChange[];

/**
 * Applies a didChange notification's content changes to a document, one at a time, and answers
 * each as an offset replacement of the text it applied to (what `ManifestDocument.update`
 * takes); `changes` is undefined when one of them replaced the whole text.
 */
export function applyContentChanges(
  document: TextDocument,
  contentChanges: readonly TextDocumentContentChangeEvent[],
  version: number,
): { document: TextDocument; changes?: TextChange[] } {
  const changes: TextChange[] = [];
  let ranged = true;
  let current = document;
  for (const change of contentChanges) {
    if ('range' in change && change.range) {
      const start = current.offsetAt(change.range.start);
      const end = Math.max(start, current.offsetAt(change.range.end));
      changes.push({ start, end, newLength: change.text.length });
    } else {
      ranged = false;
    }
    current = TextDocument.update(current, [change], version);
  }
  if (contentChanges.length === 0) current = TextDocument.update(current, [], version);
  return ranged ? { document: current, changes } : { document: current };
}
