/**
 * The palette commands on the active manifest: Fix all, Migrate to version 2, Convert to YAML
 * (each the server's own code action, found by kind and title; the first two applied as they are,
 * the conversion written to disk before the TOML file goes), and Format; and the
 * status bar item with the manifest's `svc_version` and the schema it is checked against.
 * The Refactor menu's "Convert to svc.yaml" runs the same conversion ({@link asSafeConversion}).
 */
import * as vscode from 'vscode';
import { describeManifest } from './manifest-status';

/**
 * The active document and the enabled code action of `kind` on all of it whose title starts
 * with `title`; a message when there is none.
 */
async function findAction(
  kind: vscode.CodeActionKind,
  title: string,
  missing: string,
): Promise<{ document: vscode.TextDocument; action: vscode.CodeAction } | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return void vscode.window.showInformationMessage('svc: open a manifest first.');
  const document = editor.document;
  const whole = new vscode.Range(0, 0, document.lineCount, 0);
  const actions =
    (await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      document.uri,
      whole,
      kind.value,
    )) ?? [];
  const enabled = actions.filter((a) => a.title.startsWith(title) && !a.disabled && (a.edit || a.command));
  const disabled = actions.find((a) => a.title.startsWith(title) && a.disabled);
  if (!enabled.length) {
    return void vscode.window.showInformationMessage(`svc: ${disabled?.disabled?.reason ?? missing}`);
  }
  // Several: the server offers one per choice (a v1 manifest without a default agent, one per agent); the user picks.
  let action = enabled[0];
  if (enabled.length > 1) {
    const items = enabled.map((a) => ({ label: a.title, action: a }));
    action = (await vscode.window.showQuickPick(items, { placeHolder: 'svc: choose one' }))?.action;
  }
  return action ? { document, action } : undefined;
}

/** The code action of `kind` whose title starts with `title`, applied to the active document (left unsaved). */
async function applyAction(kind: vscode.CodeActionKind, title: string, missing: string): Promise<void> {
  const edit = (await findAction(kind, title, missing))?.action.edit;
  if (edit) await vscode.workspace.applyEdit(edit);
}

const CONVERT_COMMAND = 'svc.convertToYaml';

/** A conversion: the TOML file, the YAML file beside it and the YAML text. */
interface Conversion {
  source: vscode.Uri;
  target: vscode.Uri;
  yaml: string;
}

/**
 * The conversion the server's action means: its workspace edit creates one file and fills it,
 * deletes `source`; undefined for any other shape (another action, or one this code does not know).
 */
function conversionIn(source: vscode.Uri, edit: vscode.WorkspaceEdit): Conversion | undefined {
  const created = edit.entries().filter(([uri]) => uri.toString() !== source.toString());
  const [target, edits] = created[0] ?? [];
  if (!target || !edits || created.length !== 1 || edits.length !== 1) return undefined;
  return { source, target, yaml: edits[0]!.newText };
}

/**
 * The Refactor menu's "Convert to svc.yaml": VS Code would apply the server's workspace edit as it is
 * (with `files.refactoring.autoSave` off, the TOML file gone from disk and the YAML text unsaved). In
 * its place, the same action running the palette's conversion (the command with the conversion as
 * plain arguments); any other action is returned as it is.
 */
export function asSafeConversion(
  document: vscode.TextDocument,
  action: vscode.CodeAction | vscode.Command,
): vscode.CodeAction | vscode.Command {
  if (
    !(action instanceof vscode.CodeAction) ||
    !action.edit ||
    action.disabled ||
    !action.title.startsWith('Convert to ')
  )
    return action;
  if (!action.kind || !vscode.CodeActionKind.RefactorRewrite.contains(action.kind)) return action;
  const conversion = conversionIn(document.uri, action.edit);
  if (!conversion) return action;
  const safe = new vscode.CodeAction(action.title, action.kind);
  safe.command = {
    command: CONVERT_COMMAND,
    title: action.title,
    arguments: [conversion.source.toString(), conversion.target.toString(), conversion.yaml],
  };
  return safe;
}

