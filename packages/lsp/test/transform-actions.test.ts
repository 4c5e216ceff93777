import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CodeActionTriggerKind,
  type CodeAction,
  type CreateFile,
  type DeleteFile,
  type TextDocumentEdit,
  type TextEdit,
} from 'vscode-languageserver';
import { inlayHints } from '../src/features/inlay-hints.js';
import { readSettings } from '../src/settings.js';
import { FIX_ALL_KIND, transformActions } from '../src/transform-actions.js';
import { nodeWorkspaceFiles } from '../src/workspace-files.js';
import { startStdioClient, type StdioClient } from './built-server.js';
import { applyEdits, doc, tomlUri } from './helpers.js';

const WHOLE = { start: { line: 0, character: 0 }, end: { line: 10_000, character: 0 } };

function apply(text: string, action: CodeAction, uri: string): string {
  return applyEdits(text, action.edit!.changes![uri]!);
}

describe('source.fixAll.svc-manifest', () => {
  const text =
    'svc_version: 2.0  # old\ndefault_agent: a\nagents:\n  a:\n    workspace: reed   # typo\n    connectors_personal: []\n';

  it('applies every safe fix in one edit, keeping comments', () => {
    const state = doc(text);
    const [action] = transformActions(state, { context: { diagnostics: [], only: ['source.fixAll'] } });
    expect(action!.kind).toBe(FIX_ALL_KIND);
    expect(apply(text, action!, state.uri)).toBe(
      'svc_version: 2  # old\ndefault_agent: a\nagents:\n  a:\n    workspace: read   # typo\n    connectors_required: []\n',
    );
  });

  it('offers nothing for a file without findings, nor on automatic lightbulb requests, nor for other kinds', () => {
    expect(
      transformActions(doc('svc_version: 2\ndefault_agent: a\nagents:\n  a: {}\n'), {
        context: { diagnostics: [], only: [FIX_ALL_KIND] },
      }),
    ).toEqual([]);
    expect(
      transformActions(doc(text), { context: { diagnostics: [], triggerKind: CodeActionTriggerKind.Automatic } }),
    ).toEqual([]);
    expect(transformActions(doc(text), { context: { diagnostics: [], only: ['quickfix'] } })).toEqual([]);
  });
});

