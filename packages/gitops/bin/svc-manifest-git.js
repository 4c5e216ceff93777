#!/usr/bin/env node
// svc-manifest-git: the applier's command line (`runGitCli`). `svc-manifest git …` runs this
// command, the way `git foo` runs `git-foo`: the validator's CLI never loads the applier itself.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/index.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write(
    'svc-manifest-git: @svc-manifest/gitops is not built: dist/index.js is missing.\n' +
      'In a clone of the repository, run `npm run build` at its root.\n',
  );
  process.exit(2);
}
const { runGitCli } = await import(entry.href);
process.exitCode = await runGitCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
});
