/**
 * The site's scripts, bundled for the browser (scripts/browser-bundle.mjs, as the packages'
 * `browser` exports are): the search box, the playground page and the language server's worker;
 * then the playground's service worker, which lists them.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserBuild } from '../../scripts/browser-bundle.mjs';

const siteDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Entry → output path under the site's root. The language server's worker lives in the
 * playground's folder: a worker is matched to a service worker by its own address, so it must be
 * inside the playground's service worker's scope (playground/) to load offline.
 */
export const BROWSER_ENTRIES = {
  'assets/search': join(siteDir, 'src/search.ts'),
  'assets/playground': join(siteDir, 'src/playground.ts'),
  'playground/lsp-worker': join(siteDir, 'src/lsp-worker.ts'),
};

export async function bundleAssets(
  siteOutDir: string,
  entries: Record<string, string> = BROWSER_ENTRIES,
): Promise<void> {
  await browserBuild({
    entryPoints: entries,
    outdir: siteOutDir,
    // The playground shows the repository's example manifests first: bundled as text.
    loader: { '.yaml': 'text', '.toml': 'text' },
  });
}

/**
 * What the playground page loads, under the site's root: the files its service worker keeps
 * for offline use (the search index too, for the page's search box).
 */
export const PLAYGROUND_FILES = [
  'playground/index.html',
  'assets/site.css',
  'assets/editor.css',
  'assets/search.js',
  'assets/search-index.json',
  'assets/playground.js',
  'playground/lsp-worker.js',
];
export const SERVICE_WORKER = 'playground/sw.js';

/**
 * The playground's service worker (src/service-worker.ts), built once every file it keeps is
 * written: its list and a digest of their bytes are written into it, so a build that changes
 * any of them changes the worker, and browsers replace the old one and its cache.
 */
export async function bundleServiceWorker(siteOutDir: string): Promise<void> {
  const digest = createHash('sha256');
  for (const file of PLAYGROUND_FILES)
    digest
      .update(file)
      .update('\0')
      .update(readFileSync(join(siteOutDir, file)));
  const workerDir = dirname(join(siteOutDir, SERVICE_WORKER));
  const precache = {
    version: digest.digest('hex').slice(0, 16),
    paths: PLAYGROUND_FILES.map((file) => relative(workerDir, join(siteOutDir, file)).split('\\').join('/')),
  };
  await browserBuild({
    entryPoints: [join(siteDir, 'src/service-worker.ts')],
    outfile: join(siteOutDir, SERVICE_WORKER),
    // A classic script (every browser with service workers runs one; module workers are newer).
    format: 'iife',
    define: { SVC_PRECACHE: JSON.stringify(precache) },
  });
}
