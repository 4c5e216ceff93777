// Builds what the package ships besides its type declarations:
//   dist/svc-manifest-git-main.cjs  the whole library (src/index.ts, runGitCli included) with its
//                                   dependencies inlined (the validator from its sources),
//                                   CommonJS, minified: the one copy of the code
//   dist/index.mjs                  the package's ES module entry, re-exporting the bundle
//   dist/code-cache.cjs             V8 code cache loader (the validator's launcher/code-cache.cjs;
//                                   Node 20 has no module compile cache)
//   dist/THIRD_PARTY_LICENSES.txt   the licences of the inlined dependencies
// and, for the repository's tests and benchmarks, a copy of the bin (launcher/svc-manifest-git.cjs)
// in dist/. Modules the code imports with import() (proper-lockfile for remote repositories, the
// HTTP stack for HTTP catalogs) and ajv (src/marketplace/lazy-ajv.ts) stay in the bundle but run
// only on first use. Everything is written beside its
// target and renamed into place, so parallel test files never read half a bundle.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { thirdPartyNotices } from '../../../scripts/third-party-notices.mjs';
// The validator's parts an operation may not need (the TOML parser, the v1 validator) load on first use.
import { lazyParts } from '../../validator/scripts/lazy-parts-plugin.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
mkdirSync(dist, { recursive: true });

function writeAtomically(file, write) {
  const temporary = `${file}.${process.pid}.tmp`;
  write(temporary);
  renameSync(temporary, file);
}

/** `src/marketplace/lazy-ajv.ts` becomes `lazy-ajv.bundle.ts`: ajv's module code runs only when a lock file is checked. */
const lazyAjv = {
  name: 'svc-manifest-lazy-ajv',
  setup(build) {
    build.onResolve({ filter: /(^|\/)lazy-ajv(\.js|\.ts)?$/ }, (args) => {
      const target = join(args.resolveDir, args.path.replace(/(\.js|\.ts)?$/, '.bundle.ts'));
      return existsSync(target) && dirname(target) === join(root, 'src', 'marketplace') ? { path: target } : undefined;
    });
  },
};

const outfile = join(dist, 'svc-manifest-git-main.cjs');
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
  minify: true,
  legalComments: 'none',
  sourcemap: false,
  metafile: true,
  plugins: [lazyParts, lazyAjv],
  logLevel: 'warning',
});
renameSync(`${outfile}.${process.pid}.tmp`, outfile);

// Node reads the bundle's export names from esbuild's `0 && (module.exports = {…})` annotation.
writeAtomically(join(dist, 'index.mjs'), (file) =>
  writeFileSync(file, "// The ES module entry of @svc-manifest/gitops: the bundle's exports.\nexport * from './svc-manifest-git-main.cjs';\n"),
);
writeAtomically(join(dist, 'THIRD_PARTY_LICENSES.txt'), (file) => writeFileSync(file, thirdPartyNotices(result.metafile, root)));
writeAtomically(join(dist, 'code-cache.cjs'), (file) => copyFileSync(join(root, '..', 'validator', 'launcher', 'code-cache.cjs'), file));
writeAtomically(join(dist, 'svc-manifest-git.cjs'), (file) => {
  copyFileSync(join(root, 'launcher', 'svc-manifest-git.cjs'), file);
  chmodSync(file, 0o755);
});
