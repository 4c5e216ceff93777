#!/usr/bin/env node
// The svc-manifest command (the package's `bin`). It runs `runCli` from the bundled library
// (dist/svc-manifest-main.cjs), loaded through V8's code cache so the command starts within a
// small factor of a bare `node -e 0`. The repository's build also puts a copy of this file in
// dist/, beside the bundle.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const bundle = [path.join(__dirname, 'svc-manifest-main.cjs'), path.join(__dirname, '..', 'dist', 'svc-manifest-main.cjs')].find((file) => fs.existsSync(file));
if (bundle === undefined) {
  process.stderr.write(
    'svc-manifest: the CLI is not built: dist/svc-manifest-main.cjs is missing.\n' +
      'In a clone of the repository, run `npm run build` at its root (or `npm run example`).\n',
  );
  process.exit(2);
}
const { runWithCodeCache } = require('./code-cache.cjs');
const { runCli, processIo } = runWithCodeCache(bundle, 'cli');
// processIo writes stdout without creating process.stdout (a stream costs start-up time).
runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
