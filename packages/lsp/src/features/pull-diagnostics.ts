/**
 * Pull diagnostics (LSP 3.17 `textDocument/diagnostic`): the same list the server pushes, with a
 * result id that names its content, so a client asking again with the id of an unchanged list
 * gets `unchanged`. A client that pulls is not also pushed to (server.ts); one that does not keeps
 * getting `publishDiagnostics`.
 */
import {
  DocumentDiagnosticReportKind,
  DocumentDiagnosticRequest,
  type DocumentDiagnosticParams,
  type DocumentDiagnosticReport,
} from 'vscode-languageserver';
import type { DocumentState } from '../document-state.js';
import type { FeatureContext } from '../feature-context.js';
import { handle, type Feature } from '../feature.js';
import { computeDiagnostics } from './diagnostics.js';

/** FNV-1a of a string, as 8 hex digits. */
function hashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

export function documentDiagnostics(
  state: DocumentState,
  params: Pick<DocumentDiagnosticParams, 'previousResultId'>,
  context?: FeatureContext,
): DocumentDiagnosticReport {
  const items = computeDiagnostics(state, {}, context);
  const resultId = `${hashOf(JSON.stringify(items))}-${items.length}`;
  if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
  return { kind: DocumentDiagnosticReportKind.Full, resultId, items };
}

export const pullDiagnosticsFeature: Feature = {
  capabilities: {
    diagnosticProvider: { identifier: 'svc', interFileDependencies: false, workspaceDiagnostics: false },
  },
  handlers: [
    handle(DocumentDiagnosticRequest.type, { kind: DocumentDiagnosticReportKind.Full, items: [] }, documentDiagnostics),
  ],
};
