// Runs a CommonJS bundle through V8's code cache. The first run stores the compiled code,
// including the functions compiled while it ran, in the user's cache folder; later runs skip
// parsing and compiling the bundle. Node 20 has no built-in module compile cache (22 does),
// and for our CLI and language server start-up time matters. Any problem with the cache
// falls back to a plain require.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
// Neither node:os nor node:module is loaded (each costs a one-shot run a few tenths of a millisecond,
// node:module four internal modules): the home folder is $HOME where os.homedir() would read it,
// and the module wrapper is written out below.

/** A short, stable tag of a path (32-bit FNV-1a): caches of installs in different folders never meet. */
function pathTag(file) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < file.length; i++) hash = Math.imul(hash ^ file.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * How many runs of a command write its cache: the first, then each of the next ones adds what it
 * compiled to what the cache held (a run's cache holds every function it had, loaded or compiled).
 * A cache written only by a first run that took a short path (a refusal, "no change", a file
 * without errors) would leave every later run compiling the rest: about a tenth more CPU.
 */
const GENERATIONS = 3;

/**
 * The cache files of `bundle` for this Node and this build of the bundle, one per generation.
 * `name` and `variant` name the program and what it was asked to do: a `--version` run must not
 * write the cache every later `validate` loads. Returns the files and the prefix shared by the
 * caches of other builds and generations of the same program, variant and install (which the
 * next write removes).
 */
function cacheFiles(bundle, name, variant, stat) {
  const base = process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
  const prefix = `${name}-${pathTag(bundle)}-${variant}-`;
  const key = `${process.version}-${process.arch}-${stat.size}-${Math.floor(stat.mtimeMs)}`;
  const files = [];
  for (let generation = 1; generation <= GENERATIONS; generation++)
    files.push(path.join(base, 'svc-manifest', `${prefix}${key}-${generation}.v8cache`));
  return { files, prefix };
}

/** os.homedir(), which reads $HOME first on POSIX (libuv's uv_os_homedir), without loading node:os for it. */
function homedir() {
  const home = process.platform === 'win32' ? undefined : process.env.HOME;
  return home !== undefined ? home : require('node:os').homedir();
}

function writeCache(file, prefix, name, script) {
  try {
    const folder = path.dirname(file);
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}`;
    fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(temporary, file);
    // Caches of earlier builds of the same program are dead weight; so are those named the way
    // earlier versions of this file named them (`<name>-v<node version>-…`, one per program).
    const legacy = new RegExp(`^${name}-v\\d+\\.\\d+\\.\\d+-.*\\.v8cache$`);
    for (const entry of fs.readdirSync(folder)) {
      const stale = (entry.startsWith(prefix) && entry.endsWith('.v8cache')) || legacy.test(entry);
      if (stale && path.join(folder, entry) !== file) fs.rmSync(path.join(folder, entry), { force: true });
    }
  } catch {
    // A cache we cannot write only costs speed.
  }
}

/** Node's CommonJS module wrapper (`Module.wrap`), around the bundle's text. */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const WRAPPER_TAIL = '\n});';

/**
 * The bundle's text inside the CommonJS module wrapper, made as one string: the file is read
 * straight into a buffer that already holds the wrapper's head, and decoded once. Copying a
 * half-megabyte bundle on the JavaScript heap (read, `#!` line removed, wrapped and flattened)
 * filled a one-shot run's young generation and cost a garbage collection; joining buffers
 * cost another copy. Returns the text and the buffer, which the code cache is then read into
 * (see readCache).
 */
function wrappedSource(fd, size) {
  const head = Buffer.from(WRAPPER_HEAD, 'latin1');
  const tail = Buffer.from(WRAPPER_TAIL, 'latin1');
  const buffer = Buffer.allocUnsafe(head.length + size + tail.length);
  head.copy(buffer, 0);
  const read = readInto(fd, buffer, head.length, size);
  // A `#!` line is only valid at the very start of a file, not inside the wrapper: `//` makes it
  // a comment, and every line keeps its number.
  if (buffer[head.length] === 0x23 && buffer[head.length + 1] === 0x21) buffer.write('//', head.length, 'latin1');
  tail.copy(buffer, head.length + read);
  return { text: buffer.toString('utf8', 0, head.length + read + tail.length), buffer };
}

/** Reads up to `size` bytes of the file from its start into `buffer` at `at`; answers how many it read. */
function readInto(fd, buffer, at, size) {
  let read = 0;
  while (read < size) {
    const count = fs.readSync(fd, buffer, at + read, size - read, read);
    if (count === 0) break;
    read += count;
  }
  return read;
}

/**
 * The contents of a cache file, read into `spare` (the buffer the source was read through, no
 * longer needed once decoded) when it fits: a fresh half-megabyte buffer costs a one-shot run
 * a page fault per 4 KiB touched. Throws when the file cannot be read, as readFileSync does.
 */
function readCache(file, spare) {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buffer = size <= spare.length ? spare : Buffer.allocUnsafe(size);
    return buffer.subarray(0, readInto(fd, buffer, 0, size));
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Runs `bundle` (a CommonJS file) as the main program and returns its exports. `start`, when
 * given, is called with the exports right after the bundle loaded. `variant` names what this run
 * does (a command), so each command keeps a cache of the code it runs. The first
 * {@link GENERATIONS} runs write the cache, at exit, or with `writeAfterStart` (for a
 * long-running process) right after the start-up code (the bundle's, then `start`) ran.
 */
function runWithCodeCache(bundle, name, options = {}) {
  const start = options.start ?? (() => {});
  if (process.env.SVC_MANIFEST_NO_CACHE) return plainRequire(bundle, start);
  let cache;
  let source;
  let spare;
  try {
    const fd = fs.openSync(bundle, 'r');
    try {
      const stat = fs.fstatSync(fd);
      cache = cacheFiles(bundle, name, options.variant ?? 'main', stat);
      ({ text: source, buffer: spare } = wrappedSource(fd, stat.size));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return plainRequire(bundle, start);
  }
  // The newest generation there is (0: none).
  let generation = GENERATIONS;
  let cachedData;
  for (; generation > 0 && cachedData === undefined; generation--) {
    try {
      cachedData = readCache(cache.files[generation - 1], spare);
    } catch {
      cachedData = undefined;
    }
  }
  if (cachedData !== undefined) generation++;
  let compiled;
  let script;
  try {
    script = new vm.Script(source, { filename: bundle, cachedData });
    compiled = script.runInThisContext();
  } catch {
    return plainRequire(bundle, start);
  }
  if (cachedData !== undefined && script.cachedDataRejected) generation = 0;
  const write =
    generation < GENERATIONS ? () => writeCache(cache.files[generation], cache.prefix, name, script) : undefined;
  if (write && !options.writeAfterStart) process.once('exit', write);
  const module = { exports: {}, filename: bundle, id: '.', loaded: false, children: [], paths: [] };
  compiled.call(module.exports, module.exports, require, module, bundle, path.dirname(bundle));
  start(module.exports);
  // A long-running program (a language server) writes its cache as soon as its start-up code
  // has run: that is the part whose compile time the next start saves.
  if (write && options.writeAfterStart) write();
  return module.exports;
}

function plainRequire(bundle, start) {
  const exports = require(bundle);
  start(exports);
  return exports;
}

module.exports = { runWithCodeCache };
