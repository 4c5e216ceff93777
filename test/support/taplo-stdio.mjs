// Taplo's language server (@taplo/lsp 0.8: the Rust server compiled to WebAssembly, the engine Even
// Better TOML bundles) over stdio, as `taplo lsp stdio` runs it: JSON-RPC frames on stdin go to
// TaploLsp.send, its messages go to stdout. The environment is the extension's, offline
// (scripts/taplo-environment.mjs).
//
// `node test/support/taplo-stdio.mjs` (the tests in test/editor-hints.test.ts start it).
import { createRequire } from 'node:module';
import { taploEnvironment } from '../../scripts/taplo-environment.mjs';

const require = createRequire(import.meta.url);
const { TaploLsp } = require('@taplo/lsp');
const { StreamMessageReader, StreamMessageWriter } = require('vscode-languageserver-protocol/node');

// stdout carries the protocol: Taplo's own log lines go to stderr.
const environment = taploEnvironment({
  stdout: process.stderr,
  stdErrAtty: () => false,
  offline: 'network access is disabled: give schemas as files',
});

const reader = new StreamMessageReader(process.stdin);
const writer = new StreamMessageWriter(process.stdout);
let taplo;
let starting;
reader.listen(async (message) => {
  if (message?.method === 'exit') process.exit(0);
  if (!taplo) {
    starting ??= TaploLsp.initialize(environment, { onMessage: (out) => void writer.write(out) });
    taplo = await starting;
  }
  taplo.send(message);
});
reader.onClose(() => process.exit(0));

// Panics in the Rust code arrive as rejections: end the server, as the extension's launcher does.
process.on('unhandledRejection', (reason) => {
  throw reason;
});
