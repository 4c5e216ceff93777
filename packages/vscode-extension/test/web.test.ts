/**
 * The web extension's server (dist/web/server.js, what vscode.dev and github.dev start in a Web
 * Worker): built by the bundle script, loaded as a worker in Chromium (Debian's, through
 * playwright-core) from a page of a made-up origin that Playwright answers itself, and spoken to
 * in LSP over the worker's messages: initialize, a manifest opened, its diagnostics with rule
 * codes, a hover. The web client bundle loads nothing but `vscode`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../../test/support/chromium.js';

const pkgDir = join(import.meta.dirname, '..');
const ORIGIN = 'http://svc-web-extension.test';

let out = '';
let browser: Browser | undefined;

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'svc-vscode-web-'));
  const r = spawnSync(process.execPath, [join(pkgDir, 'scripts', 'bundle.mjs'), '--require-server', '--outdir', out], {
    cwd: pkgDir,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  rmSync(out, { recursive: true, force: true });
});

describe('the web extension', () => {
  it('client bundle requires only vscode', () => {
    const text = readFileSync(join(out, 'web', 'extension.js'), 'utf8');
    const required = new Set(
      [...text.matchAll(/(?<![\w$.'"`])require\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]),
    );
    expect([...required]).toEqual(['vscode']);
  });

  it.skipIf(!existsSync(CHROMIUM))(
    'server answers LSP in a Chromium Web Worker: initialize, diagnostics with rule codes, hover',
    async () => {
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: CHROMIUM_FLAGS,
      });
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
      const server = readFileSync(join(out, 'web', 'server.js'), 'utf8');
      await page.route(`${ORIGIN}/**`, (route) =>
        route.request().url().endsWith('/server.js')
          ? route.fulfill({ contentType: 'text/javascript', body: server })
          : route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>web extension host</title>' }),
      );
      await page.goto(`${ORIGIN}/`);
      const result = await page.evaluate(async () => {
        const worker = new Worker('/server.js');
        const received: { id?: number; method?: string; params?: unknown; result?: unknown }[] = [];
        const waiters: (() => void)[] = [];
        worker.onmessage = (event: MessageEvent) => {
          const message = event.data as (typeof received)[number] & { method?: string; id?: number };
          // Requests from the server (configuration, registrations): answer them empty.
          if (message.method && message.id !== undefined)
            worker.postMessage({
              jsonrpc: '2.0',
              id: message.id,
              result: message.method === 'workspace/configuration' ? [null] : null,
            });
          received.push(message);
          for (const waiter of waiters.splice(0)) waiter();
        };
        // Resolves on the message that makes `test` true; the timer only guards against a server
        // that never sends it, failing with what it did send.
        const until = (test: () => boolean) =>
          new Promise<void>((resolve, reject) => {
            const guard = setTimeout(
              () => reject(new Error(`no answer; received ${JSON.stringify(received).slice(0, 500)}`)),
              30_000,
            );
            const check = () => {
              if (!test()) return void waiters.push(check);
              clearTimeout(guard);
              resolve();
            };
            check();
          });
        const uri = 'vscode-vfs://github/example/repo/svc.yaml';
        worker.postMessage({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { processId: null, rootUri: null, capabilities: {} },
        });
        await until(() => received.some((m) => m.id === 1 && 'result' in m));
        worker.postMessage({ jsonrpc: '2.0', method: 'initialized', params: {} });
        const text = 'svc_version: 2\ndefault_agent: writer\nagents:\n  reviewer:\n    modle: large\n';
        worker.postMessage({
          jsonrpc: '2.0',
          method: 'textDocument/didOpen',
          params: { textDocument: { uri, languageId: 'yaml', version: 1, text } },
        });
        await until(() => received.some((m) => m.method === 'textDocument/publishDiagnostics'));
        worker.postMessage({
          jsonrpc: '2.0',
          id: 2,
          method: 'textDocument/hover',
          params: { textDocument: { uri }, position: { line: 1, character: 3 } },
        });
        await until(() => received.some((m) => m.id === 2 && 'result' in m));
        worker.terminate();
        const initialize = received.find((m) => m.id === 1)!.result as {
          serverInfo?: { name: string };
          capabilities: Record<string, unknown>;
        };
        const diagnostics = (
          received.find((m) => m.method === 'textDocument/publishDiagnostics')!.params as {
            diagnostics: { code: string; range: { start: { line: number } } }[];
          }
        ).diagnostics;
        const hover = received.find((m) => m.id === 2)!.result as { contents: { value: string } } | null;
        return {
          name: initialize.serverInfo?.name,
          hoverProvider: initialize.capabilities.hoverProvider,
          diagnostics: diagnostics.map((d) => `${d.range.start.line}:${d.code}`).sort(),
          hover: hover?.contents.value ?? '',
        };
      });
      expect(result.name).toBe('svc-manifest-lsp');
      expect(result.hoverProvider).toBe(true);
      expect(result.diagnostics).toEqual(['1:default-agent-declared', '4:unknown-key']);
      // The key's title, Markdown-escaped (hover.ts escapes a title's punctuation).
      expect(result.hover).toContain('**default\\_agent**');
      expect(errors).toEqual([]);
    },
    120_000,
  );
});
