/**
 * Rename an agent, connector or template: its declaration and every reference, in one
 * workspace edit. The new name must be a valid slug (and a template may not be `default`).
 */
import type { Position, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { SLUG_PATTERN } from '@svc-manifest/schema';
import type { DocumentState } from '../document-state.js';
import { FeatureRefusal, type FeatureContext } from '../feature-context.js';
import { nameIndex, siteAt, sitesOf } from '../manifest-model.js';
import { offsetAt, rangeAt } from '../positions.js';
import { PrepareRenameRequest, RenameRequest } from 'vscode-languageserver';
import { handle, type Feature } from '../feature.js';

/** A rename the server refuses; the message is shown to the user. */
export class RenameRefused extends FeatureRefusal {}

const SLUG = new RegExp(SLUG_PATTERN);

export function prepareRename(
  state: DocumentState,
  params: { position: Position },
  _context?: FeatureContext,
): { range: Range; placeholder: string } | null {
  const site = siteAt(nameIndex(state.doc), offsetAt(state, params.position));
  if (!site) return null;
  return { range: rangeAt(state, site.start, site.end), placeholder: site.name };
}

export function rename(
  state: DocumentState,
  params: { position: Position; newName: string },
  _context?: FeatureContext,
): WorkspaceEdit | null {
  const index = nameIndex(state.doc);
  const site = siteAt(index, offsetAt(state, params.position));
  if (!site) return null;
  const newName = params.newName.trim();
  if (!SLUG.test(newName)) {
    throw new RenameRefused(
      `'${newName}' is not a valid name: use lowercase letters, digits, '_' and '-', starting with a letter or digit (at most 128 characters)`,
    );
  }
  if (site.kind === 'template' && newName === 'default')
    throw new RenameRefused("'default' is reserved and cannot be a template slug");
  if (newName !== site.name && index.definitions[site.kind].has(newName)) {
    throw new RenameRefused(`a ${site.kind} named '${newName}' already exists`);
  }
  const edits: TextEdit[] = sitesOf(index, site.kind, site.name).map((s) => ({
    range: rangeAt(state, s.start, s.end),
    newText: newName,
  }));
  return { changes: { [state.uri]: edits } };
}

export const renameFeature: Feature = {
  capabilities: { renameProvider: { prepareProvider: true } },
  handlers: [handle(PrepareRenameRequest.type, null, prepareRename), handle(RenameRequest.type, null, rename)],
};
