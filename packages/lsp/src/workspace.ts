/**
 * Requests about the whole workspace rather than one document: workspace symbols (the agents,
 * triggers, connectors and templates of every manifest) and workspace diagnostics (LSP 3.17
 * `workspace/diagnostic`, a report per manifest). The manifests are the open ones plus those an
 * injected lister finds in the workspace folders (on Node, `workspace-files.ts`, which honours
 * ignore files); each file on disk is parsed once per text and kept while it does not change.
 */
import {
  DocumentDiagnosticReportKind,
  SymbolKind,
  type PreviousResultId,
  type SymbolInformation,
  type WorkspaceDiagnosticReport,
  type WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver';
import { declarationsOf } from '@svc-manifest/validator/library';
import { createState, type DocumentState } from './document-state.js';
import { throwIfCancelled, type FeatureContext } from './feature-context.js';
import { rangeAt } from './positions.js';
import { documentDiagnostics } from './features/pull-diagnostics.js';

/** The manifests in some folders (URIs), with their texts. */
export type ManifestLister = (folderUris: readonly string[]) => { uri: string; text: string }[];

const KINDS: Record<string, SymbolKind> = {
  agent: SymbolKind.Class,
  trigger: SymbolKind.Event,
  connector: SymbolKind.Interface,
  template: SymbolKind.Struct,
};

/** Parsed manifests from disk, by URI, while their text is the same. */
export class WorkspaceManifests {
  private readonly parsed = new Map<string, DocumentState>();

  constructor(private readonly lister: ManifestLister | undefined) {}

  /** Every manifest: the open ones (`open`, by URI) first, then the ones on disk that are not open. */
  states(folders: readonly string[], open: readonly DocumentState[]): DocumentState[] {
    const result = [...open];
    if (!this.lister || folders.length === 0) return result;
    const openUris = new Set(open.map((state) => state.uri));
    const seen = new Set<string>();
    for (const file of this.lister(folders)) {
      seen.add(file.uri);
      if (openUris.has(file.uri)) continue;
      let state = this.parsed.get(file.uri);
      if (!state || state.doc.text !== file.text)
        this.parsed.set(file.uri, (state = createState(file.uri, 0, file.text)));
      result.push(state);
    }
    for (const uri of this.parsed.keys()) if (!seen.has(uri)) this.parsed.delete(uri);
    return result;
  }
}

/** Whether `name` matches a workspace-symbol query: its characters in order, ignoring case (an empty query matches all). */
function matchesQuery(name: string, query: string): boolean {
  let at = 0;
  const lower = name.toLowerCase();
  for (const char of query.toLowerCase()) {
    at = lower.indexOf(char, at) + 1;
    if (at === 0) return false;
  }
  return true;
}

export function workspaceSymbols(
  states: readonly DocumentState[],
  query: string,
  context?: FeatureContext,
): SymbolInformation[] {
  const symbols: SymbolInformation[] = [];
  for (const state of states) {
    throwIfCancelled(context);
    const root = state.doc.root;
    if (!root) continue;
    const index = declarationsOf({ root, source: state.doc.source });
    const file = decodeURIComponent(state.uri.slice(state.uri.lastIndexOf('/') + 1));
    for (const declaration of [...index.agents, ...index.triggers, ...index.connectors, ...index.templates]) {
      if (!matchesQuery(declaration.name, query)) continue;
      symbols.push({
        name: declaration.name,
        kind: KINDS[declaration.kind] ?? SymbolKind.Object,
        location: { uri: state.uri, range: rangeAt(state, declaration.start, declaration.end) },
        containerName: `${declaration.kind} in ${file}`,
      });
      if (symbols.length >= 5000) return symbols;
    }
  }
  return symbols;
}

/** A report per manifest; `contextOf` gives each its own context (the settings of its folder). */
export function workspaceDiagnostics(
  states: readonly DocumentState[],
  previous: readonly PreviousResultId[],
  contextOf: (uri: string) => FeatureContext | undefined = () => undefined,
): WorkspaceDiagnosticReport {
  const previousIds = new Map(previous.map((p) => [p.uri, p.value]));
  const items: WorkspaceDocumentDiagnosticReport[] = [];
  for (const state of states) {
    const context = contextOf(state.uri);
    throwIfCancelled(context);
    const report = documentDiagnostics(state, { previousResultId: previousIds.get(state.uri) }, context);
    const version = state.version > 0 ? state.version : null;
    items.push(
      report.kind === DocumentDiagnosticReportKind.Unchanged
        ? { kind: DocumentDiagnosticReportKind.Unchanged, uri: state.uri, version, resultId: report.resultId }
        : {
            kind: DocumentDiagnosticReportKind.Full,
            uri: state.uri,
            version,
            resultId: report.resultId,
            items: report.items,
          },
    );
  }
  return { items };
}
