// Runs a CommonJS bundle through V8's code cache. The first run stores the compiled code,
// including the functions compiled while it ran, in the user's cache folder; later runs skip
// parsing and compiling the bundle. Node 20 has no built-in module compile cache (22 does),
// and for our CLI and language server start-up time matters. Any problem with the cache
// falls back to a plain require.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const vm = require('node:vm');
const Module = require('node:module');

function cacheFile(bundle, name) {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const stat = fs.statSync(bundle);
  const key = `${process.version}-${process.arch}-${stat.size}-${Math.floor(stat.mtimeMs)}`;
  return path.join(base, 'svc-manifest', `${name}-${key}.v8cache`);
}

function writeCache(file, name, script) {
  try {
    const folder = path.dirname(file);
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}`;
    fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(temporary, file);
    // Caches of earlier builds of the same program are dead weight.
    for (const entry of fs.readdirSync(folder)) {
      if (entry.startsWith(`${name}-`) && entry.endsWith('.v8cache') && path.join(folder, entry) !== file) fs.rmSync(path.join(folder, entry), { force: true });
    }
  } catch {
    // A cache we cannot write only costs speed.
  }
}

/**
 * The bundle's text inside the CommonJS module wrapper, made as one string. Joining the bytes
 * first (outside the JavaScript heap) and decoding once keeps a half-megabyte bundle from being
 * copied three times on the heap (read, `#!` line removed, wrapped and flattened): in a one-shot
 * run those copies alone filled the young generation and cost a garbage collection.
 */
function wrappedSource(bundle) {
  let bytes = fs.readFileSync(bundle);
  // A `#!` line is only valid at the very start of a file, not inside the wrapper: drop it, keep its line break.
  if (bytes[0] === 0x23 && bytes[1] === 0x21) {
    const end = bytes.indexOf(0x0a);
    bytes = bytes.subarray(end === -1 ? bytes.length : end);
  }
  const probe = Module.wrap('\0');
  const cut = probe.indexOf('\0');
  return Buffer.concat([Buffer.from(probe.slice(0, cut)), bytes, Buffer.from(probe.slice(cut + 1))]).toString('utf8');
}

/**
 * Runs `bundle` (a CommonJS file) as the main program and returns its exports. `start`, when
 * given, is called with the exports right after the bundle loaded. The cache is written at exit,
 * or with `writeAfterStart` (for a long-running process) right after the start-up code (the
 * bundle's, then `start`) ran.
 */
function runWithCodeCache(bundle, name, options = {}) {
  const start = options.start ?? (() => {});
  if (process.env.SVC_MANIFEST_NO_CACHE) return plainRequire(bundle, start);
  let file;
  let cachedData;
  try {
    file = cacheFile(bundle, name);
    cachedData = fs.readFileSync(file);
  } catch {
    cachedData = undefined;
  }
  let compiled;
  let script;
  try {
    script = new vm.Script(wrappedSource(bundle), { filename: bundle, cachedData });
    compiled = script.runInThisContext();
  } catch {
    return plainRequire(bundle, start);
  }
  const stale = file && (cachedData === undefined || script.cachedDataRejected);
  if (stale && !options.writeAfterStart) process.once('exit', () => writeCache(file, name, script));
  const module = { exports: {}, filename: bundle, id: '.', loaded: false, children: [], paths: [] };
  compiled.call(module.exports, module.exports, require, module, bundle, path.dirname(bundle));
  start(module.exports);
  // A long-running program (a language server) writes its cache as soon as its start-up code
  // has run: that is the part whose compile time the next start saves.
  if (stale && options.writeAfterStart) writeCache(file, name, script);
  return module.exports;
}

function plainRequire(bundle, start) {
  const exports = require(bundle);
  start(exports);
  return exports;
}

module.exports = { runWithCodeCache };
