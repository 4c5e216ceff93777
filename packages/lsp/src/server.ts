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
  type FileSystemWatcher,
  WatchKind,
  LSPErrorCodes,
  MessageType,
  ResponseError,
  ShowMessageNotification,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type ClientCapabilities,
  type Connection,
  type InitializeParams,
  type InitializeResult,
  type ServerCapabilities,
} from 'vscode-languageserver';
import { DiagnosticScheduler } from './diagnostic-scheduler.js';
import type { DocumentState } from './document-state.js';
import { DocumentSettings } from './document-settings.js';
import { DocumentStore, type OpenFile } from './document-store.js';
import { FileLookups } from './file-lookups.js';
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
const SERVER_INFO = { name: SERVER_NAME, version: '0.1.0' };

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
  const { documents, takeChanges, forgetChanges } = openTextDocuments();
  const log = connectionLog(connection);
  const store = new DocumentStore(log);
  // What the client supports, set by initialize.
  let client = readClientSupport({}, false);
  // Which files are ours and the size limit follow the unscoped settings (`store.settings`); every
  // feature gets the settings of its document (its folder's), asked with the document as
  // `scopeUri` once the client says it can answer (onInitialize).
  const documentSettings = settingsPerDocument(connection, () => client.canPullConfiguration, store, log);
  const openUris = (): string[] => documents.all().map((document) => document.uri);
  const openFiles = (): OpenFile[] =>
    documents.all().map((d) => ({ uri: d.uri, version: d.version, text: d.getText(), languageId: d.languageId }));
  /** The workspace folders' URIs, from initialize. */
  let folders: string[] = [];
  const onDisk = new WorkspaceManifests(options.manifests);
  // With `svc.enable` off the workspace has no manifests of ours either.
  const workspaceStates = () =>
    store.settings.enable ? onDisk.states(folders, openManifestStates(store, documents)) : [];

  // Every handled message is noted, so validation waits until the messages already received
  // (the rest of a burst of edits, requests) are handled: see quiet.ts.
  const quiet = new QuietWatch();
  // Requests that read the parsed document wait for the same quiet, and go before validation.
  const requests = new RequestBatch(quiet);
  const collection = idleCollection(quiet, options);
  const afterParse = collectAfterLargeParses(collection);
  const lookups = new FileLookups(options, () => client.canWatchFiles);
  const policy = policyReporter(lookups.policy, connection, log);
  // What the pushed diagnostics, the requests and the workspace requests all give a feature.
  const contextOf = featureContexts({ settings: documentSettings, files: lookups.files, policy, client: () => client });
  const shared = { store, log, afterParse, contextOf };
  const { scheduler, clear: clearDiagnostics } = pushedDiagnostics(connection, { ...shared, quiet, requests, options });
  const showOrClear = (uri: string, managed: boolean): void => {
    if (!managed) {
      if (!client.pulls) clearDiagnostics(uri);
      return;
    }
    // Diagnostics follow the document's own settings: they are asked for now (a pull or another
    // request then finds them), and a pushed list waits for them.
    if (client.pulls) void documentSettings.load([uri]);
    else documentSettings.whenKnown(uri, () => scheduler.schedule(uri));
  };

  const guarded = (handler: RequestHandler) =>
    scheduledRequest(handler, answerRequest(handler, shared), { quiet, requests, settings: documentSettings });
  const notification = notificationGuard(quiet, log);

  connection.onInitialize((params): InitializeResult => {
    client = readClientSupport(params.capabilities, !!options.files || !!options.policy);
    const initial = initialSettings(params);
    if (initial) store.settings = initial;
    folders = workspaceFolders(params);
    return { capabilities: serverCapabilities(!!options.manifests), serverInfo: SERVER_INFO };
  });

  listenToSettings(connection, {
    client: () => client,
    store,
    documentSettings,
    openFiles,
    showOrClear,
    notification,
    log,
    options,
  });

  listenToDocuments(connection, {
    documents,
    takeChanges,
    forgetChanges,
    store,
    documentSettings,
    lookups,
    scheduler,
    clearDiagnostics,
    showOrClear,
    notification,
    client: () => client,
    openUris,
  });

  for (const feature of FEATURES) {
    for (const handler of feature.handlers) connection.onRequest(handler.method, guarded(handler));
  }
  answerWorkspaceRequests(connection, {
    ...shared,
    states: workspaceStates,
    openUris,
    settings: documentSettings,
  });
  connection.onRequest(STATS_REQUEST, () => ({ ...scheduler.stats }));
  connection.onShutdown(() => {
    collection.dispose();
    requests.dispose();
    scheduler.dispose();
  });

  documents.listen(connection);
}

