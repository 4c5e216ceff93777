/**
 * The site's scripts, bundled for the browser (scripts/browser-bundle.mjs, as the packages'
 * `browser` exports are): the search box, the playground page and the language server's worker.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserBuild } from '../../scripts/browser-bundle.mjs';

const siteDir = join(dirname(fileURLToPath(import.meta.url)), '..');

export const BROWSER_ENTRIES = {
  search: join(siteDir, 'src/search.ts'),
  playground: join(siteDir, 'src/playground.ts'),
  'lsp-worker': join(siteDir, 'src/lsp-worker.ts'),
};

export async function bundleAssets(outDir: string, entries: Record<string, string> = BROWSER_ENTRIES): Promise<void> {
  await browserBuild({
    entryPoints: entries,
    outdir: outDir,
    // The playground shows the repository's example manifests first: bundled as text.
    loader: { '.yaml': 'text', '.toml': 'text' },
  });
}
