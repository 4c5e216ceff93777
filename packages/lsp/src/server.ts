/**
 * Wires the LSP connection to the document store and the feature table. Nothing here knows
 * about manifests: the store (document-store.ts) keeps the files and decides which are ours,
 * each feature (features/index.ts) brings its capabilities and handlers, and this file
 * registers them the same way: every handler is guarded (a throw is logged and answered with
 * the feature's empty result, cancellation answers `RequestCancelled`, a refusal
 * `RequestFailed`), and diagnostics are scheduled after edits.
 */
import {
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  WatchKind,
  LSPErrorCodes,
  MessageType,
  ResponseError,
  ShowMessageNotification,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type Connection,
  type InitializeResult,
  type ServerCapabilities,
} from 'vscode-languageserver';
import { DiagnosticScheduler } from './diagnostic-scheduler.js';
import type { DocumentState } from './document-state.js';
import { DocumentSettings } from './document-settings.js';
import { DocumentStore, type OpenFile } from './document-store.js';
import { applyContentChanges, OpenText, type OffsetChanges } from './positions.js';
import type { RequestHandler } from './feature.js';
import { FeatureRefusal, RequestCancelled, type FeatureContext } from './feature-context.js';
import { computeDiagnostics } from './features/diagnostics.js';
import { FEATURES } from './features/index.js';
import { collectWhenAsked, IdleCollection, LARGE_PARSE, type IdleCollectionOptions } from './idle-collection.js';
import { QuietWatch } from './quiet.js';
import { RequestBatch } from './request-batch.js';
import { readSettings, type Settings } from './settings.js';
import { WorkspaceManifests, workspaceDiagnostics, workspaceSymbols, type ManifestLister } from './workspace.js';

export interface ServerOptions {
  /** Quiet time after an edit before diagnostics run (default 15 ms). */
  debounceMs?: number;
  /** The full collection run when idle after a large parse (see idle-collection.ts); null for none. Default: V8's. */
  collectGarbage?: (() => void) | null;
  /** The idle collection's clock and timers (default: the process's); tests run them by hand. */
  idleTimers?: Pick<IdleCollectionOptions, 'now' | 'setTimer' | 'clearTimer'>;
  /** The files around a document, for path checks (`path-not-found`): the Node entry passes them for `file:` URIs; none in a browser. */
  files?: FeatureContext['files'];
  /** Lists the manifests in the workspace folders, for workspace symbols and workspace diagnostics (the Node entry's walks the disk). */
  manifests?: ManifestLister;
  /**
   * The policy file of a document (the Node entry reads the nearest `.svc-manifest.yaml` up from a
   * `file:` document, again when it changed); none in a browser, where only the documents' own
   * suppression comments apply.
   */
  policy?: FeatureContext['policy'];
}

export const SERVER_NAME = 'svc-manifest-lsp';

/** The policy file's name (the validator's `POLICY_FILE_NAME`; server.ts imports no manifest code), watched for changes. */
const POLICY_FILE_NAME = '.svc-manifest.yaml';

/**
 * Our own request (no parameters): how many validations and publications the server made so
 * far, as `SchedulerStats`. Tests and benchmarks use it to count work; editors have no use for it.
 */
export const STATS_REQUEST = 'svc/stats';

/** Documents whose validation takes longer than this wait for a pause in typing. */
const SLOW_VALIDATION_MS = 50;