describe('Migrate to svc_version 2', () => {
  it('rewrites a version 1 manifest in place', () => {
    const text = 'svc_version: 1\nagents:\n  # the one\n  - name: solo\n    connectors: all\n';
    const state = doc(text);
    const actions = transformActions(state, { context: { diagnostics: [], only: ['refactor'] } });
    expect(actions.map((a) => [a.title, a.kind])).toEqual([['Migrate to svc_version 2', 'refactor.rewrite']]);
    expect(apply(text, actions[0]!, state.uri)).toBe(
      'svc_version: 2\ndefault_agent: solo\nagents:\n  # the one\n  solo:\n    connectors: all\n',
    );
  });

  it('is shown disabled, with the first located reason, when the migration is refused', () => {
    const text = 'svc_version: 1\nagents:\n  - name: a\n  - name: b\nchannels:\n  - platform: chat_a\n';
    const [action] = transformActions(doc(text), { context: { diagnostics: [], only: ['refactor.rewrite'] } });
    expect(action!.edit).toBeUndefined();
    expect(action!.disabled!.reason).toMatch(/^line 2: .*--default-agent.*\(and 1 more/);
  });

  it('offers one migration per agent when only the default agent is missing', () => {
    const text = 'svc_version: 1\nagents:\n  - name: a\n  - name: b\n';
    const state = doc(text);
    const actions = transformActions(state, { context: { diagnostics: [], only: ['refactor'] } });
    expect(actions.map((a) => a.title)).toEqual([
      "Migrate to svc_version 2 (default agent 'a')",
      "Migrate to svc_version 2 (default agent 'b')",
    ]);
    expect(apply(text, actions[1]!, state.uri)).toBe('svc_version: 2\ndefault_agent: b\nagents:\n  a: {}\n  b: {}\n');
  });

  it('is not offered on a version 2 manifest', () => {
    expect(
      transformActions(doc('svc_version: 2\ndefault_agent: a\nagents:\n  a: {}\n'), {
        context: { diagnostics: [], only: ['refactor'] },
      }),
    ).toEqual([]);
  });
});

describe('Convert to svc.yaml', () => {
  const text = '# top\nsvc_version = 2\ndefault_agent = "a" # the agent\n\n[agents.a]\nconnectors = "all"\n';
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('creates the YAML file and deletes the TOML file in one workspace edit', () => {
    const state = doc(text, tomlUri);
    const actions = transformActions(state, { context: { diagnostics: [], only: ['refactor'] } }, undefined, {
      resourceOperations: true,
    });
    expect(actions.map((a) => a.title)).toEqual(['Convert to svc.yaml']);
    const [create, edit, remove] = actions[0]!.edit!.documentChanges! as [CreateFile, TextDocumentEdit, DeleteFile];
    expect(create).toEqual({
      kind: 'create',
      uri: 'file:///work/svc.yaml',
      options: { overwrite: false, ignoreIfExists: false },
    });
    expect(edit.textDocument.uri).toBe('file:///work/svc.yaml');
    expect((edit.edits[0] as TextEdit).newText).toBe(
      '# top\nsvc_version: 2\ndefault_agent: a  # the agent\n\nagents:\n  a:\n    connectors: all\n',
    );
    expect(remove).toEqual({ kind: 'delete', uri: tomlUri });
  });

  it('is not offered to clients that cannot create and delete files', () => {
    expect(transformActions(doc(text, tomlUri), { context: { diagnostics: [], only: ['refactor'] } })).toEqual([]);
  });

  // The files around the document are the Node entry's (command.ts passes them); the shared code reads no disk.
  it('is disabled when svc.yml already exists beside it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-convert-action-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'svc.yml'), 'svc_version: 2\n');
    const uri = pathToFileURL(join(dir, 'svc.toml')).href;
    const [action] = transformActions(
      doc(text, uri),
      { context: { diagnostics: [], only: ['refactor'] } },
      { files: nodeWorkspaceFiles },
      { resourceOperations: true },
    );
    expect(action!.edit).toBeUndefined();
    expect(action!.disabled!.reason).toBe('svc.yml already exists');
  });
});

describe('inlay hints', () => {
  it('show how enabled strings and numbers, connectors_personal and svc_version 2.0 are read', () => {
    const text =
      'svc_version: 2.0\ndefault_agent: a\nagents:\n  a:\n    connectors_personal: [x]\ntriggers:\n  - slug: t\n    enabled: "Yes"\n  - slug: u\n    enabled: 0\n  - slug: v\n    enabled: true\n';
    const hints = inlayHints(doc(text), { range: WHOLE });
    expect(hints.map((h) => [h.position.line, h.position.character, h.label])).toEqual([
      [0, 16, '→ 2'],
      [4, 23, '→ connectors_required'],
      [7, 18, '→ true'],
      [9, 14, '→ false'],
    ]);
  });

  it('work on TOML and only inside the requested range', () => {
    const text =
      'svc_version = 1\n\n[[channels]]\nplatform = "chat_a"\nenabled = "off"\n\n[[channels]]\nplatform = "email"\nenabled = "ON"\n';
    const hints = inlayHints(doc(text, tomlUri), {
      range: { start: { line: 6, character: 0 }, end: { line: 9, character: 0 } },
    });
    expect(hints.map((h) => [h.position.line, h.label])).toEqual([[8, '→ true']]);
  });

  it('are on by default and turned off by svc.inlayHints.enable', () => {
    expect(readSettings({}).inlayHints).toBe(true);
    expect(readSettings({ inlayHints: { enable: false } }).inlayHints).toBe(false);
    expect(readSettings({ 'inlayHints.enable': false }).inlayHints).toBe(false);
  });
});

