/**
 * The committed bins (what `npm ci` links before anything is built) say what to do when the code
 * they run is not built yet, instead of a stack trace: each is copied with its package's layout
 * but no dist/ into a temporary folder and run.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from './support/fixtures.js';

let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-launchers-'));
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** Copies the package's bin (and the launcher files beside it) into `work/<package>` and runs it. */
function runUnbuilt(folder: string, files: string[], bin: string, args: string[]) {
  for (const file of files) {
    mkdirSync(dirname(join(work, folder, file)), { recursive: true });
    copyFileSync(join(REPO_ROOT, 'packages', folder, file), join(work, folder, file));
  }
  return spawnSync(process.execPath, [join(work, folder, bin), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH, HOME: work },
  });
}

it.each([
  [
    'validator',
    ['package.json', 'launcher/svc-manifest.cjs', 'launcher/code-cache.cjs'],
    'svc-manifest',
    ['validate'],
    'svc-manifest: the CLI is not built: dist/svc-manifest-main.cjs is missing.\n',
  ],
  [
    'lsp',
    ['package.json', 'launcher/svc-manifest-lsp.cjs'],
    'svc-manifest-lsp',
    ['--stdio'],
    'svc-manifest-lsp: the language server is not built: dist/svc-manifest-lsp-main.cjs is missing.\n',
  ],
  [
    'gitops',
    ['package.json', 'launcher/svc-manifest-git.cjs'],
    'svc-manifest-git',
    ['set-default-agent', 'a'],
    'svc-manifest-git: the applier is not built: dist/svc-manifest-git-main.cjs is missing.\n',
  ],
])('%s: the bin in package.json, run before a build, says to build and exits 2', (folder, files, name, args, first) => {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'packages', folder, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  const bin = manifest.bin[name]!;
  expect(files).toContain(bin);
  const result = runUnbuilt(folder, files, bin, args);
  expect(result.stdout).toBe('');
  expect(result.stderr).toBe(
    `${first}In a clone of the repository, run \`npm run build\` at its root${folder === 'validator' ? ' (or `npm run example`)' : ''}.\n`,
  );
  expect(result.status).toBe(2);
});
