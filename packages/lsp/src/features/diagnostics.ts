/**
 * Diagnostics: the validator's verdict and the schema pin's, as LSP diagnostics. Ranges are
 * rebuilt from the validator's UTF-16 offsets, the unit LSP columns use.
 */
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic, type DiagnosticRelatedInformation } from 'vscode-languageserver';
import type { Diagnostic, Range as ValidatorRange, Severity } from '@svc-manifest/validator';
import type { DocumentState } from '../document-state.js';
import { throwIfCancelled, type FeatureContext } from '../feature-context.js';
import { rangeAt } from '../positions.js';
import { validate } from '../validation.js';
import { schemaPinDiagnostics } from '../schema-pinning.js';

export const DIAGNOSTIC_SOURCE = 'svc';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

/** Every validator diagnostic of a manifest plus the schema pin's, in the validator's shape. */
export function manifestDiagnostics(state: DocumentState, context?: FeatureContext): Diagnostic[] {
  throwIfCancelled(context);
  return [...schemaPinDiagnostics(state), ...validate(state.doc).diagnostics];
}

/** The diagnostics to publish for a manifest. */
export function computeDiagnostics(state: DocumentState, _params: unknown = {}, context?: FeatureContext): LspDiagnostic[] {
  return manifestDiagnostics(state, context).map((diagnostic) => toLspDiagnostic(state, diagnostic));
}

export function toLspRange(state: DocumentState, range: ValidatorRange) {
  return rangeAt(state, range.start.offset, range.end.offset);
}

export function toLspDiagnostic(state: DocumentState, diagnostic: Diagnostic): LspDiagnostic {
  const lsp: LspDiagnostic = {
    range: toLspRange(state, diagnostic.range),
    severity: SEVERITY[diagnostic.severity] ?? DiagnosticSeverity.Error,
    code: diagnostic.code,
    source: DIAGNOSTIC_SOURCE,
    message: diagnostic.message,
  };
  if (diagnostic.related?.length) {
    lsp.relatedInformation = diagnostic.related.map((related): DiagnosticRelatedInformation => ({
      location: { uri: state.uri, range: toLspRange(state, related.range) },
      message: related.message,
    }));
  }
  if (diagnostic.code === 'deprecated-key' || /deprecat/.test(diagnostic.code)) lsp.tags = [2];
  return lsp;
}
