// An esbuild plugin for bundles of the validator: `src/lazy-parts.ts` (parts loaded with the
// module) becomes `src/lazy-parts.bundle.ts` (parts required on first use), so a bundle runs the
// TOML parser's module code only for a TOML file. See src/lazy-parts.ts.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const lazyParts = {
  name: 'svc-manifest-lazy-parts',
  setup(build) {
    build.onResolve({ filter: /(^|\/)lazy-parts(\.js|\.ts)?$/ }, (args) => {
      const target = join(args.resolveDir, args.path.replace(/(\.js|\.ts)?$/, '.bundle.ts'));
      return existsSync(target) && dirname(target).endsWith(join('validator', 'src')) ? { path: target } : undefined;
    });
  },
};
