/**
 * `validate` on many files uses worker threads; the report is the same bytes, in path order,
 * whatever the number of threads and their timing. Through the built command.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { autoWorkers } from '../src/cli-workers.js';
import { ensureBundle, runBundle } from './support/child.js';

let work: string;
/** Preloaded into the command: counts the worker threads it starts, written to a file at exit (stderr stays the command's). */
let countThreads: string;
beforeAll(() => {
  ensureBundle();
  work = mkdtempSync(join(tmpdir(), 'svc-cli-workers-'));
  countThreads = join(work, 'count-threads.cjs');
  writeFileSync(
    countThreads,
    [
      "const threads = require('node:worker_threads');",
      'if (threads.isMainThread) {',
      '  let started = 0;',
      '  const { Worker } = threads;',
      '  threads.Worker = class extends Worker { constructor(...args) { super(...args); started++; } };',
      "  process.on('exit', () => require('node:fs').writeFileSync(process.env.THREADS_FILE, String(started)));",
      '}',
    ].join('\n'),
  );
  // 450 manifests: valid and invalid YAML, TOML; the invalid ones spread over the threads' shares.
  for (let i = 0; i < 450; i++) {
    const dir = join(work, `group-${i % 7}`, `service-${String(i).padStart(3, '0')}`);
    mkdirSync(dir, { recursive: true });
    if (i % 10 === 0) writeFileSync(join(dir, 'svc.toml'), `svc_version = 1\n\n[[agents]]\nname = "a${i}"\n`);
    else if (i % 3 === 0)
      writeFileSync(join(dir, 'svc.yaml'), `svc_version: 2\ndefault_agent: w\nagents:\n  w:\n    conectors: none\n`);
    else
      writeFileSync(
        join(dir, 'svc.yaml'),
        `svc_version: 2\ndefault_agent: w${i}\nagents:\n  w${i}:\n    connectors: none\n`,
      );
  }
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `validate . --format <format> --concurrency <concurrency>` in the work folder, and how many threads it started. */
function validateAll(
  format: string,
  concurrency: string,
): { status: number | null; stdout: string; stderr: string; threads: number } {
  const threadsFile = join(work, `threads-${format}-${concurrency}`);
  const result = runBundle(['validate', '.', '--format', format, '--concurrency', concurrency], {
    cwd: work,
    nodeOptions: ['--require', countThreads],
    env: { THREADS_FILE: threadsFile },
  });
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    threads: Number(readFileSync(threadsFile, 'utf8')),
  };
}

it('prints the same report with one thread, two, three and the default, in path order', () => {
  for (const format of ['stylish', 'json']) {
    const single = validateAll(format, 'off');
    expect([single.status, single.threads]).toEqual([1, 0]);
    if (format === 'json') {
      const paths = (JSON.parse(single.stdout) as { filePath: string }[]).map((file) => file.filePath);
      expect(paths).toHaveLength(450);
      expect(paths).toEqual([...paths].sort());
    }
    for (const concurrency of ['2', '3', 'auto']) {
      const parallel = validateAll(format, concurrency);
      expect([parallel.status, parallel.stderr], `${format} ${concurrency}`).toEqual([1, '']);
      // The threads asked for were started (auto: as many as this machine's cores allow; see autoWorkers below).
      const threads = concurrency === 'auto' ? (autoWorkers(450, availableParallelism()) ?? 0) : Number(concurrency);
      expect(parallel.threads, `${format} --concurrency ${concurrency}`).toBe(threads);
      expect(parallel.stdout === single.stdout, `${format} --concurrency ${concurrency}`).toBe(true);
    }
  }
});

it('takes auto, off or a number', () => {
  const result = runBundle(['validate', '.', '--concurrency', 'many'], { cwd: work });
  expect([result.status, result.stderr]).toEqual([
    2,
    "svc-manifest: --concurrency takes auto, off or a number of threads (see 'svc-manifest validate --help')\n",
  ]);
});

it('auto: a thread per 200 files on at most half the cores, none when fewer than two', () => {
  // [files, cores] → threads
  const cases: [number, number, number | undefined][] = [
    [2000, 1, undefined],
    [2000, 2, undefined],
    [2000, 3, undefined],
    [2000, 4, 2],
    [2000, 8, 4],
    [2000, 32, 10],
    [399, 8, undefined],
    [400, 8, 2],
    [600, 8, 3],
  ];
  for (const [files, cores, threads] of cases)
    expect(autoWorkers(files, cores), `${files} files, ${cores} cores`).toBe(threads);
});
