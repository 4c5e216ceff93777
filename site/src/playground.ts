/**
 * The playground: a CodeMirror editor talking LSP to the project's own language server in a
 * Web Worker (lsp-worker.ts). Completion and hover come from @codemirror/lsp-client; diagnostics
 * with their quick fixes, inlay hints, the problems list and the whole-file actions (fix all,
 * migrate, convert) are ours, below, because they need what the client does not keep.
 *
 * The manifest may be a stranger's (it arrives in the URL fragment): it and every message that
 * quotes it are shown as text; Markdown hovers keep only the tags Markdown makes (sanitize.ts).
 */
import { basicSetup, EditorView } from 'codemirror';
import { EditorState, StateEffect, StateField, type Extension, type Text } from '@codemirror/state';
import { Decoration, WidgetType, type DecorationSet } from '@codemirror/view';
import { StreamLanguage } from '@codemirror/language';
import { setDiagnostics, type Action, type Diagnostic as EditorDiagnostic } from '@codemirror/lint';
import { yaml } from '@codemirror/lang-yaml';
import { toml } from '@codemirror/legacy-modes/mode/toml';
import { hoverTooltips, LSPClient, LSPPlugin, serverCompletion, type Transport } from '@codemirror/lsp-client';
import type * as lsp from 'vscode-languageserver-protocol';
import { playgroundFragment, readPlaygroundFragment, type PlaygroundFormat } from './fragment.js';
import { sanitize } from './sanitize.js';
// The repository's examples, bundled as text (esbuild's text loader): what a first visit shows.
import exampleYaml from '../../examples/svc.yaml';
import exampleToml from '../../examples/legacy/svc.toml';

const FIX_ALL_KIND = 'source.fixAll.svc-manifest';
const RULE_CODE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const root = document.documentElement.dataset.root ?? '../';

const $ = <T extends HTMLElement>(id: string): T => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the playground page has no #${id}`);
  return element as T;
};
/**
 * The editor lives in a shadow root: there CodeMirror adds its styles as constructed style
 * sheets, which the Content-Security-Policy allows, where in the document it would write
 * `<style>` elements, which `style-src 'self'` refuses.
 */
const editorRoot = $<HTMLDivElement>('editor').attachShadow({ mode: 'open' });
const editorStyles = document.createElement('link');
editorStyles.rel = 'stylesheet';
editorStyles.href = `${root}assets/editor.css`;
const editorParent = document.createElement('div');
editorRoot.append(editorStyles, editorParent);
const problemsList = $<HTMLOListElement>('problems');
const formatSelect = $<HTMLSelectElement>('format');
const statusLine = $<HTMLSpanElement>('status');

// ---- The worker and the client.

/**
 * The client announces pull diagnostics (`textDocument.diagnostic`) but only shows pushed ones,
 * and our server pushes nothing to a client that says it pulls. The playground's client is told
 * to the server as what it is: one that is pushed to.
 */
function withoutPullDiagnostics(message: unknown): unknown {
  const request = message as {
    method?: string;
    params?: { capabilities?: { textDocument?: Record<string, unknown> } };
  };
  if (request.method === 'initialize') delete request.params?.capabilities?.textDocument?.diagnostic;
  return message;
}

function workerTransport(worker: Worker): Transport {
  const handlers = new Set<(value: string) => void>();
  worker.addEventListener('message', (event: MessageEvent) => {
    const text = JSON.stringify(event.data);
    for (const handler of handlers) handler(text);
  });
  return {
    send: (message) => worker.postMessage(withoutPullDiagnostics(JSON.parse(message) as unknown)),
    subscribe: (handler) => void handlers.add(handler),
    unsubscribe: (handler) => void handlers.delete(handler),
  };
}

// Beside the page (playground/), inside the scope of the service worker that keeps it for offline use.
const worker = new Worker(new URL('../playground/lsp-worker.js', import.meta.url), {
  type: 'module',
  name: 'svc-manifest-lsp',
});

interface Shown {
  /** The document the server's positions are in. */
  doc: Text;
  diagnostics: lsp.Diagnostic[];
  fixes: Map<lsp.Diagnostic, lsp.CodeAction[]>;
}
let shown: Shown | undefined;

