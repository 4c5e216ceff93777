#!/usr/bin/env node
// svc-manifest-git (the package's `bin`): the applier's command line, `runGitCli` from the
// bundled library (dist/svc-manifest-git-main.cjs), loaded through V8's code cache
// (dist/code-cache.cjs) so a one-shot operation starts within a small factor of a bare
// `node -e 0`. `svc-manifest git …` runs this command, the way `git foo` runs `git-foo`: the
// validator's CLI never loads the applier itself. The repository's build also puts a copy of
// this file in dist/, beside the bundle.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const bundle = [path.join(__dirname, 'svc-manifest-git-main.cjs'), path.join(__dirname, '..', 'dist', 'svc-manifest-git-main.cjs')].find((file) =>
  fs.existsSync(file),
);
if (bundle === undefined) {
  process.stderr.write(
    'svc-manifest-git: the applier is not built: dist/svc-manifest-git-main.cjs is missing.\n' +
      'In a clone of the repository, run `npm run build` at its root.\n',
  );
  process.exit(2);
}
// An operation lasts a fraction of a second: optimised code V8 would compile in the background for
// functions that just got warm would arrive too late to pay for itself. With 8x V8's default budget
// before a function is optimised, a long run (a big catalog, a big manifest) still gets optimised code.
require('node:v8').setFlagsFromString('--interrupt-budget=540672');
const { runWithCodeCache } = require(path.join(path.dirname(bundle), 'code-cache.cjs'));
const { runGitCli } = runWithCodeCache(bundle, 'git');
runGitCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
}).then((code) => {
  process.exitCode = code;
});
