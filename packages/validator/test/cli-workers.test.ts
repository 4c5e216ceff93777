/**
 * `validate` on many files uses worker threads; the report is the same bytes, in path order,
 * whatever the number of threads and their timing. Through the built command.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBundle, runBundle } from './support/child.js';

let work: string;
beforeAll(() => {
  ensureBundle();
  work = mkdtempSync(join(tmpdir(), 'svc-cli-workers-'));
  // 450 manifests: valid and invalid YAML, TOML; the invalid ones spread over the threads' shares.
  for (let i = 0; i < 450; i++) {
    const dir = join(work, `group-${i % 7}`, `service-${String(i).padStart(3, '0')}`);
    mkdirSync(dir, { recursive: true });
    if (i % 10 === 0) writeFileSync(join(dir, 'svc.toml'), `svc_version = 1\n\n[[agents]]\nname = "a${i}"\n`);
    else if (i % 3 === 0) writeFileSync(join(dir, 'svc.yaml'), `svc_version: 2\ndefault_agent: w\nagents:\n  w:\n    conectors: none\n`);
    else writeFileSync(join(dir, 'svc.yaml'), `svc_version: 2\ndefault_agent: w${i}\nagents:\n  w${i}:\n    connectors: none\n`);
  }
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('prints the same report with one thread, two, three and the default, in path order', () => {
  for (const format of ['stylish', 'json']) {
    const single = runBundle(['validate', '.', '--format', format, '--concurrency', 'off'], { cwd: work });
    expect(single.status).toBe(1);
    if (format === 'json') {
      const paths = (JSON.parse(single.stdout) as { filePath: string }[]).map((file) => file.filePath);
      expect(paths).toHaveLength(450);
      expect(paths).toEqual([...paths].sort());
    }
    for (const concurrency of ['2', '3', 'auto']) {
      const parallel = runBundle(['validate', '.', '--format', format, '--concurrency', concurrency], { cwd: work });
      expect([parallel.status, parallel.stderr], `${format} ${concurrency}`).toEqual([1, '']);
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
