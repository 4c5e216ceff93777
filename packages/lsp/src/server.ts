/**
 * Wires the LSP connection to the feature functions. Nothing here knows about manifests:
 * it keeps one {@link DocumentState} per open file, decides which files are manifests,
 * guards every handler (a throw is logged and answered with an empty result, cancellation
 * answers `RequestCancelled`), and schedules diagnostics.
 */
import {
  CodeActionKind,
  DidChangeConfigurationNotification,
  LSPErrorCodes,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type Connection,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticScheduler } from './diagnostic-scheduler.js';
import { createState, updateState, type DocumentState } from './document-state.js';
import { RequestCancelled, type FeatureContext } from './feature-context.js';
import { codeActions } from './features/code-actions.js';
import { completion } from './features/completion.js';
import { definition } from './features/definition.js';
import { computeDiagnostics } from './features/diagnostics.js';
import { documentHighlights } from './features/document-highlight.js';
import { documentSymbols } from './features/document-symbols.js';
import { foldingRanges } from './features/folding.js';
import { hover } from './features/hover.js';
import { references } from './features/references.js';
import { prepareRename, rename, RenameRefused } from './features/rename.js';
import { pinsOurSchema } from './features/schema-pinning.js';
import { DEFAULT_SETTINGS, isManifestName, isYamlOrToml, readSettings, type Settings } from './features/settings.js';
// Fix all, migrate, convert, and inlay hints (#15).
import { FIX_ALL_KIND, transformActions } from './features/transform-actions.js';
import { inlayHints } from './features/inlay-hints.js';

export interface ServerOptions {
  /** Quiet time after an edit before diagnostics run (default 15 ms). */
  debounceMs?: number;
}

export const SERVER_NAME = 'svc-manifest-lsp';