/** The conversion in the command's arguments {@link asSafeConversion} writes. */
function conversionFrom(args: readonly unknown[]): Conversion | undefined {
  const [source, target, yaml] = args;
  if (typeof source !== 'string' || typeof target !== 'string' || typeof yaml !== 'string') return undefined;
  return { source: vscode.Uri.parse(source), target: vscode.Uri.parse(target), yaml };
}

/**
 * Convert to YAML (the palette's command, and the Refactor menu's action through {@link asSafeConversion}). The server's action creates the YAML file, fills it and deletes the TOML file
 * in one workspace edit, which would leave the YAML text unsaved in a new buffer while the TOML
 * file is already gone from disk. As `svc-manifest convert --write` does: the YAML file is created
 * with its text (never over an existing file) and read back, only then the TOML file is deleted;
 * the YAML file is shown.
 */
async function convertToYaml(...args: unknown[]): Promise<void> {
  // From the Refactor menu the conversion comes as the arguments. From the palette it is asked of the
  // server, and the action found has passed the client's middleware too: it carries the same arguments.
  let conversion = conversionFrom(args);
  if (!conversion) {
    const found = await findAction(
      vscode.CodeActionKind.RefactorRewrite,
      'Convert to ',
      'only svc.toml can be converted to YAML.',
    );
    if (!found) return;
    const command = found.action.command;
    conversion = command?.command === CONVERT_COMMAND ? conversionFrom(command.arguments ?? []) : undefined;
  }
  if (!conversion)
    return void vscode.window.showErrorMessage('svc: the conversion came in an unexpected shape; nothing was changed.');
  const { source, target, yaml } = conversion;
  const name = target.path.slice(target.path.lastIndexOf('/') + 1);
  const write = new vscode.WorkspaceEdit();
  write.createFile(target, { overwrite: false, ignoreIfExists: false, contents: new TextEncoder().encode(yaml) });
  if (!(await vscode.workspace.applyEdit(write))) {
    return void vscode.window.showErrorMessage(`svc: could not create ${name}; nothing was changed.`);
  }
  // (A byte order mark the conversion kept is part of the text compared.)
  const written = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await vscode.workspace.fs.readFile(target));
  if (written !== yaml) {
    await vscode.workspace.fs.delete(target);
    return void vscode.window.showErrorMessage(`svc: ${name} did not read back as written; nothing was changed.`);
  }
  const remove = new vscode.WorkspaceEdit();
  remove.deleteFile(source);
  await vscode.workspace.applyEdit(remove);
  await vscode.window.showTextDocument(target);
}

export function registerPalette(isManifest: (document: vscode.TextDocument) => boolean): vscode.Disposable[] {
  const status = vscode.window.createStatusBarItem('svc.status', vscode.StatusBarAlignment.Right, 100);
  status.name = 'svc manifest';
  status.command = 'svc.showOutput';
  const update = (): void => {
    const document = vscode.window.activeTextEditor?.document;
    if (!document || !isManifest(document)) return void status.hide();
    const { version, schema } = describeManifest(document.getText(), document.languageId);
    status.text = `$(check) svc ${version === undefined ? '(no svc_version)' : `v${version}`}`;
    status.tooltip = `svc manifest, svc_version ${version ?? 'missing'}; schema: ${schema}`;
    status.show();
  };
  update();
  return [
    status,
    vscode.window.onDidChangeActiveTextEditor(update),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === vscode.window.activeTextEditor?.document) update();
    }),
    vscode.commands.registerCommand('svc.fixAll', () =>
      applyAction(vscode.CodeActionKind.SourceFixAll.append('svc-manifest'), 'Fix all', 'no safe fix to apply.'),
    ),
    vscode.commands.registerCommand('svc.migrateToVersion2', () =>
      applyAction(
        vscode.CodeActionKind.RefactorRewrite,
        'Migrate to svc_version 2',
        'only a svc_version 1 manifest can be migrated.',
      ),
    ),
    vscode.commands.registerCommand('svc.convertToYaml', convertToYaml),
    vscode.commands.registerCommand('svc.format', () => vscode.commands.executeCommand('editor.action.formatDocument')),
  ];
}
