/**
 * `validate` on many files uses every core: the files are shared among worker threads, each
 * reads, parses and validates its share, and the CLI puts the results back in the files' order,
 * so the output is the same bytes whatever the timing. Only the CLI's bundles use workers (a
 * worker loads the same one-file bundle, `require`d by path); run from sources, or on few files,
 * everything happens on the main thread.
 */
import { openSync, readSync, closeSync } from 'node:fs';
import type { Diagnostic } from './diagnostic.js';
import { ManifestDocument } from './document/manifest-document.js';
import { fixesThatFixApplies, type Replacement } from './fix-preview.js';
import { describeFileError } from './inputs/file-errors.js';
import { nodeManifestFiles } from './node-files.js';
import type { ManifestPolicy } from './policy/policy.js';
import { validateDocument, withPathChecks, withPolicy, type ValidationResult } from './validate.js';

/** One file's validation, as the main thread uses it. */
export interface CheckedFile {
  text: string;
  diagnostics: Diagnostic[];
  fixable?: ReadonlyMap<Diagnostic, Replacement>;
  /** Why it could not be read, in words; then no text and no diagnostics. */
  readError?: string;
}

/** How each file is checked. */
export interface CheckOptions {
  maxBytes: number;
  /** Look up the paths a manifest names beside it (`path-not-found`). */
  pathChecks: boolean;
  /**
   * Say what `--fix` would fix (`fixable`): one edit and re-validation per fixable problem, paid
   * only for the reports that show it (JSON's `fix`, stylish's fixable count).
   */
  previewFixes: boolean;
}

export interface FileToCheck {
  displayPath: string;
  absolutePath: string;
  /** Standard input (never sent to a worker): read from descriptor 0, and without path checks, having no folder of its own. */
  stdin?: boolean;
  /** The policy it is validated under (its policy file's rules, its comments honoured): a plain value, sent to a worker as it is. */
  policy?: ManifestPolicy;
}

/** Below this many files per extra thread, starting threads costs more than it saves. */
const FILES_PER_WORKER = 200;

/** What a worker sends back for one file (a Map does not cross threads as we want: fixes by diagnostic index). */
interface WorkerResult {
  index: number;
  text: string;
  diagnostics: Diagnostic[];
  fixes: [number, Replacement][];
  readError?: string;
}

/** Where inputs are read into, a chunk at a time (one buffer for the run: most manifests fit in one chunk). */
let scratch: Buffer | undefined;

/**
 * A file's bytes, at most `limit` of them; a folder is refused as EISDIR (by `read`, or by `open`
 * where a folder cannot be opened). No `stat` first: reading until end of file or the limit costs
 * one call less per file, and a file that grows while read still stops at the limit.
 */
export function readFileCapped(path: string, limit: number): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    return readCapped(fd, limit);
  } finally {
    closeSync(fd);
  }
}

/** What can be read from a descriptor (a file, or standard input: 0) until its end or `limit` bytes. */
function readCapped(fd: number, limit: number): Uint8Array {
  const buffer = (scratch ??= Buffer.allocUnsafe(64 * 1024));
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    let read: number;
    try {
      read = readSync(fd, buffer, 0, Math.min(buffer.length, limit - total), null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EOF') break;
      if (code !== 'EAGAIN') throw error;
      // A non-blocking descriptor (standard input) with nothing yet: wait a little, without spinning.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
      continue;
    }
    if (read === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, read)));
    total += read;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

/**
 * One input's bytes, file or standard input; no more than the limit plus one byte (to know it was
 * exceeded): never a huge file whole. Throws what the file system throws.
 */
export function readInput(file: FileToCheck, maxBytes: number): Uint8Array {
  return file.stdin ? readCapped(0, maxBytes + 1) : readFileCapped(file.absolutePath, maxBytes + 1);
}

/** Reads, parses and validates one input (with what `--fix` would fix, when asked). */
export function checkFile(file: FileToCheck, { maxBytes, pathChecks, previewFixes }: CheckOptions): CheckedFile {
  let bytes: Uint8Array;
  try {
    bytes = readInput(file, maxBytes);
  } catch (error) {
    return { text: '', diagnostics: [], readError: describeFileError(error) };
  }
  const document = ManifestDocument.parse(bytes, { filename: file.displayPath, limits: { maxBytes } });
  const result = validateDocument(document, { once: true });
  const diagnostics = reportedDiagnostics(document, file, pathChecks, result);
  return {
    text: document.text,
    diagnostics,
    ...(previewFixes ? { fixable: fixesThatFixApplies(document, result.version, diagnostics, file.policy) } : {}),
  };
}