type Log = (message: string, error?: unknown) => void;

/** Logs to the client's console, with the error's message and stack. */
function connectionLog(connection: Connection): Log {
  return (message, error) => {
    const detail =
      error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : error === undefined ? '' : String(error);
    try {
      connection.console.error(`${message}${detail ? `: ${detail}` : ''}`);
    } catch {
      // The connection is gone; nothing to tell.
    }
  };
}

/**
 * The open files, each an `OpenText`, and the client's change ranges of each file's last
 * didChange as offsets (see positions.ts), which the didChange handler takes to the store.
 */
function openTextDocuments(): {
  documents: TextDocuments<OpenText>;
  takeChanges: (uri: string) => OffsetChanges | undefined;
  forgetChanges: (uri: string) => void;
} {
  const changesByUri = new Map<string, OffsetChanges | undefined>();
  const documents = new TextDocuments<OpenText>({
    create: (uri, languageId, version, content) => OpenText.create(uri, languageId, version, content),
    update: (document, changes, version) => {
      const applied = applyContentChanges(document, changes, version);
      changesByUri.set(document.uri, applied.changes);
      return applied.document;
    },
  });
  return {
    documents,
    takeChanges: (uri) => {
      const changes = changesByUri.get(uri);
      changesByUri.delete(uri);
      return changes;
    },
    forgetChanges: (uri) => changesByUri.delete(uri),
  };
}

/** What the client can do, read from its initialize capabilities. */
interface ClientSupport {
  /** It answers workspace/configuration: settings are pulled, not only pushed. */
  canPullConfiguration: boolean;
  /** It registers didChangeConfiguration for the `svc` section when asked. */
  canRegisterConfiguration: boolean;
  /** It watches files for us, and we read files (path checks): created and deleted files are announced. */
  canWatchFiles: boolean;
  /** It pulls diagnostics (textDocument/diagnostic): nothing is pushed to it. */
  pulls: boolean;
  /** It can be told to pull diagnostics again. */
  canRefreshDiagnostics: boolean;
  /** It applies `create` and `delete` resource operations in workspace edits. */
  canCreateAndDeleteFiles: boolean;
}

function readClientSupport(capabilities: ClientCapabilities, readsFiles: boolean): ClientSupport {
  const workspace = capabilities.workspace;
  const resourceOperations = workspace?.workspaceEdit?.resourceOperations ?? [];
  return {
    canPullConfiguration: !!workspace?.configuration,
    canRegisterConfiguration: !!workspace?.didChangeConfiguration?.dynamicRegistration,
    canWatchFiles: readsFiles && !!workspace?.didChangeWatchedFiles?.dynamicRegistration,
    pulls: !!capabilities.textDocument?.diagnostic,
    canRefreshDiagnostics: !!workspace?.diagnostics?.refreshSupport,
    canCreateAndDeleteFiles:
      !!workspace?.workspaceEdit?.documentChanges &&
      resourceOperations.includes('create') &&
      resourceOperations.includes('delete'),
  };
}

