/** `svc-manifest git …` through runGitCli: output, exit codes, and the repository afterwards. */
import { afterAll, expect, test } from 'vitest';
import { runGitCli } from '../src/index.js';
import { crlf, PDF_V1, PDF_V2, writeCatalogItem, YAML_LINES } from './support/fixtures.js';
import { cleanupTempDirs, git, head, makeRepo, show, subjects, tempDir } from './support/repos.js';

afterAll(cleanupTempDirs);

/** Runs the CLI, capturing output. */
async function cli(argv: string[], cwd = tempDir()): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runGitCli(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd });
  return { code, stdout, stderr };
}

const AUTHOR = ['--author', 'Cli User <cli@example.test>'];

/** The validator's warnings about the fixture manifest (its reviewer lists connectors nobody declares), carried on every commit. */
const FIXTURE_WARNINGS =
  "warning: svc.yaml:25:9 warning agent-connector-declared: agent 'reviewer' connector 'github' is not a declared connector (no connectors are declared)\n" +
  "warning: svc.yaml:26:9 warning agent-connector-declared: agent 'reviewer' connector 'slack' is not a declared connector (no connectors are declared)\n";

test('set-default-agent: commit, then "no change", then a refusal with exit 1', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const first = await cli([
    'set-default-agent',
    'helper',
    '--repo',
    repo,
    ...AUTHOR,
    '--committer',
    'Platform <platform@example.test>',
  ]);
  expect(first).toEqual({
    code: 0,
    stdout: `committed ${head(repo)} on main: svc: set default agent to helper\n`,
    stderr: FIXTURE_WARNINGS,
  });
  expect(git(repo, ['log', '-1', '--format=%an <%ae>|%cn <%ce>']).trim()).toBe(
    'Cli User <cli@example.test>|Platform <platform@example.test>',
  );

  const again = await cli(['git', 'set-default-agent', 'helper', `--repo=${repo}`]);
  expect(again).toEqual({ code: 0, stdout: `no change (main stays at ${head(repo)})\n`, stderr: '' });

  const refused = await cli(['set-default-agent', 'reviewer', '--repo', repo]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toBe(
    "refused: agent-disabled: agent 'reviewer' is disabled (enabled: false); enable it before making it the default\n",
  );
  expect(subjects(repo)).toEqual(['svc: set default agent to helper', 'initial']);
});

test('set-agent-scope with lists, all and none; --repo relative to cwd; --branch', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  git(repo, ['branch', 'staging', 'main']);
  const result = await cli(
    [
      'set-agent-scope',
      'main',
      '--secrets',
      'A,B',
      '--connectors',
      'none',
      '--repo',
      '.',
      '--branch',
      'staging',
      '--message',
      'scope main',
    ],
    repo,
  );
  expect(result.code).toBe(0);
  expect(result.stdout).toBe(`committed ${head(repo, 'staging')} on staging: scope main\n`);
  expect(show(repo, 'staging', 'svc.yaml').toString()).toContain(
    '    secrets: [ A, B ]   # flow list, odd spacing\r\n    connectors: none       # everything\r\n',
  );
  expect(head(repo, 'main')).toBe(git(repo, ['rev-list', '--max-parents=0', 'main']).trim());
});

test('install, updates, update, update-all and remove', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const catalog = tempDir();
  writeCatalogItem(catalog, 'pdf-tools', PDF_V1);
  const common = ['--repo', repo, '--catalog', catalog, ...AUTHOR];

  expect((await cli(['install', 'pdf-tools', ...common])).stdout).toBe(
    `committed ${head(repo)} on main: marketplace: install pdf-tools@1.0.0\n`,
  );
  expect((await cli(['install', 'pdf-tools', ...common])).stdout).toBe(`no change (main stays at ${head(repo)})\n`);
  expect(await cli(['updates', ...common])).toEqual({
    code: 0,
    stdout: 'all installed items are up to date\n',
    stderr: '',
  });
  writeCatalogItem(catalog, 'pdf-tools', PDF_V2);
  expect((await cli(['updates', ...common])).stdout).toBe('pdf-tools 1.0.0 -> 1.1.0\n');
  expect((await cli(['update', 'pdf-tools', ...common])).stdout).toBe(
    `committed ${head(repo)} on main: marketplace: update pdf-tools 1.0.0 -> 1.1.0\n`,
  );
  expect((await cli(['update-all', ...common])).stdout).toBe(`no change (main stays at ${head(repo)})\n`);
  const removed = await cli(['remove', 'pdf-tools', '--repo', repo, ...AUTHOR]);
  expect(removed).toEqual({
    code: 0,
    stdout: `committed ${head(repo)} on main: marketplace: remove pdf-tools@1.1.0\n`,
    stderr: FIXTURE_WARNINGS,
  });
  expect(show(repo, 'main', 'svc.yaml').toString()).toBe(crlf(YAML_LINES));
});

test('usage errors exit 2 with one line naming the problem and where the help is', async () => {
  for (const argv of [
    [],
    ['frobnicate'],
    ['set-agent-scope', 'main'],
    ['install', 'x'],
    ['set-default-agent', '--bogus'],
  ]) {
    const result = await cli(argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^svc-manifest git: [^\n]+ \(see 'svc-manifest git( [a-z-]+)? --help'\)\n$/);
  }
  expect((await cli(['set-default-agnt', 'x'])).stderr).toBe(
    "svc-manifest git: unknown command 'set-default-agnt'; did you mean 'set-default-agent'? (see 'svc-manifest git --help')\n",
  );
  expect((await cli(['install', 'x'])).stderr).toBe(
    "svc-manifest git: install needs --catalog DIR|URL (see 'svc-manifest git install --help')\n",
  );
  // What the user typed reaches the terminal escaped: a colour sequence, a bidirectional override.
  expect((await cli(['set\u001b[31m\u202e'])).stderr).toBe(
    "svc-manifest git: unknown command 'set\\x1b[31m\\u202e' (see 'svc-manifest git --help')\n",
  );
  expect((await cli(['set-default-agent', '--bad\u0007'])).stderr).toBe(
    "svc-manifest git: unknown option --bad\\x07 (see 'svc-manifest git --help')\n",
  );
});

test('an unknown item is refused with exit 1 and no commit', async () => {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const before = head(repo);
  const result = await cli(['install', 'nope', '--repo', repo, '--catalog', tempDir()]);
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^refused: unknown-item: the marketplace at file:\/\/.+ has no item 'nope'\n$/);
  expect(head(repo)).toBe(before);
});
