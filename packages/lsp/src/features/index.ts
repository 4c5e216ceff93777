/**
 * The feature table: every request the server answers, one row per feature file. Adding a
 * feature is a file under features/ exporting a `Feature` and a row here; server.ts registers
 * each row's handlers and merges its capabilities, and knows nothing else about it.
 * (Diagnostics are pushed, not requested: diagnostics.ts is scheduled by the server.)
 */
import type { Feature } from '../feature.js';
import { codeActionsFeature } from './code-actions.js';
import { completionFeature } from './completion.js';
import { definitionFeature } from './definition.js';
import { documentHighlightFeature } from './document-highlight.js';
import { documentLinksFeature } from './document-links.js';
import { documentSymbolsFeature } from './document-symbols.js';
import { foldingFeature } from './folding.js';
import { formattingFeature } from './formatting.js';
import { hoverFeature } from './hover.js';
import { inlayHintsFeature } from './inlay-hints.js';
import { referencesFeature } from './references.js';
import { pullDiagnosticsFeature } from './pull-diagnostics.js';
import { renameFeature } from './rename.js';
import { selectionRangesFeature } from './selection-ranges.js';

export const FEATURES: readonly Feature[] = [
  completionFeature,
  hoverFeature,
  definitionFeature,
  referencesFeature,
  documentHighlightFeature,
  renameFeature,
  documentSymbolsFeature,
  foldingFeature,
  codeActionsFeature,
  inlayHintsFeature,
  formattingFeature,
  documentLinksFeature,
  selectionRangesFeature,
  pullDiagnosticsFeature,
];