const diagnosticsExtension = {
  clientCapabilities: {
    textDocument: { publishDiagnostics: { versionSupport: true }, codeAction: { dataSupport: false }, inlayHint: {} },
    // "Convert to YAML" is offered only to clients that create and delete files.
    workspace: { workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'delete'] } },
  },
  notificationHandlers: {
    'textDocument/publishDiagnostics': (client: LSPClient, params: lsp.PublishDiagnosticsParams): boolean => {
      const file = client.workspace.getFile(params.uri);
      if (!file || (params.version != null && params.version !== file.version)) return true;
      const view = file.getView();
      if (!view) return true;
      void showDiagnostics(view, file.doc, params.diagnostics);
      keepForOffline();
      return true;
    },
  },
};

const client = new LSPClient({
  rootUri: 'file:///playground/',
  sanitizeHTML: sanitize,
  timeout: 10_000,
  extensions: [serverCompletion(), hoverTooltips(), diagnosticsExtension],
}).connect(workerTransport(worker));

// ---- Offline.

let offlineRequested = false;
/**
 * Registers the playground's service worker (playground/sw.js, built with the site), which
 * keeps this page's files so that it works offline once loaded. Called when the first
 * diagnostics are shown: the worker's install downloads every file again, which would compete
 * with the first load for the network and the CPU.
 */
function keepForOffline(): void {
  if (offlineRequested || !('serviceWorker' in navigator)) return;
  offlineRequested = true;
  // Resolved against the page's address: the worker's scope is the playground's folder.
  navigator.serviceWorker
    .register('sw.js')
    .catch((error: unknown) => console.warn('the playground will not work offline:', error));
}

// ---- Positions and edits.

function offsetOf(doc: Text, position: lsp.Position): number {
  const line = doc.line(Math.min(Math.max(position.line + 1, 1), doc.lines));
  return Math.min(line.from + position.character, line.to);
}

function editsFor(edit: lsp.WorkspaceEdit | undefined, uri: string): lsp.TextEdit[] {
  if (!edit) return [];
  const edits = [...(edit.changes?.[uri] ?? [])];
  for (const change of edit.documentChanges ?? [])
    if ('textDocument' in change && change.textDocument.uri === uri) edits.push(...(change.edits as lsp.TextEdit[]));
  return edits;
}

/** Applies a workspace edit computed against `doc`; a stale one (the text moved on) is dropped. */
function applyEdit(view: EditorView, doc: Text, edit: lsp.WorkspaceEdit | undefined): boolean {
  if (view.state.doc !== doc) return false;
  const changes = editsFor(edit, currentUri())
    .map((textEdit) => ({
      from: offsetOf(doc, textEdit.range.start),
      to: offsetOf(doc, textEdit.range.end),
      insert: textEdit.newText,
    }))
    .sort((a, b) => a.from - b.from);
  view.dispatch({ changes, userEvent: 'input.fix' });
  return true;
}

// ---- Diagnostics, quick fixes and the problems list.

function ruleLink(code: string): HTMLElement {
  if (!RULE_CODE.test(code)) {
    const span = document.createElement('span');
    span.textContent = code;
    return span;
  }
  const link = document.createElement('a');
  link.className = 'rule-code';
  link.href = `${root}rules/${code}.html`;
  link.textContent = code;
  return link;
}

/** A diagnostic's message as text (LSP 3.18 allows Markdown there; it is shown as written). */
function plainMessage(diagnostic: lsp.Diagnostic): string {
  return typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value;
}

const SEVERITIES = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' } as const;

async function showDiagnostics(view: EditorView, doc: Text, diagnostics: lsp.Diagnostic[]): Promise<void> {
  shown = { doc, diagnostics, fixes: new Map() };
  render(view, shown);
  void refreshInlayHints(view, doc);
  if (!diagnostics.some((d) => d.code !== undefined)) return;
  const actions = await requestActions(doc, ['quickfix'], diagnostics);
  if (shown?.doc !== doc || view.state.doc !== doc) return;
  for (const action of actions) {
    for (const fixed of action.diagnostics ?? []) {
      const target = diagnostics.find(
        (d) => d.code === fixed.code && d.message === fixed.message && sameRange(d.range, fixed.range),
      );
      if (target) shown.fixes.set(target, [...(shown.fixes.get(target) ?? []), action]);
    }
  }
  render(view, shown);
}

