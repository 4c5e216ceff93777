// Taplo's language server (@taplo/lsp 0.8: the Rust server compiled to WebAssembly, the engine Even
// Better TOML bundles) over stdio, as `taplo lsp stdio` runs it: JSON-RPC frames on stdin go to
// TaploLsp.send, its messages go to stdout. The environment is the extension's, offline: fetch
// always fails (schemas are given as local files), glob finds nothing (no Taplo config file).
//
// `node test/support/taplo-stdio.mjs` (the tests in test/editor-hints.test.ts start it).
import { accessSync, realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { TaploLsp } = require('@taplo/lsp');
const { StreamMessageReader, StreamMessageWriter } = require('vscode-languageserver-protocol/node');

const offline = () => Promise.reject(new Error('network access is disabled: give schemas as files'));

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
  // stdout carries the protocol: Taplo's own log lines go to stderr.
  stderr: process.stderr,
  stdErrAtty: () => false,
  stdin: process.stdin,
  stdout: process.stderr,
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
