#!/usr/bin/env node
/** Stand-alone entry for `svc-manifest git …` (the validator's `svc-manifest` bin dispatches to {@link runGitCli} too). */
import { runGitCli } from './cli/run-git-cli.js';

process.exitCode = await runGitCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
});
