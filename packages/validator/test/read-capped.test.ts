/**
 * How the CLI reads a file (`readFileCapped`): chunk by chunk up to the limit, without a `stat`
 * first; the bytes must be the file's, whole or cut at the limit, and a folder must be refused
 * as one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileCapped } from '../src/cli-workers.js';
import { describeFileError } from '../src/inputs/file-errors.js';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-read-capped-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Bytes without a period (a chunk read twice, skipped or overwritten shows). */
function patterned(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = Math.imul(i + 1, 2654435761) >>> 24;
  return bytes;
}

describe('readFileCapped', () => {
  it.each([0, 1, 100, 64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 200_000])(
    'reads a file of %i bytes whole when under the limit',
    (length) => {
      const file = join(work, `whole-${length}`);
      const bytes = patterned(length);
      writeFileSync(file, bytes);
      expect(Buffer.from(readFileCapped(file, 1_000_000)).equals(bytes)).toBe(true);
    },
  );

  it.each([1, 1000, 64 * 1024, 64 * 1024 + 3, 150_000])('stops at a limit of %i bytes in a larger file', (limit) => {
    const file = join(work, `cut-${limit}`);
    const bytes = patterned(200_001);
    writeFileSync(file, bytes);
    expect(Buffer.from(readFileCapped(file, limit)).equals(bytes.subarray(0, limit))).toBe(true);
  });

  it('refuses a folder as one, and a missing file as missing', () => {
    const folder = join(work, 'a-folder.yaml');
    mkdirSync(folder);
    expect(() => readFileCapped(folder, 1000)).toThrow();
    let error: unknown;
    try {
      readFileCapped(folder, 1000);
    } catch (caught) {
      error = caught;
    }
    expect(describeFileError(error)).toBe('is a directory');
    try {
      readFileCapped(join(work, 'missing.yaml'), 1000);
    } catch (caught) {
      error = caught;
    }
    expect(describeFileError(error)).toBe('no such file');
  });
});