function sameRange(a: lsp.Range, b: lsp.Range): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}

function render(view: EditorView, { doc, diagnostics, fixes }: Shown): void {
  const editorDiagnostics: EditorDiagnostic[] = diagnostics.map((diagnostic) => {
    const code = String(diagnostic.code ?? '');
    const actions: Action[] = (fixes.get(diagnostic) ?? []).map((action) => ({
      name: action.title,
      apply: (target) => void applyEdit(target, doc, action.edit),
    }));
    return {
      from: offsetOf(doc, diagnostic.range.start),
      to: offsetOf(doc, diagnostic.range.end),
      severity:
        diagnostic.severity === 1
          ? 'error'
          : diagnostic.severity === 2
            ? 'warning'
            : diagnostic.severity === 4
              ? 'hint'
              : 'info',
      message: plainMessage(diagnostic),
      source: code,
      renderMessage: () => {
        const element = document.createElement('span');
        element.append(document.createTextNode(`${plainMessage(diagnostic)} `), ruleLink(code));
        return element;
      },
      actions,
    };
  });
  view.dispatch(setDiagnostics(view.state, editorDiagnostics));

  problemsList.replaceChildren(
    ...diagnostics.map((diagnostic) => {
      const item = document.createElement('li');
      const severity = SEVERITIES[diagnostic.severity ?? 1];
      item.className = `problem ${severity}`;
      const where = document.createElement('span');
      where.className = 'where';
      where.textContent = `${diagnostic.range.start.line + 1}:${diagnostic.range.start.character + 1}`;
      const message = document.createElement('span');
      message.className = 'message';
      message.textContent = plainMessage(diagnostic);
      item.append(where, ` ${severity} `, message, ' ', ruleLink(String(diagnostic.code ?? '')));
      for (const action of fixes.get(diagnostic) ?? []) {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'quick-fix';
        button.textContent = action.title;
        button.addEventListener('click', () => void applyEdit(view, doc, action.edit));
        item.append(' ', button);
      }
      return item;
    }),
  );
  problemsList.dataset.count = String(diagnostics.length);
}

// ---- Inlay hints.

class HintWidget extends WidgetType {
  constructor(readonly label: string) {
    super();
  }
  override eq(other: HintWidget): boolean {
    return other.label === this.label;
  }
  toDOM(): HTMLElement {
    const span = document.createElement('span');
    span.className = 'inlay-hint';
    span.textContent = this.label;
    return span;
  }
}

const setHints = StateEffect.define<DecorationSet>();
const hintsField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update: (hints, transaction) => {
    for (const effect of transaction.effects) if (effect.is(setHints)) return effect.value;
    return hints.map(transaction.changes);
  },
  provide: (field) => EditorView.decorations.from(field),
});

async function refreshInlayHints(view: EditorView, doc: Text): Promise<void> {
  let hints: lsp.InlayHint[] | null = null;
  try {
    hints = await client.request<lsp.InlayHintParams, lsp.InlayHint[] | null>('textDocument/inlayHint', {
      textDocument: { uri: currentUri() },
      range: wholeRange(doc),
    });
  } catch {
    return;
  }
  if (view.state.doc !== doc) return;
  const decorations = (hints ?? []).map((hint) => {
    const label = typeof hint.label === 'string' ? hint.label : hint.label.map((part) => part.value).join('');
    return Decoration.widget({ widget: new HintWidget(hint.paddingLeft ? ` ${label}` : label), side: 1 }).range(
      offsetOf(doc, hint.position),
    );
  });
  view.dispatch({ effects: setHints.of(Decoration.set(decorations, true)) });
}

// ---- Whole-file actions.

/** The code actions of `only`'s kinds over the whole of `doc`. */
async function requestActions(
  doc: Text,
  only: string[],
  diagnostics: lsp.Diagnostic[] = [],
): Promise<lsp.CodeAction[]> {
  client.sync();
  const result = await client.request<lsp.CodeActionParams, (lsp.CodeAction | lsp.Command)[] | null>(
    'textDocument/codeAction',
    {
      textDocument: { uri: currentUri() },
      range: wholeRange(doc),
      context: { diagnostics, only, triggerKind: 1 },
    },
  );
  return (result ?? []).filter((action): action is lsp.CodeAction => 'kind' in action || 'edit' in action);
}

