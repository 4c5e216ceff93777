/**
 * Selection ranges ("expand selection"): from the cursor outwards, a scalar's text without its
 * quotes, the value, the `key: value` entry (or the list item), the collection, and so on up to
 * the whole document; each range contains the one before.
 */
import { SelectionRangeRequest, type Position, type SelectionRange } from 'vscode-languageserver';
import { pathAtOffset, resolveAlias } from '@svc-manifest/validator/library';
import type { DocumentState } from '../document-state.js';
import { throwIfCancelled, type FeatureContext } from '../feature-context.js';
import { offsetAt, rangeAt } from '../positions.js';
import { handle, type Feature } from '../feature.js';

export function selectionRanges(
  state: DocumentState,
  params: { positions: Position[] },
  context?: FeatureContext,
): SelectionRange[] {
  const root = state.doc.root;
  const text = state.doc.source;
  return params.positions.map((position) => {
    throwIfCancelled(context);
    const offset = offsetAt(state, position);
    // Outermost first.
    const spans: [number, number][] = [[0, text.length]];
    if (root) {
      const { steps, onKey } = pathAtOffset(root, offset);
      for (let i = 1; i < steps.length; i++) {
        const step = steps[i]!;
        if (step.entry) {
          spans.push([step.entry.start, Math.max(step.entry.end, step.entry.value.end)]);
          if (onKey && i === steps.length - 1) {
            spans.push([step.entry.keyStart, step.entry.keyEnd]);
            continue;
          }
        }
        spans.push([step.node.start, step.node.end]);
      }
      const last = steps[steps.length - 1]!.node;
      const scalar = resolveAlias(last);
      if (!onKey && scalar?.kind === 'scalar' && last === scalar && last.end - last.start >= 2) {
        const open = text.charCodeAt(last.start);
        if ((open === 34 || open === 39) && text.charCodeAt(last.end - 1) === open)
          spans.push([last.start + 1, last.end - 1]);
      }
    }
    let selection: SelectionRange | undefined;
    let outer: [number, number] | undefined;
    for (const span of spans) {
      if (span[0] > offset || span[1] < offset) continue;
      if (outer && (span[0] < outer[0] || span[1] > outer[1] || (span[0] === outer[0] && span[1] === outer[1])))
        continue;
      selection = { range: rangeAt(state, span[0], span[1]), ...(selection ? { parent: selection } : {}) };
      outer = span;
    }
    return selection ?? { range: rangeAt(state, offset, offset) };
  });
}

export const selectionRangesFeature: Feature = {
  capabilities: { selectionRangeProvider: true },
  handlers: [handle(SelectionRangeRequest.type, null, selectionRanges)],
};
