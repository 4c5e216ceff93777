// The licence texts of the npm packages an esbuild bundle inlines. A bundle is a copy of their
// code, and their licences (MIT, ISC, BSD) ask that the notice travel with every copy, so each
// published bundle (scripts/bundle-package.mjs) and the hook's one-file CLI
// (scripts/gen-hook-bundle.ts) ship this text beside them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The package folder (`…/node_modules/<name>`) an input path of the metafile belongs to. */
function packageFolder(input, cwd) {
  const parts = join(cwd, input).split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const length = parts[at + 1]?.startsWith('@') ? 3 : 2;
  return parts.slice(0, at + length).join(sep);
}

const LICENCE_FILE = /^(licen[cs]e|copying)(-[a-z0-9]+)?(\.(md|txt))?$/i;

/**
 * The notices: `header`, then every inlined package (name, version, licence) with its licence
 * file, by name, each name and version once. `metafile` is esbuild's (`metafile: true`); `cwd` the
 * folder esbuild ran in (its input paths are relative to it). Workspace packages (not under
 * node_modules, or symlinked workspace folders) are ours. A package without a licence file fails
 * the build: its notice cannot travel with the copy. `count` is the number of packages listed.
 */
export function thirdPartyNotices(
  metafile,
  cwd,
  header = "Third-party software inlined in this package's bundle, with the licence of each.",
) {
  const folders = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const folder = packageFolder(input, cwd);
    if (folder) folders.add(folder);
  }
  const sections = new Map();
  for (const folder of folders) {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    if (manifest.name?.startsWith('@svc-manifest/')) continue;
    const id = `${manifest.name}@${manifest.version}`;
    const licenceFile = readdirSync(folder).find((name) => LICENCE_FILE.test(name));
    if (!licenceFile)
      throw new Error(
        `${relative(cwd, folder).split(sep).join('/')} has no licence file to carry into the bundle's notices`,
      );
    // Line ends as LF: the text is the same from any checkout.
    const text = readFileSync(join(folder, licenceFile), 'utf8').replace(/\r\n/g, '\n').trim();
    sections.set(id, `${id} (${manifest.license ?? 'see below'})\n\n${text}\n`);
  }
  const ordered = [...sections.keys()].sort().map((id) => sections.get(id));
  return { text: [`${header}\n`, ...ordered].join(`\n${'-'.repeat(72)}\n\n`), count: sections.size };
}