/** The workspace folders' URIs; a client that names none may give a root. */
function workspaceFolders(params: InitializeParams): string[] {
  const folders = (params.workspaceFolders ?? []).map((folder) => folder.uri);
  return folders.length === 0 && params.rootUri ? [params.rootUri] : folders;
}

/** Every feature's capabilities, workspace symbols, and workspace diagnostics when the workspace's manifests can be listed. */
function serverCapabilities(listsWorkspaceManifests: boolean): ServerCapabilities {
  const capabilities: ServerCapabilities = {
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
  };
  for (const feature of FEATURES) Object.assign(capabilities, feature.capabilities);
  capabilities.workspaceSymbolProvider = true;
  if (listsWorkspaceManifests)
    capabilities.diagnosticProvider = { identifier: 'svc', interFileDependencies: false, workspaceDiagnostics: true };
  return capabilities;
}

/** The open files that are manifests of ours, parsed. */
function openManifestStates(store: DocumentStore, documents: TextDocuments<OpenText>): DocumentState[] {
  return documents.all().flatMap((document) => store.managed(document.uri) ?? []);
}

/** After a large parse, one full collection while nothing is asked of the server (idle-collection.ts). */
function idleCollection(
  quiet: QuietWatch,
  options: Pick<ServerOptions, 'collectGarbage' | 'idleTimers'>,
): IdleCollection {
  return new IdleCollection({
    collect: options.collectGarbage === null ? undefined : (options.collectGarbage ?? collectWhenAsked()),
    activity: () => quiet.handled,
    ...options.idleTimers,
  });
}

/**
 * A document made by a large parse asks for one collection, whichever request or validation
 * read it first (a client that pulls diagnostics has none pushed; see idle-collection.ts).
 */
function collectAfterLargeParses(collection: IdleCollection): (state: DocumentState) => void {
  const largeParses = new WeakSet<DocumentState['doc']>();
  return (state) => {
    if (state.doc.parsedCharacters < LARGE_PARSE || largeParses.has(state.doc)) return;
    largeParses.add(state.doc);
    collection.request();
  };
}

/**
 * Pushed diagnostics: the scheduler validates a file once the messages already received are
 * handled and publishes the result; `clear` cancels a file's validation and empties what the
 * client shows for it.
 */
function pushedDiagnostics(
  connection: Connection,
  server: {
    quiet: QuietWatch;
    requests: RequestBatch;
    store: DocumentStore;
    afterParse: (state: DocumentState) => void;
    log: Log;
    options: Pick<ServerOptions, 'debounceMs'>;
    contextOf: ContextOf;
  },
): { scheduler: DiagnosticScheduler; clear: (uri: string) => void } {
  const { quiet, requests, store, afterParse, log, options, contextOf } = server;
  /** Files the client currently shows our diagnostics for. */
  const shown = new Set<string>();
  const scheduler = new DiagnosticScheduler({
    whenQuiet: (callback) =>
      quiet.wait(() => {
        requests.flush();
        callback();
      }),
    // A document that validates quickly is answered at once; one whose last validation took
    // longer waits 15 ms of quiet, so a burst of keystrokes costs one validation.
    delayMs:
      options.debounceMs ?? ((lastRunMs) => (lastRunMs !== undefined && lastRunMs > SLOW_VALIDATION_MS ? 15 : 0)),
    current: (uri) => store.state(uri),
    compute: (state) => {
      if (!store.isManaged(state)) return [];
      const diagnostics = computeDiagnostics(state, {}, contextOf(state.uri));
      afterParse(state);
      return diagnostics;
    },
    publish: (uri, version, diagnostics) => {
      shown.add(uri);
      void connection.sendDiagnostics({ uri, version, diagnostics });
    },
    onError: (error, uri) => log(`diagnostics failed for ${uri}`, error),
  });
  const clear = (uri: string): void => {
    scheduler.cancel(uri);
    if (shown.delete(uri)) void connection.sendDiagnostics({ uri, diagnostics: [] });
  };
  return { scheduler, clear };
}

