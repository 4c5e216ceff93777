/**
 * `svc-manifest git …` runs the applier in the validator's own process when @svc-manifest/gitops
 * is installed beside the validator (the bin requires the applier's `./cli` export), and runs
 * the `svc-manifest-git` command otherwise. The built packages are copied into a temporary
 * project's node_modules, as npm installs them, with a decoy `svc-manifest-git` in
 * node_modules/.bin (where the command would be looked up): the decoy must run only when the
 * applier cannot be required. Needs `npm run build` (as `npm test` does).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPERATIONS } from '@svc-manifest/gitops';
import { REPO_ROOT } from './support/fixtures.js';

const MANIFEST = 'svc_version: 2\ndefault_agent: writer\nagents:\n  writer: {}\n  reviewer: {}\n';
const GIT_ENV = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const DECOY = '#!/bin/sh\necho "the svc-manifest-git command ran: $*"\nexit 7\n';

let work: string;
let bin: string;

function install(name: 'validator' | 'gitops', files: string[]): string {
  const installed = join(work, 'node_modules', '@svc-manifest', name);
  for (const file of files) {
    const from = join(REPO_ROOT, 'packages', name, file);
    if (!existsSync(from)) throw new Error(`${from} is missing: run npm run build first`);
    mkdirSync(dirname(join(installed, file)), { recursive: true });
    copyFileSync(from, join(installed, file));
  }
  return installed;
}

function git(args: string[], cwd?: string): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } });
}

/** A bare repository whose main branch holds MANIFEST as svc.yaml. */
function repository(name: string): string {
  const seed = join(work, `${name}-seed`);
  mkdirSync(seed);
  writeFileSync(join(seed, 'svc.yaml'), MANIFEST);
  git(['init', '-q', '-b', 'main'], seed);
  git(['add', 'svc.yaml'], seed);
  git(['-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', 'commit', '-q', '-m', 'initial'], seed);
  const bare = join(work, `${name}.git`);
  git(['clone', '-q', '--bare', seed, bare]);
  return bare;
}

function svcManifest(args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd: work,
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      ...GIT_ENV,
      PATH: `${join(work, 'node_modules', '.bin')}:${process.env.PATH}`,
      HOME: work,
      XDG_CACHE_HOME: join(work, 'cache'),
    },
  });
}

beforeAll(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'svc-git-in-process-')));
  const validator = install('validator', [
    'package.json',
    'launcher/svc-manifest.cjs',
    'launcher/code-cache.cjs',
    'dist/svc-manifest-main.cjs',
  ]);
  install('gitops', [
    'package.json',
    'launcher/svc-manifest-git.cjs',
    'dist/svc-manifest-git-main.cjs',
    'dist/code-cache.cjs',
  ]);
  bin = join(validator, 'launcher', 'svc-manifest.cjs');
  const linked = join(work, 'node_modules', '.bin', 'svc-manifest-git');
  mkdirSync(dirname(linked), { recursive: true });
  writeFileSync(linked, DECOY);
  chmodSync(linked, 0o755);
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

it('runs the installed applier in its own process: the operation commits, the command beside it never runs', () => {
  const repo = repository('in-process');
  const before = git(['rev-parse', 'main'], repo).trim();
  const result = svcManifest([
    'git',
    'set-default-agent',
    'reviewer',
    '--repo',
    repo,
    '--author',
    'Ops <ops@example.com>',
  ]);
  const after = git(['rev-parse', 'main'], repo).trim();
  expect(result.stderr).toBe('');
  expect(result.stdout).toBe(`committed ${after} on main: svc: set default agent to reviewer\n`);
  expect(result.status).toBe(0);
  expect(git(['rev-parse', 'main^'], repo).trim()).toBe(before);
  expect(git(['show', 'main:svc.yaml'], repo)).toBe(
    MANIFEST.replace('default_agent: writer', 'default_agent: reviewer'),
  );

  // A refusal: exit 1, its reason on stderr, nothing moved.
  const refused = svcManifest(['git', 'set-default-agent', 'nobody', '--repo', repo]);
  expect(refused.status).toBe(1);
  expect(refused.stdout).toBe('');
  expect(refused.stderr).toBe(
    "refused: unknown-agent: agent 'nobody' is not declared in svc.yaml (declared: writer, reviewer)\n",
  );
  expect(git(['rev-parse', 'main'], repo).trim()).toBe(after);

  // Usage errors are the applier's, exit 2.
  const usage = svcManifest(['git', 'set-default-agent']);
  expect(usage.status).toBe(2);
  expect(usage.stderr).toMatch(/^svc-manifest git: set-default-agent takes exactly one /);
});

it('runs the svc-manifest-git command when the installed applier has no ./cli export', () => {
  const manifest = join(work, 'node_modules', '@svc-manifest', 'gitops', 'package.json');
  const original = readFileSync(manifest, 'utf8');
  const withoutCli = JSON.parse(original) as { exports: Record<string, unknown> };
  delete withoutCli.exports['./cli'];
  writeFileSync(manifest, JSON.stringify(withoutCli));
  try {
    const result = svcManifest(['git', 'list', '--repo', 'x']);
    expect(result).toMatchObject({
      status: 7,
      stdout: 'the svc-manifest-git command ran: list --repo x\n',
      stderr: '',
    });
  } finally {
    writeFileSync(manifest, original);
  }
});

it("knows every operation of the applier's table by name (each keeps its own code cache)", () => {
  const launcher = createRequire(import.meta.url)(
    join(REPO_ROOT, 'packages', 'gitops', 'launcher', 'svc-manifest-git.cjs'),
  ) as { OPERATIONS: string[] };
  expect([...launcher.OPERATIONS].sort()).toEqual(
    Object.values(OPERATIONS)
      .map((row) => row.command)
      .sort(),
  );
});
