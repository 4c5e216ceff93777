/**
 * End-to-end: the .vsix's web entry (package.json `browser`) in code-server's web worker
 * extension host. `remote.extensionKind` set to `["web"]` for the extension makes code-server run
 * that entry instead of the desktop one; the host then refuses the entry a Web Worker (the
 * extension is installed on the remote), so the language server runs in the host's own thread.
 * Checks what a person sees: the squiggle, the Problems entry with its rule code, a hover; and
 * that it was the web entry that served them: its output channel says where the server started,
 * and no Node server process runs. Then the palette in the web entry: the status bar on svc.toml,
 * and "svc: Convert to YAML" writing what `svc-manifest convert` prints and deleting svc.toml.
 *
 * Needs the tools from scripts/install-code-server.sh, as test/e2e.test.ts does, and skips or
 * fails the same way without them. Screenshots and logs go to test-results/vscode-web/ (or
 * $SVC_E2E_ARTIFACTS/web).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import {
  findProcesses,
  installExtension,
  launchHeadlessChromium,
  prepareDirs,
  QUIET_WORKBENCH_SETTINGS,
  startCodeServer,
  toolsFor,
  type CodeServerDirs,
  type RunningCodeServer,
} from './support/code-server';

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(pkgDir, '..', '..');
const artifacts = process.env.SVC_E2E_ARTIFACTS
  ? resolve(process.env.SVC_E2E_ARTIFACTS, 'web')
  : join(repoRoot, 'test-results', 'vscode-web');
const EXTENSION_ID = 'svc-manifest.svc-manifest-vscode';

const tools = toolsFor('VS Code web extension in code-server');

// One mistake: the agent key `enabeld` (line 5, column 5).
const SVC_YAML = `svc_version: 2
default_agent: helper
agents:
  helper:
    enabeld: true
`;

// A TOML manifest in a folder of its own (converted to YAML beside it), and what `svc-manifest convert` prints for it.
const convertFixture = (name: string) => join(repoRoot, 'fixtures-transform', 'convert', name);
const COMMENTED_TOML = readFileSync(convertFixture('commented.in.toml'), 'utf8');
const COMMENTED_YAML = readFileSync(convertFixture('commented.out.yaml'), 'utf8');

const USER_SETTINGS = {
  ...QUIET_WORKBENCH_SETTINGS,
  // The web entry, in the web worker extension host, instead of the desktop entry in Node's.
  'remote.extensionKind': { [EXTENSION_ID]: ['web'] },
};

describe.skipIf(!tools)("VS Code web extension in code-server's web worker extension host", () => {
  let tmp = '';
  let workspace = '';
  let dirs: CodeServerDirs;
  let server: RunningCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const consoleLines: string[] = [];

  const shot = async (name: string): Promise<void> => {
    await page?.screenshot({ path: join(artifacts, `${name}.png`) }).catch(() => undefined);
  };

  beforeAll(async () => {
    const t = tools!;
    rmSync(artifacts, { recursive: true, force: true });
    mkdirSync(artifacts, { recursive: true });
    const build = spawnSync('npm', ['run', 'package'], { cwd: pkgDir, encoding: 'utf8' });
    writeFileSync(join(artifacts, 'package.log'), `${build.stdout}\n${build.stderr}`);
    if (build.status !== 0) throw new Error(`building the .vsix failed:\n${build.stdout}\n${build.stderr}`);

    tmp = mkdtempSync(join(tmpdir(), 'svc-vscode-web-e2e-'));
    dirs = prepareDirs(tmp, USER_SETTINGS);
    workspace = join(tmp, 'workspace');
    mkdirSync(join(workspace, 'convert'), { recursive: true });
    writeFileSync(join(workspace, 'svc.yaml'), SVC_YAML);
    writeFileSync(join(workspace, 'convert', 'svc.toml'), COMMENTED_TOML);
    // (A copy: another run in the same checkout may be rebuilding dist/.)
    const vsix = join(tmp, 'svc-manifest-vscode.vsix');
    cpSync(join(pkgDir, 'dist', 'svc-manifest-vscode.vsix'), vsix);
    writeFileSync(join(artifacts, 'install-extension.log'), installExtension(t, dirs, vsix));
    server = await startCodeServer(t, dirs, workspace, join(artifacts, 'code-server.log'));

    browser = await launchHeadlessChromium(t);
    page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    // The web extension host logs to the browser's console (an activation that failed, say), not to disk.
    page.on('console', (message) => consoleLines.push(`[${message.type()}] ${message.text()}`));
    page.setDefaultTimeout(30_000);
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 120_000 });
  }, 420_000);

  afterAll(async () => {
    try {
      if (dirs && existsSync(join(dirs.userDataDir, 'logs')))
        cpSync(join(dirs.userDataDir, 'logs'), join(artifacts, 'logs'), { recursive: true });
    } catch {
      // best effort: only for debugging a failure
    }
    writeFileSync(join(artifacts, 'browser-console.log'), consoleLines.join('\n'));
    await browser?.close();
    await server?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }, 60_000);

  function activeEditor(): Locator {
    return page.locator('.editor-group-container.active .monaco-editor').first();
  }

  /** The Problems panel's entries under `file`, as their text. */
  async function problemsOf(file: string): Promise<string[]> {
    const panel = page.locator('.markers-panel');
    if (!(await panel.isVisible())) await page.keyboard.press('Control+Shift+M');
    await panel.waitFor({ state: 'visible' });
    return panel.locator('.monaco-list-row').evaluateAll((rows, wanted) => {
      const sorted = [...rows].sort(
        (a, b) => parseFloat((a as HTMLElement).style.top) - parseFloat((b as HTMLElement).style.top),
      );
      const entries: string[] = [];
      let current = '';
      for (const row of sorted) {
        const text = (row as HTMLElement).innerText.replace(/\s+/g, ' ').trim();
        if (row.getAttribute('aria-level') === '1') current = text.split(' ')[0] ?? '';
        else if (current === wanted) entries.push(text);
      }
      return entries;
    }, file);
  }

  async function runCommand(title: string): Promise<void> {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`>${title}`);
    await page
      .locator('.quick-input-widget .monaco-list-row')
      .filter({ hasText: title })
      .first()
      .waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  }

  /** Text of the editor in the panel (the Output view's channel), with its lines (wrapped at the panel's width) joined by spaces. */
  async function outputText(): Promise<string> {
    return page
      .locator('.part.panel .monaco-editor')
      .first()
      .evaluate((el) =>
        [...el.querySelectorAll<HTMLElement>('.view-lines .view-line')]
          .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
          .map((l) => (l.textContent ?? '').replace(/\u00a0/g, ' '))
          .join(' ')
          .replace(/\s+/g, ' '),
      );
  }

  it('svc.yaml: squiggle, Problems entry with its rule code, hover; served by the web entry', async () => {
    onTestFailed(() => shot('FAILED-web-entry'));
    const row = page
      .locator('.explorer-folders-view .monaco-list-row')
      .filter({ has: page.getByText('svc.yaml', { exact: true }) });
    await row.waitFor({ state: 'visible', timeout: 120_000 });
    await row.dblclick();
    await page.locator('.tabs-container .tab.active', { hasText: 'svc.yaml' }).waitFor();
    await activeEditor().locator('.view-lines').waitFor();

    // The squiggle under the unknown key, and its Problems entry: the key, our rule code, the place.
    await activeEditor().locator('.squiggly-error').first().waitFor({ state: 'visible', timeout: 120_000 });
    await shot('01-squiggle');
    let problem: string | undefined;
    await expect
      .poll(async () => (problem = (await problemsOf('svc.yaml')).find((p) => p.includes('enabeld'))), {
        timeout: 60_000,
        message: "a Problems entry for svc.yaml mentioning 'enabeld'",
      })
      .toBeDefined();
    expect(problem).toContain("'enabeld'");
    expect(problem).toMatch(/\bsvc\W+unknown-key\b/);
    expect(problem).toContain('[Ln 5, Col 5]');
    await shot('02-problems');

    // Hover on `default_agent`: the key's description from the schema.
    const line2 = activeEditor()
      .locator('.view-line')
      .filter({ hasText: /^default_agent\b/ })
      .first();
    const box = await line2.boundingBox();
    if (!box) throw new Error('line 2 is not on screen');
    await page.mouse.move(box.x + 30, box.y + box.height / 2);
    const hover = page
      .locator('.monaco-hover:not(.hidden) .hover-contents, .monaco-hover:not(.hidden) .markdown-hover')
      .first();
    await hover.waitFor({ state: 'visible' });
    expect(await hover.innerText()).toMatch(/agent/i);
    await shot('03-hover');
    await page.mouse.move(0, 0);
    await page.keyboard.press('Escape');

    // Served by the web entry: its log says the server runs in the extension host's thread (the
    // host refused a worker), and no Node process runs the desktop entry's server.
    await runCommand('svc: Show output');
    await expect
      .poll(outputText, { timeout: 30_000 })
      .toContain("language server started in the extension host's thread");
    expect(await outputText()).toContain('Creating workers from remote extensions is currently not supported');
    await shot('04-output');
    expect(findProcesses(dirs.extensionsDir, 'server.js')).toEqual([]);
  }, 300_000);

  it('svc.toml: the status bar, and "svc: Convert to YAML" writes svc.yaml and deletes svc.toml', async () => {
    onTestFailed(() => shot('FAILED-convert'));
    // Quick Open by its path (the workspace has two svc.* names).
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill('convert/svc.toml');
    await page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'convert' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tabs-container .tab.active', { hasText: 'svc.toml' }).waitFor();
    // The palette's status bar item: the web entry registers the palette too.
    await page.locator('.statusbar-item', { hasText: 'svc v2' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    await shot('05-toml-status-bar');
    // The command finds the server's action as the client's middleware rewrote it: without that
    // middleware in the web entry it finds no conversion and changes nothing.
    await runCommand('svc: Convert to YAML');
    const yamlFile = join(workspace, 'convert', 'svc.yaml');
    const yamlOnDisk = () => (existsSync(yamlFile) ? readFileSync(yamlFile, 'utf8') : '');
    await expect.poll(yamlOnDisk, { timeout: 60_000 }).toBe(COMMENTED_YAML);
    await expect.poll(() => existsSync(join(workspace, 'convert', 'svc.toml')), { timeout: 30_000 }).toBe(false);
  }, 180_000);
});
