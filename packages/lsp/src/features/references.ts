/** Find references: every place an agent, connector or template name is written. */
import type { Location, Position } from 'vscode-languageserver';
import type { DocumentState } from '../document-state.js';
import type { FeatureContext } from '../feature-context.js';
import { nameIndex, siteAt, sitesOf } from '../manifest-model.js';
import { offsetAt, rangeAt } from '../positions.js';
import { ReferencesRequest } from 'vscode-languageserver';
import { handle, type Feature } from '../feature.js';

export function references(
  state: DocumentState,
  params: { position: Position; context?: { includeDeclaration: boolean } },
  _context?: FeatureContext,
): Location[] {
  const index = nameIndex(state.doc);
  const site = siteAt(index, offsetAt(state, params.position));
  if (!site) return [];
  const includeDeclaration = params.context?.includeDeclaration ?? true;
  return sitesOf(index, site.kind, site.name)
    .filter((s) => includeDeclaration || s.role === 'reference')
    .map((s) => ({ uri: state.uri, range: rangeAt(state, s.start, s.end) }));
}

export const referencesFeature: Feature = {
  capabilities: { referencesProvider: true },
  handlers: [handle(ReferencesRequest.type, [], references)],
};
