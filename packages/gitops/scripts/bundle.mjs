// Builds what the package ships besides its type declarations (see scripts/bundle-package.mjs):
// dist/svc-manifest-git-main.cjs, the whole library with runGitCli (the validator inlined from its
// sources), and the `svc-manifest-git` bin beside it. Modules the code imports with import()
// (proper-lockfile for remote repositories, the HTTP stack for HTTP catalogs) and ajv
// (src/marketplace/lazy-ajv.ts) stay in the bundle but run only on first use.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundlePackage } from '../../../scripts/bundle-package.mjs';
// The validator's parts an operation may not need (the TOML parser, the v1 validator) load on first use.
import { lazyParts } from '../../validator/scripts/lazy-parts-plugin.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

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

await bundlePackage({
  root,
  main: 'svc-manifest-git-main.cjs',
  plugins: [lazyParts, lazyAjv],
});
