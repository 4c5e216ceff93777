/**
 * Document and range formatting: the validator's formatter (`formatManifest`), which changes only
 * whitespace and YAML quotes and proves the value unchanged. The document's policy file
 * (`format`: `indent`, `sequences`, `quotes`) decides first, as it does for `svc-manifest fmt`;
 * else the indent width is the editor's `tabSize` (where editors put `.editorconfig`'s
 * `indent_size`), 2 when the client asks for tabs or an odd width, and quotes are made double.
 * A file the formatter refuses gets no edits.
 */
import {
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  type DocumentFormattingParams,
  type DocumentRangeFormattingParams,
  type FormattingOptions,
  type TextEdit,
} from 'vscode-languageserver';
import {
  formatManifest,
  formatManifestRange,
  ManifestEditError,
  type FormatOptions,
  type OffsetEdit,
} from '@svc-manifest/validator/library';
import type { DocumentState } from '../document-state.js';
import { throwIfCancelled, type FeatureContext } from '../feature-context.js';
import { offsetAt, rangeAt } from '../positions.js';
import { handle, type Feature } from '../feature.js';

function indentWidth(options: FormattingOptions | undefined): number {
  const size = options?.tabSize;
  return options?.insertSpaces !== false && typeof size === 'number' && Number.isInteger(size) && size >= 1 && size <= 8
    ? size
    : 2;
}

/** The formatter's options for a document: the policy file's `format`, else the editor's width. */
function formatOptions(
  state: DocumentState,
  options: FormattingOptions | undefined,
  context: FeatureContext | undefined,
): FormatOptions {
  const policy = context?.policy?.(state.uri)?.format;
  return {
    format: state.format,
    indentWidth: policy?.indent ?? indentWidth(options),
    sequences: policy?.sequences,
    quotes: policy?.quotes,
  };
}

function toTextEdits(state: DocumentState, edits: readonly OffsetEdit[]): TextEdit[] {
  return edits.map((edit) => ({ range: rangeAt(state, edit.start, edit.end), newText: edit.newText }));
}

export function formatDocument(
  state: DocumentState,
  params: Pick<DocumentFormattingParams, 'options'>,
  context?: FeatureContext,
): TextEdit[] {
  throwIfCancelled(context);
  try {
    const result = formatManifest(state.doc.text, formatOptions(state, params.options, context));
    return toTextEdits(state, result.edits);
  } catch (error) {
    if (error instanceof ManifestEditError) return [];
    throw error;
  }
}

export function formatRange(
  state: DocumentState,
  params: Pick<DocumentRangeFormattingParams, 'options' | 'range'>,
  context?: FeatureContext,
): TextEdit[] {
  throwIfCancelled(context);
  const range = { start: offsetAt(state, params.range.start), end: offsetAt(state, params.range.end) };
  try {
    return toTextEdits(
      state,
      formatManifestRange(state.doc.text, range, formatOptions(state, params.options, context)),
    );
  } catch (error) {
    if (error instanceof ManifestEditError) return [];
    throw error;
  }
}

export const formattingFeature: Feature = {
  capabilities: { documentFormattingProvider: true, documentRangeFormattingProvider: true },
  handlers: [
    handle(DocumentFormattingRequest.type, null, (state, params, context) =>
      context.settings?.format === false ? null : formatDocument(state, params, context),
    ),
    handle(DocumentRangeFormattingRequest.type, null, (state, params, context) =>
      context.settings?.format === false ? null : formatRange(state, params, context),
    ),
  ],
};
