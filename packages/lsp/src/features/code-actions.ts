/**
 * Quick fixes: the validator's suggested fixes ("did you mean", insert a missing key, remove a
 * forbidden key) for the diagnostics in the requested range, each as one workspace edit; and the
 * whole-file actions beside them (fix all, migrate, convert: ../transform-actions.ts).
 */
import { CodeActionKind, type CodeAction, type CodeActionParams, type TextEdit } from 'vscode-languageserver';
import type { DocumentState } from '../document-state.js';
import { throwIfCancelled, type FeatureContext } from '../feature-context.js';
import { offsetAt } from '../positions.js';
import { manifestDiagnostics, textFacts, toLspDiagnostic, toLspRange } from './diagnostics.js';
import { CodeActionRequest } from 'vscode-languageserver';
import { handle, type Feature } from '../feature.js';
import { FIX_ALL_KIND, transformActions } from '../transform-actions.js';

export function codeActions(
  state: DocumentState,
  params: Pick<CodeActionParams, 'range' | 'context'>,
  context?: FeatureContext,
): CodeAction[] {
  if (params.context?.only && !params.context.only.some((kind) => CodeActionKind.QuickFix.startsWith(kind))) return [];
  const from = offsetAt(state, params.range.start);
  const to = offsetAt(state, params.range.end);
  const actions: CodeAction[] = [];
  const text = textFacts(state);
  for (const diagnostic of manifestDiagnostics(state, context)) {
    throwIfCancelled(context);
    if (!diagnostic.fixes?.length) continue;
    const start = diagnostic.range.start.offset;
    const end = diagnostic.range.end.offset;
    // Overlapping, or touching: a cursor at either end of the squiggle counts.
    if (start > to || end < from) continue;
    const lspDiagnostic = toLspDiagnostic(state, diagnostic, text);
    for (const fix of diagnostic.fixes) {
      const edits: TextEdit[] = fix.edits.map((edit) => ({
        range: toLspRange(state, edit.range, text),
        newText: edit.newText,
      }));
      actions.push({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [lspDiagnostic],
        isPreferred: diagnostic.fixes.length === 1,
        edit: { changes: { [state.uri]: edits } },
      });
    }
  }
  return actions;
}

export const codeActionsFeature: Feature = {
  capabilities: {
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND, CodeActionKind.RefactorRewrite] },
  },
  handlers: [
    handle(CodeActionRequest.type, [], (state, params, context) => [
      ...codeActions(state, params, context),
      ...transformActions(state, params, context, { resourceOperations: context.client?.resourceOperations ?? false }),
    ]),
  ],
};
