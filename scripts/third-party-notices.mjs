// The licence texts of the npm packages an esbuild bundle inlines. A bundle is a copy of their
// code, and their licences (MIT, ISC, BSD) ask that the notice travel with every copy, so each
// published bundle ships this file beside it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';

/** The package folder (`…/node_modules/<name>`) an input path of the metafile belongs to. */
function packageFolder(input, cwd) {
  const parts = join(cwd, input).split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const length = parts[at + 1]?.startsWith('@') ? 3 : 2;
  return parts.slice(0, at + length).join(sep);
}

/**
 * Text listing every inlined package (name, version, licence) with its licence file. `metafile`
 * is esbuild's (`metafile: true`); `cwd` the folder esbuild ran in (its input paths are relative
 * to it). Workspace packages (not under node_modules, or symlinked workspace folders) are ours.
 */
export function thirdPartyNotices(metafile, cwd, ourScope = '@svc-manifest/') {
  const folders = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const folder = packageFolder(input, cwd);
    if (folder) folders.add(folder);
  }
  const sections = [];
  for (const folder of [...folders].sort()) {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    if (manifest.name?.startsWith(ourScope)) continue;
    const licenceFile = readdirSync(folder).find((name) => /^(licen[cs]e|copying)(-[a-z0-9]+)?(\.(md|txt))?$/i.test(name));
    const text = licenceFile ? readFileSync(join(folder, licenceFile), 'utf8').trim() : `(no licence file; package.json says ${manifest.license ?? 'nothing'})`;
    sections.push(`${manifest.name}@${manifest.version} (${manifest.license ?? 'unknown'})\n\n${text}\n`);
  }
  const header = "Third-party software inlined in this package's bundle, with the licence of each.\n";
  return [header, ...sections].join(`\n${'-'.repeat(72)}\n\n`);
}
