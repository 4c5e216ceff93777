/** The outline: every key of the manifest, nested as written; array items are named by their `slug` or `name`. */
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver';
import { findEntry, resolveAlias, type ValueNode } from '@svc-manifest/validator/library';
import type { DocumentState } from '../document-state.js';
import { throwIfCancelled, type FeatureContext } from '../feature-context.js';
import { lspLines, rangeAt } from '../positions.js';
import { DocumentSymbolRequest } from 'vscode-languageserver';
import { handle, type Feature } from '../feature.js';

const MAX_DEPTH = 8;

export function documentSymbols(
  state: DocumentState,
  _params: unknown = {},
  context?: FeatureContext,
): DocumentSymbol[] {
  const root = resolveAlias(state.doc.root);
  if (!root || root.kind !== 'map') return [];
  return children(state, root, 0, context);
}

function kindOf(node: ValueNode | null): SymbolKind {
  const value = resolveAlias(node);
  if (!value) return SymbolKind.Null;
  if (value.kind === 'map') return SymbolKind.Object;
  if (value.kind === 'seq') return SymbolKind.Array;
  switch (typeof value.value) {
    case 'number':
      return SymbolKind.Number;
    case 'boolean':
      return SymbolKind.Boolean;
    case 'string':
      return SymbolKind.String;
    default:
      return SymbolKind.Null;
  }
}

function detailOf(node: ValueNode): string | undefined {
  const value = resolveAlias(node);
  if (value?.kind === 'scalar' && value.value !== null) {
    const text = String(value.value);
    return text.length > 60 ? text.slice(0, 57) + '…' : text;
  }
  return undefined;
}

function symbol(
  state: DocumentState,
  name: string,
  node: ValueNode,
  start: number,
  end: number,
  selStart: number,
  selEnd: number,
  depth: number,
  context?: FeatureContext,
): DocumentSymbol {
  const from = Math.min(start, selStart);
  const to = Math.max(end, selEnd);
  const result: DocumentSymbol = {
    name: name || '""',
    kind: kindOf(node),
    range: rangeAt(state, from, to),
    selectionRange: rangeAt(state, selStart, selEnd),
  };
  const detail = detailOf(node);
  if (detail) result.detail = detail;
  const value = resolveAlias(node);
  // Aliased collections are outlined where they are written, not again at every alias.
  if (value && node === value && depth < MAX_DEPTH && (value.kind === 'map' || value.kind === 'seq')) {
    result.children = children(state, value, depth + 1, context);
  }
  return result;
}

function children(state: DocumentState, node: ValueNode, depth: number, context?: FeatureContext): DocumentSymbol[] {
  throwIfCancelled(context);
  if (node.kind === 'map') {
    return node.entries
      .filter((entry) => !entry.merge)
      .map((entry) =>
        symbol(state, entry.key, entry.value, entry.start, entry.end, entry.keyStart, entry.keyEnd, depth, context),
      );
  }
  if (node.kind === 'seq') {
    return node.items.map((item, index) => {
      let name = `[${index}]`;
      const map = resolveAlias(item);
      if (map?.kind === 'map') {
        for (const key of ['slug', 'name', 'match']) {
          const value = resolveAlias(findEntry(map, key)?.value);
          if (value?.kind === 'scalar' && value.value !== null && value.value !== '') {
            name = String(value.value);
            break;
          }
        }
      } else if (map?.kind === 'scalar' && map.value !== null) name = String(map.value);
      return symbol(
        state,
        name,
        item,
        item.start,
        item.end,
        item.start,
        item.start === item.end ? item.end : Math.min(item.end, lineEndOf(state, item.start)),
        depth,
        context,
      );
    });
  }
  return [];
}

function lineEndOf(state: DocumentState, offset: number): number {
  const lines = lspLines(state);
  return lines.lineEnd(lines.lineOf(offset));
}

export const documentSymbolsFeature: Feature = {
  capabilities: { documentSymbolProvider: true },
  handlers: [handle(DocumentSymbolRequest.type, [], documentSymbols)],
};
