/**
 * `svc-manifest git …` runs the `svc-manifest-git` command (from @svc-manifest/gitops), the way
 * `git foo` runs `git-foo`. The built CLI is copied out of the repository (so no workspace
 * node_modules/.bin is above it) and run with a PATH we control: the command found on PATH gets
 * the arguments, cwd and stdin, its output and exit code come back; without it, an install hint.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBundle, VALIDATOR_DIR } from './support/child.js';

let work: string;
let cli: string;
let basePath: string;

beforeAll(() => {
  ensureBundle();
  work = realpathSync(mkdtempSync(join(tmpdir(), 'svc-git-dispatch-')));
  const installed = join(work, 'node_modules', '@svc-manifest', 'validator');
  mkdirSync(join(installed, 'launcher'), { recursive: true });
  mkdirSync(join(installed, 'dist'));
  for (const name of ['svc-manifest.cjs', 'code-cache.cjs'])
    copyFileSync(join(VALIDATOR_DIR, 'launcher', name), join(installed, 'launcher', name));
  copyFileSync(join(VALIDATOR_DIR, 'dist', 'svc-manifest-main.cjs'), join(installed, 'dist', 'svc-manifest-main.cjs'));
  cli = join(installed, 'launcher', 'svc-manifest.cjs');
  // The system folders only: no node_modules/.bin, so no svc-manifest-git.
  basePath = (process.env.PATH ?? '')
    .split(':')
    .filter((folder) => folder && !folder.includes('node_modules'))
    .join(':');
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

function svcManifest(args: string[], path: string, cwd = work) {
  return spawnSync(process.execPath, [cli, ...args], {
    cwd,
    env: { PATH: path, HOME: work, XDG_CACHE_HOME: join(work, 'cache'), NO_COLOR: '1' },
    encoding: 'utf8',
    input: 'from stdin\n',
    timeout: 60_000,
  });
}

it('without svc-manifest-git, says which package to install and exits 2', () => {
  const result = svcManifest(['git', 'set-default-agent', 'reviewer'], basePath);
  expect(result.stdout).toBe('');
  expect(result.stderr).toBe(
    "svc-manifest: 'svc-manifest git' needs the svc-manifest-git command of @svc-manifest/gitops, which is not installed.\nThe packages are not on a public registry: in a clone of the svc manifest toolchain, run\n  npm run build && npm pack -w @svc-manifest/validator -w @svc-manifest/gitops\nthen install both tarballs in your project: npm install ./svc-manifest-validator-0.1.0.tgz ./svc-manifest-gitops-0.1.0.tgz\n",
  );
  expect(result.status).toBe(2);
});

it('runs the svc-manifest-git found on PATH with the same arguments, cwd and stdin, and returns its output and exit code', () => {
  const bin = join(work, 'bin');
  mkdirSync(bin, { recursive: true });
  const fake = join(bin, 'svc-manifest-git');
  writeFileSync(
    fake,
    '#!/bin/sh\nprintf "args:"; for a in "$@"; do printf " [%s]" "$a"; done; printf "\\ncwd: %s\\n" "$PWD"; read line; echo "stdin: $line"; echo "to stderr" >&2; exit 3\n',
  );
  chmodSync(fake, 0o755);
  const cwd = join(work, 'project');
  mkdirSync(cwd, { recursive: true });
  const result = svcManifest(
    ['git', 'set-agent-scope', 'a b', '--secrets=X,Y', '--', '--odd'],
    `${bin}:${basePath}`,
    cwd,
  );
  expect(result.stdout).toBe(
    `args: [set-agent-scope] [a b] [--secrets=X,Y] [--] [--odd]\ncwd: ${cwd}\nstdin: from stdin\n`,
  );
  expect(result.stderr).toBe('to stderr\n');
  expect(result.status).toBe(3);
});

it('prefers the svc-manifest-git in the node_modules/.bin above the CLI to one on PATH', () => {
  const linked = join(work, 'node_modules', '.bin');
  mkdirSync(linked, { recursive: true });
  writeFileSync(join(linked, 'svc-manifest-git'), '#!/bin/sh\necho "the linked one: $*"\n');
  chmodSync(join(linked, 'svc-manifest-git'), 0o755);
  const result = svcManifest(['git', 'updates', '--catalog', 'c'], `${join(work, 'bin')}:${basePath}`);
  expect(result).toMatchObject({ status: 0, stdout: 'the linked one: updates --catalog c\n', stderr: '' });
  rmSync(join(linked, 'svc-manifest-git'));
});
