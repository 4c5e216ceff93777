#!/usr/bin/env node
// svc-manifest-git (the package's `bin`): the applier's command line, `runGitCli` from the
// bundled library (dist/svc-manifest-git-main.cjs), loaded through V8's code cache
// (dist/code-cache.cjs) so a one-shot operation starts within a small factor of a bare
// `node -e 0`. `svc-manifest git …` runs the same code without starting a second Node: the
// validator's bin requires this file (the package's `./cli` export) and calls `runGitCommand`
// (docs/decisions.md, "`svc-manifest git` runs `svc-manifest-git`"). The repository's build also
// puts a copy of this file in dist/, beside the bundle.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** The commands of `OPERATIONS` in src/api.ts (a command missing here only shares the `other` cache). */
const OPERATIONS = [
  'set-default-agent',
  'set-agent-scope',
  'list',
  'install',
  'updates',
  'update',
  'update-all',
  'remove',
];

/** Runs `svc-manifest-git <argv>` in this process; resolves to its exit code. */
function runGitCommand(argv) {
  const bundle = [
    path.join(__dirname, 'svc-manifest-git-main.cjs'),
    path.join(__dirname, '..', 'dist', 'svc-manifest-git-main.cjs'),
  ].find((file) => fs.existsSync(file));
  if (bundle === undefined) {
    process.stderr.write(
      'svc-manifest-git: the applier is not built: dist/svc-manifest-git-main.cjs is missing.\n' +
        'In a clone of the repository, run `npm run build` at its root.\n',
    );
    return Promise.resolve(2);
  }
  const { runWithCodeCache } = require(path.join(path.dirname(bundle), 'code-cache.cjs'));
  // Node compiles its own modules from a code cache that V8 refuses once a V8 flag has changed,
  // so the built-in modules the bundle uses are loaded before the flag below is set (otherwise
  // each would be compiled from source, a few milliseconds of a one-shot run).
  require('node:child_process');
  require('node:crypto');
  // An operation lasts a fraction of a second: optimised code V8 would compile in the background for
  // functions that just got warm would arrive too late to pay for itself. With 8x V8's default budget
  // before a function is optimised, a long run (a big catalog, a big manifest) still gets optimised code.
  require('node:v8').setFlagsFromString('--interrupt-budget=540672');
  // Each operation keeps its own code cache (the code its runs compile); anything else shares one.
  const command = argv[0] === 'git' ? argv[1] : argv[0];
  const variant = OPERATIONS.includes(command) ? command : 'other';
  const { runGitCli } = runWithCodeCache(bundle, 'git', { variant });
  return runGitCli(argv, {
    stdout: writeStdout,
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
  });
}

/**
 * Writes to stdout with write(2): creating `process.stdout` (a stream over a pipe, tty or file)
 * costs more than printing one line. When the descriptor is non-blocking and full (EAGAIN), the
 * rest goes through the stream, which waits for the reader.
 */
function writeStdout(text) {
  let rest = Buffer.from(text, 'utf8');
  while (rest.length > 0) {
    let written;
    try {
      written = fs.writeSync(1, rest);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
      process.stdout.write(rest);
      return;
    }
    rest = rest.subarray(written);
  }
}

module.exports = { runGitCommand, OPERATIONS };

if (require.main === module) {
  runGitCommand(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
