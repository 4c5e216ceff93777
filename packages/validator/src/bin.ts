#!/usr/bin/env node
import { runCli } from './cli.js';

void runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  env: process.env,
  isTty: Boolean(process.stdout.isTTY),
}).then((code) => {
  process.exitCode = code;
});
