/**
 * Inlay hints where the platform reads a value differently from how it looks:
 * `enabled: "Yes"` (a trigger's or a version 1 channel's) is read as true, `enabled: 0` as
 * false; `connectors_personal` is read as `connectors_required`; `svc_version: 2.0` as 2.
 * Off with the setting `svc.inlayHints.enable: false` (the server checks it).
 */
import { InlayHintKind, InlayHintRequest, type InlayHint, type InlayHintParams } from 'vscode-languageserver';
import { findEntry, resolveAlias, type MapNode, type ValueNode } from '@svc-manifest/validator/library';
import type { DocumentState } from '../document-state.js';
import { throwIfCancelled, type FeatureContext } from '../feature-context.js';
import { handle, type Feature } from '../feature.js';
import { offsetAt, positionAt } from '../positions.js';

const TRUE = /^(?:true|1|yes|on)$/i;
const FALSE = /^(?:false|0|no|off)$/i;

/** How `enabled` is read when it is not written as a boolean; undefined when it is, or is not valid. */
export function enabledReading(value: unknown): boolean | undefined {
  if (typeof value === 'string') return TRUE.test(value) ? true : FALSE.test(value) ? false : undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return value !== 0;
  return undefined;
}

function mapOf(node: ValueNode | null | undefined): MapNode | undefined {
  const resolved = resolveAlias(node);
  return resolved?.kind === 'map' ? resolved : undefined;
}

function itemsOf(node: ValueNode | null | undefined): ValueNode[] {
  const resolved = resolveAlias(node);
  return resolved?.kind === 'seq' ? resolved.items : [];
}

export function inlayHints(
  state: DocumentState,
  params: Pick<InlayHintParams, 'range'>,
  context?: FeatureContext,
): InlayHint[] {
  const root = mapOf(state.doc.root);
  if (!root) return [];
  const from = offsetAt(state, params.range.start);
  const to = offsetAt(state, params.range.end);
  const hints: InlayHint[] = [];
  const add = (offset: number, label: string, tooltip: string): void => {
    if (offset < from || offset > to) return;
    hints.push({ position: positionAt(state, offset), label, kind: InlayHintKind.Type, paddingLeft: true, tooltip });
  };

  const version = findEntry(root, 'svc_version');
  const versionNode = resolveAlias(version?.value);
  if (versionNode?.kind === 'scalar' && typeof versionNode.value === 'number' && version!.value === versionNode) {
    const written = state.doc.text.slice(versionNode.start, versionNode.end);
    if (written !== String(versionNode.value))
      add(versionNode.end, `→ ${versionNode.value}`, `read as svc_version ${versionNode.value}`);
  }

  for (const section of ['triggers', 'channels']) {
    const entry = findEntry(root, section);
    for (const item of itemsOf(entry?.value)) {
      throwIfCancelled(context);
      const enabled = mapOf(item) && findEntry(mapOf(item)!, 'enabled');
      const node = resolveAlias(enabled?.value);
      if (!enabled || node?.kind !== 'scalar' || enabled.value !== node) continue;
      const reading = enabledReading(node.value);
      if (reading !== undefined) add(node.end, `→ ${reading}`, `read as ${reading}`);
    }
  }

  const agents = mapOf(findEntry(root, 'agents')?.value);
  for (const agent of agents?.entries ?? []) {
    throwIfCancelled(context);
    const body = mapOf(agent.value);
    const personal = body && findEntry(body, 'connectors_personal');
    if (personal && !findEntry(body, 'connectors_required'))
      add(personal.keyEnd, '→ connectors_required', "read as 'connectors_required' (its deprecated name)");
  }
  return hints.sort((a, b) => a.position.line - b.position.line || a.position.character - b.position.character);
}

export const inlayHintsFeature: Feature = {
  capabilities: { inlayHintProvider: true },
  handlers: [
    handle(InlayHintRequest.type, [], (state, params, context) =>
      context.settings?.inlayHints === false ? [] : inlayHints(state, params, context),
    ),
  ],
};
