#!/usr/bin/env node
// The svc-manifest-lsp command (the package's `bin`): `runLanguageServer` from the bundled
// library (dist/svc-manifest-lsp-main.cjs), loaded through V8's code cache (dist/code-cache.cjs)
// so the server answers `initialize` sooner. The cache is written right after start-up, so even
// a short session leaves one for the next. The repository's build also puts a copy of this file
// in dist/, beside the bundle.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const bundle = [
  path.join(__dirname, 'svc-manifest-lsp-main.cjs'),
  path.join(__dirname, '..', 'dist', 'svc-manifest-lsp-main.cjs'),
].find((file) => fs.existsSync(file));
if (bundle === undefined) {
  process.stderr.write(
    'svc-manifest-lsp: the language server is not built: dist/svc-manifest-lsp-main.cjs is missing.\n' +
      'In a clone of the repository, run `npm run build` at its root.\n',
  );
  process.exit(2);
}
const { runWithCodeCache } = require(path.join(path.dirname(bundle), 'code-cache.cjs'));
runWithCodeCache(bundle, 'lsp', {
  writeAfterStart: true,
  start: (lsp) => lsp.runLanguageServer(process.argv.slice(2)),
});
