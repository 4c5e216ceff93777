/**
 * The site's budgets (issue #35), measured in Chromium (Debian's, driven by playwright-core)
 * against the built site served by `serve` (what `npm run site:serve` runs, gzip on) on loopback:
 *
 *  - the playground's first load: compressed bytes transferred, with an empty cache, for every
 *    request Chromium made for the page and its worker: the headers as Chromium counts them,
 *    the body as the server sends it gzipped (fetched again here: Chromium reports no body size
 *    for a dedicated worker's script), and what the playground's service worker fetches to keep
 *    once the page is usable; budget 500 KB;
 *  - time to usable: from navigation start until the editor shows the server's first squiggle
 *    on a shared link holding examples/svc.yaml with one mistake; budget 1 s;
 *  - a keystroke to updated squiggles on examples/svc.yaml: the time from the key's `keydown`
 *    to the mutation that adds or removes the squiggle it causes, both read by the page's own
 *    clock; 95th percentile; budget 50 ms;
 *  - the validator's browser bundle (packages/validator/dist/browser.mjs) gzipped; budget 150 KB.
 */
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { playgroundFragment } from '../site/src/fragment.ts';
import { builtSite, launchChromium, REPO, startStaticServer } from '../site/test/support.ts';

export interface SiteResult {
  /** What the figures were measured on. */
  on: string;
  firstLoadCompressedKb: number;
  firstLoadRequests: number;
  firstLoadFiles: { url: string; kb: number }[];
  usableMs: number[];
  keystrokeMs: { samples: number; median: number; p95: number; max: number };
  validatorBundleGzipKb: number;
}

const KB = 1024;
/** The body's size as the server sends it to a client that accepts gzip (what a browser receives). */
function compressedBodyBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': 'gzip' } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve(bytes));
      response.on('error', reject);
    }).on('error', reject);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export async function benchSite(options: { loads: number; keystrokes: number }): Promise<SiteResult> {
  const validatorBundle = readFileSync(join(REPO, 'packages/validator/dist/browser.mjs'));
  const example = readFileSync(join(REPO, 'examples/svc.yaml'), 'utf8');
  const site = await builtSite();
  const server = await startStaticServer(site.dir);
  const browser = await launchChromium();
  try {
    // First load and time to usable: a new context (empty cache) per load.
    const mistake = example.replace(/^default_agent: (\S+)$/m, 'default_agent: $1-missing');
    const sharedLink = `${server.origin}/playground/index.html#${playgroundFragment('yaml', mistake)}`;
    const usableMs: number[] = [];
    let files: { url: string; kb: number }[] = [];
    for (let load = 0; load < options.loads; load++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const responses: Promise<{ url: string; bytes: number }>[] = [];
      context.on('requestfinished', (request) => {
        const url = request.url().replace(/#.*/, '');
        // What the playground's service worker fetches to keep, it asks the server to revalidate:
        // a 304 with no body for the files the page has just loaded, which Playwright reports as the
        // cached 200, so its size is Chromium's count of the bytes received. (The page's own requests
        // are sized from the server: Chromium counts no body for a dedicated worker's script.)
        const body = request.serviceWorker()
          ? request.sizes().then((sizes) => sizes.responseBodySize)
          : compressedBodyBytes(url);
        responses.push(
          Promise.all([request.sizes(), body]).then(([sizes, bodyBytes]) => ({
            url,
            bytes: sizes.responseHeadersSize + bodyBytes,
          })),
        );
      });
      await page.goto(sharedLink);
      const usable = await page.waitForFunction(
        () =>
          document.getElementById('editor')?.shadowRoot?.querySelector('.cm-lintRange') ? performance.now() : undefined,
        undefined,
        { timeout: 60_000, polling: 'raf' },
      );
      usableMs.push((await usable.jsonValue()) as number);
      // The first visit's transfer includes what the playground's service worker fetches to keep
      // (registered once the page is usable): wait until it controls the page.
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
      files = (await Promise.all(responses)).map(({ url, bytes }) => ({
        url: url.replace(server.origin, ''),
        kb: bytes / KB,
      }));
      await context.close();
    }

    // Keystrokes: type `x` after the default agent's name (a squiggle appears), then Backspace (it goes).
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.origin}/playground/index.html#${playgroundFragment('yaml', example)}`);
    await page.locator('.cm-content').waitFor();
    await page.evaluate(() => {
      const root = document.getElementById('editor')!.shadowRoot!;
      const state = window as unknown as { svcBench: { keys: number[]; flips: number[]; squiggles: boolean } };
      state.svcBench = { keys: [], flips: [], squiggles: false };
      root.addEventListener('keydown', (event) => state.svcBench.keys.push(event.timeStamp), { capture: true });
      new MutationObserver(() => {
        const now = performance.now();
        const squiggles = root.querySelector('.cm-lintRange') !== null;
        if (squiggles !== state.svcBench.squiggles) {
          state.svcBench.squiggles = squiggles;
          state.svcBench.flips.push(now);
        }
      }).observe(root, { subtree: true, childList: true, attributes: true });
    });
    const line = page.locator('.cm-line', { hasText: /^default_agent: / });
    await line.click();
    await page.keyboard.press('End');
    await page.evaluate(() => void ((window as unknown as { svcBench: { keys: number[] } }).svcBench.keys.length = 0));
    for (let stroke = 0; stroke < options.keystrokes; stroke++) {
      const adding = stroke % 2 === 0;
      await page.keyboard.press(adding ? 'x' : 'Backspace');
      await page.waitForFunction(
        (expected) => (window as unknown as { svcBench: { squiggles: boolean } }).svcBench.squiggles === expected,
        adding,
        {
          timeout: 30_000,
          polling: 'raf',
        },
      );
    }
    const { keys, flips } = await page.evaluate(
      () => (window as unknown as { svcBench: { keys: number[]; flips: number[] } }).svcBench,
    );
    await context.close();
    const latencies = keys.map((key, index) => flips[index]! - key).sort((a, b) => a - b);
    const firstLoadBytes = files.reduce((sum, file) => sum + file.kb, 0);
    return {
      on: `Chromium ${browser.version()} headless, serve (gzip) on 127.0.0.1, this machine`,
      firstLoadCompressedKb: firstLoadBytes,
      firstLoadRequests: files.length,
      firstLoadFiles: files,
      usableMs,
      keystrokeMs: {
        samples: latencies.length,
        median: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        max: latencies[latencies.length - 1]!,
      },
      validatorBundleGzipKb: gzipSync(validatorBundle, { level: 9 }).length / KB,
    };
  } finally {
    await browser.close();
    await server.stop();
    site.remove();
  }
}
