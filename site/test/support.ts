/**
 * What the site's tests and benchmarks share: the site built into a folder of their own, the
 * `serve` static server the preview uses (with the site's serve.json) on a free loopback port,
 * and Chromium (test/support/chromium.ts) driven by playwright-core.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../test/support/chromium.js';
import { buildSite } from '../scripts/build.js';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '../..');

export function hasChromium(): boolean {
  return existsSync(CHROMIUM);
}

/** Builds the site for `baseUrl` into a new temporary folder; `remove()` deletes it. */
export async function builtSite(baseUrl?: string): Promise<{ dir: string; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-site-'));
  await buildSite({ outDir: dir, baseUrl });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface StaticServer {
  origin: string;
  stop(): Promise<void>;
}

/** `serve <dir>` (the npm package `npm run site:serve` runs) on 127.0.0.1, once it accepts connections. */
export async function startStaticServer(dir: string, port?: number): Promise<StaticServer> {
  port ??= await freePort();
  const bin = join(REPO, 'node_modules/.bin/serve');
  const child: ChildProcess = spawn(
    bin,
    [dir, '--listen', `tcp://127.0.0.1:${port}`, '--no-request-logging', '--no-clipboard'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Accepting connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}): ${output}`));
    });
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

export interface ServedSite {
  /** The built site's folder. */
  dir: string;
  /** The URL it is built for and served at: `http://127.0.0.1:<port>/`. */
  base: string;
  /** Ends the server and deletes the folder. */
  stop(): Promise<void>;
}

/** The site built for a loopback base URL on a free port and served there by `serve`. */
export async function servedSite(): Promise<ServedSite> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/`;
  const site = await builtSite(base);
  let server: StaticServer;
  try {
    server = await startStaticServer(site.dir, port);
  } catch (error) {
    site.remove();
    throw error;
  }
  return {
    dir: site.dir,
    base,
    stop: async () => {
      await server.stop();
      site.remove();
    },
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
}

/**
 * A browser context that records what a page must never do: a request to another origin
 * (refused as well as recorded), a console error, an uncaught exception, a dialog (`alert`).
 */
export async function guardedContext(
  browser: Browser,
  origin: string,
): Promise<{ context: BrowserContext; offences: string[] }> {
  const context = await browser.newContext();
  const offences: string[] = [];
  await context.route(
    (url) => url.origin !== origin && url.protocol !== 'data:',
    async (route) => {
      offences.push(`request to another origin: ${route.request().url()}`);
      await route.abort();
    },
  );
  context.on('page', (page) => watchPage(page, offences));
  return { context, offences };
}

function watchPage(page: Page, offences: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error') offences.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => offences.push(`uncaught: ${error.message}`));
  page.on('dialog', (dialog) => {
    offences.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
}
