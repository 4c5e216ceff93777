/**
 * The applier in a monorepo, through the installed command (`node_modules/.bin/svc-manifest git`;
 * needs `npm run build`): the manifest nearest above the current folder, `--manifest PATH`,
 * refusals naming all three file names, and a repository without commits.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/fixtures.js';

const SVC_MANIFEST = join(REPO_ROOT, 'node_modules', '.bin', 'svc-manifest');
const MANIFEST = 'svc_version: 2\ndefault_agent: writer\nagents:\n  writer: {}\n  reviewer: {}\n';
const GIT_ENV = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const work = mkdtempSync(join(tmpdir(), 'svc-git-monorepo-'));
let repo: string;
let count = 0;

function git(args: string[], cwd = repo): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } }).trim();
}

function svcManifest(args: string[], cwd: string) {
  const result = spawnSync(SVC_MANIFEST, ['git', ...args, '--author', 'Test <test@example.com>'], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...GIT_ENV, HOME: work },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A repository with services/api/svc.yaml, services/web/svc.yml and no manifest at the root; `commit: false` leaves it without commits. */
function monorepo(options: { commit?: boolean } = {}): string {
  const root = join(work, `repo-${++count}`);
  const files: [string, string][] = [
    ['services/api/svc.yaml', MANIFEST],
    ['services/api/src/index.ts', '// code\n'],
    ['services/web/svc.yml', MANIFEST],
    ['README.md', '# monorepo\n'],
  ];
  for (const [path, text] of files) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  git(['init', '-q', '-b', 'main'], root);
  if (options.commit !== false) {
    git(['add', '.'], root);
    git(['-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', 'commit', '-q', '-m', 'initial'], root);
  }
  return root;
}

/** The files the last commit changed. */
function changedFiles(): string[] {
  return git(['show', '--format=', '--name-only', 'HEAD']).split('\n');
}

beforeEach(() => {
  repo = monorepo();
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('without --manifest', () => {
  it('edits the manifest of the current folder', () => {
    const result = svcManifest(['set-default-agent', 'reviewer'], join(repo, 'services', 'api'));
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`committed ${git(['rev-parse', 'HEAD'])} on main: svc: set default agent to reviewer\n`);
    expect(result.status).toBe(0);
    expect(changedFiles()).toEqual(['services/api/svc.yaml']);
    expect(readFileSync(join(repo, 'services/api/svc.yaml'), 'utf8')).toBe(
      MANIFEST.replace('default_agent: writer', 'default_agent: reviewer'),
    );
  });

  it('finds the nearest one above a folder without one, svc.yml too', () => {
    expect(
      svcManifest(['set-agent-scope', 'writer', '--secrets', 'none'], join(repo, 'services', 'api', 'src')).status,
    ).toBe(0);
    expect(changedFiles()).toEqual(['services/api/svc.yaml']);
    expect(svcManifest(['set-default-agent', 'reviewer'], join(repo, 'services', 'web')).status).toBe(0);
    expect(changedFiles()).toEqual(['services/web/svc.yml']);
  });

  it('refuses, naming all three file names, when no folder up to the root has one', () => {
    const atRoot = svcManifest(['set-default-agent', 'reviewer'], repo);
    expect(atRoot).toEqual({
      status: 1,
      stdout: '',
      stderr: 'refused: no-manifest: the repository has no svc.yaml, svc.yml or svc.toml at its root\n',
    });
    const below = svcManifest(['set-default-agent', 'reviewer'], join(repo, 'services'));
    expect(below.stderr).toBe(
      'refused: no-manifest: the repository has no svc.yaml, svc.yml or svc.toml in services or any folder above it\n',
    );
  });
});

describe('--manifest PATH', () => {
  it('is relative to the current folder', () => {
    expect(svcManifest(['set-default-agent', 'reviewer', '--manifest', 'services/web/svc.yml'], repo).status).toBe(0);
    expect(changedFiles()).toEqual(['services/web/svc.yml']);
    expect(
      svcManifest(['set-default-agent', 'reviewer', '--manifest', '../api/svc.yaml'], join(repo, 'services', 'web'))
        .status,
    ).toBe(0);
    expect(changedFiles()).toEqual(['services/api/svc.yaml']);
  });

  it('refuses a path outside the repository (exit 2) and a file the branch does not have (exit 1)', () => {
    const outside = svcManifest(['set-default-agent', 'reviewer', '--manifest', '../elsewhere/svc.yaml'], repo);
    expect(outside.status).toBe(2);
    expect(outside.stderr).toMatch(
      /^svc-manifest git: --manifest "\.\.\/elsewhere\/svc\.yaml" is not inside the repository at /,
    );
    const missing = svcManifest(['set-default-agent', 'reviewer', '--manifest', 'services/db/svc.yaml'], repo);
    expect(missing).toEqual({
      status: 1,
      stdout: '',
      stderr: 'refused: no-manifest: the repository has no file "services/db/svc.yaml" at this commit\n',
    });
  });
});

it('a repository without commits is refused in those words', () => {
  const empty = monorepo({ commit: false });
  const result = svcManifest(['set-default-agent', 'reviewer'], join(empty, 'services', 'api'));
  expect(result).toEqual({
    status: 1,
    stdout: '',
    stderr:
      "refused: unknown-branch: the repository has no commits yet (its HEAD names branch 'main', which has none); commit the manifest first\n",
  });
});
