/**
 * The pre-commit hook this repository publishes (`.pre-commit-hooks.yaml`), driven by the real
 * pre-commit framework (Debian's `pre-commit`, installed by scripts/install-test-tools.sh) the
 * way a user meets it: the `.pre-commit-config.yaml` snippet from the root README, pointed at a
 * local clone of this repository (`repo: file://…`, `rev: <commit>`), on a machine with Node
 * and pre-commit but no `svc-manifest` command anywhere on PATH.
 *
 * The hook is `language: script` and runs hooks/svc-manifest.cjs (the CLI in one committed
 * file) from pre-commit's clone. After the first install the hook repository is deleted and
 * every later commit runs with no network (a network namespace of its own when `unshare` is
 * allowed, and in any case unreachable proxies and npm's offline mode), from a HOME and a
 * PRE_COMMIT_HOME in a temporary folder.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../packages/validator/test/support/child.js';
import { readmeBlock } from './support/readme-section.js';
import { nodeOnlyEnv } from './support/user-machine.js';
import { buildHookBundle, HOOK_BUNDLE, HOOK_LICENSES } from '../scripts/gen-hook-bundle.js';

/** The files of this working tree that make up the hook; the clone gets these versions. */
const HOOK_FILES = ['.pre-commit-hooks.yaml', 'hooks/svc-manifest.cjs', 'hooks/THIRD-PARTY-LICENSES.txt'];

let work: string;
let project: string;
let hookRepo: string;
let env: NodeJS.ProcessEnv;
/** Prefix that runs a command without network access, when this machine allows it. */
let offline: string[] = [];

