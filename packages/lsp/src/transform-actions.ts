/**
 * Whole-file code actions (offered by the code-actions feature beside the quick fixes), built on the validator's editing engine, the same code as the
 * CLI's `validate --fix`, `migrate` and `convert`:
 *
 * - `source.fixAll.svc-manifest`: every safe fix at once (what "fix all on save" asks for);
 * - "Migrate to svc_version 2" (`refactor.rewrite`), offered on a version 1 manifest; when the
 *   migration is refused the action is shown disabled with the first reason (the located
 *   reasons are what `svc-manifest migrate` prints);
 * - "Convert to svc.yaml" (`refactor.rewrite`), offered on a TOML manifest to clients that can
 *   create and delete files: a workspace edit that creates the YAML file beside it (never over
 *   an existing one, asked of the files around the document, `FeatureContext.files`) and deletes
 *   the TOML file.
 */
import {
  CodeActionKind,
  CodeActionTriggerKind,
  type CodeAction,
  type CodeActionParams,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import {
  fixManifest,
  ManifestEditError,
  migrateManifest,
  textEdits,
  tomlToYaml,
  manifestVersion,
  type ManifestFiles,
} from '@svc-manifest/validator/library';
import type { DocumentState } from './document-state.js';
import { documentPolicy, throwIfCancelled, type FeatureContext } from './feature-context.js';
import { rangeAt } from './positions.js';

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.svc-manifest`;

export interface TransformOptions {
  /** The client applies `create` and `delete` resource operations in workspace edits. */
  resourceOperations?: boolean;
}

/**
 * Whether the client asked for `kind`: named in `only`, or, without `only`, asked by the user
 * rather than automatically (a lightbulb request on every cursor move would run whole-file
 * fixes, migrations and conversions for nothing).
 */
function wanted(context: CodeActionParams['context'] | undefined, kind: string): boolean {
  const only = context?.only;
  if (only) return only.some((requested) => kind === requested || kind.startsWith(`${requested}.`));
  return context?.triggerKind !== CodeActionTriggerKind.Automatic;
}

/** One edit replacing the changed region of the document. */
function editTo(state: DocumentState, after: string): WorkspaceEdit {
  const edits: TextEdit[] = textEdits(state.doc.text, after).map((edit) => ({
    range: rangeAt(state, edit.start, edit.end),
    newText: edit.newText,
  }));
  return { changes: { [state.uri]: edits } };
}

export function transformActions(
  state: DocumentState,
  params: Pick<CodeActionParams, 'context'>,
  context?: FeatureContext,
  options: TransformOptions = {},
): CodeAction[] {
  const actions: CodeAction[] = [];
  // Each tool refuses a text it cannot read (syntax, limits) by itself: no action comes of it.
  const document = state.doc;

  if (wanted(params.context, FIX_ALL_KIND)) actions.push(...fixAllAction(state, context));
  if (wanted(params.context, CodeActionKind.RefactorRewrite) && manifestVersion(document.value) === 1)
    actions.push(...migrateActions(state, context));
  if (
    wanted(params.context, CodeActionKind.RefactorRewrite) &&
    document.format === 'toml' &&
    options.resourceOperations &&
    /\.toml$/i.test(state.uri)
  )
    actions.push(...convertActions(state, context));
  return actions;
}

/** "Fix all safe problems", when there is one. */
function fixAllAction(state: DocumentState, context: FeatureContext | undefined): CodeAction[] {
  const document = state.doc;
  const actions: CodeAction[] = [];
  throwIfCancelled(context);
  // Under the document's policy, as `svc-manifest validate --fix`: nothing it turns off or a comment suppresses is fixed.
  const fixed = fixManifest(document, { policy: documentPolicy(state.uri, context) });
  if (fixed.changed)
    actions.push({
      title: `Fix all safe problems (${fixed.fixes.length})`,
      kind: FIX_ALL_KIND,
      edit: editTo(state, fixed.text),
    });
  return actions;
}

/**
 * "Migrate to svc_version 2": one action, or one per agent when only the default agent is
 * missing, or a disabled one that says why the manifest cannot be migrated.
 */
function migrateActions(state: DocumentState, context: FeatureContext | undefined): CodeAction[] {
  const document = state.doc;
  const actions: CodeAction[] = [];
  throwIfCancelled(context);
  const migrated = migrateManifest(document, { to: 2 });
  const title = 'Migrate to svc_version 2';
  const agents = (document.value as { agents?: unknown }).agents;
  const names = Array.isArray(agents)
    ? agents
        .map((agent) => (agent as { name?: unknown })?.name)
        .filter((name): name is string => typeof name === 'string')
    : [];
  if (migrated.ok && migrated.changed)
    actions.push({ title, kind: CodeActionKind.RefactorRewrite, edit: editTo(state, migrated.text) });
  else if (!migrated.ok && migrated.diagnostics.every((d) => d.code === 'migrate-default-agent') && names.length > 1) {
    // Only the default agent is missing: one action per agent (what --default-agent chooses on the command line).
    for (const name of names.slice(0, 20)) {
      throwIfCancelled(context);
      const chosen = migrateManifest(document, { to: 2, defaultAgent: name });
      if (chosen.ok && chosen.changed)
        actions.push({
          title: `${title} (default agent '${name}')`,
          kind: CodeActionKind.RefactorRewrite,
          edit: editTo(state, chosen.text),
        });
    }
  } else if (!migrated.ok) {
    const first = migrated.diagnostics[0];
    const more =
      migrated.diagnostics.length > 1
        ? ` (and ${migrated.diagnostics.length - 1} more; run svc-manifest migrate --to 2 to see them all)`
        : '';
    actions.push({
      title,
      kind: CodeActionKind.RefactorRewrite,
      disabled: {
        reason: `${first ? `line ${first.range.start.line}: ${first.message}` : 'the manifest cannot be migrated'}${more}`,
      },
    });
  }
  return actions;
}

/** "Convert to svc.yaml" (a TOML file's YAML beside it, the TOML file deleted), or a disabled one that says why not. */
function convertActions(state: DocumentState, context: FeatureContext | undefined): CodeAction[] {
  const document = state.doc;
  const actions: CodeAction[] = [];
  throwIfCancelled(context);
  const target = state.uri.replace(/\.toml$/i, '.yaml');
  const title = `Convert to ${decodeURIComponent(target.slice(target.lastIndexOf('/') + 1))}`;
  const beside = context?.files?.(state.uri);
  const taken = [target, target.replace(/\.yaml$/, '.yml')].find((uri) => exists(beside, uri));
  let yaml: string | undefined;
  try {
    yaml = tomlToYaml(document).text;
  } catch (error) {
    if (!(error instanceof ManifestEditError)) throw error;
    actions.push({ title, kind: CodeActionKind.RefactorRewrite, disabled: { reason: error.message } });
  }
  if (yaml !== undefined && taken) {
    actions.push({
      title,
      kind: CodeActionKind.RefactorRewrite,
      disabled: { reason: `${decodeURIComponent(taken.slice(taken.lastIndexOf('/') + 1))} already exists` },
    });
  } else if (yaml !== undefined) {
    actions.push({
      title,
      kind: CodeActionKind.RefactorRewrite,
      edit: {
        documentChanges: [
          { kind: 'create', uri: target, options: { overwrite: false, ignoreIfExists: false } },
          {
            textDocument: { uri: target, version: null },
            edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: yaml }],
          },
          { kind: 'delete', uri: state.uri },
        ],
      },
    });
  }
  return actions;
}

/**
 * Whether the file `uri` names, beside the document, exists: asked of the files around the
 * document (on Node, for a `file:` URI). Without them (a browser, another scheme) it is unknown,
 * so false: the client's create refuses an existing file anyway.
 */
function exists(files: ManifestFiles | undefined, uri: string): boolean {
  if (!files) return false;
  try {
    return files.stat(decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1))) !== 'missing';
  } catch {
    return false;
  }
}
