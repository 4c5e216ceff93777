/**
 * The server's wiring, over stdio against the built server: which files are manifests
 * (name, extra patterns, schema pins), settings from workspace/configuration, closing a file,
 * and cancellation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_URLS } from '@svc-manifest/schema';
import { fork } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createProtocolConnection, IPCMessageReader, IPCMessageWriter } from 'vscode-languageserver-protocol/node';
import { ensureBuiltServer, startStdioClient, type StdioClient } from './built-server.js';

let settings: Record<string, unknown> = { files: { extraPatterns: ['*.svc.yaml'] } };
let client: StdioClient;

const published = (uri: string) =>
  client.notifications.filter((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri);
const lastCodes = (uri: string) =>
  (published(uri).at(-1)?.params.diagnostics ?? []).map((d: { code: string }) => d.code);
const open = (uri: string, text: string, languageId = 'yaml', version = 1) =>
  client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });

describe('server wiring (built server over stdio)', () => {
  beforeAll(async () => {
    ensureBuiltServer();
    client = await startStdioClient(() => settings);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('validates svc.yaml, files matching an extra pattern, and files pinning our schema; ignores others', async () => {
    await open('file:///w/other.yaml', 'svc_version: 2\nsandboxes: 1\n');
    await open(
      'file:///w/elsewhere.yaml',
      `# yaml-language-server: $schema=https://json.schemastore.org/other.json\nsandboxes: 1\n`,
    );
    await open('file:///w/prod.svc.yaml', 'svc_version: 2\nsandboxes: 1\n');
    await open(
      'file:///w/deploy/manifest.yaml',
      `# yaml-language-server: $schema=${SCHEMA_URLS.v1}\nsvc_version: 1\napps: {}\n`,
    );
    await open('file:///w/deploy/manifest.toml', `#:schema ${SCHEMA_URLS.v2}\nsvc_version = 1\n`, 'toml');
    await open('file:///w/svc.yaml', 'svc_version: 2\nsandboxes: 1\n');
    await client.until(() => published('file:///w/svc.yaml').length > 0, 'svc.yaml diagnostics');
    await client.until(() => published('file:///w/deploy/manifest.toml').length > 0, 'manifest.toml diagnostics');
    await client.until(() => published('file:///w/prod.svc.yaml').length > 0, 'prod.svc.yaml diagnostics');
    expect(lastCodes('file:///w/svc.yaml')).toEqual(expect.arrayContaining(['forbidden-key']));
    expect(lastCodes('file:///w/prod.svc.yaml')).toEqual(expect.arrayContaining(['forbidden-key']));
    await client.until(() => published('file:///w/deploy/manifest.yaml').length > 0, 'manifest.yaml diagnostics');
    expect(lastCodes('file:///w/deploy/manifest.yaml')).toContain('forbidden-key');
    expect(lastCodes('file:///w/deploy/manifest.toml')).toContain('schema-version-mismatch');
    expect(published('file:///w/other.yaml')).toEqual([]);
    expect(published('file:///w/elsewhere.yaml')).toEqual([]);
    // Features answer nothing for files that are not manifests.
    expect(
      await client.connection.sendRequest('textDocument/documentSymbol', {
        textDocument: { uri: 'file:///w/other.yaml' },
      }),
    ).toEqual([]);
  });

  it('publishes diagnostics with the document version, and only for the latest one', async () => {
    const uri = 'file:///w/versions/svc.yaml';
    await open(uri, 'svc_version: 2\n');
    for (let version = 2; version <= 30; version++) {
      await client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ text: `svc_version: 2\nruntime: runtime_${version}\n` }],
      });
    }
    const last = await client.until(
      () => published(uri).find((n) => n.params.version === 30),
      'diagnostics of version 30',
    );
    expect(last.params.diagnostics.map((d: { code: string }) => d.code)).toEqual(
      expect.arrayContaining(['invalid-value']),
    );
    const versions = published(uri).map((n) => n.params.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
  });

  it('takes the size limit from the settings', async () => {
    settings = { files: { extraPatterns: ['*.svc.yaml'] }, validation: { maxFileSizeBytes: 20 } };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await client.until(
      () => lastCodes('file:///w/svc.yaml').includes('too-large'),
      'too-large after the settings change',
    );
  });

  it('clears every diagnostic when disabled, and brings them back when enabled', async () => {
    settings = { enable: false };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await client.until(
      () => published('file:///w/svc.yaml').at(-1)!.params.diagnostics.length === 0,
      'cleared diagnostics',
    );
    expect(
      await client.connection.sendRequest('textDocument/hover', {
        textDocument: { uri: 'file:///w/svc.yaml' },
        position: { line: 0, character: 2 },
      }),
    ).toBeNull();
    settings = {};
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await client.until(() => lastCodes('file:///w/svc.yaml').includes('forbidden-key'), 'diagnostics again');
  });

  it('clears diagnostics of a closed file', async () => {
    await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: 'file:///w/svc.yaml' } });
    await client.until(
      () => published('file:///w/svc.yaml').at(-1)!.params.diagnostics.length === 0,
      'cleared on close',
    );
  });

  it('answers a cancelled request with RequestCancelled or its result, and keeps serving', async () => {
    const uri = 'file:///w/cancel/svc.yaml';
    await open(uri, 'svc_version: 2\ndefault_agent: a\nagents:\n  a: {}\n');
    const { CancellationTokenSource } = await import('vscode-languageserver-protocol/node');
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => {
        const source = new CancellationTokenSource();
        const answer = client.connection
          .sendRequest('textDocument/documentSymbol', { textDocument: { uri } }, source.token)
          .then(
            () => 'answered',
            (error: { code?: number }) => (error.code === -32800 ? 'cancelled' : `error ${error.code}`),
          );
        source.cancel();
        return answer;
      }),
    );
    expect(answers.every((a) => a === 'answered' || a === 'cancelled')).toBe(true);
    expect(answers).toContain('cancelled');
    expect(await client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })).toHaveLength(
      3,
    );
  });
});

describe('node-ipc transport', () => {
  it('serves over --node-ipc too', async () => {
    const child = fork(ensureBuiltServer(), ['--node-ipc'], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    const connection = createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    connection.listen();
    try {
      const result = await connection.sendRequest('initialize', {
        processId: process.pid,
        rootUri: null,
        capabilities: {},
      });
      expect(result).toMatchObject({
        serverInfo: { name: 'svc-manifest-lsp' },
        capabilities: { hoverProvider: true, renameProvider: { prepareProvider: true } },
      });
      await connection.sendNotification('initialized', {});
      const uri = 'file:///ipc/svc.yaml';
      await connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'yaml', version: 1, text: 'svc_version: 2\n' },
      });
      expect(await connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })).toMatchObject([
        { name: 'svc_version' },
      ]);
      await connection.sendRequest('shutdown');
    } finally {
      connection.dispose();
      child.kill();
    }
  });
});

describe('the bundle is self-contained', () => {
  it('validates from a folder with nothing else in it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-lsp-alone-'));
    // The bin, the bundle it runs and the code-cache loader: nothing else.
    const built = dirname(ensureBuiltServer());
    for (const file of ['svc-manifest-lsp.cjs', 'svc-manifest-lsp-main.cjs', 'code-cache.cjs'])
      copyFileSync(join(built, file), join(dir, file));
    const bin = join(dir, 'svc-manifest-lsp.cjs');
    const alone = await startStdioClient(null, bin);
    try {
      const uri = 'file:///alone/svc.toml';
      await alone.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'toml', version: 1, text: 'svc_version = 2\nsandboxes = 1\n' },
      });
      const diagnostics = await alone.until(
        () => alone.notifications.find((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri),
        'diagnostics',
      );
      expect(diagnostics.params.diagnostics.map((d: { code: string }) => d.code)).toEqual(
        expect.arrayContaining(['forbidden-key']),
      );
    } finally {
      await alone.close();
    }
  });
});