/**
 * The settings' notifications: once initialized, the registrations the client allows and the
 * first pull of the settings; on a change of configuration the settings read again (pulled, or
 * as the client sent them). New settings, or the same, read every open file again.
 */
function listenToSettings(
  connection: Connection,
  server: {
    /** What the client can do (initialize sets it). */
    client: () => ClientSupport;
    store: DocumentStore;
    documentSettings: DocumentSettings;
    openFiles: () => OpenFile[];
    showOrClear: (uri: string, managed: boolean) => void;
    notification: NotificationGuard;
    log: Log;
    options: Pick<ServerOptions, 'files' | 'policy'>;
  },
): void {
  const { client, store, documentSettings, openFiles, showOrClear, notification, log, options } = server;
  /** New settings (or the same, when undefined): every open file is read again. */
  const applySettings = (settings: Settings | undefined): void => {
    for (const { uri, managed } of store.applySettings(settings ?? store.settings, openFiles()))
      showOrClear(uri, managed);
    if (client().pulls && client().canRefreshDiagnostics) void connection.languages.diagnostics.refresh();
  };
  /** The client's settings, when it can be asked and answers. */
  const pullSettings = async (): Promise<Settings | undefined> =>
    client().canPullConfiguration ? askSettings(connection, log) : undefined;

  connection.onInitialized(
    notification('initialized', () => {
      if (client().canRegisterConfiguration)
        void connection.client.register(DidChangeConfigurationNotification.type, { section: 'svc' });
      if (client().canWatchFiles)
        void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: fileWatchers(options) });
      void pullSettings().then(applySettings, (error) => log('settings', error));
    }),
  );

  connection.onDidChangeConfiguration(
    notification('didChangeConfiguration', (change) => {
      // The unscoped settings and every document's own, asked again together; applied once both are in.
      if (client().canPullConfiguration)
        void Promise.all([pullSettings(), documentSettings.refresh()]).then(
          ([settings]) => applySettings(settings),
          (error) => log('settings', error),
        );
      else applySettings(readSettings((change.settings as { svc?: unknown } | undefined)?.svc));
    }),
  );
}

/**
 * The open documents' notifications: an edit goes to the store with its change ranges, and the
 * file's diagnostics are scheduled or cleared; a closed file is forgotten everywhere; a file
 * created, changed or deleted on disk has the open manifests checked again.
 */
function listenToDocuments(
  connection: Connection,
  server: {
    documents: TextDocuments<OpenText>;
    takeChanges: (uri: string) => OffsetChanges | undefined;
    forgetChanges: (uri: string) => void;
    store: DocumentStore;
    documentSettings: DocumentSettings;
    lookups: FileLookups;
    scheduler: DiagnosticScheduler;
    clearDiagnostics: (uri: string) => void;
    showOrClear: (uri: string, managed: boolean) => void;
    notification: NotificationGuard;
    /** What the client can do (initialize sets it). */
    client: () => ClientSupport;
    openUris: () => string[];
  },
): void {
  const { documents, takeChanges, forgetChanges, store, documentSettings, lookups, scheduler } = server;
  const { clearDiagnostics, showOrClear, notification, client, openUris } = server;
  /** Files were created, changed or deleted: paths and policy files looked up again, open manifests checked again. */
  const filesChanged = (): void => {
    lookups.clear();
    if (client().pulls) {
      if (client().canRefreshDiagnostics) void connection.languages.diagnostics.refresh();
      return;
    }
    for (const uri of openUris()) if (store.managed(uri)) scheduler.schedule(uri);
  };

  documents.onDidChangeContent(
    notification('didChange', ({ document }) => {
      const changes = takeChanges(document.uri);
      const managed = store.change({
        uri: document.uri,
        version: document.version,
        text: document.text,
        languageId: document.languageId,
        changes,
      });
      if (managed !== undefined) showOrClear(document.uri, managed);
    }),
  );

  // A file created or deleted may settle a path warning, and a policy file changes what is
  // reported: every open manifest is checked again (paths and policy files looked up again).
  connection.onDidChangeWatchedFiles(notification('didChangeWatchedFiles', filesChanged));

  documents.onDidClose(
    notification('didClose', ({ document }) => {
      forgetChanges(document.uri);
      store.close(document.uri);
      documentSettings.forget(document.uri);
      lookups.forget(document.uri);
      clearDiagnostics(document.uri);
      scheduler.forget(document.uri);
    }),
  );
}

