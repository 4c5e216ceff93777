// Taplo's language server (@taplo/lsp, the Rust server compiled to WebAssembly) run under node the
// way the Even Better TOML extension runs its bundled copy: a node module started with an IPC
// channel (vscode-languageclient's TransportKind.ipc), every JSON-RPC message arriving as a
// process message and going to TaploLsp.send, every message from the server going back with
// process.send. The environment is the extension's, with two differences for the benchmark:
// fetch always fails (the benchmark is offline; the schema is a local file given through the
// settings), and glob returns nothing (no Taplo config file is used): scripts/taplo-environment.mjs.
//
// `node bench/taplo-server.mjs` (with an IPC channel: spawn(..., { stdio: [..., 'ipc'] })).
import { createRequire } from 'node:module';
import { taploEnvironment } from '../scripts/taplo-environment.mjs';

const require = createRequire(import.meta.url);
const { TaploLsp } = require('@taplo/lsp');

if (typeof process.send !== 'function') {
  process.stderr.write('bench/taplo-server.mjs: start me with an IPC channel (as Even Better TOML does)\n');
  process.exit(2);
}

const environment = taploEnvironment({
  stdout: process.stdout,
  stdErrAtty: () => process.stderr.isTTY === true,
  offline: 'network access is disabled in the benchmark',
});

let taplo;
let starting;
process.on('message', async (message) => {
  if (message?.method === 'exit') process.exit(0);
  if (!taplo) {
    starting ??= TaploLsp.initialize(environment, { onMessage: (out) => process.send(out) });
    taplo = await starting;
  }
  taplo.send(message);
});

// Panics in the Rust code arrive as rejections: end the server, as the extension's launcher does.
process.on('unhandledRejection', (reason) => {
  throw reason;
});
