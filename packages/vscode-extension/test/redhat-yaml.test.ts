/**
 * The assumptions behind "no double squiggles next to Red Hat's YAML extension"
 * (see src/coexistence.ts and the README), checked against the language server
 * that extension runs, yaml-language-server (a root devDependency), configured
 * as it is when our extension is installed: no schema for svc.yaml (we
 * contribute none) and no network (the schema store is not reachable).
 *
 * - It says nothing about a manifest's content: an unknown key, a wrong type.
 *   Those squiggles come from our server only.
 * - It reports YAML syntax errors and duplicate keys — the two kinds our client
 *   drops while it is installed, so each of those is shown once, by it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type Diagnostic,
  type MessageConnection,
} from 'vscode-languageserver-protocol/node';
import { keepDiagnostic } from '../src/coexistence';

const require = createRequire(import.meta.url);
const serverBin = require.resolve('yaml-language-server/bin/yaml-language-server');

const YAML_SETTINGS = {
  validate: true,
  hover: true,
  completion: true,
  schemas: {},
  schemaStore: { enable: false },
  customTags: [],
};

describe("Red Hat's YAML server on svc.yaml, with our extension installed", () => {
  let child: ChildProcess;
  let connection: MessageConnection;
  const published = new Map<string, Diagnostic[]>();
  const waiters = new Map<string, (d: Diagnostic[]) => void>();
  let version = 0;

  beforeAll(async () => {
    child = spawn(process.execPath, [serverBin, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) =>
      params.items.map((item) =>
        item.section === 'yaml' ? YAML_SETTINGS : item.section?.startsWith('yaml.') ? undefined : {},
      ),
    );
    connection.onRequest('client/registerCapability', () => null);
    connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: Diagnostic[] }) => {
      published.set(p.uri, p.diagnostics);
      waiters.get(p.uri)?.(p.diagnostics);
    });
    connection.listen();
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: 'file:///w',
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
        textDocument: {},
      },
      workspaceFolders: [{ uri: 'file:///w', name: 'w' }],
    });
    await connection.sendNotification('initialized', {});
    await connection.sendNotification('workspace/didChangeConfiguration', { settings: { yaml: YAML_SETTINGS } });
  }, 30_000);

  afterAll(async () => {
    try {
      await Promise.race([connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 3_000))]);
      await connection.sendNotification('exit');
    } catch {
      // the process may already be gone
    }
    connection?.dispose();
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  /** Opens a document and resolves with the first diagnostics published for it. */
  async function diagnosticsFor(name: string, text: string): Promise<Diagnostic[]> {
    const uri = `file:///w/${name}/svc.yaml`;
    const result = new Promise<Diagnostic[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics published for ${uri}`)), 20_000);
      waiters.set(uri, (d) => {
        clearTimeout(timer);
        resolve(d);
      });
    });
    await connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'yaml', version: ++version, text },
    });
    return result;
  }

  it('says nothing about unknown keys or wrong values in a manifest', async () => {
    const diagnostics = await diagnosticsFor(
      'content',
      'svc_version: 2\ndefault_agent: helper\nagents:\n  helper:\n    enabled: maybe\ntrigers:\n  - type: cron\n',
    );
    expect(diagnostics).toEqual([]);
  }, 30_000);

  it('reports a YAML syntax error itself, so ours can be left out', async () => {
    const diagnostics = await diagnosticsFor('syntax', 'svc_version: 2\nagents: [helper\ndefault_agent: helper\n');
    expect(diagnostics.length).toBeGreaterThan(0);
    // Our diagnostic for the same error would be dropped on the client:
    expect(keepDiagnostic('/w/syntax/svc.yaml', 'yaml-syntax', true)).toBe(false);
  }, 30_000);

  it('reports a duplicate key itself, so ours can be left out', async () => {
    const diagnostics = await diagnosticsFor('duplicate', 'svc_version: 2\ndefault_agent: a\ndefault_agent: b\n');
    expect(diagnostics.map((d) => d.message).join('\n')).toMatch(/unique|duplicate/i);
    expect(keepDiagnostic('/w/duplicate/svc.yaml', 'duplicate-key', true)).toBe(false);
  }, 30_000);
});
