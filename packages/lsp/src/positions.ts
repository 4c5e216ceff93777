/**
 * Offsets ↔ LSP positions. The validator's offsets are UTF-16 code units, the unit LSP
 * positions use, and its LineIndex ends lines where LSP does (`\n`, `\r\n`, a lone `\r`),
 * so a position is (line, offset − line start) with no re-encoding.
 */
import type { Position, Range, TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { LineIndex, PieceText, type TextChange } from '@svc-manifest/validator/library';
import { hasNewerText, textOf, type DocumentState } from './document-state.js';

const cache = new WeakMap<object, LineIndex>();

/** The line index of the state's newest text (the parsed document's own when that is the newest). */
export function lspLines(state: DocumentState): LineIndex {
  if (!hasNewerText(state)) return state.doc.lines;
  let lines = cache.get(state);
  if (!lines) {
    lines = new LineIndex(textOf(state));
    cache.set(state, lines);
  }
  return lines;
}

export function positionAt(state: DocumentState, offset: number): Position {
  const lines = lspLines(state);
  const clamped = Math.max(0, Math.min(offset, textOf(state).length));
  const line = lines.lineOf(clamped);
  return { line, character: clamped - lines.lineStart(line) };
}

export function rangeAt(state: DocumentState, start: number, end: number): Range {
  return { start: positionAt(state, start), end: positionAt(state, Math.max(start, end)) };
}

/** The offset of an LSP position; a character past the line's end means the end of the line. */
export function offsetAt(state: DocumentState, position: Position): number {
  const lines = lspLines(state);
  if (position.line < 0) return 0;
  if (position.line >= lines.lineCount) return textOf(state).length;
  const start = lines.lineStart(position.line);
  return Math.min(start + Math.max(0, position.character), lines.lineEnd(position.line));
}

/** A didChange's content changes as offset replacements, in order. */
export type OffsetChanges = TextChange[];

/**
 * An open file as the server holds it (what `TextDocuments` keeps per file): the text as a
 * {@link PieceText}, so that applying a keystroke to a large file touches one piece instead of
 * copying the whole text (the library's own document keeps one string, which V8 copies flat at
 * the first read after every edit).
 */
export class OpenText {
  constructor(
    readonly uri: string,
    readonly languageId: string,
    readonly version: number,
    readonly text: PieceText,
  ) {}

  static create(uri: string, languageId: string, version: number, content: string): OpenText {
    return new OpenText(uri, languageId, version, PieceText.from(content));
  }

  getText(): string {
    return this.text.toString();
  }
}

/**
 * Applies a didChange notification's content changes to an open file, one at a time, and
 * answers each as an offset replacement of the text it applied to (what `ManifestDocument.update`
 * takes); `changes` is undefined when one of them replaced the whole text. A range whose end
 * comes before its start is taken the other way round, as the LSP library takes it.
 */
export function applyContentChanges(
  document: OpenText,
  contentChanges: readonly TextDocumentContentChangeEvent[],
  version: number,
): { document: OpenText; changes?: TextChange[] } {
  const changes: TextChange[] = [];
  let ranged = true;
  let text = document.text;
  for (const change of contentChanges) {
    if ('range' in change && change.range) {
      const a = text.offsetAt(change.range.start.line, change.range.start.character);
      const b = text.offsetAt(change.range.end.line, change.range.end.character);
      const start = Math.min(a, b);
      const end = Math.max(a, b);
      changes.push({ start, end, newLength: change.text.length });
      text = text.edit(start, end, change.text);
    } else {
      ranged = false;
      text = PieceText.from(change.text);
    }
  }
  const updated = new OpenText(document.uri, document.languageId, version, text);
  return ranged ? { document: updated, changes } : { document: updated };
}
