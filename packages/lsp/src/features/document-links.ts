/**
 * Document links: the paths a manifest names (`agent_runtime.config_dir`, a template's
 * `dockerfile`, an app's `path`, `root`, `output_dir` and `dockerfile`), resolved against the
 * manifest's own URI, for a manifest with a hierarchical URI (`file:`, a remote workspace's).
 * A path that leaves the manifest's folder upwards (`..`) or is absolute gets no link: the
 * schema refuses it, and a link out of the repository is not ours to offer. No file is read.
 */
import { DocumentLinkRequest, type DocumentLink } from 'vscode-languageserver';
import { sourcePaths } from '@svc-manifest/validator/library';
import type { DocumentState } from '../document-state.js';
import { throwIfCancelled, type FeatureContext } from '../feature-context.js';
import { rangeAt } from '../positions.js';
import { handle, type Feature } from '../feature.js';

export function documentLinks(state: DocumentState, _params: unknown = {}, context?: FeatureContext): DocumentLink[] {
  throwIfCancelled(context);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(state.uri)) return [];
  const links: DocumentLink[] = [];
  for (const path of sourcePaths(state.doc.root, state.doc.source)) {
    const value = path.value.replace(/\\/g, '/');
    if (
      value.startsWith('/') ||
      /^[a-z][a-z0-9+.-]*:/i.test(value) ||
      value.split('/').includes('..') ||
      /[\0-\x1f]/.test(value)
    )
      continue;
    let target: string;
    try {
      target = new URL(value.split('/').map(encodeURIComponent).join('/'), state.uri).href;
    } catch {
      continue;
    }
    links.push({
      range: rangeAt(state, path.nameStart, path.nameEnd),
      target,
      tooltip: path.output ? `Build output: ${path.value}` : `Open ${path.value}`,
    });
  }
  return links;
}

export const documentLinksFeature: Feature = {
  capabilities: { documentLinkProvider: { resolveProvider: false } },
  handlers: [handle(DocumentLinkRequest.type, null, documentLinks)],
};
