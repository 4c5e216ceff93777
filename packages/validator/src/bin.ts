#!/usr/bin/env node
import { runCli } from './cli.js';
import { processIo } from './process-io.js';

void runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
