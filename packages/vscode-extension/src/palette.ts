/**
 * The palette commands on the active manifest: Fix all, Migrate to version 2, Convert to YAML
 * (each the server's own code action, found by kind and title and applied), and Format; and the
 * status bar item with the manifest's `svc_version` and the schema it is checked against.
 */
import * as vscode from 'vscode';
import { describeManifest } from './manifest-status';

/** The code action of `kind` on the whole document whose title starts with `title`, applied; a message when there is none. */
async function applyAction(kind: vscode.CodeActionKind, title: string, missing: string): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return void vscode.window.showInformationMessage('svc: open a manifest first.');
  const document = editor.document;
  const whole = new vscode.Range(0, 0, document.lineCount, 0);
  const actions = (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', document.uri, whole, kind.value)) ?? [];
  const action = actions.find((a) => a.title.startsWith(title) && !a.disabled);
  const disabled = actions.find((a) => a.title.startsWith(title) && a.disabled);
  if (!action?.edit) return void vscode.window.showInformationMessage(`svc: ${disabled?.disabled?.reason ?? missing}`);
  await vscode.workspace.applyEdit(action.edit);
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
    vscode.commands.registerCommand('svc.convertToYaml', () =>
      applyAction(vscode.CodeActionKind.RefactorRewrite, 'Convert to ', 'only svc.toml can be converted to YAML.'),
    ),
    vscode.commands.registerCommand('svc.format', () => vscode.commands.executeCommand('editor.action.formatDocument')),
  ];
}