function wholeRange(doc: Text): lsp.Range {
  const end = doc.lineAt(doc.length);
  return { start: { line: 0, character: 0 }, end: { line: end.number - 1, character: end.length } };
}

async function runAction(kind: string, pick: (action: lsp.CodeAction) => boolean, none: string): Promise<void> {
  const current = view;
  const doc = current.state.doc;
  const actions = (await requestActions(doc, [kind])).filter(pick);
  const action = actions.find((candidate) => !candidate.disabled);
  if (!action) {
    statusLine.textContent = actions[0]?.disabled?.reason ?? none;
    return;
  }
  const yamlUri = 'file:///playground/svc.yaml';
  if (
    format === 'toml' &&
    action.edit?.documentChanges?.some((change) => 'kind' in change && change.kind === 'create')
  ) {
    // Convert: the edit creates svc.yaml with the text and deletes svc.toml. Here that is the
    // same editor switching to YAML with the new text.
    const text = editsFor(action.edit, yamlUri)
      .map((edit) => edit.newText)
      .join('');
    switchTo('yaml', text);
  } else if (!applyEdit(current, doc, action.edit)) {
    statusLine.textContent = 'The text changed meanwhile; try again.';
    return;
  }
  statusLine.textContent = actions.length > 1 ? `${action.title} (${actions.length - 1} other choices)` : action.title;
}

// ---- The editor.

let format: PlaygroundFormat = 'yaml';
let view: EditorView;
let fragmentTimer: ReturnType<typeof setTimeout> | undefined;

function currentUri(): string {
  return `file:///playground/svc.${format}`;
}

function language(which: PlaygroundFormat): Extension {
  return which === 'yaml' ? yaml() : StreamLanguage.define(toml);
}

function saveFragment(): void {
  fragmentTimer = undefined;
  const fragment = `#${playgroundFragment(format, view.state.doc.toString())}`;
  if (location.hash !== fragment) history.replaceState(null, '', fragment);
}

/** Sends each edit to the server at once (the client's own sync waits half a second); the server debounces. */
const syncOnEdit = EditorView.updateListener.of((update) => {
  if (!update.docChanged) return;
  LSPPlugin.get(update.view)?.client.sync();
  if (fragmentTimer === undefined) fragmentTimer = setTimeout(saveFragment, 250);
});

function createView(which: PlaygroundFormat, text: string): void {
  format = which;
  formatSelect.value = which;
  shown = undefined;
  problemsList.replaceChildren();
  view?.destroy();
  view = new EditorView({
    parent: editorParent,
    root: editorRoot,
    state: EditorState.create({
      doc: text,
      extensions: [
        basicSetup,
        language(which),
        client.plugin(currentUri(), which),
        hintsField,
        syncOnEdit,
        EditorView.lineWrapping,
      ],
    }),
  });
  document.body.dataset.format = which;
}

function switchTo(which: PlaygroundFormat, text: string): void {
  createView(which, text);
  saveFragment();
}

const initial = readPlaygroundFragment(location.hash);
createView(initial?.format ?? 'yaml', initial?.text ?? exampleYaml);

window.addEventListener('hashchange', () => {
  const shared = readPlaygroundFragment(location.hash);
  if (shared && (shared.format !== format || shared.text !== view.state.doc.toString()))
    createView(shared.format, shared.text);
});
formatSelect.addEventListener('change', () => {
  const which = formatSelect.value === 'toml' ? 'toml' : 'yaml';
  if (which !== format) switchTo(which, which === 'toml' ? exampleToml : exampleYaml);
});
$('fix-all').addEventListener('click', () => void runAction(FIX_ALL_KIND, () => true, 'Nothing to fix.'));
$('migrate').addEventListener(
  'click',
  () => void runAction('refactor.rewrite', (a) => a.title.startsWith('Migrate'), 'Only a version 1 manifest migrates.'),
);
$('convert').addEventListener(
  'click',
  () => void runAction('refactor.rewrite', (a) => a.title.startsWith('Convert'), 'Only a TOML manifest converts.'),
);
$('share').addEventListener('click', () => {
  saveFragment();
  void navigator.clipboard?.writeText(location.href).then(
    () => (statusLine.textContent = 'Link copied.'),
    () => (statusLine.textContent = 'The address bar holds the link.'),
  );
});
