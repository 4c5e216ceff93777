/**
 * Bursts of edits over a real stdio connection to the built server: the server coalesces them
 * (counted with its `svc/stats` request, never timed), answers requests sent after the burst
 * from the newest text, and its last publication is a fresh validation of the final text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { createState } from '../src/document-state.js';
import { computeDiagnostics } from '../src/features/diagnostics.js';
import { documentSymbols } from '../src/features/document-symbols.js';
import { hover } from '../src/features/hover.js';
import type { SchedulerStats } from '../src/diagnostic-scheduler.js';
import { STATS_REQUEST } from '../src/server.js';
import { ensureBuiltServer, startStdioClient, type StdioClient } from './built-server.js';

/** A ~13 KB manifest with about a thousand diagnostics: one agent naming a thousand undeclared connectors. */
function manyDiagnostics(): string {
  let text = 'svc_version: 2\ndefault_agent: a0\nagents:\n  a0:\n    sandbox: base\n    connectors: [\n';
  for (let i = 0; i < 1000; i++) text += `      cx${i},\n`;
  return text + '    ]\n';
}

function publications(client: StdioClient, uri: string): { version: number; diagnostics: Diagnostic[] }[] {
  return client.notifications
    .filter((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri)
    .map((n) => n.params);
}

describe('a burst of edits over stdio', () => {
  let client: StdioClient;
  beforeAll(async () => {
    ensureBuiltServer();
    client = await startStdioClient();
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  it('costs a few validations, not one per edit, and ends with a fresh validation of the final text', async () => {
    const uri = 'file:///work/burst/svc.yaml';
    let text = manyDiagnostics();
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'yaml', version: 1, text },
    });
    const opened = await client.until(
      () => publications(client, uri).find((p) => p.version === 1),
      'diagnostics of the opened file',
      60_000,
    );
    expect(opened.diagnostics.length).toBeGreaterThanOrEqual(1000);
    const before = await client.connection.sendRequest<SchedulerStats>(STATS_REQUEST);
    const publishedBefore = publications(client, uri).length;

    // 200 edits sent at once (as a paste split into changes, or multi-cursor typing would): each
    // renames one connector reference `cxN` to `cxNz`, so every version has different diagnostics.
    let version = 1;
    const sends: Promise<void>[] = [];
    for (let i = 0; i < 200; i++) {
      const line = 6 + (i % 1000);
      const character = `      cx${i}`.length;
      text = text
        .split('\n')
        .map((l, n) => (n === line ? l.slice(0, character) + 'z' + l.slice(character) : l))
        .join('\n');
      version += 1;
      sends.push(
        client.connection.sendNotification('textDocument/didChange', {
          textDocument: { uri, version },
          contentChanges: [{ range: { start: { line, character }, end: { line, character } }, text: 'z' }],
        }),
      );
    }
    // Requests right behind the burst are answered from the final text.
    const position = { line: 6 + 150, character: 8 };
    const [hovered, symbols] = await Promise.all([
      client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position }),
      client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }),
      ...sends,
    ]);
    const fresh = createState(uri, version, text);
    expect(hovered).toEqual(JSON.parse(JSON.stringify(hover(fresh, { position }))));
    expect(symbols).toEqual(JSON.parse(JSON.stringify(documentSymbols(fresh))));

    const last = await client.until(
      () => publications(client, uri).find((p) => p.version === version),
      `diagnostics for version ${version}`,
      60_000,
    );
    const expected: Diagnostic[] = JSON.parse(JSON.stringify(computeDiagnostics(fresh)));
    expect(expected.some((d) => typeof d.message === 'string' && d.message.includes('cx150z'))).toBe(true);
    expect(last.diagnostics).toEqual(expected);

    const after = await client.connection.sendRequest<SchedulerStats>(STATS_REQUEST);
    const validations = after.validations - before.validations;
    // One validation when the burst ends; a few more at most when the pipe delivered it in pieces.
    expect(validations).toBeGreaterThanOrEqual(1);
    expect(validations).toBeLessThanOrEqual(10);
    const burst = publications(client, uri).slice(publishedBefore);
    expect(burst.length).toBe(after.publications - before.publications);
    expect(burst.length).toBeLessThanOrEqual(validations);
    // Never stale: versions only go up, and the last publication is the final version's.
    expect(burst.map((p) => p.version)).toEqual([...burst.map((p) => p.version)].sort((a, b) => a - b));
    expect(burst.at(-1)!.version).toBe(version);
  }, 120_000);

  it('answers the stats request with counters that only grow', async () => {
    const a = await client.connection.sendRequest<SchedulerStats>(STATS_REQUEST);
    const uri = 'file:///work/burst/other/svc.yaml';
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'yaml', version: 1, text: 'svc_version: 2\n' },
    });
    await client.until(() => publications(client, uri).find((p) => p.version === 1), 'diagnostics of a new file');
    const b = await client.connection.sendRequest<SchedulerStats>(STATS_REQUEST);
    expect(b.validations).toBe(a.validations + 1);
    expect(b.publications).toBe(a.publications + 1);
    expect(b.dropped).toBe(a.dropped);
  });
});
