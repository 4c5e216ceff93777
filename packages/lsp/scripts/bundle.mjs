// Bundles the language server into one file, dist/svc-manifest-lsp.js: every dependency
// inlined, so it starts fast and needs nothing next to it at run time.
import { build } from 'esbuild';
import { chmodSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist', 'svc-manifest-lsp.js');

// Written beside the target and renamed into place, so concurrent builds (parallel test
// files) never expose a half-written bundle.
const temporary = `${outfile}.${process.pid}.tmp`;
await build({
  entryPoints: [join(root, 'src', 'main.ts')],
  outfile: temporary,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Workspace packages are bundled from their sources: no stale dist/ can sneak in.
  conditions: ['source'],
  mainFields: ['module', 'main'],
  // The CommonJS parts of the bundle (vscode-languageserver) call require() for Node built-ins.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __svcCreateRequire } from 'node:module';\nconst require = __svcCreateRequire(import.meta.url);",
  },
  sourcemap: false,
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
chmodSync(temporary, 0o755);
renameSync(temporary, outfile);
