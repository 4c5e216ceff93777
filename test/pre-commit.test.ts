/**
 * The pre-commit hook this repository publishes (`.pre-commit-hooks.yaml`), driven by the real
 * pre-commit framework (Debian's `pre-commit`, installed by scripts/install-test-tools.sh) in
 * temporary git repositories, offline:
 *   - a hook repository holding the working tree's `.pre-commit-hooks.yaml`, used through the
 *     ordinary remote form (`repo: <path>`, `rev: <commit>`), exactly as other repositories do;
 *   - the `svc-manifest` command on PATH is a shim running the built CLI bundle, standing in for
 *     `npm install -g @svc-manifest/validator` (the hook is `language: system`).
 * A commit with a broken manifest is refused with the located message; a good one goes through.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE, ensureBundle, REPO_ROOT } from '../packages/validator/test/support/child.js';

let work: string;
let project: string;
let env: NodeJS.ProcessEnv;

function run(command: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
}

function git(args: string[], cwd = project): SpawnSyncReturns<string> {
  const result = run('git', args, cwd);
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return result;
}

function write(path: string, text: string): void {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), text);
}

/** `git commit` of everything staged; returns the exit code and the hook output. */
function commit(message: string): { status: number | null; output: string; committed: boolean } {
  const before = run('git', ['rev-list', '--all', '--count'], project).stdout.trim();
  const result = run('git', ['commit', '-m', message], project);
  const after = run('git', ['rev-list', '--all', '--count'], project).stdout.trim();
  return { status: result.status, output: result.stdout + result.stderr, committed: before !== after };
}

const GOOD = `svc_version: 2
default_agent: triage
agents:
  triage:
    connectors: none
`;

beforeAll(() => {
  const preCommit = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
  if (preCommit.status !== 0) throw new Error('pre-commit is not installed: run `npm run test:setup` (scripts/install-test-tools.sh) or `apt-get install -y pre-commit`');
  ensureBundle();
  work = mkdtempSync(join(tmpdir(), 'svc-pre-commit-'));

  // `svc-manifest` on PATH, as after `npm install -g`.
  const bin = join(work, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'svc-manifest'), `#!/bin/sh\nexec "${process.execPath}" "${BUNDLE}" "$@"\n`);
  chmodSync(join(bin, 'svc-manifest'), 0o755);
  env = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    PRE_COMMIT_HOME: join(work, 'pre-commit-home'),
    XDG_CACHE_HOME: join(work, 'cache'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(work, 'gitconfig'),
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
    NO_COLOR: '1',
  };
  writeFileSync(join(work, 'gitconfig'), '[init]\n\tdefaultBranch = main\n');

  // The hook repository: this repository's hook definition, committed.
  const hooks = join(work, 'hooks');
  mkdirSync(hooks);
  git(['init', '-q'], hooks);
  copyFileSync(join(REPO_ROOT, '.pre-commit-hooks.yaml'), join(hooks, '.pre-commit-hooks.yaml'));
  git(['add', '.pre-commit-hooks.yaml'], hooks);
  git(['commit', '-q', '-m', 'hooks'], hooks);
  const rev = git(['rev-parse', 'HEAD'], hooks).stdout.trim();

  // The project that uses the hook.
  project = join(work, 'project');
  mkdirSync(project);
  git(['init', '-q']);
  write('.pre-commit-config.yaml', `repos:\n  - repo: ${hooks}\n    rev: ${rev}\n    hooks:\n      - id: svc-manifest\n`);
  const install = run('pre-commit', ['install'], project);
  expect(install.status, install.stdout + install.stderr).toBe(0);
  git(['add', '.pre-commit-config.yaml']);
  const first = commit('pre-commit config');
  expect(first.committed, first.output).toBe(true);
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('.pre-commit-hooks.yaml', () => {
  it('defines the svc-manifest hook: entry, files, language', () => {
    const hooks = parseYaml(readFileSync(join(REPO_ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Record<string, unknown>[];
    expect(hooks).toHaveLength(1);
    expect(hooks[0]).toMatchObject({ id: 'svc-manifest', entry: 'svc-manifest validate', language: 'system' });
    const files = new RegExp(hooks[0]!.files as string);
    for (const path of ['svc.yaml', 'svc.yml', 'svc.toml', 'deploy/svc.yaml', 'a/b/svc.toml']) expect(path).toMatch(files);
    for (const path of ['svc.yaml.bak', 'my-svc.yaml', 'svc.json', 'docs/svc.md', 'xsvc.toml']) expect(path).not.toMatch(files);
  });
});

describe('pre-commit in a temporary repository', () => {
  it('refuses a commit with a broken svc.yaml, printing the located message', () => {
    write('deploy/svc.yaml', 'svc_version: 2\ndefault_agent: triage\nagents:\n  triage:\n    conectors: none\n');
    git(['add', 'deploy/svc.yaml']);
    const result = commit('broken manifest');
    expect(result.committed).toBe(false);
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/svc manifest\.+Failed/);
    expect(result.output).toContain('deploy/svc.yaml');
    expect(result.output).toMatch(/5:5 +error +unknown key 'conectors' in agent 'triage'; did you mean 'connectors'\?  unknown-key/);
    expect(result.output).toContain('> 5 |     conectors: none');
  });

  it('lets the fixed manifest through', () => {
    write('deploy/svc.yaml', GOOD);
    git(['add', 'deploy/svc.yaml']);
    const result = commit('good manifest');
    expect(result.output).toMatch(/svc manifest\.+Passed/);
    expect(result.status).toBe(0);
    expect(result.committed).toBe(true);
  });

  it('lets a manifest with only warnings through (the CLI exits 0)', () => {
    write('svc.yml', 'svc_version: 1\ntrigers: []\n');
    git(['add', 'svc.yml']);
    const result = commit('warning only');
    expect(result.committed).toBe(true);
    expect(result.output).toMatch(/svc manifest\.+Passed/);
  });

  it('checks svc.toml too', () => {
    write('services/api/svc.toml', 'svc_version = 1\n\n[[triggers]]\nslug = "nightly"\ntype = "cron"\ncron = "0 2 * * *"\n');
    git(['add', 'services/api/svc.toml']);
    const result = commit('toml without prompt');
    expect(result.committed).toBe(false);
    expect(result.output).toContain('services/api/svc.toml');
    expect(result.output).toContain("trigger 'nightly' needs 'prompt' or 'prompt_template'");
    git(['reset', '-q', 'services/api/svc.toml']);
    rmSync(join(project, 'services'), { recursive: true });
  });

  it('skips files that are not manifests', () => {
    write('notes/svc.yaml.bak', 'svc_version: 3\n');
    write('config.yaml', 'svc_version: 3\n');
    git(['add', 'notes/svc.yaml.bak', 'config.yaml']);
    const result = commit('not manifests');
    expect(result.output).toMatch(/svc manifest\.+\(no files to check\)Skipped/);
    expect(result.committed).toBe(true);
  });
});
