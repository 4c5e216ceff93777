#!/usr/bin/env node
// The svc-manifest command (the package's `bin`). It runs `runCli` from the bundled library
// (dist/svc-manifest-main.cjs), loaded through V8's code cache so the command starts within a
// small factor of a bare `node -e 0`. The repository's build also puts a copy of this file in
// dist/, beside the bundle.
'use strict';
const argv = process.argv.slice(2);

// `svc-manifest git …` is the applier's command, `svc-manifest-git` of @svc-manifest/gitops, run
// in this process when that package is installed where this one can require it (beside it, as npm
// installs both): the applier depends on the validator, so only this bin, never the library,
// reaches it. Otherwise runCli looks for the command in node_modules/.bin and on PATH and runs it.
function runApplierHere() {
  let applier;
  try {
    applier = require.resolve('@svc-manifest/gitops/cli');
  } catch {
    return false;
  }
  require(applier)
    .runGitCommand(argv.slice(1))
    .then((code) => {
      process.exitCode = code;
    });
  return true;
}

if (argv[0] !== 'git' || !runApplierHere()) runValidatorCli();

function runValidatorCli() {
  const fs = require('node:fs');
  const path = require('node:path');

  const bundle = [
    path.join(__dirname, 'svc-manifest-main.cjs'),
    path.join(__dirname, '..', 'dist', 'svc-manifest-main.cjs'),
  ].find((file) => fs.existsSync(file));
  if (bundle === undefined) {
    process.stderr.write(
      'svc-manifest: the CLI is not built: dist/svc-manifest-main.cjs is missing.\n' +
        'In a clone of the repository, run `npm run build` at its root (or `npm run example`).\n',
    );
    process.exit(2);
  }
  const { runWithCodeCache } = require('./code-cache.cjs');
  // Each command keeps its own code cache (the code its runs compile); anything else shares one.
  const variant = ['validate', 'migrate', 'convert', 'fmt', 'schema'].includes(argv[0]) ? argv[0] : 'other';
  const { runCli, processIo } = runWithCodeCache(bundle, 'cli', { variant });
  // processIo writes stdout without creating process.stdout (a stream costs start-up time).
  runCli(argv, processIo()).then((code) => {
    process.exitCode = code;
  });
}