export function startServer(connection: Connection, options: ServerOptions = {}): void {
  const documents = new TextDocuments(TextDocument);
  /**
   * One entry per open YAML/TOML file. An edit only records the new text; the parse is
   * brought up to date (with `ManifestDocument.update`) when something needs it, so a burst
   * of keystrokes costs one incremental parse, not one per keystroke.
   */
  const entries = new Map<string, { state: DocumentState; pending?: { version: number; text: string } }>();
  /** Documents whose validation takes longer than this wait for a pause in typing. */
  const SLOW_VALIDATION_MS = 50;
  const stateOf = (uri: string): DocumentState | undefined => {
    const entry = entries.get(uri);
    if (!entry) return undefined;
    if (entry.pending) {
      const { version, text } = entry.pending;
      entry.pending = undefined;
      try {
        entry.state = updateState(entry.state, version, text);
      } catch (error) {
        // The incremental parse must not wedge the file: start over from the whole text.
        log(`incremental parse failed for ${uri}; parsing the whole file`, error);
        entry.state = createState(uri, version, text, { maxFileSizeBytes: settings.maxFileSizeBytes, languageId: documents.get(uri)?.languageId });
      }
    }
    return entry.state;
  };
  let settings: Settings = { ...DEFAULT_SETTINGS };
  let canPullConfiguration = false;
  let canRegisterConfiguration = false;
  let canCreateAndDeleteFiles = false;

  const log = (message: string, error?: unknown): void => {
    const detail = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : error === undefined ? '' : String(error);
    try {
      connection.console.error(`${message}${detail ? `: ${detail}` : ''}`);
    } catch {
      // The connection is gone; nothing to tell.
    }
  };

  const isManaged = (state: DocumentState, languageId?: string): boolean =>
    settings.enable && (isManifestName(state.uri, settings) || (isYamlOrToml(state.uri, languageId) && pinsOurSchema(state)));

  /** For completion: the last parsed state with the newest text, without parsing it first. */
  const typingState = (uri: string): DocumentState | undefined => {
    const entry = entries.get(uri);
    if (!entry?.pending || !settings.enable || !isManifestName(uri, settings)) return managedState(uri);
    return { ...entry.state, version: entry.pending.version, text: entry.pending.text };
  };

  const managedState = (uri: string): DocumentState | undefined => {
    const state = stateOf(uri);
    if (!state) return undefined;
    return isManaged(state, documents.get(uri)?.languageId) ? state : undefined;
  };

  /** Files the client currently shows our diagnostics for. */
  const shown = new Set<string>();
  const clearDiagnostics = (uri: string): void => {
    scheduler.cancel(uri);
    if (shown.delete(uri)) void connection.sendDiagnostics({ uri, diagnostics: [] });
  };

  const scheduler = new DiagnosticScheduler({
    // A document that validates quickly is answered at once; one whose last validation took
    // longer waits 15 ms of quiet, so a burst of keystrokes costs one validation.
    delayMs: options.debounceMs ?? ((lastRunMs) => (lastRunMs !== undefined && lastRunMs > SLOW_VALIDATION_MS ? 15 : 0)),
    current: (uri) => stateOf(uri),
    compute: (state) => (isManaged(state, documents.get(state.uri)?.languageId) ? computeDiagnostics(state) : []),
    publish: (uri, version, diagnostics) => {
      shown.add(uri);
      void connection.sendDiagnostics({ uri, version, diagnostics });
    },
    onError: (error, uri) => log(`diagnostics failed for ${uri}`, error),
  });

  /** Wraps a request handler: no state → fallback; throw → log + fallback; cancelled → RequestCancelled. */
  function request<P, R>(
    name: string,
    fallback: R,
    feature: (state: DocumentState, params: P, context: FeatureContext) => R,
    stateFor: (uri: string) => DocumentState | undefined = managedState,
  ): (params: P & { textDocument: { uri: string } }, token: CancellationToken) => R | ResponseError<void> {
    return (params, token) => {
      try {
        if (token?.isCancellationRequested) return new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled');
        const state = stateFor(params.textDocument.uri);
        if (!state) return fallback;
        const result = feature(state, params, { token });
        if (token?.isCancellationRequested) return new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled');
        return result;
      } catch (error) {
        if (error instanceof RequestCancelled) return new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled');
        if (error instanceof RenameRefused) return new ResponseError(LSPErrorCodes.RequestFailed, error.message);
        log(`${name} failed`, error);
        return fallback;
      }
    };
  }

  /** Wraps a notification handler: a throw is logged, never raised. */
  function notification<A extends unknown[]>(name: string, handler: (...args: A) => void): (...args: A) => void {
    return (...args) => {
      try {
        handler(...args);
      } catch (error) {
        log(`${name} failed`, error);
      }
    };
  }

  const refreshAll = (): void => {
    for (const document of documents.all()) {
      if (!entries.has(document.uri)) continue;
      // The size limit is part of the parse: re-read every open file.
      const state = createState(document.uri, document.version, document.getText(), { maxFileSizeBytes: settings.maxFileSizeBytes, languageId: document.languageId });
      entries.set(document.uri, { state });
      if (isManaged(state, document.languageId)) scheduler.schedule(document.uri);
      else clearDiagnostics(document.uri);
    }
  };

  const pullSettings = async (): Promise<void> => {
    if (!canPullConfiguration) return;
    try {
      const raw: unknown = await connection.workspace.getConfiguration({ section: 'svc' });
      settings = readSettings(raw);
    } catch (error) {
      log('reading the svc settings failed', error);
    }
  };

  connection.onInitialize((params): InitializeResult => {
    const workspace = params.capabilities.workspace;
    canPullConfiguration = !!workspace?.configuration;
    canRegisterConfiguration = !!workspace?.didChangeConfiguration?.dynamicRegistration;
    const resourceOperations = workspace?.workspaceEdit?.resourceOperations ?? [];
    canCreateAndDeleteFiles = !!workspace?.workspaceEdit?.documentChanges && resourceOperations.includes('create') && resourceOperations.includes('delete');
    // Clients without workspace/configuration can pass settings at start: `{ svc: {…} }` or `{ settings: { svc: {…} } }`.
    const init = params.initializationOptions as { svc?: unknown; settings?: { svc?: unknown } } | undefined;
    const initial = init?.svc ?? init?.settings?.svc;
    if (initial) settings = readSettings(initial);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        completionProvider: { triggerCharacters: ['"', "'", ':', '[', ',', ' ', '-', '='], resolveProvider: false },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        documentHighlightProvider: true,
        renameProvider: { prepareProvider: true },
        documentSymbolProvider: true,
        foldingRangeProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND, CodeActionKind.RefactorRewrite] },
        inlayHintProvider: true,
      },
      serverInfo: { name: SERVER_NAME, version: '0.1.0' },
    };
  });

  connection.onInitialized(
    notification('initialized', () => {
      if (canRegisterConfiguration) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'svc' });
      void pullSettings().then(refreshAll, (error) => log('settings', error));
    }),
  );

  connection.onDidChangeConfiguration(
    notification('didChangeConfiguration', (change) => {
      if (canPullConfiguration) {
        void pullSettings().then(refreshAll, (error) => log('settings', error));
      } else {
        settings = readSettings((change.settings as { svc?: unknown } | undefined)?.svc);
        refreshAll();
      }
    }),
  );

  documents.onDidChangeContent(
    notification('didChange', (event) => {
      const document = event.document;
      const entry = entries.get(document.uri);
      if (!entry) {
        if (!isManifestName(document.uri, settings) && !isYamlOrToml(document.uri, document.languageId)) return;
        entries.set(document.uri, {
          state: createState(document.uri, document.version, document.getText(), { maxFileSizeBytes: settings.maxFileSizeBytes, languageId: document.languageId }),
        });
      } else {
        entry.pending = { version: document.version, text: document.getText() };
      }
      // A manifest by name needs no parse to be scheduled; any other file is ours only if it pins our schema.
      const managed = settings.enable && (isManifestName(document.uri, settings) || isManaged(stateOf(document.uri)!, document.languageId));
      if (managed) scheduler.schedule(document.uri);
      // It stopped pinning our schema: take its diagnostics away.
      else clearDiagnostics(document.uri);
    }),
  );

  documents.onDidClose(
    notification('didClose', (event) => {
      entries.delete(event.document.uri);
      clearDiagnostics(event.document.uri);
      scheduler.forget(event.document.uri);
    }),
  );

  connection.onCompletion(request('completion', { isIncomplete: false, items: [] }, completion, typingState));
  connection.onHover(request('hover', null, hover));
  connection.onDefinition(request('definition', null, definition));
  connection.onReferences(request('references', [], references));
  connection.onDocumentHighlight(request('documentHighlight', [], documentHighlights));
  connection.onPrepareRename(request('prepareRename', null, prepareRename));
  connection.onRenameRequest(request('rename', null, rename));
  connection.onDocumentSymbol(request('documentSymbol', [], documentSymbols));
  connection.onFoldingRanges(request('foldingRange', [], foldingRanges));
  connection.onCodeAction(
    request('codeAction', [], (state, params, context) => [
      ...codeActions(state, params, context),
      ...transformActions(state, params, context, { resourceOperations: canCreateAndDeleteFiles }),
    ]),
  );
  connection.languages.inlayHint.on(request('inlayHint', [], (state, params, context) => (settings.inlayHints ? inlayHints(state, params, context) : [])));
  connection.onShutdown(() => scheduler.dispose());

  documents.listen(connection);
}
