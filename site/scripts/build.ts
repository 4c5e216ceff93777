/**
 * `npm run site`: builds the static site into site/dist from this repository's sources alone.
 *
 *   SITE_BASE_URL   the address the site is served at (default: the schemas' `$id` host,
 *                   https://schemas.svc.example/). Schemas are built in memory for it, so each
 *                   served file's `$id` is its own URL under that base.
 *
 * Output: the schemas at the paths their `$id`s name (manifest/svc*.schema.json) and immutable
 * copies under the schema package's version (manifest/<version>/…); the manifest reference and
 * every rule page as HTML; a search index; the playground; `_headers` (Netlify, Cloudflare
 * Pages) and `serve.json` (`npm run site:serve`) with the same headers; the playground's service
 * worker (playground/sw.js), which keeps the playground's files for offline use. Every link is
 * relative.
 */
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchemas, SCHEMA_DIR, siteBaseUrl } from '@svc-manifest/schema';
import { bundleAssets, bundleServiceWorker } from './assets.js';
import { siteHeaders, headersFile, serveJson } from './headers.js';
import { layout } from './layout.js';
import { renderPage } from './pages.js';

const siteDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = join(siteDir, '..');
const docsDir = join(repoDir, 'docs');

/** The default base: the site the schemas' `$id`s name (a placeholder host until the site is deployed there). */
export const DEFAULT_BASE_URL = siteBaseUrl();
/** Where the schemas live under the base (`manifest`), as the `$id`s say. */
export { SCHEMA_DIR };

export interface SiteOptions {
  baseUrl?: string;
  outDir?: string;
}

function normalizeBase(base: string): string {
  const url = new URL(base);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`SITE_BASE_URL must be an http(s) address: ${base}`);
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

function schemaVersion(): string {
  return (JSON.parse(readFileSync(join(repoDir, 'packages/schema/package.json'), 'utf8')) as { version: string })
    .version;
}

/** Every schema file the site serves: path under the site's root → its JSON. */
export function siteSchemas(baseUrl: string): Map<string, Record<string, unknown>> {
  const files = new Map<string, Record<string, unknown>>();
  for (const dir of [SCHEMA_DIR, `${SCHEMA_DIR}/${schemaVersion()}`]) {
    const schemas = buildSchemas(new URL(dir, baseUrl).href);
    files.set(`${dir}/svc.schema.json`, schemas.combined);
    files.set(`${dir}/svc.v1.schema.json`, schemas.v1);
    files.set(`${dir}/svc.v2.schema.json`, schemas.v2);
  }
  return files;
}

function markdownSources(): string[] {
  const rules = readdirSync(join(docsDir, 'rules'))
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => `rules/${file}`);
  return ['manifest.md', 'fix-migrate-convert.md', ...rules];
}

function homePage(baseUrl: string): string {
  const version = schemaVersion();
  const url = (file: string, dir = SCHEMA_DIR) => new URL(`${dir}/${file}`, baseUrl).href;
  const row = (file: string, what: string) =>
    `<tr><td>${what}</td><td><a href="${SCHEMA_DIR}/${file}"><code>${url(file)}</code></a></td>` +
    `<td><a href="${SCHEMA_DIR}/${version}/${file}"><code>${url(file, `${SCHEMA_DIR}/${version}`)}</code></a></td></tr>`;
  return `<h1>The svc manifest</h1>
<p>The schema, the reference and a playground for <code>svc.yaml</code> and <code>svc.toml</code>.</p>
<ul class="home-links">
  <li><a href="playground/index.html">Playground</a>: the validator and the language server, running in this page.</li>
  <li><a href="manifest.html">Manifest reference</a>: every key of both versions.</li>
  <li><a href="rules/index.html">Rules</a>: one page per diagnostic code.</li>
  <li><a href="fix-migrate-convert.html">Fix, migrate and convert</a>.</li>
</ul>
<h2 id="schemas">Schemas</h2>
<p>Served as <code>application/schema+json</code> with <code>Access-Control-Allow-Origin: *</code>. The unversioned URLs
follow the newest release; the versioned ones never change.</p>
<table><thead><tr><th>schema</th><th>latest</th><th>pinned (${version})</th></tr></thead><tbody>
${row('svc.schema.json', 'both versions')}
${row('svc.v1.schema.json', 'svc_version 1')}
${row('svc.v2.schema.json', 'svc_version 2')}
</tbody></table>`;
}

function playgroundPage(): string {
  return `<h1 class="visually-hidden">Playground</h1>
<div class="playground">
  <div class="toolbar" role="toolbar" aria-label="Playground actions">
    <label>Format <select id="format"><option value="yaml">svc.yaml</option><option value="toml">svc.toml</option></select></label>
    <button type="button" id="fix-all">Fix all</button>
    <button type="button" id="migrate">Migrate to v2</button>
    <button type="button" id="convert">Convert to YAML</button>
    <button type="button" id="share">Copy link</button>
    <span id="status" role="status"></span>
  </div>
  <div id="editor" class="editor"></div>
  <section class="problems" aria-label="Problems">
    <h2>Problems</h2>
    <ol id="problems"></ol>
  </section>
</div>`;
}

export async function buildSite(options: SiteOptions = {}): Promise<{ outDir: string; baseUrl: string }> {
  const baseUrl = normalizeBase(options.baseUrl ?? (process.env.SITE_BASE_URL || DEFAULT_BASE_URL));
  const outDir = options.outDir ?? join(siteDir, 'dist');
  rmSync(outDir, { recursive: true, force: true });
  /** Folders holding an `index.html`, which a static host serves for the folder's own URL. */
  const indexFolders: string[] = [];
  const write = (path: string, content: string) => {
    if (path === 'index.html' || path.endsWith('/index.html')) indexFolders.push(path.slice(0, -'index.html'.length));
    mkdirSync(dirname(join(outDir, path)), { recursive: true });
    writeFileSync(join(outDir, path), content);
  };

  for (const [path, schema] of siteSchemas(baseUrl)) write(path, `${JSON.stringify(schema, null, 2)}\n`);

  const sources = markdownSources();
  const published = new Set(sources);
  const searchIndex: { title: string; url: string; text: string }[] = [];
  for (const source of sources) {
    const page = renderPage(source, readFileSync(join(docsDir, source), 'utf8'), published);
    write(page.path, layout({ path: page.path, title: page.title, body: page.body }));
    for (const section of page.sections) {
      const title = section.heading === page.title ? page.title : `${page.title} › ${section.heading}`;
      searchIndex.push({ title, url: `${page.path}#${section.anchor}`, text: section.text });
    }
  }
  write('assets/search-index.json', JSON.stringify(searchIndex));
  write('index.html', layout({ path: 'index.html', title: 'Home', body: homePage(baseUrl) }));
  write(
    'playground/index.html',
    layout({
      path: 'playground/index.html',
      title: 'Playground',
      body: playgroundPage(),
      scripts: ['assets/playground.js'],
      bodyClass: 'playground-page',
    }),
  );

  for (const sheet of ['site.css', 'editor.css']) cpSync(join(siteDir, 'src', sheet), join(outDir, 'assets', sheet));
  await bundleAssets(outDir);
  await bundleServiceWorker(outDir);

  const headers = siteHeaders(SCHEMA_DIR);
  write('_headers', headersFile(headers));
  write('serve.json', serveJson(headers, indexFolders));
  return { outDir, baseUrl };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { outDir, baseUrl } = await buildSite();
  process.stdout.write(`site: built ${outDir} for ${baseUrl}\n`);
}
