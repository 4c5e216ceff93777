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

function writeCache(file, script) {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}`;
    fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(temporary, file);
  } catch {
    // A cache we cannot write only costs speed.
  }
}

/**
 * Runs `bundle` (a CommonJS file) as the main program. `writeAfterMs`: for a long-running
 * process (a language server) write the cache that long after start, once start-up code has
 * run; otherwise it is written at exit.
 */
function runWithCodeCache(bundle, name, options = {}) {
  if (process.env.SVC_MANIFEST_NO_CACHE) return require(bundle);
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
    // A `#!` line is only valid at the very start of a file, not inside the module wrapper.
    const source = fs.readFileSync(bundle, 'utf8').replace(/^#!.*/, '');
    script = new vm.Script(Module.wrap(source), { filename: bundle, cachedData });
    compiled = script.runInThisContext();
  } catch {
    return require(bundle);
  }
  if (file && (cachedData === undefined || script.cachedDataRejected)) {
    if (options.writeAfterMs) setTimeout(() => writeCache(file, script), options.writeAfterMs).unref();
    else process.once('exit', () => writeCache(file, script));
  }
  const module = { exports: {}, filename: bundle, id: '.', loaded: false, children: [], paths: [] };
  compiled.call(module.exports, module.exports, require, module, bundle, path.dirname(bundle));
  return module.exports;
}

module.exports = { runWithCodeCache };
