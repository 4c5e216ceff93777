/**
 * The playground and the pages, as a person uses them: the built site served by `serve` (what
 * `npm run site:serve` runs) and opened in Chromium (Debian's, `npm run test:setup`) through
 * playwright-core. Every page runs in a context that fails the test on a request to another
 * origin, a console error, an uncaught exception or a dialog.
 *
 * Waits are for what the page shows (expect.poll, bounded); nothing asserts on timing.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleServiceWorker } from '../scripts/assets.js';
import { playgroundFragment, readPlaygroundFragment } from '../src/fragment.js';
import {
  builtSite,
  guardedContext,
  hasChromium,
  launchChromium,
  REPO,
  startStaticServer,
  type StaticServer,
} from './support.js';

const POLL = { timeout: 30_000, interval: 100 };

let site: Awaited<ReturnType<typeof builtSite>>;
let server: StaticServer;
let browser: Browser;
let context: BrowserContext;
let offences: string[];

beforeAll(async () => {
  site = await builtSite();
  server = await startStaticServer(site.dir);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  site?.remove();
});

afterEach(async () => {
  await context?.close();
  expect(offences).toEqual([]);
});

async function openPlayground(fragment = ''): Promise<Page> {
  ({ context, offences } = await guardedContext(browser, server.origin));
  const page = await context.newPage();
  await page.goto(`${server.origin}/playground/index.html${fragment ? `#${fragment}` : ''}`);
  await page.locator('.cm-content').waitFor();
  return page;
}

/** The editor's text, line by line as CodeMirror shows it (the manifests here fit on a screen). */
async function editorText(page: Page): Promise<string> {
  return (await page.locator('.cm-line').allTextContents()).join('\n');
}

function problems(page: Page): Promise<string[]> {
  return page.locator('#problems li').allTextContents();
}

/** Replaces the editor's text by typing, as a person would (select all, then type). */
async function typeManifest(page: Page, text: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  // Typed line by line without the editor's auto-indent: each line starts at column 0.
  for (const line of text.split('\n')) {
    await page.keyboard.insertText(line);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.press('Delete');
  }
}

const VALID_START = 'svc_version: 2\ndefault_agent: writer\nagents:\n  writer:\n    connectors: none';

