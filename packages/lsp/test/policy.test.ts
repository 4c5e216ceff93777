/**
 * The language server under the policy, as the CLI applies it: the nearest `.svc-manifest.yaml`
 * up from a `file:` document (the Node entry's reader, workspace-files.ts) sets our rules'
 * severities, and the document's suppression comments hide problems and have theirs reported, in
 * pushed and pulled diagnostics alike. When the policy file changes, the diagnostics follow:
 * at once when the client says so (workspace/didChangeWatchedFiles, for which the server
 * registers a watcher of the policy file; until then a watching client's documents keep the
 * policy looked up), and on the document's next validation for a client that does not watch. In-process
 * features with no reader injected (a browser) still honour the comments.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLICY_FILE_NAME } from '@svc-manifest/validator';
import { PieceText } from '@svc-manifest/validator/library';
import type { FeatureContext } from '../src/feature-context.js';
import { computeDiagnostics } from '../src/features/diagnostics.js';
import { updateState } from '../src/document-state.js';
import { codeActions } from '../src/features/code-actions.js';
import { transformActions } from '../src/transform-actions.js';
import { nodeWorkspacePolicy } from '../src/workspace-files.js';
import { publication, startStdioClient, type StdioClient } from './built-server.js';
import { applyEdits, doc, rangeOf } from './helpers.js';
import { recordSearches } from '../../validator/test/support/recorded-searches.js';

/** Diagnostics on lines 2 (default-agent-declared), 6 (deprecated-key, suppressed), 7 and 9 (possible-typo), and an unused suppression on line 8. */
const MANIFEST = [
  'svc_version: 2',
  'default_agent: nobody',
  'agents:',
  '  writer:',
  '    # svc-manifest-disable-next-line deprecated-key -- moving next sprint',
  '    connectors_personal: []',
  'trigers: []',
  '# svc-manifest-disable-next-line cron-syntax',
  'projct: {}',
  '',
].join('\n');

const UNUSED = '# svc-manifest-disable-next-line cron-syntax';

type Pushed = { code: string; severity: number; range: unknown; message: string };

const LSP = { error: 1, warning: 2, info: 3 } as const;

describe('in process', () => {
  it('applies an injected policy to diagnostics, quick fixes and fix-all; without one, the comments still apply', () => {
    const state = doc(MANIFEST, 'file:///work/policy/svc.yaml');
    const context: FeatureContext = {
      policy: () => ({
        file: '/work/policy/.svc-manifest.yaml',
        rules: { 'default-agent-declared': 'error', 'possible-typo': 'off' },
      }),
    };
    expect(computeDiagnostics(state, {}, context).map((d) => [d.code, d.severity, d.range])).toEqual([
      ['default-agent-declared', LSP.error, rangeOf(MANIFEST, 'nobody')],
      ['unused-suppression', LSP.warning, rangeOf(MANIFEST, UNUSED)],
    ]);
    // As in a browser: no policy file, the comments honoured.
    expect(computeDiagnostics(state).map((d) => [d.code, d.severity])).toEqual([
      ['default-agent-declared', LSP.warning],
      ['possible-typo', LSP.warning],
      ['unused-suppression', LSP.warning],
      ['possible-typo', LSP.warning],
    ]);
    // A policy file that cannot be used changes no severity.
    expect(computeDiagnostics(state, {}, { policy: () => ({ file: '/x', error: 'bad' }) }).map((d) => d.code)).toEqual(
      computeDiagnostics(state).map((d) => d.code),
    );
    // No quick fix for a problem the policy hides; fix-all fixes only what is reported.
    const whole = { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } };
    expect(codeActions(state, { range: whole, context: { diagnostics: [] } }, context).map((a) => a.title)).toEqual([]);
    const fixAll = transformActions(
      state,
      { context: { diagnostics: [], only: ['source.fixAll.svc-manifest'] } },
      context,
    );
    expect(fixAll).toEqual([]);
    const unpoliced = transformActions(
      state,
      { context: { diagnostics: [], only: ['source.fixAll.svc-manifest'] } },
      {},
    );
    expect(unpoliced.map((a) => a.title)).toEqual(['Fix all safe problems (2)']);
    const edits = (unpoliced[0]!.edit!.changes![state.uri] ?? []) as { range: never; newText: string }[];
    // The suppressed deprecated key stays as it is.
    expect(applyEdits(MANIFEST, edits)).toBe(MANIFEST.replace('trigers', 'triggers').replace('projct', 'project'));
  });
});

