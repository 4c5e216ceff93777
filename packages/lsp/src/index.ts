/**
 * @svc-manifest/lsp — the language server for svc.yaml / svc.toml. The `svc-manifest-lsp`
 * binary (src/main.ts) is the usual way in; this module exposes the server and its features
 * for embedding and tests.
 */
export { startServer, SERVER_NAME, STATS_REQUEST, type ServerOptions } from './server.js';
export { createState, updateState, type DocumentState, type StateOptions } from './document-state.js';
export { DiagnosticScheduler, type SchedulerOptions, type SchedulerStats } from './diagnostic-scheduler.js';
export { QuietWatch } from './quiet.js';
export { DocumentStore, type OpenFile } from './document-store.js';
// The server holds open files as PieceTexts; its bundle has its own copy of the class, so embedders take it from here.
export { PieceText } from '@svc-manifest/validator/library';
export { FEATURES } from './features/index.js';
export type { Feature, RequestHandler } from './feature.js';
export type { FeatureContext } from './feature-context.js';
export { completion } from './features/completion.js';
export { hover } from './features/hover.js';
export { definition } from './features/definition.js';
export { references } from './features/references.js';
export { documentHighlights } from './features/document-highlight.js';
export { prepareRename, rename, RenameRefused } from './features/rename.js';
export { documentSymbols } from './features/document-symbols.js';
export { foldingRanges } from './features/folding.js';
export { codeActions } from './features/code-actions.js';
export { computeDiagnostics } from './features/diagnostics.js';
export { findSchemaPin, schemaPinDiagnostics, effectiveVersion, type SchemaPin } from './schema-pinning.js';
export { DEFAULT_SETTINGS, readSettings, isManifestName, globMatches, type Settings } from './settings.js';
export { runLanguageServer } from './command.js';
