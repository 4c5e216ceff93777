/** Folding ranges: every map, list and multi-line scalar that spans lines, folded under its key or `- `. */
import { FoldingRangeKind, type FoldingRange } from 'vscode-languageserver';
import { resolveAlias, type ValueNode } from '@svc-manifest/validator/library';
import type { DocumentState } from '../document-state.js';
import { throwIfCancelled, type FeatureContext } from '../feature-context.js';
import { lspLines } from '../positions.js';
import { FoldingRangeRequest } from 'vscode-languageserver';
import { handle, type Feature } from '../feature.js';

export function foldingRanges(state: DocumentState, _params: unknown = {}, context?: FeatureContext): FoldingRange[] {
  const root = state.doc.root;
  if (!root) return [];
  const lines = lspLines(state);
  const text = state.doc.text;
  const ranges: FoldingRange[] = [];
  const seen = new Set<string>();
  const lastLineOf = (end: number): number => {
    let at = end;
    // Trailing line breaks and blank lines belong to no block.
    while (at > 0 && /\s/.test(text[at - 1]!)) at -= 1;
    return lines.lineOf(Math.max(0, at - 1));
  };
  const add = (start: number, end: number): void => {
    const startLine = lines.lineOf(start);
    const endLine = lastLineOf(end);
    if (endLine <= startLine) return;
    const key = `${startLine}:${endLine}`;
    if (seen.has(key)) return;
    seen.add(key);
    ranges.push({ startLine, endLine });
  };
  const visit = (node: ValueNode, depth: number): void => {
    if (depth > 64) return;
    throwIfCancelled(context);
    if (node.kind === 'map') {
      for (const entry of node.entries) {
        const value = entry.value;
        // A TOML array of tables spans other tables between its items: fold the items only.
        const arrayOfTables = state.format === 'toml' && value.kind === 'seq' && !value.flow;
        if (!arrayOfTables && value.kind !== 'alias') add(entry.start, Math.max(entry.end, value.end));
        if (value.kind === 'map' || value.kind === 'seq') visit(value, depth + 1);
      }
    } else if (node.kind === 'seq') {
      for (const item of node.items) {
        const value = resolveAlias(item);
        if (item.kind !== 'alias' && value && value.kind !== 'scalar') add(item.start, item.end);
        if (item.kind === 'map' || item.kind === 'seq') visit(item, depth + 1);
      }
    }
  };
  visit(root, 0);
  // Runs of three or more comment lines fold too.
  let runStart = -1;
  for (let line = 0; line <= lines.lineCount; line++) {
    const isComment = line < lines.lineCount && /^\s*#/.test(text.slice(lines.lineStart(line), lines.lineEnd(line)));
    if (isComment && runStart === -1) runStart = line;
    if (!isComment && runStart !== -1) {
      if (line - 1 - runStart >= 2)
        ranges.push({ startLine: runStart, endLine: line - 1, kind: FoldingRangeKind.Comment });
      runStart = -1;
    }
  }
  return ranges.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
}

export const foldingFeature: Feature = {
  capabilities: { foldingRangeProvider: true },
  handlers: [handle(FoldingRangeRequest.type, [], foldingRanges)],
};
