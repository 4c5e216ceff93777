/** Highlights every place the agent, connector or template name under the cursor is written (the declaration as "write"). */
import { DocumentHighlightKind, type DocumentHighlight, type Position } from 'vscode-languageserver';
import type { DocumentState } from '../document-state.js';
import type { FeatureContext } from '../feature-context.js';
import { nameIndex, siteAt, sitesOf } from '../manifest-model.js';
import { offsetAt, rangeAt } from '../positions.js';
import { DocumentHighlightRequest } from 'vscode-languageserver';
import { handle, type Feature } from '../feature.js';

export function documentHighlights(
  state: DocumentState,
  params: { position: Position },
  _context?: FeatureContext,
): DocumentHighlight[] {
  const index = nameIndex(state.doc);
  const site = siteAt(index, offsetAt(state, params.position));
  if (!site) return [];
  return sitesOf(index, site.kind, site.name).map((s) => ({
    range: rangeAt(state, s.start, s.end),
    kind: s.role === 'definition' ? DocumentHighlightKind.Write : DocumentHighlightKind.Read,
  }));
}

export const documentHighlightFeature: Feature = {
  capabilities: { documentHighlightProvider: true },
  handlers: [handle(DocumentHighlightRequest.type, [], documentHighlights)],
};
