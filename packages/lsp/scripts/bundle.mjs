// Bundles the language server: dist/svc-manifest-lsp-main.cjs holds the server with every
// dependency inlined; dist/svc-manifest-lsp.cjs (the bin) runs it through V8's code cache
// (dist/code-cache.cjs, shared with the validator's CLI), so it answers `initialize` sooner.
// The three files need nothing else at run time.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// The validator's parts a session may not need (the TOML parser, the v1 validator) load on first use.
import { lazyParts } from '../../validator/scripts/lazy-parts-plugin.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist', 'svc-manifest-lsp-main.cjs');
const launcher = join(root, 'dist', 'svc-manifest-lsp.cjs');

// Written beside the target and renamed into place, so concurrent builds (parallel test
// files) never expose a half-written bundle.
const temporary = `${outfile}.${process.pid}.tmp`;
await build({
  entryPoints: [join(root, 'src', 'main.ts')],
  outfile: temporary,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Workspace packages are bundled from their sources: no stale dist/ can sneak in.
  conditions: ['source'],
  mainFields: ['module', 'main'],
  sourcemap: false,
  minify: true,
  legalComments: 'none',
  plugins: [lazyParts],
  logLevel: 'warning',
});
renameSync(temporary, outfile);

const cacheModule = join(root, 'dist', 'code-cache.cjs');
copyFileSync(join(root, '..', 'validator', 'launcher', 'code-cache.cjs'), `${cacheModule}.${process.pid}.tmp`);
renameSync(`${cacheModule}.${process.pid}.tmp`, cacheModule);
const launcherTemporary = `${launcher}.${process.pid}.tmp`;
writeFileSync(
  launcherTemporary,
  [
    '#!/usr/bin/env node',
    '// svc-manifest-lsp: the language server (svc-manifest-lsp-main.cjs) run through V8\'s code cache.',
    "'use strict';",
    "const path = require('node:path');",
    "const { runWithCodeCache } = require('./code-cache.cjs');",
    "// The cache is written right after start-up, so even a short session leaves one for the next.",
    "runWithCodeCache(path.join(__dirname, 'svc-manifest-lsp-main.cjs'), 'lsp', { writeAfterStart: true });",
    '',
  ].join('\n'),
);
chmodSync(launcherTemporary, 0o755);
renameSync(launcherTemporary, launcher);