describe('after edits', () => {
  it("reads the suppression comments from the state's search carried over edits, as a fresh state reads them", () => {
    const uri = 'file:///work/policy/svc.yaml';
    let text = MANIFEST;
    let state = doc(text, uri);
    const steps: [string, string][] = [
      [UNUSED, '# svc-manifest-disable-next-line possible-typo'],
      ['trigers: []', '# svc-manifest-disable-next-line possible-typo\ntrigers: []'],
      ['# svc-manifest-disable-next-line deprecated-key', '# svc-manifest-disable-next-line deprecated-ky'],
      ['default_agent: nobody', '# svc-manifest-disable default-agent-declared\ndefault_agent: nobody'],
      ['svc_version: 2\n', 'svc_version: 2\n\n'],
      ['# svc-manifest-disable-next-line possible-typo\ntrigers', 'trigers'],
    ];
    for (const [from, to] of steps) {
      const start = text.indexOf(from);
      text = text.slice(0, start) + to + text.slice(start + from.length);
      state = updateState(state, state.version + 1, text, [{ start, end: start + from.length, newLength: to.length }]);
      // The state's own search, for its new document (withPolicy searches afresh for any other).
      expect(state.suppressions.document).toBe(state.doc);
      expect(computeDiagnostics(state)).toEqual(computeDiagnostics(doc(text, uri)));
    }
  });

  it("carries the state's search over an edit: only the edited lines are searched", () => {
    const state = doc(MANIFEST, 'file:///work/policy/svc.yaml');
    const before = state.suppressions.markedLines();
    expect(before.length).toBeGreaterThan(0);
    const start = MANIFEST.indexOf('\n') + 1;
    const source = PieceText.from(`${MANIFEST.slice(0, start)}\n${MANIFEST.slice(start)}`);
    const wholeTextSearches = recordSearches(source, 'svc-manifest-');
    const next = updateState(state, 2, source, [{ start, end: start, newLength: 1 }]);
    expect(next.suppressions.markedLines()).toEqual(before.map((at) => (at >= start ? at + 1 : at)));
    expect(wholeTextSearches).toEqual([]);
  });
});

describe("the Node entry's policy reader", () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'svc-lsp-policy-reader-'));
    mkdirSync(join(work, 'repo', '.git'), { recursive: true });
    mkdirSync(join(work, 'repo', 'a', 'b'), { recursive: true });
    writeFileSync(join(work, POLICY_FILE_NAME), 'rules:\n  possible-typo: off\n');
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('finds the nearest file up to the repository root, reads it again when it changed, and says why one cannot be used', () => {
    const uri = pathToFileURL(join(work, 'repo', 'a', 'b', 'svc.yaml')).href;
    // The file above the repository root is not the repository's.
    expect(nodeWorkspacePolicy(uri)).toBeUndefined();
    const file = join(work, 'repo', 'a', POLICY_FILE_NAME);
    writeFileSync(file, 'rules:\n  possible-typo: error\n');
    expect(nodeWorkspacePolicy(uri)).toEqual({ file, rules: { 'possible-typo': 'error' } });
    writeFileSync(file, 'rules:\n  possible-typo: info\n  path-not-found: off\n');
    expect(nodeWorkspacePolicy(uri)).toEqual({ file, rules: { 'possible-typo': 'info', 'path-not-found': 'off' } });
    writeFileSync(file, 'rules:\n  wrong-type: off\n');
    expect(nodeWorkspacePolicy(uri)).toEqual({
      file,
      error: "'wrong-type' decides whether the published schema accepts a manifest; it cannot be changed or turned off",
    });
    expect(nodeWorkspacePolicy('untitled:Untitled-1')).toBeUndefined();
  });
});

