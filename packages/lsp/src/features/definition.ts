/** Go to definition: from a reference to an agent, connector or template, to its declaration. */
import type { Location, Position } from 'vscode-languageserver';
import type { DocumentState } from '../document-state.js';
import type { FeatureContext } from '../feature-context.js';
import { nameIndex, siteAt } from '../manifest-model.js';
import { offsetAt, rangeAt } from '../positions.js';
import { DefinitionRequest } from 'vscode-languageserver';
import { handle, type Feature } from '../feature.js';

export function definition(
  state: DocumentState,
  params: { position: Position },
  _context?: FeatureContext,
): Location | null {
  const index = nameIndex(state.doc);
  const site = siteAt(index, offsetAt(state, params.position));
  if (!site) return null;
  const target = index.definitions[site.kind].get(site.name);
  if (!target) return null;
  return { uri: state.uri, range: rangeAt(state, target.start, target.end) };
}

export const definitionFeature: Feature = {
  capabilities: { definitionProvider: true },
  handlers: [handle(DefinitionRequest.type, null, definition)],
};
