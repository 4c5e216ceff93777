// Taplo's language server (@taplo/lsp, the Rust server compiled to WebAssembly) run under node the
// way the Even Better TOML extension runs its bundled copy: a node module started with an IPC
// channel (vscode-languageclient's TransportKind.ipc), every JSON-RPC message arriving as a
// process message and going to TaploLsp.send, every message from the server going back with
// process.send. The environment is the extension's, with two differences for the benchmark:
// fetch always fails (the benchmark is offline; the schema is a local file given through the
// settings), and glob returns nothing (no Taplo config file is used).
//
// `node bench/taplo-server.mjs` (with an IPC channel: spawn(..., { stdio: [..., 'ipc'] })).
import { accessSync, realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { TaploLsp } = require('@taplo/lsp');

if (typeof process.send !== 'function') {
  process.stderr.write('bench/taplo-server.mjs: start me with an IPC channel (as Even Better TOML does)\n');
  process.exit(2);
}

const offline = () => Promise.reject(new Error('network access is disabled in the benchmark'));

const environment = {
  cwd: () => process.cwd(),
  envVar: (name) => process.env[name],
  envVars: () => Object.entries(process.env),
  findConfigFile: (from) => {
    for (const name of ['.taplo.toml', 'taplo.toml']) {
      try {
        const path = join(from, name);
        accessSync(path);
        return path;
      } catch {
        // not there
      }
    }
    return undefined;
  },
  glob: () => [],
  isAbsolute: (path) => isAbsolute(path),
  isWindows: () => process.platform === 'win32',
  now: () => new Date(),
  readFile: (path) => readFile(path),
  writeFile: (path, bytes) => writeFile(path, bytes),
  stderr: process.stderr,
  stdErrAtty: () => process.stderr.isTTY === true,
  stdin: process.stdin,
  stdout: process.stdout,
  urlToFilePath: (url) => {
    const path = url.startsWith('file:') ? fileURLToPath(url) : decodeURIComponent(url);
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  },
  fetch: { fetch: offline, Headers: globalThis.Headers, Request: globalThis.Request, Response: globalThis.Response },
};

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