describe('on arbitrary text', () => {
  const FRAGMENTS = [
    'svc_version: 1\n',
    'svc_version = 1\n',
    'svc_version: 2.0\n',
    'agents:\n',
    '  - name: a\n',
    '  a:\n',
    '    connectors_personal: [x]\n',
    'triggers:\n',
    '  - slug: t\n',
    '    enabled: "Yes"\n',
    '[[agents]]\n',
    'name = "a"\n',
    'channels:\n',
    '{',
    '[',
    ': ',
    '"',
    '&a ',
    '*a',
    '\r\n',
    '#c\n',
  ];
  const text = fc
    .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 4 })), { maxLength: 30 })
    .map((parts) => parts.join(''));

  it('never throws, and every edit applies to the text it was made for', () => {
    fc.assert(
      fc.property(text, fc.boolean(), (body, toml) => {
        const uri = toml ? tomlUri : 'file:///work/svc.yaml';
        const state = doc(body, uri);
        for (const action of transformActions(state, { context: { diagnostics: [] } }, undefined, {
          resourceOperations: true,
        })) {
          if (action.edit?.changes) expect(typeof apply(body, action, uri)).toBe('string');
        }
        for (const hint of inlayHints(state, { range: WHOLE })) expect(hint.position.line).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe('through the built server (stdio)', () => {
  let hintsOn = true;
  /** Called when the server next pulls its settings. */
  let onPull: (() => void) | undefined;
  let client: StdioClient;
  afterAll(async () => {
    await client?.close();
  });

  it('answers fix all, migrate and inlay hints, and turns the hints off with svc.inlayHints.enable', async () => {
    client = await startStdioClient(() => {
      onPull?.();
      return { inlayHints: { enable: hintsOn } };
    });
    const uri = 'file:///w/fix/svc.yaml';
    const text = 'svc_version: 1\nagents:\n  - name: solo\nchannels:\n  - platform: chat_a\n    enabled: "on"\n';
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'yaml', version: 1, text },
    });
    const request = (only: string[]) =>
      client.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri },
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        context: { diagnostics: [], only },
      });
    // Version 1 with channels: nothing to fix, the migration is refused (disabled, with the reason).
    expect(await request(['source.fixAll'])).toEqual([]);
    const [migrate] = await request(['refactor']);
    expect(migrate!.disabled!.reason).toMatch(/channels/);
    const hints = await client.connection.sendRequest<{ label: string; position: { line: number } }[]>(
      'textDocument/inlayHint',
      {
        textDocument: { uri },
        range: WHOLE,
      },
    );
    expect(hints.map((h) => [h.position.line, h.label])).toEqual([[5, '→ true']]);

    const fixable = 'svc_version: 2.0\ndefault_agent: a\nagents:\n  a:\n    workspace: reed\n';
    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: fixable }],
    });
    const [fixAll] = await request(['source.fixAll']);
    expect(fixAll!.kind).toBe(FIX_ALL_KIND);
    expect(apply(fixable, fixAll!, uri)).toBe('svc_version: 2\ndefault_agent: a\nagents:\n  a:\n    workspace: read\n');

    expect(
      (
        await client.connection.sendRequest<{ label: string }[]>('textDocument/inlayHint', {
          textDocument: { uri },
          range: WHOLE,
        })
      ).map((h) => h.label),
    ).toEqual(['→ 2']);
    hintsOn = false;
    const pulled = new Promise<void>((resolve) => (onPull = resolve));
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    // The server pulls the settings, then applies them when the answer arrives: the answer goes
    // out before the next request on the same stream, which is then answered without hints (a
    // few requests, each a round trip, in case applying took a turn of the server's loop).
    await pulled;
    let left = -1;
    for (let attempt = 0; attempt < 20 && left !== 0; attempt++) {
      left = (
        await client.connection.sendRequest<unknown[]>('textDocument/inlayHint', {
          textDocument: { uri },
          range: WHOLE,
        })
      ).length;
    }
    expect(left).toBe(0);
  });
});