describe('over stdio', () => {
  let work: string;
  let policyFile: string;
  let uri: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'svc-lsp-policy-'));
    mkdirSync(join(work, '.git'));
    mkdirSync(join(work, 'services', 'api'), { recursive: true });
    policyFile = join(work, POLICY_FILE_NAME);
    writeFileSync(join(work, 'services', 'api', 'svc.yaml'), MANIFEST);
    uri = pathToFileURL(join(work, 'services', 'api', 'svc.yaml')).href;
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const policyChanged = (client: StdioClient, type: 1 | 2 | 3) =>
    client.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: pathToFileURL(policyFile).href, type }],
    });

  describe('to a client that is pushed diagnostics', () => {
    let client: StdioClient;
    beforeAll(async () => {
      writeFileSync(policyFile, 'rules:\n  default-agent-declared: error\n  possible-typo: off\n');
      client = await startStdioClient(null, undefined, {
        workspace: { didChangeWatchedFiles: { dynamicRegistration: true } },
      });
    }, 60_000);
    afterAll(() => client.close());

    const published = (count: number) => publication<Pushed>(client, uri, count);

    it('watches the policy file (created, changed, deleted)', async () => {
      const registration = await client.until(
        () => client.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles'),
        'the watched-files registration',
      );
      expect(registration.registerOptions.watchers).toContainEqual({ globPattern: `**/${POLICY_FILE_NAME}`, kind: 7 });
    });

    it("pushes the diagnostics under the policy file's severities and the document's comments, and follows the file's changes", async () => {
      await client.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'yaml', version: 1, text: MANIFEST },
      });
      expect((await published(1)).map((d) => [d.code, d.severity, d.range])).toEqual([
        ['default-agent-declared', LSP.error, rangeOf(MANIFEST, 'nobody')],
        ['unused-suppression', LSP.warning, rangeOf(MANIFEST, UNUSED)],
      ]);

      // Changed, and the client says so: pushed again at once.
      writeFileSync(policyFile, 'rules:\n  unused-suppression: off\n');
      await policyChanged(client, 2);
      expect((await published(2)).map((d) => [d.code, d.severity])).toEqual([
        ['default-agent-declared', LSP.warning],
        ['possible-typo', LSP.warning],
        ['possible-typo', LSP.warning],
      ]);

      // Changed, and the client (which watches files) has not said so yet: the edit is validated
      // under the policy as it was looked up (file-lookups.ts), not read again on every keystroke.
      writeFileSync(policyFile, 'rules:\n  default-agent-declared: off\n  possible-typo: info\n');
      await client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: 2 },
        contentChanges: [
          { range: { start: { line: 9, character: 0 }, end: { line: 9, character: 0 } }, text: '# edited\n' },
        ],
      });
      expect((await published(3)).map((d) => [d.code, d.severity])).toEqual([
        ['default-agent-declared', LSP.warning],
        ['possible-typo', LSP.warning],
        ['possible-typo', LSP.warning],
      ]);
      await policyChanged(client, 2);
      const edited = `${MANIFEST}# edited\n`;
      expect((await published(4)).map((d) => [d.code, d.severity, d.range])).toEqual([
        ['possible-typo', LSP.info, rangeOf(edited, 'trigers')],
        ['unused-suppression', LSP.warning, rangeOf(edited, UNUSED)],
        ['possible-typo', LSP.info, rangeOf(edited, 'projct')],
      ]);

      // Deleted: every rule its own severity; the comments still apply.
      rmSync(policyFile);
      await policyChanged(client, 3);
      expect((await published(5)).map((d) => [d.code, d.severity])).toEqual([
        ['default-agent-declared', LSP.warning],
        ['possible-typo', LSP.warning],
        ['unused-suppression', LSP.warning],
        ['possible-typo', LSP.warning],
      ]);
    });

    it('says once that a policy file cannot be used, and applies none of it', async () => {
      writeFileSync(policyFile, 'rules:\n  possible-typo: off\n  wrong-type: off\n');
      await policyChanged(client, 1);
      const codes = (await published(6)).map((d) => d.code);
      expect(codes).toEqual(['default-agent-declared', 'possible-typo', 'unused-suppression', 'possible-typo']);
      const shown = client.notifications.filter((n) => n.method === 'window/showMessage');
      expect(shown.map((n) => n.params)).toEqual([
        {
          type: 2,
          message: `svc: the policy file ${policyFile} is not used: 'wrong-type' decides whether the published schema accepts a manifest; it cannot be changed or turned off (svc-manifest validate refuses it too)`,
        },
      ]);
      await policyChanged(client, 2);
      await published(7);
      expect(client.notifications.filter((n) => n.method === 'window/showMessage')).toHaveLength(1);
    });

    it('offers fix-all under the policy: nothing it hides is fixed', async () => {
      writeFileSync(policyFile, 'rules:\n  possible-typo: off\n');
      await policyChanged(client, 2);
      await published(8);
      const actions = await client.connection.sendRequest<
        { title: string; edit?: { changes: Record<string, never[]> } }[]
      >('textDocument/codeAction', {
        textDocument: { uri },
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        context: { diagnostics: [], only: ['source.fixAll.svc-manifest'] },
      });
      expect(actions).toEqual([]);
    });
  });

  describe('to a client that does not watch files', () => {
    let client: StdioClient;
    beforeAll(async () => {
      writeFileSync(policyFile, 'rules:\n  default-agent-declared: error\n  possible-typo: off\n');
      client = await startStdioClient(null);
    }, 60_000);
    afterAll(() => client.close());

    it("reads the policy file again on the document's next validation", async () => {
      const published = (count: number) => publication<Pushed>(client, uri, count);
      await client.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'yaml', version: 1, text: MANIFEST },
      });
      expect((await published(1)).map((d) => [d.code, d.severity])).toEqual([
        ['default-agent-declared', LSP.error],
        ['unused-suppression', LSP.warning],
      ]);
      writeFileSync(policyFile, 'rules:\n  default-agent-declared: off\n  possible-typo: info\n');
      await client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: 2 },
        contentChanges: [
          { range: { start: { line: 9, character: 0 }, end: { line: 9, character: 0 } }, text: '# edited\n' },
        ],
      });
      const edited = `${MANIFEST}# edited\n`;
      expect((await published(2)).map((d) => [d.code, d.severity, d.range])).toEqual([
        ['possible-typo', LSP.info, rangeOf(edited, 'trigers')],
        ['unused-suppression', LSP.warning, rangeOf(edited, UNUSED)],
        ['possible-typo', LSP.info, rangeOf(edited, 'projct')],
      ]);
    });
  });

  describe('to a client that pulls', () => {
    let client: StdioClient;
    beforeAll(async () => {
      writeFileSync(policyFile, 'rules:\n  default-agent-declared: error\n  possible-typo: off\n');
      client = await startStdioClient(null, undefined, {
        textDocument: { diagnostic: { dynamicRegistration: false } },
        workspace: { didChangeWatchedFiles: { dynamicRegistration: true }, diagnostics: { refreshSupport: true } },
      });
    }, 60_000);
    afterAll(() => client.close());

    const pull = () =>
      client.connection.sendRequest<{ kind: string; items: Pushed[] }>('textDocument/diagnostic', {
        textDocument: { uri },
      });

    it('answers the same list, and is asked to pull again when the policy file changes', async () => {
      await client.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'yaml', version: 1, text: MANIFEST },
      });
      expect((await pull()).items.map((d) => [d.code, d.severity, d.range])).toEqual([
        ['default-agent-declared', LSP.error, rangeOf(MANIFEST, 'nobody')],
        ['unused-suppression', LSP.warning, rangeOf(MANIFEST, UNUSED)],
      ]);
      writeFileSync(policyFile, 'rules:\n  default-agent-declared: info\n  unused-suppression: error\n');
      await policyChanged(client, 2);
      await client.until(() => client.refreshes() > 0, 'a diagnostic refresh');
      expect((await pull()).items.map((d) => [d.code, d.severity])).toEqual([
        ['default-agent-declared', LSP.info],
        ['possible-typo', LSP.warning],
        ['unused-suppression', LSP.error],
        ['possible-typo', LSP.warning],
      ]);
      expect(client.notifications.filter((n) => n.method === 'textDocument/publishDiagnostics')).toEqual([]);
    });
  });
});
