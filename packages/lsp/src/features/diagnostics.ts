/**
 * Diagnostics: the validator's verdict and the schema pin's, under the document's policy (its
 * policy file's severities, its suppression comments and their problems, as the CLI reports
 * them), as LSP diagnostics. LSP positions
 * count UTF-16 units from the line's start, as the validator's columns do (but from 0), so a
 * range of the state's own document is read off the validator's positions; one of another text
 * is rebuilt from its offsets.
 */
import {
  DiagnosticSeverity,
  type Diagnostic as LspDiagnostic,
  type DiagnosticRelatedInformation,
} from 'vscode-languageserver';
import {
  withPathChecks,
  withPolicy,
  type Diagnostic,
  type Position as ValidatorPosition,
  type Range as ValidatorRange,
  type Severity,
  type ValidationResult,
} from '@svc-manifest/validator/library';
import { hasNewerText, type DocumentState } from '../document-state.js';
import { documentPolicy, throwIfCancelled, type FeatureContext } from '../feature-context.js';
import { rangeAt } from '../positions.js';
import { validate } from '../validation.js';
import { schemaPinDiagnostics } from '../schema-pinning.js';

export const DIAGNOSTIC_SOURCE = 'svc';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

/**
 * The diagnostics of a manifest in the validator's shape: the schema pin's first, then the
 * validator's, with the path check's when the server reads files and `svc.pathChecks.enable` is
 * on, all under the document's policy (`movedFrom` lined up with them).
 */
function validated(
  state: DocumentState,
  context: FeatureContext | undefined,
): Pick<ValidationResult, 'diagnostics' | 'movedFrom'> {
  const result = validate(state.doc);
  const files = context?.settings?.pathChecks === false ? undefined : context?.files?.(state.uri);
  const checked = files ? withPathChecks(state.doc, result, files) : result;
  const pins = schemaPinDiagnostics(state);
  const all: ValidationResult =
    pins.length === 0
      ? checked
      : {
          ...checked,
          diagnostics: [...pins, ...checked.diagnostics],
          ...(checked.movedFrom ? { movedFrom: [...pins.map(() => undefined), ...checked.movedFrom] } : {}),
        };
  return withPolicy(state.doc, all, documentPolicy(state.uri, context), state.suppressions);
}

/** Every diagnostic of a manifest (the schema pin's and the validator's, under its policy), in the validator's shape. */
export function manifestDiagnostics(state: DocumentState, context?: FeatureContext): Diagnostic[] {
  throwIfCancelled(context);
  return validated(state, context).diagnostics;
}

/** The diagnostics to publish for a manifest (none where `svc.validation.enable` is off). */
export function computeDiagnostics(
  state: DocumentState,
  _params: unknown = {},
  context?: FeatureContext,
): LspDiagnostic[] {
  throwIfCancelled(context);
  if (context?.settings?.validation === false) return [];
  const text = textFacts(state);
  const { diagnostics, movedFrom } = validated(state, context);
  return diagnostics.map((diagnostic, i) => toLspDiagnostic(state, diagnostic, text, movedFrom?.[i]));
}

/** What converting a range of `state` reads of its text: read once for a whole list, not per range. */
export interface TextFacts {
  /** The state has a newer text than its document: ranges are rebuilt from offsets in it. */
  newer: boolean;
  /** The document's text starts with a byte-order mark. */
  bom: boolean;
}

export function textFacts(state: DocumentState): TextFacts {
  return { newer: hasNewerText(state), bom: state.doc.source.charCodeAt(0) === 0xfeff };
}

export function toLspRange(state: DocumentState, range: ValidatorRange, text: TextFacts = textFacts(state)) {
  if (text.newer) return rangeAt(state, range.start.offset, range.end.offset);
  // Locating each diagnostic twice, once per convention, cost a quarter of an edit with hundreds of them.
  return { start: lspPosition(range.start, text.bom), end: lspPosition(range.end, text.bom) };
}

/** The LSP position of a validator position in the same text: on line 1 the validator's columns start after a byte-order mark, LSP's at the line's start. */
function lspPosition(position: ValidatorPosition, bom: boolean): { line: number; character: number } {
  return { line: position.line - 1, character: bom && position.line === 1 ? position.offset : position.column - 1 };
}

/**
 * The LSP form of each validator diagnostic, with what it was made for. The validator gives the
 * same diagnostic object again while the edit did not move it (see validateDocument), and its
 * result says which form a moved one came from (`ValidationResult.movedFrom`): after a keystroke
 * within a line nothing is converted again but what the edit changed.
 */
const converted = new WeakMap<Diagnostic, { lsp: LspDiagnostic; uri: string; bom: boolean }>();

export function toLspDiagnostic(
  state: DocumentState,
  diagnostic: Diagnostic,
  text: TextFacts = textFacts(state),
  former?: Diagnostic,
): LspDiagnostic {
  // A newer text's ranges are rebuilt from offsets in that text: nothing to keep then.
  if (text.newer) return convert(state, diagnostic, text);
  const kept = converted.get(diagnostic);
  if (kept && kept.uri === state.uri && kept.bom === text.bom) return kept.lsp;
  // Moved by the edit with no line added or removed before it: the same lines and columns, so the same LSP form.
  const earlier = former && former.range.start.line === diagnostic.range.start.line ? converted.get(former) : undefined;
  const lsp =
    earlier && earlier.uri === state.uri && earlier.bom === text.bom ? earlier.lsp : convert(state, diagnostic, text);
  converted.set(diagnostic, { lsp, uri: state.uri, bom: text.bom });
  return lsp;
}

function convert(state: DocumentState, diagnostic: Diagnostic, text: TextFacts): LspDiagnostic {
  const lsp: LspDiagnostic = {
    range: toLspRange(state, diagnostic.range, text),
    severity: SEVERITY[diagnostic.severity] ?? DiagnosticSeverity.Error,
    code: diagnostic.code,
    source: DIAGNOSTIC_SOURCE,
    message: diagnostic.message,
  };
  if (diagnostic.related?.length) {
    lsp.relatedInformation = diagnostic.related.map((related): DiagnosticRelatedInformation => ({
      location: { uri: state.uri, range: toLspRange(state, related.range, text) },
      message: related.message,
    }));
  }
  if (diagnostic.code === 'deprecated-key' || /deprecat/.test(diagnostic.code)) lsp.tags = [2];
  return lsp;
}
