/**
 * Workspace diagnostics (`workspace/diagnostic`) and workspace symbols through the built server
 * over stdio, on a folder with several manifests: ignored folders (`.gitignore`, `node_modules`)
 * and symbolic links are left out, result ids give `unchanged`, an open file's text wins over disk.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStdioClient, type StdioClient } from './built-server.js';
import { rangeOf } from './helpers.js';

const A = 'svc_version: 2\ndefault_agent: main\nagents:\n  main:\n    conectors: none\n';
const B = 'svc_version = 1\n\n[[triggers]]\nslug = "nightly"\ntype = "cron"\ncron = "0 2 * * *"\nprompt = "p"\n';
const BROKEN = 'svc_version: 2\nbogus: [\n';

describe('workspace requests over stdio', () => {
  let work: string;
  let client: StdioClient;
  let settings: Record<string, unknown> = {};
  const uri = (path: string) => pathToFileURL(join(work, path)).href;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'svc-lsp-workspace-'));
    for (const [path, text] of [
      ['a/svc.yaml', A],
      ['b/svc.toml', B],
      ['ignored/svc.yaml', BROKEN],
      ['deep/build/svc.yaml', BROKEN],
      ['node_modules/pkg/svc.yaml', BROKEN],
      ['.gitignore', 'ignored/\nbuild\n'],
    ] as const) {
      mkdirSync(join(work, path, '..'), { recursive: true });
      writeFileSync(join(work, path), text);
    }
    // A repository: git reads ignore files only inside one, and so does the walk.
    mkdirSync(join(work, '.git'));
    symlinkSync(join(work, 'a'), join(work, 'link'));
    client = await startStdioClient(
      () => settings,
      undefined,
      {},
      { workspaceFolders: [{ uri: pathToFileURL(work).href, name: 'work' }] },
    );
  }, 60_000);
  afterAll(async () => {
    await client.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('announces workspace diagnostics and workspace symbols', () => {
    expect(client.initializeResult.capabilities).toMatchObject({
      diagnosticProvider: { workspaceDiagnostics: true },
      workspaceSymbolProvider: true,
    });
  });

  it('reports every manifest of the folder but the ignored ones, then unchanged for the same result ids', async () => {
    type Report = {
      kind: string;
      uri: string;
      version: number | null;
      resultId: string;
      items?: { code: string; range: unknown }[];
    };
    const first = await client.connection.sendRequest<{ items: Report[] }>('workspace/diagnostic', {
      previousResultIds: [],
    });
    expect(first.items.map((r) => [r.uri, r.kind, r.version, r.items!.map((d) => [d.code, d.range])])).toEqual([
      [uri('a/svc.yaml'), 'full', null, [['unknown-key', rangeOf(A, 'conectors')]]],
      [uri('b/svc.toml'), 'full', null, []],
    ]);
    const again = await client.connection.sendRequest<{ items: Report[] }>('workspace/diagnostic', {
      previousResultIds: first.items.map((r) => ({ uri: r.uri, value: r.resultId })),
    });
    expect(again.items.map((r) => [r.uri, r.kind, r.resultId])).toEqual(
      first.items.map((r) => [r.uri, 'unchanged', r.resultId]),
    );
  });

  it('takes an open file from the editor, not the disk', async () => {
    const fixed = A.replace('conectors', 'connectors');
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: uri('a/svc.yaml'), languageId: 'yaml', version: 3, text: fixed },
    });
    const report = await client.connection.sendRequest<{
      items: { uri: string; version: number | null; items?: unknown[] }[];
    }>('workspace/diagnostic', {
      previousResultIds: [],
    });
    expect(report.items.map((r) => [r.uri, r.version, r.items])).toEqual([
      [uri('a/svc.yaml'), 3, []],
      [uri('b/svc.toml'), null, []],
    ]);
  });

  it('reports nothing with svc.enable off', async () => {
    settings = { enable: false };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await expect
      .poll(
        async () =>
          (await client.connection.sendRequest<{ items: unknown[] }>('workspace/diagnostic', { previousResultIds: [] }))
            .items,
      )
      .toEqual([]);
    expect(await client.connection.sendRequest('workspace/symbol', { query: '' })).toEqual([]);
    settings = {};
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await expect
      .poll(
        async () =>
          (await client.connection.sendRequest<{ items: unknown[] }>('workspace/diagnostic', { previousResultIds: [] }))
            .items.length,
      )
      .toBe(2);
  });

  it('finds agents and triggers across manifests by a fuzzy query', async () => {
    type Symbol = { name: string; kind: number; location: { uri: string; range: unknown }; containerName: string };
    const nightly = await client.connection.sendRequest<Symbol[]>('workspace/symbol', { query: 'ngt' });
    expect(nightly).toEqual([
      {
        name: 'nightly',
        kind: 24,
        location: { uri: uri('b/svc.toml'), range: rangeOf(B, '"nightly"') },
        containerName: 'trigger in svc.toml',
      },
    ]);
    const all = await client.connection.sendRequest<Symbol[]>('workspace/symbol', { query: '' });
    expect(all.map((s) => [s.name, s.containerName])).toEqual([
      ['main', 'agent in svc.yaml'],
      ['nightly', 'trigger in svc.toml'],
    ]);
  });
});