export function startServer(connection: Connection, options: ServerOptions = {}): void {
  // The client's change ranges, as offsets, from each didChange to the store (see positions.ts).
  const changesByUri = new Map<string, OffsetChanges | undefined>();
  const documents = new TextDocuments<OpenText>({
    create: (uri, languageId, version, content) => OpenText.create(uri, languageId, version, content),
    update: (document, changes, version) => {
      const applied = applyContentChanges(document, changes, version);
      changesByUri.set(document.uri, applied.changes);
      return applied.document;
    },
  });
  const log = (message: string, error?: unknown): void => {
    const detail = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : error === undefined ? '' : String(error);
    try {
      connection.console.error(`${message}${detail ? `: ${detail}` : ''}`);
    } catch {
      // The connection is gone; nothing to tell.
    }
  };
  const store = new DocumentStore(log);
  /** The error of each policy file that cannot be used, once said (a message and the log): said again only when it changes, not on every validation. */
  const policyErrorsSaid = new Map<string, string>();
  const readPolicy = options.policy;
  const policy: FeatureContext['policy'] =
    readPolicy &&
    ((uri) => {
      const found = readPolicy(uri);
      if (found === undefined) return found;
      if (found.error === undefined) policyErrorsSaid.delete(found.file);
      else if (policyErrorsSaid.get(found.file) !== found.error) {
        policyErrorsSaid.set(found.file, found.error);
        const message = `svc: the policy file ${found.file} is not used: ${found.error} (svc-manifest validate refuses it too)`;
        log(message);
        void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message });
      }
      return found;
    });
  // Which files are ours and the size limit follow the unscoped settings (`store.settings`); every
  // feature gets the settings of its document (its folder's), asked with the document as
  // `scopeUri` once the client says it can answer (onInitialize).
  let documentSettings = new DocumentSettings(undefined, () => store.settings, log);
  const openFiles = (): OpenFile[] => documents.all().map((d) => ({ uri: d.uri, version: d.version, text: d.getText(), languageId: d.languageId }));
  let canPullConfiguration = false;
  let canRegisterConfiguration = false;
  let canCreateAndDeleteFiles = false;
  let canWatchFiles = false;
  /** The workspace folders' URIs, from initialize. */
  let folders: string[] = [];
  const onDisk = new WorkspaceManifests(options.manifests);
  // With `svc.enable` off the workspace has no manifests of ours either.
  const workspaceStates = () =>
    store.settings.enable
      ? onDisk.states(
          folders,
          documents.all().flatMap((document) => store.managed(document.uri) ?? []),
        )
      : [];
  /** The client pulls diagnostics (textDocument/diagnostic): nothing is pushed to it. */
  let pulls = false;
  let canRefreshDiagnostics = false;

  /** Files the client currently shows our diagnostics for. */
  const shown = new Set<string>();
  // Every handled message is noted, so validation waits until the messages already received
  // (the rest of a burst of edits, requests) are handled: see quiet.ts.
  const quiet = new QuietWatch();
  // Requests that read the parsed document wait for the same quiet, and go before validation.
  const requests = new RequestBatch(quiet);
  // After a large parse, one full collection while nothing is asked of the server (idle-collection.ts).
  const collection = new IdleCollection({
    collect: options.collectGarbage === null ? undefined : (options.collectGarbage ?? collectWhenAsked()),
    activity: () => quiet.handled,
    ...options.idleTimers,
  });
  /**
   * A document made by a large parse asks for one collection, whichever request or validation
   * read it first (a client that pulls diagnostics has none pushed; see idle-collection.ts).
   */
  const largeParses = new WeakSet<DocumentState['doc']>();
  const afterParse = (state: DocumentState): void => {
    if (state.doc.parsedCharacters < LARGE_PARSE || largeParses.has(state.doc)) return;
    largeParses.add(state.doc);
    collection.request();
  };
  const scheduler = new DiagnosticScheduler({
    whenQuiet: (callback) =>
      quiet.wait(() => {
        requests.flush();
        callback();
      }),
    // A document that validates quickly is answered at once; one whose last validation took
    // longer waits 15 ms of quiet, so a burst of keystrokes costs one validation.
    delayMs: options.debounceMs ?? ((lastRunMs) => (lastRunMs !== undefined && lastRunMs > SLOW_VALIDATION_MS ? 15 : 0)),
    current: (uri) => store.state(uri),
    compute: (state) => {
      if (!store.isManaged(state)) return [];
      const diagnostics = computeDiagnostics(state, {}, { settings: documentSettings.of(state.uri), files: options.files, policy });
      afterParse(state);
      return diagnostics;
    },
    publish: (uri, version, diagnostics) => {
      shown.add(uri);
      void connection.sendDiagnostics({ uri, version, diagnostics });
    },
    onError: (error, uri) => log(`diagnostics failed for ${uri}`, error),
  });
  const clearDiagnostics = (uri: string): void => {
    scheduler.cancel(uri);
    if (shown.delete(uri)) void connection.sendDiagnostics({ uri, diagnostics: [] });
  };
  const showOrClear = (uri: string, managed: boolean): void => {
    if (!managed) {
      if (!pulls) clearDiagnostics(uri);
      return;
    }
    // Diagnostics follow the document's own settings: they are asked for now (a pull or another
    // request then finds them), and a pushed list waits for them.
    if (pulls) void documentSettings.load([uri]);
    else documentSettings.whenKnown(uri, () => scheduler.schedule(uri));
  };
  /** Settings or files changed: a pulling client asks again (when it can be told), a pushed one is sent new lists. */
  const refreshDiagnostics = (uris: string[]): void => {
    if (pulls) {
      if (canRefreshDiagnostics) void connection.languages.diagnostics.refresh();
      return;
    }
    for (const uri of uris) if (store.managed(uri)) scheduler.schedule(uri);
  };

  const cancelled = () => new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled');
  /** A request handler guarded: no state → fallback; throw → log + fallback; cancelled → RequestCancelled; refusal → RequestFailed. */
  const answer =
    (handler: RequestHandler) =>
    (params: { textDocument: { uri: string } }, token: CancellationToken): unknown => {
      try {
        if (token?.isCancellationRequested) return cancelled();
        const uri = params.textDocument.uri;
        const state = handler.state === 'typing' ? store.typing(uri) : store.managed(uri);
        if (!state) return handler.fallback;
        const result = handler.run(state, params, {
          token,
          settings: documentSettings.of(uri),
          client: { resourceOperations: canCreateAndDeleteFiles },
          files: options.files,
          policy,
        });
        afterParse(state);
        if (token?.isCancellationRequested) return cancelled();
        return result;
      } catch (error) {
        if (error instanceof RequestCancelled) return cancelled();
        if (error instanceof FeatureRefusal) return new ResponseError(LSPErrorCodes.RequestFailed, error.message);
        // Named as before the table: `hover failed`, `prepareRename failed`.
        log(`${handler.method.slice(handler.method.indexOf('/') + 1)} failed`, error);
        return handler.fallback;
      }
    };

  /**
   * A request handler guarded, and timed: completion (which reads the newest text over the last
   * parse, without parsing) answers at once; every other request waits in the batch (see
   * request-batch.ts) and is answered from the newest text.
   */
  const guarded = (handler: RequestHandler) => {
    const run = answer(handler);
    return (params: { textDocument: { uri: string } }, token: CancellationToken): unknown => {
      quiet.note();
      const respond = () => (handler.state === 'typing' ? run(params, token) : requests.defer(() => run(params, token)));
      // A document's settings are usually known since it was opened; a request that comes first waits for them.
      const uri = params.textDocument.uri;
      return documentSettings.has(uri) ? respond() : documentSettings.load([uri]).then(respond);
    };
  };

  /** A notification handler guarded: a throw is logged, never raised. */
  function notification<A extends unknown[]>(name: string, handler: (...args: A) => void): (...args: A) => void {
    return (...args) => {
      quiet.note();
      try {
        handler(...args);
      } catch (error) {
        log(`${name} failed`, error);
      }
    };
  }

  /** New settings (or the same, when undefined): every open file is read again. */
  const applySettings = (settings: Settings | undefined): void => {
    for (const { uri, managed } of store.applySettings(settings ?? store.settings, openFiles())) showOrClear(uri, managed);
    if (pulls && canRefreshDiagnostics) void connection.languages.diagnostics.refresh();
  };
  /** The client's settings, when it can be asked and answers. */
  const pullSettings = async (): Promise<Settings | undefined> => {
    if (!canPullConfiguration) return undefined;
    try {
      return readSettings(await connection.workspace.getConfiguration({ section: 'svc' }));
    } catch (error) {
      log('reading the svc settings failed', error);
      return undefined;
    }
  };

  connection.onInitialize((params): InitializeResult => {
    const workspace = params.capabilities.workspace;
    canPullConfiguration = !!workspace?.configuration;
    if (canPullConfiguration)
      documentSettings = new DocumentSettings(
        (uris) => connection.workspace.getConfiguration(uris.map((scopeUri) => ({ scopeUri, section: 'svc' }))),
        () => store.settings,
        log,
      );
    canRegisterConfiguration = !!workspace?.didChangeConfiguration?.dynamicRegistration;
    canWatchFiles = (!!options.files || !!options.policy) && !!workspace?.didChangeWatchedFiles?.dynamicRegistration;
    pulls = !!params.capabilities.textDocument?.diagnostic;
    canRefreshDiagnostics = !!workspace?.diagnostics?.refreshSupport;
    const resourceOperations = workspace?.workspaceEdit?.resourceOperations ?? [];
    canCreateAndDeleteFiles = !!workspace?.workspaceEdit?.documentChanges && resourceOperations.includes('create') && resourceOperations.includes('delete');
    // Clients without workspace/configuration can pass settings at start: `{ svc: {…} }` or `{ settings: { svc: {…} } }`.
    const init = params.initializationOptions as { svc?: unknown; settings?: { svc?: unknown } } | undefined;
    const initial = init?.svc ?? init?.settings?.svc;
    if (initial) store.settings = readSettings(initial);
    const capabilities: ServerCapabilities = { textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental } };
    for (const feature of FEATURES) Object.assign(capabilities, feature.capabilities);
    folders = (params.workspaceFolders ?? []).map((folder) => folder.uri);
    if (folders.length === 0 && params.rootUri) folders = [params.rootUri];
    capabilities.workspaceSymbolProvider = true;
    if (options.manifests) capabilities.diagnosticProvider = { identifier: 'svc', interFileDependencies: false, workspaceDiagnostics: true };
    return { capabilities, serverInfo: { name: SERVER_NAME, version: '0.1.0' } };
  });

  connection.onInitialized(
    notification('initialized', () => {
      if (canRegisterConfiguration) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'svc' });
      // Created and deleted files can settle a path warning (path-not-found); a policy file
      // created, changed or deleted changes what is reported (a client that cannot watch gets
      // the policy file read again on the document's next validation).
      if (canWatchFiles)
        void connection.client.register(DidChangeWatchedFilesNotification.type, {
          watchers: [
            ...(options.files ? [{ globPattern: '**/*', kind: WatchKind.Create | WatchKind.Delete }] : []),
            ...(options.policy ? [{ globPattern: `**/${POLICY_FILE_NAME}`, kind: WatchKind.Create | WatchKind.Change | WatchKind.Delete }] : []),
          ],
        });
      void pullSettings().then(applySettings, (error) => log('settings', error));
    }),
  );

  connection.onDidChangeConfiguration(
    notification('didChangeConfiguration', (change) => {
      // The unscoped settings and every document's own, asked again together; applied once both are in.
      if (canPullConfiguration)
        void Promise.all([pullSettings(), documentSettings.refresh()]).then(
          ([settings]) => applySettings(settings),
          (error) => log('settings', error),
        );
      else applySettings(readSettings((change.settings as { svc?: unknown } | undefined)?.svc));
    }),
  );

  documents.onDidChangeContent(
    notification('didChange', ({ document }) => {
      const changes = changesByUri.get(document.uri);
      changesByUri.delete(document.uri);
      const managed = store.change({ uri: document.uri, version: document.version, text: document.text, languageId: document.languageId, changes });
      if (managed !== undefined) showOrClear(document.uri, managed);
    }),
  );

  // A file created or deleted may settle a path warning, and a policy file changes what is
  // reported: every open manifest is checked again (the policy file is read again when it changed).
  connection.onDidChangeWatchedFiles(
    notification('didChangeWatchedFiles', () => {
      refreshDiagnostics(documents.all().map((document) => document.uri));
    }),
  );

  documents.onDidClose(
    notification('didClose', ({ document }) => {
      changesByUri.delete(document.uri);
      store.close(document.uri);
      documentSettings.forget(document.uri);
      clearDiagnostics(document.uri);
      scheduler.forget(document.uri);
    }),
  );

  for (const feature of FEATURES) {
    for (const handler of feature.handlers) connection.onRequest(handler.method, guarded(handler));
  }
  // Whole-workspace requests (workspace.ts): the open manifests and those on disk in the folders.
  connection.onWorkspaceSymbol((params, token) => {
    try {
      return workspaceSymbols(workspaceStates(), params.query, { token, settings: store.settings });
    } catch (error) {
      if (error instanceof RequestCancelled) return cancelled();
      log('workspaceSymbol failed', error);
      return [];
    }
  });
  connection.languages.diagnostics.onWorkspace(async (params, token) => {
    try {
      const states = workspaceStates();
      // Each manifest's list follows its own settings: those of files not open are asked for too (one request).
      const uris = states.map((state) => state.uri);
      await documentSettings.load(uris);
      documentSettings.retain(new Set([...uris, ...documents.all().map((document) => document.uri)]));
      return workspaceDiagnostics(states, params.previousResultIds, (uri) => ({ token, settings: documentSettings.of(uri), files: options.files, policy }));
    } catch (error) {
      if (error instanceof RequestCancelled) return new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled', { retriggerRequest: true });
      log('workspace diagnostics failed', error);
      return { items: [] };
    }
  });
  connection.onRequest(STATS_REQUEST, () => ({ ...scheduler.stats }));
  connection.onShutdown(() => {
    collection.dispose();
    requests.dispose();
    scheduler.dispose();
  });

  documents.listen(connection);
}