/**
 * What is reported of a document's validation: the path check's diagnostics merged in (a file on
 * disk, unless `--no-path-checks`), then the file's policy applied to them all (a comment may
 * suppress a path warning too).
 */
export function reportedDiagnostics(
  document: ManifestDocument,
  file: FileToCheck,
  pathChecks: boolean,
  validated: ValidationResult,
): Diagnostic[] {
  const checked =
    pathChecks && !file.stdin ? withPathChecks(document, validated, nodeManifestFiles(file.absolutePath)) : validated;
  return file.policy ? withPolicy(document, checked, file.policy).diagnostics : checked.diagnostics;
}

/**
 * How many threads to use for `count` files: undefined when the main thread alone is the better
 * choice (few files, fewer than four cores) or workers cannot run here (not from a bundle).
 */
export function workerCount(count: number, requested: 'auto' | number = 'auto'): number | undefined {
  if (requested !== 'auto')
    return requested >= 2 && count >= 2 && bundlePath() !== undefined ? Math.min(requested, count) : undefined;
  if (count < 2 * FILES_PER_WORKER || bundlePath() === undefined) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:os loads only for a large run (see process-io.ts)
  const os = require('node:os') as typeof import('node:os');
  return autoWorkers(count, os.availableParallelism());
}

/**
 * `--concurrency auto`'s choice, ESLint's: a thread per 200 files, on at most half the cores (the
 * logical cores Node counts are often two per physical one, and the machine has other work), and
 * none when that is fewer than two. It depends on the machine and the files only, so a run is
 * repeated as it was: each thread's start-up (the bundle, the validators compiled again) pays only
 * where cores are to spare, and two shared cores never had any (bench/findings.md, "Throughput on
 * a tree"); `--concurrency N` asks for N.
 */
export function autoWorkers(count: number, cores: number): number | undefined {
  const workers = Math.min(Math.floor(cores / 2), Math.floor(count / FILES_PER_WORKER));
  return workers >= 2 ? workers : undefined;
}

/** The file the workers load: this bundle, when running from one. */
function bundlePath(): string | undefined {
  const file = typeof __filename === 'string' ? __filename : undefined;
  return file !== undefined && file.endsWith('.cjs') ? file : undefined;
}

/**
 * Checks the files on `workers` threads and returns the results in the files' order; undefined
 * when workers cannot be used here (not running from a bundle), and the caller checks them itself.
 */
export async function checkFilesInWorkers(
  files: readonly FileToCheck[],
  options: CheckOptions,
  workers: number,
): Promise<CheckedFile[] | undefined> {
  const bundle = bundlePath();
  if (bundle === undefined) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- worker_threads loads only for a large run (a one-shot run never pays for it)
  const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
  const results: (CheckedFile | undefined)[] = new Array(files.length);
  const shares = Array.from({ length: workers }, (_, worker) =>
    files.flatMap((file, index) => (index % workers === worker ? [{ ...file, index }] : [])),
  );
  await Promise.all(
    shares.map(
      (share) =>
        new Promise<void>((resolvePromise, reject) => {
          const worker = new Worker(`require(${JSON.stringify(bundle)}).runValidationWorker();`, {
            eval: true,
            workerData: { files: share, options },
          });
          worker.on('message', (batch: WorkerResult[]) => {
            for (const result of batch) {
              const fixable = new Map(result.fixes.map(([at, fix]) => [result.diagnostics[at]!, fix]));
              results[result.index] = {
                text: result.text,
                diagnostics: result.diagnostics,
                fixable,
                ...(result.readError ? { readError: result.readError } : {}),
              };
            }
          });
          worker.on('error', reject);
          worker.on('exit', (code) =>
            code === 0 ? resolvePromise() : reject(new Error(`a validation worker stopped with exit code ${code}`)),
          );
        }),
    ),
  );
  return results.map(
    (result, index) => result ?? { text: '', diagnostics: [], readError: `not checked (${files[index]!.displayPath})` },
  );
}

/** A worker's work: its share of the files, sent back in one message. */
export function runValidationWorker(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only a worker thread runs this
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const { files, options } = workerData as { files: (FileToCheck & { index: number })[]; options: CheckOptions };
  const batch: WorkerResult[] = files.map((file) => {
    const checked = checkFile(file, options);
    const fixes: [number, Replacement][] = [];
    checked.diagnostics.forEach((d, at) => {
      const fix = checked.fixable?.get(d);
      if (fix !== undefined) fixes.push([at, fix]);
    });
    return {
      index: file.index,
      text: checked.text,
      diagnostics: checked.diagnostics,
      fixes,
      ...(checked.readError ? { readError: checked.readError } : {}),
    };
  });
  parentPort!.postMessage(batch);
}