describe.skipIf(!hasChromium())('the playground in Chromium', () => {
  it('squiggles a mistake with its message and rule code, a quick fix removes it, and a shared link reloads the same text', async () => {
    const page = await openPlayground();
    await typeManifest(page, VALID_START);
    await page.keyboard.type('    modle: large');

    // The squiggle is under the key, and the problems list names the rule.
    await expect.poll(() => page.locator('.cm-lintRange-error').allTextContents(), POLL).toEqual(['modle']);
    await expect
      .poll(() => problems(page), POLL)
      .toEqual([expect.stringMatching(/^6:5 error unknown key 'modle'.*unknown-key/)]);

    // Hovering the squiggle shows the message with its rule code; its quick fix removes the key.
    await page.locator('.cm-lintRange-error').hover();
    const tooltip = page.locator('.cm-tooltip-lint');
    await expect.poll(() => tooltip.textContent(), POLL).toMatch(/unknown key 'modle'.*unknown-key/);
    await tooltip.locator('.cm-diagnosticAction').first().click();
    await expect.poll(() => editorText(page), POLL).not.toContain('modle');
    await expect.poll(() => problems(page), POLL).toEqual([]);
    await expect.poll(() => page.locator('.cm-lintRange').count(), POLL).toBe(0);

    // The fragment holds the text: a reload (a shared link) shows the same manifest.
    const text = await editorText(page);
    await expect
      .poll(() => readPlaygroundFragment(new URL(page.url()).hash)?.text.trimEnd(), POLL)
      .toBe(text.trimEnd());
    const link = page.url();
    const other = await context.newPage();
    await other.goto(link);
    await other.locator('.cm-content').waitFor();
    await expect.poll(() => editorText(other), POLL).toBe(text);
  });

  it('checks TOML, migrates it to version 2 and converts it to YAML', async () => {
    const page = await openPlayground();
    await page.locator('#format').selectOption('toml');
    // The legacy example: version 1 TOML.
    await expect.poll(() => editorText(page), POLL).toContain('svc_version = 1');
    await typeManifest(page, 'svc_version = 1\n\n[project]\nname = "demo"\n\n[[agents]]\nname = "triage"\n');
    await page.keyboard.type('\n[sandbox]\nimage = "node:20"\n');
    await expect.poll(() => problems(page), POLL).toEqual([expect.stringMatching(/error .*forbidden-key/)]);
    await expect
      .poll(() => page.locator('.cm-lintRange-error').allTextContents(), POLL)
      .toContainEqual(expect.stringContaining('image'));
    // The problems list offers the same quick fix.
    await page.locator('#problems button.quick-fix').click();
    await expect.poll(() => problems(page), POLL).toEqual([]);
    expect(await editorText(page)).not.toContain('node:20');

    await page.locator('#migrate').click();
    await expect.poll(() => editorText(page), POLL).toContain('svc_version = 2');
    await page.locator('#convert').click();
    await expect.poll(() => page.locator('#format').inputValue(), POLL).toBe('yaml');
    await expect.poll(() => editorText(page), POLL).toContain('svc_version: 2');
    await expect.poll(() => problems(page), POLL).toEqual([]);
  });

  it('offers completion and hover, fix all and inlay hints from the language server', async () => {
    const deprecated = 'svc_version: 2\ndefault_agent: writer\nagents:\n  writer:\n    connectors_personal: []\n';
    const page = await openPlayground(playgroundFragment('yaml', deprecated));
    await expect.poll(() => problems(page), POLL).toEqual([expect.stringMatching(/warning .*deprecated-key/)]);
    // The server's inlay hint: how the deprecated key is read.
    await expect.poll(() => page.locator('.inlay-hint').allTextContents(), POLL).toEqual([' → connectors_required']);
    await page.locator('.cm-line', { hasText: 'default_agent' }).hover({ position: { x: 30, y: 5 } });
    await expect.poll(() => page.locator('.cm-tooltip-hover').textContent(), POLL).toMatch(/default_agent/);

    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('proj');
    await page.keyboard.press('Control+Space');
    await expect
      .poll(() => page.locator('.cm-tooltip-autocomplete li').allTextContents(), POLL)
      .toContainEqual(expect.stringContaining('project'));
    await page.keyboard.press('Escape');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.locator('#fix-all').click();
    await expect.poll(() => editorText(page), POLL).toContain('connectors_required: []');
    await expect.poll(() => problems(page), POLL).toEqual([]);
  });

  it('works offline once loaded: with the network gone, a reload still checks what is typed', async () => {
    const page = await openPlayground();
    await expect.poll(() => problems(page), POLL).toEqual([]);
    // The playground's service worker takes control of the page once it has kept its files.
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL), POLL)
      .toBe(`${server.origin}/playground/sw.js`);
    const version = /version:"([0-9a-f]+)"/.exec(readFileSync(join(site.dir, 'playground/sw.js'), 'utf8'))?.[1];
    expect(await page.evaluate(() => caches.keys())).toEqual([`svc-playground-${version}`]);

    await context.setOffline(true);
    await page.reload();
    await page.locator('.cm-content').waitFor();
    await typeManifest(page, VALID_START);
    await page.keyboard.type('    modle: large');
    await expect.poll(() => page.locator('.cm-lintRange-error').allTextContents(), POLL).toEqual(['modle']);
    await expect
      .poll(() => problems(page), POLL)
      .toEqual([expect.stringMatching(/^6:5 error unknown key 'modle'.*unknown-key/)]);
    await page.locator('.cm-lintRange-error').hover();
    await expect
      .poll(() => page.locator('.cm-tooltip-lint').textContent(), POLL)
      .toMatch(/unknown key 'modle'.*unknown-key/);
  });

  it('a new build replaces the kept files: the old cache goes, the new files are kept', async () => {
    const page = await openPlayground();
    const controller = () => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
    await expect.poll(controller, POLL).toBe(`${server.origin}/playground/sw.js`);
    const versionIn = () => /version:"([0-9a-f]+)"/.exec(readFileSync(join(site.dir, 'playground/sw.js'), 'utf8'))?.[1];
    const before = versionIn();
    expect(await page.evaluate(() => caches.keys())).toEqual([`svc-playground-${before}`]);

    // A new build: one kept file changes, and the service worker is built again for it.
    appendFileSync(join(site.dir, 'assets/search.js'), '\n// a new build\n');
    await bundleServiceWorker(site.dir);
    const after = versionIn();
    expect(after).not.toBe(before);

    // A reload checks the worker's script: the new one installs, takes over and deletes the old cache.
    await page.reload();
    await expect.poll(() => page.evaluate(() => caches.keys()), POLL).toEqual([`svc-playground-${after}`]);
    const kept = await page.evaluate(
      async (name) => (await (await caches.open(name)).match('../assets/search.js'))?.text(),
      `svc-playground-${after}`,
    );
    expect(kept).toMatch(/\/\/ a new build\n$/);
  });

  it("a problem's rule code links to the rule page, whose example opens in the playground", async () => {
    const page = await openPlayground(playgroundFragment('yaml', `${VALID_START}\n    modle: large\n`));
    await expect.poll(() => problems(page), POLL).toEqual([expect.stringContaining('unknown-key')]);
    await page.locator('#problems a.rule-code').click();
    await page.waitForURL(/\/rules\/unknown-key\.html$/);
    expect(await page.locator('h1').textContent()).toBe('unknown-key');
    const example = readFileSync(join(REPO, 'docs/rules/unknown-key.md'), 'utf8');
    expect(example).toContain('## Example');
    await page.locator('a.playground-link').click();
    await page.locator('.cm-content').waitFor();
    await expect.poll(() => problems(page), POLL).toContainEqual(expect.stringContaining('unknown-key'));
  });

  it("a stranger's manifest is shown as text: no markup, script or javascript: link from it runs or renders", async () => {
    // The server's hovers are Markdown that quotes names from the text (an agent's, in code spans):
    // a backtick in the name ends the code span, and what follows is Markdown and HTML of the stranger's.
    const hostileAgent = 'a`<img src=x onerror=alert(1)><script>alert(2)</script>[click](javascript:alert(3))`';
    const hostile = [
      'svc_version: 2',
      `default_agent: "${hostileAgent}"`,
      'agents:',
      `  "${hostileAgent}":`,
      '    connectors: none',
      '  "<b>bold</b>":',
      '    enabled: true',
      '',
    ].join('\n');
    const page = await openPlayground(playgroundFragment('yaml', hostile));
    await expect
      .poll(() => problems(page), POLL)
      .toContainEqual(expect.stringContaining('<img src=x onerror=alert(1)>'));
    expect(await page.locator('#problems').textContent()).toContain('<b>bold</b>');
    // Hover the agent's key: the tooltip quotes it.
    await page.locator('.cm-line', { hasText: /^\s*"a`<img/ }).hover({ position: { x: 40, y: 5 } });
    await expect.poll(() => page.locator('.cm-lsp-hover-tooltip').textContent(), POLL).toContain('declared on line');
    // The stranger's markup is in the tooltip as text: the name whole, in one code span.
    expect(await page.locator('.cm-lsp-hover-tooltip').textContent()).toContain('<img src=x onerror=alert(1)>');
    expect(await page.locator('.cm-lsp-hover-tooltip code').first().textContent()).toBe(hostileAgent);
    const rendered = await page.evaluate(() => {
      const roots: (Document | ShadowRoot)[] = [document];
      const shadow = document.getElementById('editor')?.shadowRoot;
      if (shadow) roots.push(shadow);
      const found: string[] = [];
      for (const root of roots) {
        for (const element of root.querySelectorAll('img, script:not([src]), b, iframe, object, embed'))
          found.push(element.outerHTML);
        for (const script of root.querySelectorAll('script[src]'))
          if (!/\/assets\/[a-z-]+\.js$/.test((script as HTMLScriptElement).src)) found.push(script.outerHTML);
        for (const link of root.querySelectorAll('a[href]'))
          if (/^\s*javascript:/i.test(link.getAttribute('href') ?? '')) found.push(link.outerHTML);
        for (const element of root.querySelectorAll('*'))
          for (const attribute of element.getAttributeNames())
            if (attribute.startsWith('on')) found.push(element.outerHTML);
      }
      return found;
    });
    expect(rendered).toEqual([]);
  });
});

describe.skipIf(!hasChromium())('the pages in Chromium', () => {
  it('searches the reference and the rules without a service', async () => {
    ({ context, offences } = await guardedContext(browser, server.origin));
    const page = await context.newPage();
    await page.goto(`${server.origin}/index.html`);
    await page.locator('input[name="q"]').fill('default_agent declared');
    await expect
      .poll(() => page.locator('.search-results a').allTextContents(), POLL)
      .toContainEqual(expect.stringContaining('default-agent-declared'));
    await page.locator('.search-results a', { hasText: 'default-agent-declared' }).first().click();
    await page.waitForURL(/\/rules\/default-agent-declared\.html#/);
    expect(await page.locator('h1').textContent()).toBe('default-agent-declared');
  });
});
