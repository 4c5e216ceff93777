// The one way a package of ours is bundled (the validator, the language server and the applier
// ship the same four things):
//   dist/<main>                    the whole library (src/index.ts) with its dependencies inlined
//                                  (workspace packages from their sources), CommonJS, minified:
//                                  the one copy of the code
//   dist/index.mjs                 the package's ES module entry, re-exporting the bundle
//   dist/code-cache.cjs            the V8 code cache loader (the validator's launcher/code-cache.cjs;
//                                  Node 20 has no module compile cache)
//   dist/THIRD_PARTY_LICENSES.txt  the licences of the inlined dependencies
// and, for the repository's tests and benchmarks, a copy of the package's bin (launcher/<bin>)
// in dist/. Every file is written beside its target and renamed into place, so parallel test
// files never read half a bundle.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, normalize } from 'node:path';
import { thirdPartyNotices } from './third-party-notices.mjs';

function writeAtomically(file, write) {
  const temporary = `${file}.${process.pid}.tmp`;
  write(temporary);
  renameSync(temporary, file);
}

/**
 * Bundles the package at `root`. `main`: the bundle's file name in dist/; `plugins` and
 * `esbuild`: more esbuild options for this package. The package's name and its one bin (a file
 * in launcher/) come from its package.json.
 */
export async function bundlePackage({ root, main, plugins = [], esbuild = {} }) {
  const { name: packageName, bin: bins } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const launchers = Object.values(bins ?? {});
  if (launchers.length !== 1 || dirname(normalize(launchers[0])) !== 'launcher') {
    throw new Error(
      `${packageName}: package.json must name exactly one bin, a file in launcher/ (found ${JSON.stringify(bins)})`,
    );
  }
  const bin = basename(launchers[0]);
  const dist = join(root, 'dist');
  mkdirSync(dist, { recursive: true });
  const outfile = join(dist, main);
  const result = await build({
    entryPoints: [join(root, 'src', 'index.ts')],
    outfile: `${outfile}.${process.pid}.tmp`,
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Workspace packages are bundled from their sources: no stale dist/ can sneak in.
    conditions: ['source'],
    // SVC_BUNDLE_MINIFY=0 keeps names readable, for CPU profiles (bench/profile-summary.ts).
    minify: process.env.SVC_BUNDLE_MINIFY !== '0',
    legalComments: 'none',
    sourcemap: false,
    metafile: true,
    // The document layer's usage checks (packages/validator/src/document/checks.ts) stay out of bundles.
    define: { SVC_MANIFEST_BUNDLE: 'true' },
    plugins,
    logLevel: 'warning',
    ...esbuild,
  });
  renameSync(`${outfile}.${process.pid}.tmp`, outfile);

  // Node reads the bundle's export names from esbuild's `0 && (module.exports = {…})` annotation.
  writeAtomically(join(dist, 'index.mjs'), (file) =>
    writeFileSync(
      file,
      `// The ES module entry of ${packageName}: the bundle's exports.\nexport * from './${main}';\n`,
    ),
  );
  writeAtomically(join(dist, 'THIRD_PARTY_LICENSES.txt'), (file) =>
    writeFileSync(file, thirdPartyNotices(result.metafile, root).text),
  );
  writeAtomically(join(dist, 'code-cache.cjs'), (file) =>
    copyFileSync(join(root, '..', 'validator', 'launcher', 'code-cache.cjs'), file),
  );
  writeAtomically(join(dist, bin), (file) => {
    copyFileSync(join(root, 'launcher', bin), file);
    chmodSync(file, 0o755);
  });
}
