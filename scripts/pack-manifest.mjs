// `prepack` / `postpack` of every published package (run by `npm pack` and `npm publish` in the
// package's folder).
//
// prepack: refuses to pack an unbuilt package (every `bin`, every `exports` target and every
// literal `files` entry must exist), then writes the manifest users get: without the `source`
// export condition (it points at src/, which is not shipped; the repository's own tests and
// bundles use it) and without `scripts` (they run files that are not shipped either). The
// manifest as committed is kept in package.json.unpacked and put back by postpack.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const here = process.cwd();
const manifestFile = join(here, 'package.json');
const backupFile = join(here, 'package.json.unpacked');

function stripSource(value) {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'source')
      .map(([key, inner]) => [key, stripSource(inner)]),
  );
}

function targets(value) {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === 'source' ? [] : targets(inner)));
}

function prepack() {
  // A pack that failed before its postpack left the committed manifest aside: put it back first.
  if (existsSync(backupFile)) renameSync(backupFile, manifestFile);
  const text = readFileSync(manifestFile, 'utf8');
  const manifest = JSON.parse(text);
  const needed = [
    ...Object.values(typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {})),
    ...targets(manifest.exports),
    ...(manifest.types ? [manifest.types] : []),
    ...(manifest.files ?? []).filter((entry) => !/[*!?{]/.test(entry)),
  ];
  const missing = [...new Set(needed)].filter((file) => !existsSync(join(here, file)));
  if (missing.length > 0) {
    console.error(
      `${manifest.name}: cannot pack, missing ${missing.join(', ')}. Run \`npm run build\` at the repository root first.`,
    );
    process.exit(1);
  }
  const published = { ...manifest, exports: stripSource(manifest.exports) };
  delete published.scripts;
  writeFileSync(backupFile, text);
  writeFileSync(manifestFile, `${JSON.stringify(published, null, 2)}\n`);
}

function postpack() {
  if (existsSync(backupFile)) renameSync(backupFile, manifestFile);
}

const step = process.argv[2];
if (step === 'prepack') prepack();
else if (step === 'postpack') postpack();
else {
  console.error('usage: node scripts/pack-manifest.mjs prepack|postpack (in a package folder)');
  process.exit(2);
}