const cancelled = () => new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled');

/** A request handler guarded: no state → fallback; throw → log + fallback; cancelled → RequestCancelled; refusal → RequestFailed. */
function answerRequest(
  handler: RequestHandler,
  server: {
    store: DocumentStore;
    log: Log;
    afterParse: (state: DocumentState) => void;
    contextOf: ContextOf;
  },
): RequestAnswer {
  const { store, log, afterParse, contextOf } = server;
  return (params, token) => {
    try {
      if (token?.isCancellationRequested) return cancelled();
      const uri = params.textDocument.uri;
      const state = handler.state === 'typing' ? store.typing(uri) : store.managed(uri);
      if (!state) return handler.fallback;
      const result = handler.run(state, params, contextOf(uri, token));
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
}

type RequestAnswer = (params: { textDocument: { uri: string } }, token: CancellationToken) => unknown;

/**
 * A request's guarded answer (answerRequest), timed: completion (which reads the newest text over
 * the last parse, without parsing) answers at once; every other request waits in the batch (see
 * request-batch.ts) and is answered from the newest text. Either waits for its document's settings first.
 */
function scheduledRequest(
  handler: RequestHandler,
  answer: RequestAnswer,
  server: { quiet: QuietWatch; requests: RequestBatch; settings: DocumentSettings },
): RequestAnswer {
  const { quiet, requests, settings } = server;
  return (params, token) => {
    quiet.note();
    const respond = () =>
      handler.state === 'typing' ? answer(params, token) : requests.defer(() => answer(params, token));
    // A document's settings are usually known since it was opened; a request that comes first waits for them.
    const uri = params.textDocument.uri;
    return settings.has(uri) ? respond() : settings.load([uri]).then(respond);
  };
}

/** What {@link notificationGuard} makes: wraps a notification handler. */
type NotificationGuard = ReturnType<typeof notificationGuard>;

/** Guards notification handlers: each notes the message (quiet.ts), and a throw is logged, never raised. */
function notificationGuard(quiet: QuietWatch, log: Log) {
  return function notification<A extends unknown[]>(name: string, handler: (...args: A) => void): (...args: A) => void {
    return (...args) => {
      quiet.note();
      try {
        handler(...args);
      } catch (error) {
        log(`${name} failed`, error);
      }
    };
  };
}

/** What a feature is given for a document, read as it runs: its settings, files and policy, what the client can do. */
type ContextOf = (uri: string, token?: CancellationToken) => FeatureContext;

function featureContexts(server: {
  settings: DocumentSettings;
  files: FeatureContext['files'];
  policy: FeatureContext['policy'];
  /** What the client can do (initialize sets it). */
  client: () => ClientSupport;
}): ContextOf {
  const { settings, files, policy } = server;
  return (uri, token) => ({
    token,
    settings: settings.of(uri),
    client: { resourceOperations: server.client().canCreateAndDeleteFiles },
    files,
    policy,
  });
}

/** The whole-workspace requests (workspace.ts), over the open manifests and those on disk in the folders. */
function answerWorkspaceRequests(
  connection: Connection,
  server: {
    states: () => DocumentState[];
    /** The open documents' URIs: their settings are kept. */
    openUris: () => string[];
    store: DocumentStore;
    /** Each document's settings, loaded before a report (`contextOf` reads them). */
    settings: DocumentSettings;
    contextOf: ContextOf;
    log: Log;
  },
): void {
  const { states, store, log, settings, contextOf } = server;
  connection.onWorkspaceSymbol((params, token) => {
    try {
      return workspaceSymbols(states(), params.query, { token, settings: store.settings });
    } catch (error) {
      if (error instanceof RequestCancelled) return cancelled();
      log('workspaceSymbol failed', error);
      return [];
    }
  });
  connection.languages.diagnostics.onWorkspace(async (params, token) => {
    try {
      const manifests = states();
      // Each manifest's list follows its own settings: those of files not open are asked for too (one request).
      const uris = manifests.map((state) => state.uri);
      await settings.load(uris);
      settings.retain(new Set([...uris, ...server.openUris()]));
      return workspaceDiagnostics(manifests, params.previousResultIds, (uri) => contextOf(uri, token));
    } catch (error) {
      if (error instanceof RequestCancelled)
        return new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled', { retriggerRequest: true });
      log('workspace diagnostics failed', error);
      return { items: [] };
    }
  });
}

/**
 * The policy of a document, as `FileLookups` keeps it; a policy file that cannot be used is said
 * once (a message and the log), and again only when its error changes, not on every validation.
 */
function policyReporter(
  readPolicy: ServerOptions['policy'],
  connection: Connection,
  log: Log,
): FeatureContext['policy'] {
  if (!readPolicy) return undefined;
  const errorsSaid = new Map<string, string>();
  return (uri) => {
    const found = readPolicy(uri);
    if (found === undefined) return found;
    if (found.error === undefined) errorsSaid.delete(found.file);
    else if (errorsSaid.get(found.file) !== found.error) {
      errorsSaid.set(found.file, found.error);
      const message = `svc: the policy file ${found.file} is not used: ${found.error} (svc-manifest validate refuses it too)`;
      log(message);
      void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message });
    }
    return found;
  };
}