function run(command: string, args: string[], cwd: string, prefix: string[] = []): SpawnSyncReturns<string> {
  const [program, ...rest] = [...prefix, command, ...args] as [string, ...string[]];
  return spawnSync(program, rest, { cwd, env, encoding: 'utf8', timeout: 120_000 });
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

/** `git commit` of everything staged, offline; returns the exit code and the hook output. */
function commit(message: string): { status: number | null; output: string; committed: boolean } {
  const before = run('git', ['rev-list', '--all', '--count'], project).stdout.trim();
  const result = run('git', ['commit', '-m', message], project, offline);
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
  if (preCommit.status !== 0)
    throw new Error(
      'pre-commit is not installed: run `npm run test:setup` (scripts/install-test-tools.sh) or `apt-get install -y pre-commit`',
    );
  work = mkdtempSync(join(tmpdir(), 'svc-pre-commit-'));

  // PATH: `node` and the system's own programs (git, pre-commit), nothing from this repository.
  writeFileSync(join(work, 'gitconfig'), '[init]\n\tdefaultBranch = main\n[protocol "file"]\n\tallow = always\n');
  env = nodeOnlyEnv(work, join(work, 'gitconfig'), {
    PRE_COMMIT_HOME: join(work, 'pre-commit-home'),
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
    NO_COLOR: '1',
  });

  // The hook repository: a clone of this repository, with this working tree's hook files.
  hookRepo = join(work, 'svc-manifest-toolchain');
  git(['clone', '-q', REPO_ROOT, hookRepo], work);
  for (const file of HOOK_FILES) {
    mkdirSync(dirname(join(hookRepo, file)), { recursive: true });
    copyFileSync(join(REPO_ROOT, file), join(hookRepo, file));
    chmodSync(join(hookRepo, file), statSync(join(REPO_ROOT, file)).mode & 0o777);
  }
  git(['add', '--', ...HOOK_FILES], hookRepo);
  if (git(['status', '--porcelain'], hookRepo).stdout.trim())
    git(['commit', '-q', '-m', 'hook files of the working tree'], hookRepo);
  const rev = git(['rev-parse', 'HEAD'], hookRepo).stdout.trim();

  // The project that uses the hook, configured with the README's snippet.
  project = join(work, 'project');
  mkdirSync(project);
  git(['init', '-q']);
  const snippet = readmeBlock('pre-commit', 'yaml');
  expect(snippet).toContain('<URL of this repository>');
  expect(snippet).toContain('<tag or commit>');
  write(
    '.pre-commit-config.yaml',
    snippet.replace('<URL of this repository>', `file://${hookRepo}`).replace('<tag or commit>', rev),
  );
  const install = run('pre-commit', ['install', '--install-hooks'], project);
  expect(install.status, install.stdout + install.stderr).toBe(0);

  // From here on: no hook repository to fetch from, and no network.
  rmSync(hookRepo, { recursive: true, force: true });
  Object.assign(env, {
    npm_config_offline: 'true',
    http_proxy: 'http://127.0.0.1:9',
    https_proxy: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
    HTTPS_PROXY: 'http://127.0.0.1:9',
    no_proxy: '',
  });
  if (spawnSync('unshare', ['-rn', 'true']).status === 0) offline = ['unshare', '-rn'];

  git(['add', '.pre-commit-config.yaml']);
  const first = commit('pre-commit config');
  expect(first.committed, first.output).toBe(true);
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('.pre-commit-hooks.yaml', () => {
  it('defines the svc-manifest hook: a script run by node from the committed bundle', () => {
    const hooks = parseYaml(readFileSync(join(REPO_ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Record<
      string,
      unknown
    >[];
    expect(hooks).toHaveLength(2);
    expect(hooks[0]).toMatchObject({
      id: 'svc-manifest',
      entry: 'hooks/svc-manifest.cjs validate',
      language: 'script',
    });
    expect(hooks[1]).toMatchObject({
      id: 'svc-manifest-fmt',
      entry: 'hooks/svc-manifest.cjs fmt --check',
      language: 'script',
      files: hooks[0]!.files,
    });
    const files = new RegExp(hooks[0]!.files as string);
    for (const path of ['svc.yaml', 'svc.yml', 'svc.toml', 'deploy/svc.yaml', 'a/b/svc.toml'])
      expect(path).toMatch(files);
    for (const path of ['svc.yaml.bak', 'my-svc.yaml', 'svc.json', 'docs/svc.md', 'xsvc.toml'])
      expect(path).not.toMatch(files);
  });

  it('runs hooks/svc-manifest.cjs, which is what `npm run gen` builds from the current sources', async () => {
    const built = await buildHookBundle();
    // Compared as strings, but reported briefly: the bundle is one long minified line.
    const committed = readFileSync(HOOK_BUNDLE, 'utf8');
    expect(committed === built.code, 'hooks/svc-manifest.cjs is stale: run `npm run gen`').toBe(true);
    expect(readFileSync(HOOK_LICENSES, 'utf8')).toBe(built.licenses);
    expect(built.licenses).toMatch(/^yaml@[\d.]+ \(ISC\)$/m);
  });

  it('the bundle is executable for git (pre-commit reads its #! line only from an executable file)', () => {
    const mode = spawnSync('git', ['ls-files', '--stage', 'hooks/svc-manifest.cjs'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    }).stdout;
    expect(mode).toMatch(/^100755 /);
    expect(readFileSync(join(REPO_ROOT, 'hooks', 'svc-manifest.cjs'), 'utf8').split('\n')[0]).toBe(
      '#!/usr/bin/env node',
    );
  });
});

describe('pre-commit in a temporary repository, offline after the first install', () => {
  it('has its own copy of the hook: the hook repository is gone', () => {
    expect(existsSync(hookRepo)).toBe(false);
  });

  it('refuses a commit with a broken svc.yaml, printing the located message', () => {
    write('deploy/svc.yaml', 'svc_version: 2\ndefault_agent: triage\nagents:\n  triage:\n    conectors: none\n');
    git(['add', 'deploy/svc.yaml']);
    const result = commit('broken manifest');
    expect(result.committed).toBe(false);
    expect(result.status).toBe(1);
    expect(result.output).toMatch(/svc manifest\.+Failed/);
    expect(result.output).toContain('- exit code: 1');
    expect(result.output).toContain('deploy/svc.yaml');
    expect(result.output).toMatch(
      /5:5 +error +unknown key 'conectors' in agent 'triage'; did you mean 'connectors'\? {2}unknown-key/,
    );
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
    write(
      'services/api/svc.toml',
      'svc_version = 1\n\n[[triggers]]\nslug = "nightly"\ntype = "cron"\ncron = "0 2 * * *"\n',
    );
    git(['add', 'services/api/svc.toml']);
    const result = commit('toml without prompt');
    expect(result.committed).toBe(false);
    expect(result.output).toContain('services/api/svc.toml');
    expect(result.output).toMatch(/4:1 +error +trigger 'nightly' needs 'prompt' or 'prompt_template'/);
    git(['reset', '-q', 'services/api/svc.toml']);
    rmSync(join(project, 'services'), { recursive: true });
  });

  it("passes the hook's `args` after `validate` (the README's `args: [--no-warnings]`)", () => {
    const verbose = () => run('pre-commit', ['run', '--verbose', '--files', 'svc.yml'], project, offline);
    const before = verbose();
    expect(before.status, before.stdout + before.stderr).toBe(0);
    expect(before.stdout).toMatch(/2:1 +warning +unknown key 'trigers'/);
    const config = readFileSync(join(project, '.pre-commit-config.yaml'), 'utf8');
    expect(config).toContain('      - id: svc-manifest\n');
    write(
      '.pre-commit-config.yaml',
      config.replace('      - id: svc-manifest\n', '      - id: svc-manifest\n        args: [--no-warnings]\n'),
    );
    const after = verbose();
    expect(after.status, after.stdout + after.stderr).toBe(0);
    expect(after.stdout).toMatch(/svc manifest\.+Passed/);
    expect(after.stdout).not.toContain('trigers');
    write('.pre-commit-config.yaml', config);
  });

  it('the svc-manifest-fmt hook refuses an unformatted manifest, listing it, and lets it through once formatted', () => {
    const config = readFileSync(join(project, '.pre-commit-config.yaml'), 'utf8');
    write(
      '.pre-commit-config.yaml',
      config.replace('      - id: svc-manifest\n', '      - id: svc-manifest\n      - id: svc-manifest-fmt\n'),
    );
    git(['add', '.pre-commit-config.yaml']);
    write('fmt/svc.yaml', GOOD.replace('  triage:\n    connectors', '    triage:\n        connectors') + '\n\n');
    git(['add', 'fmt/svc.yaml']);
    const refused = commit('unformatted manifest');
    expect(refused.committed, refused.output).toBe(false);
    expect(refused.output).toMatch(/svc manifest format\.+Failed/);
    expect(refused.output).toContain('fmt/svc.yaml');
    write('fmt/svc.yaml', GOOD);
    git(['add', 'fmt/svc.yaml']);
    const passed = commit('formatted manifest');
    expect(passed.output).toMatch(/svc manifest format\.+Passed/);
    expect(passed.committed, passed.output).toBe(true);
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
