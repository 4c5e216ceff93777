#!/usr/bin/env node
// The svc-manifest command. It loads the bundled CLI (svc-manifest-main.cjs) through V8's code
// cache: the first run stores the compiled code, including the functions compiled while it ran,
// in the user's cache folder; later runs skip parsing and compiling the bundle. This is how the
// CLI starts within a small factor of a bare `node -e 0` on Node 20, which has no built-in
// module compile cache. Any problem with the cache falls back to a plain require.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const vm = require('node:vm');
const Module = require('node:module');

const bundle = path.join(__dirname, 'svc-manifest-main.cjs');

function cacheFile() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const stat = fs.statSync(bundle);
  const key = `${process.version}-${process.arch}-${stat.size}-${Math.floor(stat.mtimeMs)}`;
  return path.join(base, 'svc-manifest', `cli-${key}.v8cache`);
}

function runCached() {
  const file = cacheFile();
  let cachedData;
  try {
    cachedData = fs.readFileSync(file);
  } catch {
    cachedData = undefined;
  }
  // A `#!` line is only valid at the very start of a file, not inside the module wrapper.
  const source = fs.readFileSync(bundle, 'utf8').replace(/^#!.*/, '');
  const script = new vm.Script(Module.wrap(source), { filename: bundle, cachedData });
  const compiled = script.runInThisContext();
  const module = { exports: {}, filename: bundle, id: bundle };
  if (cachedData === undefined || script.cachedDataRejected) {
    // Written at exit, so the cache also holds the functions compiled during this run.
    process.once('exit', () => {
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        const temporary = `${file}.${process.pid}`;
        fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(temporary, file);
      } catch {
        // A cache we cannot write only costs speed.
      }
    });
  }
  compiled.call(module.exports, module.exports, require, module, bundle, __dirname);
}

// `git` loads an ES module with import(), which a vm.Script cannot do on Node 20: plain require then.
if (process.argv[2] === 'git' || process.env.SVC_MANIFEST_NO_CACHE) {
  require(bundle);
} else {
  try {
    runCached();
  } catch (error) {
    if (error && error.code === 'ENOENT') throw error;
    require(bundle);
  }
}