/**
 * Each document's settings: asked with the document as `scopeUri` when the client answers
 * workspace/configuration (known from initialize on), else the unscoped settings for every document.
 */
function settingsPerDocument(
  connection: Connection,
  clientAnswers: () => boolean,
  store: DocumentStore,
  log: Log,
): DocumentSettings {
  const ask = (uris: readonly string[]) =>
    connection.workspace.getConfiguration(uris.map((scopeUri) => ({ scopeUri, section: 'svc' })));
  return new DocumentSettings(
    () => (clientAnswers() ? ask : undefined),
    () => store.settings,
    log,
  );
}

/** The client's unscoped settings; undefined when it does not answer. */
async function askSettings(connection: Connection, log: Log): Promise<Settings | undefined> {
  try {
    return readSettings(await connection.workspace.getConfiguration({ section: 'svc' }));
  } catch (error) {
    log('reading the svc settings failed', error);
    return undefined;
  }
}

/**
 * The files we ask the client to watch. Created and deleted files can settle a path warning
 * (path-not-found); a policy file created, changed or deleted changes what is reported (a client
 * that cannot watch gets the policy file read again on the document's next validation).
 */
function fileWatchers(options: Pick<ServerOptions, 'files' | 'policy'>): FileSystemWatcher[] {
  return [
    ...(options.files ? [{ globPattern: '**/*', kind: WatchKind.Create | WatchKind.Delete }] : []),
    ...(options.policy
      ? [{ globPattern: `**/${POLICY_FILE_NAME}`, kind: WatchKind.Create | WatchKind.Change | WatchKind.Delete }]
      : []),
  ];
}

/** Clients without workspace/configuration can pass settings at start: `{ svc: {…} }` or `{ settings: { svc: {…} } }`. */
function initialSettings(params: InitializeParams): Settings | undefined {
  const init = params.initializationOptions as { svc?: unknown; settings?: { svc?: unknown } } | undefined;
  const initial = init?.svc ?? init?.settings?.svc;
  return initial ? readSettings(initial) : undefined;
}
