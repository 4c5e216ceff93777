/** Three-way merge of one file with `git merge-file`, on temporary copies. */
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGit } from '../git/exec.js';

export type MergeOutcome = { clean: true; content: Buffer } | { clean: false; conflicts: number; reason: string };

/** Merges upstream's change (`base` → `theirs`) into the user's copy (`ours`). */
export async function mergeFile(
  ours: Uint8Array,
  base: Uint8Array,
  theirs: Uint8Array,
  path: string,
): Promise<MergeOutcome> {
  const dir = await fsp.mkdtemp(join(tmpdir(), 'svc-gitops-merge-'));
  try {
    const files = { ours: join(dir, 'ours'), base: join(dir, 'base'), theirs: join(dir, 'theirs') };
    await Promise.all([
      fsp.writeFile(files.ours, ours),
      fsp.writeFile(files.base, base),
      fsp.writeFile(files.theirs, theirs),
    ]);
    const okCodes = Array.from({ length: 255 }, (_, i) => i + 1);
    const result = await runGit(
      [
        'merge-file',
        '-L',
        `${path} (local)`,
        '-L',
        `${path} (installed)`,
        '-L',
        `${path} (upstream)`,
        files.ours,
        files.base,
        files.theirs,
      ],
      { okCodes },
    );
    if (result.code === 0) return { clean: true, content: await fsp.readFile(files.ours) };
    if (result.code > 0 && result.code < 128)
      return { clean: false, conflicts: result.code, reason: `${result.code} conflicting hunk(s)` };
    return { clean: false, conflicts: 1, reason: result.stderr.trim() || 'cannot merge (binary file?)' };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
