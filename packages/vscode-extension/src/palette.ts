/**
 * The palette commands on the active manifest: Fix all, Migrate to version 2, Convert to YAML
 * (each the server's own code action, found by kind and title; the first two applied as they are,
 * the conversion written to disk before the TOML file goes), and Format; and the
 * status bar item with the manifest's `svc_version` and the schema it is checked against.
 */
import * as vscode from 'vscode';
import { describeManifest } from './manifest-status';

/**
 * The active document and the edit of the enabled code action of `kind` on all of it whose title starts
 * with `title`; a message when there is none.
 */
async function findAction(
  kind: vscode.CodeActionKind,
  title: string,
  missing: string,
): Promise<{ document: vscode.TextDocument; edit: vscode.WorkspaceEdit } | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return void vscode.window.showInformationMessage('svc: open a manifest first.');
  const document = editor.document;
  const whole = new vscode.Range(0, 0, document.lineCount, 0);
  const actions = (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', document.uri, whole, kind.value)) ?? [];
  const enabled = actions.filter((a) => a.title.startsWith(title) && !a.disabled && a.edit);
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
  return action?.edit ? { document, edit: action.edit } : undefined;
}

/** The code action of `kind` whose title starts with `title`, applied to the active document (left unsaved). */
async function applyAction(kind: vscode.CodeActionKind, title: string, missing: string): Promise<void> {
  const found = await findAction(kind, title, missing);
  if (found) await vscode.workspace.applyEdit(found.edit);
}

/**
 * Convert to YAML. The server's action creates the YAML file, fills it and deletes the TOML file
 * in one workspace edit, which would leave the YAML text unsaved in a new buffer while the TOML
 * file is already gone from disk. As `svc-manifest convert --write` does: the YAML file is created
 * with its text (never over an existing file) and read back, only then the TOML file is deleted;
 * the YAML file is shown.
 */
async function convertToYaml(): Promise<void> {
  const missing = 'only svc.toml can be converted to YAML.';
  const found = await findAction(vscode.CodeActionKind.RefactorRewrite, 'Convert to ', missing);
  if (!found) return;
  const { document, edit } = found;
  const created = edit.entries().filter(([uri]) => uri.toString() !== document.uri.toString());
  const [target, edits] = created[0] ?? [];
  if (!target || !edits || created.length !== 1 || edits.length !== 1) {
    return void vscode.window.showErrorMessage('svc: the conversion came in an unexpected shape; nothing was changed.');
  }
  const yaml = edits[0]!.newText;
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
  remove.deleteFile(document.uri);
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
      applyAction(vscode.CodeActionKind.RefactorRewrite, 'Migrate to svc_version 2', 'only a svc_version 1 manifest can be migrated.'),
    ),
    vscode.commands.registerCommand('svc.convertToYaml', convertToYaml),
    vscode.commands.registerCommand('svc.format', () => vscode.commands.executeCommand('editor.action.formatDocument')),
  ];
}
