// The environment Even Better TOML gives Taplo's language server (@taplo/lsp, the Rust server
// compiled to WebAssembly) when it runs under node, offline: fetch always fails (schemas are given
// as local files), glob finds nothing (no Taplo config file is used). Both launchers use it:
// test/support/taplo-stdio.mjs (JSON-RPC over stdio) and bench/taplo-server.mjs (over IPC).
import { accessSync, realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * @param {{ stdout: NodeJS.WritableStream, stdErrAtty: () => boolean, offline: string }} options
 *   where Taplo's own output goes, whether stderr is a terminal, and why fetch fails.
 */
export function taploEnvironment({ stdout, stdErrAtty, offline }) {
  const fail = () => Promise.reject(new Error(offline));
  return {
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
    stdErrAtty,
    stdin: process.stdin,
    stdout,
    urlToFilePath: (url) => {
      const path = url.startsWith('file:') ? fileURLToPath(url) : decodeURIComponent(url);
      try {
        return realpathSync(path);
      } catch {
        return path;
      }
    },
    fetch: { fetch: fail, Headers: globalThis.Headers, Request: globalThis.Request, Response: globalThis.Response },
  };
}
