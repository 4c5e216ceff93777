/**
 * Remote repositories: the applier fetches into a bare cache, commits there exactly as it
 * does locally, and pushes branch and pristine ref atomically under leases. Real servers
 * only: bare repositories behind file://, `git daemon`, and `git http-backend` over HTTP.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import {
  applyEdit,
  install,
  list,
  marketplace,
  PRISTINE_REF,
  project,
  RefusedError,
  registry,
  runGitCli,
  setDefaultAgent,
  update,
  type Edit,
} from '../src/index.js';
import { ItemCache, openCatalog } from '../src/marketplace/catalog.js';
import { installEdit } from '../src/marketplace/install.js';
import { setDefaultAgentEdit } from '../src/operations/agents.js';
import { cachePath, defaultCacheRoot } from '../src/remote/cache.js';
import { parseRemote, redactText, redactUrl } from '../src/remote/url.js';
import { crlf, lf, PDF_V1, PDF_V2, writeCatalogItem, YAML_LINES } from './support/fixtures.js';
import { closedPort, startGitDaemon, startHttpGitServer, startSilentServer } from './support/git-servers.js';
import {
  AUTHOR,
  cleanupTempDirs,
  git,
  makeRepo,
  runSupportChild,
  show,
  subjects,
  tempDir,
  writeFiles,
} from './support/repos.js';

afterAll(cleanupTempDirs);

/** A bare repository with the commented manifest, and its file:// URL. */
function remoteRepo(files: Record<string, string> = { 'svc.yaml': crlf(YAML_LINES) }): { path: string; url: string } {
  const path = makeRepo(files, { bare: true });
  return { path, url: pathToFileURL(path).href };
}

/** Asserts the branch is one chain of `count` commits (each but the root has one parent, the next one down); returns them newest first. */
function expectLinear(repo: string, count: number): string[] {
  const history = git(repo, ['rev-list', '--parents', 'main'])
    .trim()
    .split('\n')
    .map((line) => line.split(' '));
  expect(history).toHaveLength(count);
  history.forEach((ids, i) => expect(ids.slice(1)).toEqual(i === history.length - 1 ? [] : [history[i + 1]![0]]));
  return history.map((ids) => ids[0]!);
}

function refValue(repo: string, ref: string): string | null {
  return git(repo, ['for-each-ref', '--format=%(objectname)', ref]).trim() || null;
}

/** A user's own commit on the remote, made in a plain clone (which does not fetch the hidden refs). */
function pushUserCommit(url: string, files: Record<string, string>, message: string): string {
  const work = join(tempDir(), 'clone');
  git(tempDir(), ['clone', '-q', url, work]);
  git(work, ['config', 'core.autocrlf', 'false']);
  writeFiles(work, files);
  git(work, ['add', '-A']);
  git(work, ['commit', '-q', '-m', message]);
  git(work, ['push', '-q', 'origin', 'HEAD:main']);
  return git(work, ['rev-parse', 'HEAD']).trim();
}

/** Every file under `dir` (the cache), to check no credential was written to disk. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

async function cli(argv: string[], cwd = tempDir()): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runGitCli(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd });
  return { code, stdout, stderr };
}

const SKILL = 'skills/pdf-tools/SKILL.md';

test('install through one cache, update through a fresh one: a three-way update that keeps the local edit', async () => {
  const remote = remoteRepo();
  const catalog = tempDir();
  writeCatalogItem(catalog, 'pdf-tools', PDF_V1);
  const cacheA = tempDir();
  const installed = await install(remote.url, 'pdf-tools', { catalog, cache: cacheA, author: AUTHOR });
  expect(installed).toMatchObject({ status: 'committed', branch: 'main', attempts: 1 });
  // The branch and the pristine ref reached the remote together.
  expect(refValue(remote.path, 'refs/heads/main')).toBe(installed.commit);
  const pristine = refValue(remote.path, PRISTINE_REF);
  expect(pristine).not.toBeNull();
  expect(git(remote.path, ['ls-tree', '-r', '--name-only', PRISTINE_REF]).trim().split('\n')).toHaveLength(2);

  // Someone edits the installed skill in a plain clone and pushes.
  const edited = show(remote.path, 'main', SKILL)
    .toString('utf8')
    .replace('# PDF tools\n', '# PDF tools (our team notes)\n');
  pushUserCommit(remote.url, { [SKILL]: edited }, 'local edit of the skill');

  // Another machine: a cache folder that has never seen this repository.
  writeCatalogItem(catalog, 'pdf-tools', PDF_V2);
  const cacheB = join(tempDir(), 'fresh-cache');
  const updated = await update(remote.url, 'pdf-tools', { catalog, cache: cacheB, author: AUTHOR });
  expect(updated).toMatchObject({
    status: 'committed',
    info: { action: 'updated', from: '1.0.0', to: '1.1.0', merged: [SKILL], kept: [] },
  });
  // Ours (the heading) and upstream's (the new last step) are both in the result.
  expect(show(remote.path, 'main', SKILL).toString('utf8')).toBe(
    edited.replace('3. write a summary\n', '3. write a summary\n4. cite page numbers\n'),
  );
  expect(subjects(remote.path)).toEqual([
    'marketplace: update pdf-tools 1.0.0 -> 1.1.0',
    'local edit of the skill',
    'marketplace: install pdf-tools@1.0.0',
    'initial',
  ]);
  expectLinear(remote.path, 4);
  // The pristine ref grew by the new upstream copy, on top of the old one.
  const pristineAfter = refValue(remote.path, PRISTINE_REF)!;
  expect(git(remote.path, ['rev-parse', `${pristineAfter}^`]).trim()).toBe(pristine);
  expect(readdirSync(join(cacheB, 'repos'))).toHaveLength(1);
});

test('list, marketplace.* and registry.* (the same functions) on a remote and a local repository', async () => {
  const remote = remoteRepo();
  const catalog = tempDir();
  writeCatalogItem(catalog, 'pdf-tools', PDF_V1);
  const cache = tempDir();
  expect(registry).toBe(marketplace);
  expect(Object.keys(registry).sort()).toEqual(['install', 'list', 'remove', 'update', 'updateAll', 'updates']);
  expect(await registry.list(remote.url, { cache })).toEqual([]);
  await registry.install(remote.url, 'pdf-tools', { catalog, cache, author: AUTHOR });
  const expected = [
    {
      name: 'pdf-tools',
      version: '1.0.0',
      id: 'pdf-tools',
      source: pathToFileURL(catalog).href,
      files: ['skills/pdf-tools/SKILL.md', 'skills/pdf-tools/extract.py'],
    },
  ];
  expect(await list(remote.url, { cache })).toEqual(expected);
  expect(await marketplace.list(remote.path)).toEqual(expected);

  const handle = project(remote.url);
  expect(handle.registry).toBe(handle.marketplace);
  writeCatalogItem(catalog, 'pdf-tools', PDF_V2);
  expect(await handle.registry.updates({ catalog, cache })).toEqual([
    { name: 'pdf-tools', id: 'pdf-tools', installed: '1.0.0', available: '1.1.0' },
  ]);
  expect(await handle.setDefaultAgent('pdf', { cache, author: AUTHOR })).toMatchObject({ status: 'committed' });
  expect(show(remote.path, 'main', 'svc.yaml').toString('utf8')).toContain(
    'default_agent: pdf       # the agent new sessions prefer\r\n',
  );

  const json = await cli(['list', '--repo', remote.url, '--cache', cache, '--format', 'json']);
  expect(json).toEqual({ code: 0, stdout: `${JSON.stringify(expected, null, 2)}\n`, stderr: '' });
  const text = await cli(['list', '--repo', remote.path]);
  expect(text).toEqual({
    code: 0,
    stdout: `pdf-tools 1.0.0 (pdf-tools from ${pathToFileURL(catalog).href})\n  skills/pdf-tools/SKILL.md\n  skills/pdf-tools/extract.py\n`,
    stderr: '',
  });
  expect(await cli(['list', '--repo', makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true })])).toEqual({
    code: 0,
    stdout: 'no items installed\n',
    stderr: '',
  });
});

const APPLIERS = 8;

test(`${APPLIERS} appliers in separate processes, one file:// remote (half with their own cache, half sharing one): all land, linear history`, async () => {
  const lines = ['# one agent per applier', 'svc_version: 2', 'default_agent: agent-0', 'agents:'];
  for (let i = 0; i < APPLIERS; i++) lines.push(`  agent-${i}:`, '    enabled: true   # on');
  const remote = remoteRepo({ 'svc.yaml': lf(lines) });
  const shared = tempDir();
  const results = await Promise.all(
    Array.from({ length: APPLIERS }, (_, i) =>
      runSupportChild('remote-child.ts', [remote.url, String(i), i % 2 === 0 ? tempDir() : shared]),
    ),
  );
  for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });
  const outcomes = results.map(
    (result) => JSON.parse(result.stdout) as { status: string; commit: string; attempts: number },
  );
  expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(APPLIERS).fill('committed'));
  const history = expectLinear(remote.path, APPLIERS + 1);
  expect(new Set(outcomes.map((outcome) => outcome.commit))).toEqual(new Set(history.slice(0, -1)));
  const text = show(remote.path, 'main', 'svc.yaml').toString('utf8');
  for (let i = 0; i < APPLIERS; i++)
    expect(text).toContain(`  agent-${i}:\n    enabled: true   # on\n    secrets: [SECRET_${i}]\n`);
}, 300_000);

test('a push rejected because another writer moved the branch first is redone from scratch on the new head', async () => {
  const remote = remoteRepo();
  let runs = 0;
  let competitor = '';
  const edit: Edit<unknown> = async (snapshot, repo) => {
    runs++;
    if (runs === 1)
      competitor = pushUserCommit(
        remote.url,
        { 'NOTES.md': 'pushed while the applier was working\n' },
        'a concurrent writer',
      );
    return setDefaultAgentEdit('helper')(snapshot, repo);
  };
  const result = await applyEdit(remote.url, edit, { cache: tempDir(), author: AUTHOR });
  expect(result).toMatchObject({ status: 'committed', attempts: 2, parent: competitor });
  expect(runs).toBe(2);
  expect(expectLinear(remote.path, 3)).toEqual([
    result.commit,
    competitor,
    git(remote.path, ['rev-list', '--max-parents=0', 'main']).trim(),
  ]);
  expect(show(remote.path, 'main', 'NOTES.md').toString('utf8')).toBe('pushed while the applier was working\n');
});

test('a concurrent move of only the pristine ref also fails the lease; the retry builds on it', async () => {
  const remote = remoteRepo();
  const catalog = tempDir();
  writeCatalogItem(catalog, 'pdf-tools', PDF_V1);
  const before = refValue(remote.path, 'refs/heads/main')!;
  let foreign = '';
  let runs = 0;
  const cache = tempDir();
  // Another applier stores a pristine copy on the remote between our fetch and our push.
  const other = makeRepo({ 'objects/00/1234': 'another pristine copy\n' });
  const inner = installEdit(new ItemCache(openCatalog(catalog)), 'pdf-tools');
  const edit: Edit<unknown> = async (snapshot, repo) => {
    runs++;
    if (runs === 1) {
      git(other, ['push', '-q', remote.url, `HEAD:${PRISTINE_REF}`]);
      foreign = git(other, ['rev-parse', 'HEAD']).trim();
    }
    return inner(snapshot, repo);
  };
  const result = await applyEdit(remote.url, edit, { cache, author: AUTHOR });
  expect(result).toMatchObject({ status: 'committed', attempts: 2, parent: before });
  const pristine = refValue(remote.path, PRISTINE_REF)!;
  expect(git(remote.path, ['rev-parse', `${pristine}^`]).trim()).toBe(foreign);
  expect(git(remote.path, ['ls-tree', '-r', '--name-only', PRISTINE_REF]).trim().split('\n')).toHaveLength(3);
});

test('smart HTTP with Basic auth: credentials in the URL work, and never appear in output, errors or the cache', async () => {
  const root = tempDir();
  const remote = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  git(tempDir(), ['clone', '-q', '--bare', remote, join(root, 'demo.git')]);
  const server = await startHttpGitServer(root, { user: 'alice', password: 's3cr3t-t0ken' });
  const cache = tempDir();
  const secret = 's3cr3t-t0ken';
  try {
    const url = `http://alice:${secret}@127.0.0.1:${server.port}/demo.git`;
    const ok = await cli([
      'set-default-agent',
      'helper',
      '--repo',
      url,
      '--cache',
      cache,
      '--author',
      'Cli User <cli@example.test>',
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^committed [0-9a-f]{40} on main: svc: set default agent to helper\n$/);
    expect(show(join(root, 'demo.git'), 'main', 'svc.yaml').toString('utf8')).toContain(
      'default_agent: helper       # the agent new sessions prefer\r\n',
    );
    expect(server.requests.some((line) => line.startsWith('POST /demo.git/git-receive-pack'))).toBe(true);

    const json = await cli(['list', '--repo', url, '--cache', cache, '--format', 'json']);
    expect(json).toEqual({ code: 0, stdout: '[]\n', stderr: '' });

    const wrong = await cli([
      'set-default-agent',
      'main',
      '--repo',
      `http://alice:wr0ng-passw0rd@127.0.0.1:${server.port}/demo.git`,
      '--cache',
      cache,
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /^refused: remote-unreachable: could not read the default branch of http:\/\/\*\*\*@127\.0\.0\.1:\d+\/demo\.git: .*Authentication failed/,
    );
    expect(wrong.stderr).not.toContain('wr0ng-passw0rd');

    const missing = await cli(['set-default-agent', 'main', '--repo', url, '--branch', 'nope', '--cache', cache]);
    expect(missing).toEqual({
      code: 1,
      stdout: '',
      stderr: `refused: unknown-branch: branch 'nope' does not exist in http://***@127.0.0.1:${server.port}/demo.git\n`,
    });

    const down = `https://alice:${secret}@127.0.0.1:${await closedPort()}/demo.git`;
    const error = await setDefaultAgent(down, 'main', { cache, timeoutMs: 30_000 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RefusedError);
    expect((error as RefusedError).code).toBe('remote-unreachable');
    expect(`${(error as Error).message}\n${(error as Error).stack}`).not.toContain(secret);
    expect((error as Error).message).toContain('https://***@127.0.0.1:');

    // No credentials in the URL and none from git: refused at once, never a prompt.
    const plain = `http://127.0.0.1:${server.port}/demo.git`;
    const noCredentials = await cli(['list', '--repo', plain, '--cache', cache]);
    expect(noCredentials.code).toBe(1);
    expect(noCredentials.stderr).toMatch(
      /^refused: remote-unreachable: could not read the default branch of http:\/\/127\.0\.0\.1:\d+\/demo\.git: .*(terminal prompts disabled|could not read Username)/,
    );
    // Credentials from git's own mechanisms (here a credential helper from the environment's config) are used as they are.
    const saved = { ...process.env };
    Object.assign(process.env, {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'credential.helper',
      GIT_CONFIG_VALUE_0: `!f() { echo username=alice; echo password=${secret}; }; f`,
    });
    try {
      const helped = await cli([
        'set-default-agent',
        'main',
        '--repo',
        plain,
        '--cache',
        cache,
        '--author',
        'Cli User <cli@example.test>',
      ]);
      expect(helped.code).toBe(0);
      // Only the validator's warnings about the manifest (its agents name undeclared connectors).
      expect(
        helped.stderr
          .split('\n')
          .filter(Boolean)
          .every((line) => line.startsWith('warning: svc.yaml:')),
      ).toBe(true);
    } finally {
      for (const key of ['GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0', 'GIT_CONFIG_VALUE_0']) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
    expect(show(join(root, 'demo.git'), 'main', 'svc.yaml').toString('utf8')).toContain(
      'default_agent: main       # the agent new sessions prefer\r\n',
    );

    for (const output of [ok, json, wrong, missing, noCredentials])
      expect(output.stdout + output.stderr).not.toContain(secret);
    const files = filesUnder(cache);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(readFileSync(file).includes(secret), file).toBe(false);
  } finally {
    await server.stop();
  }
});

test('git daemon (git://): install and list through the daemon', async () => {
  const root = tempDir();
  const seed = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  git(tempDir(), ['clone', '-q', '--bare', seed, join(root, 'demo.git')]);
  const catalog = tempDir();
  writeCatalogItem(catalog, 'pdf-tools', PDF_V1);
  const daemon = await startGitDaemon(root);
  try {
    const url = `git://127.0.0.1:${daemon.port}/demo.git`;
    const cache = tempDir();
    const result = await install(url, 'pdf-tools', { catalog, cache, author: AUTHOR });
    expect(result).toMatchObject({ status: 'committed', attempts: 1 });
    expect(refValue(join(root, 'demo.git'), 'refs/heads/main')).toBe(result.commit);
    expect(refValue(join(root, 'demo.git'), PRISTINE_REF)).not.toBeNull();
    expect((await list(url, { cache: tempDir() })).map((item) => `${item.name}@${item.version}`)).toEqual([
      'pdf-tools@1.0.0',
    ]);
  } finally {
    await daemon.stop();
  }
});

test('a remote that never answers is refused when the time limit passes; a closed port at once', async () => {
  const silent = await startSilentServer();
  try {
    for (const url of [`git://127.0.0.1:${silent.port}/demo.git`, `http://127.0.0.1:${silent.port}/demo.git`]) {
      const error = await setDefaultAgent(url, 'main', { cache: tempDir(), timeoutMs: 1_000 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RefusedError);
      expect(error).toMatchObject({ code: 'remote-timeout' });
      expect((error as Error).message).toBe(
        `could not read the default branch of ${url}: no answer within 1 s (the remote is unreachable or too slow; raise the timeout with --timeout)`,
      );
    }
    const cliResult = await cli([
      'updates',
      '--repo',
      `git://127.0.0.1:${silent.port}/demo.git`,
      '--branch',
      'main',
      '--catalog',
      tempDir(),
      '--timeout',
      '0.5',
      '--cache',
      tempDir(),
    ]);
    expect(cliResult).toEqual({
      code: 1,
      stdout: '',
      stderr: `refused: remote-timeout: could not fetch from git://127.0.0.1:${silent.port}/demo.git: no answer within 0.5 s (the remote is unreachable or too slow; raise the timeout with --timeout)\n`,
    });
  } finally {
    await silent.stop();
  }
  const closed = await setDefaultAgent(`git://127.0.0.1:${await closedPort()}/demo.git`, 'main', {
    cache: tempDir(),
  }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(closed).toMatchObject({ code: 'remote-unreachable' });
  expect((closed as Error).message).toMatch(/Connection refused|unable to connect/i);
});

test('transports the applier does not use are refused before git runs', async () => {
  for (const url of [
    'ext::sh -c touch% /tmp/pwned',
    'fd::3',
    'ftp://example.test/repo.git',
    '-oProxyCommand=x:repo',
    'ssh://-oProxyCommand=x/repo',
  ]) {
    const result = await cli(['set-default-agent', 'main', '--repo', url, '--cache', tempDir()]);
    expect(result.code, url).toBe(1);
    expect(result.stderr, url).toMatch(
      /^refused: unsupported-url: '.*' (uses a transport the applier does not support|is not a usable repository URL|names a host that starts with '-')/,
    );
  }
});

test('a push the remote refuses for another reason (a hook) is refused, not retried', async () => {
  const remote = remoteRepo();
  writeFiles(remote.path, { 'hooks/pre-receive': '#!/bin/sh\necho "main is protected" >&2\nexit 1\n' });
  chmodSync(join(remote.path, 'hooks/pre-receive'), 0o755);
  const before = refValue(remote.path, 'refs/heads/main');
  let runs = 0;
  const edit: Edit<unknown> = async (snapshot, repo) => {
    runs++;
    return setDefaultAgentEdit('helper')(snapshot, repo);
  };
  const error = await applyEdit(remote.url, edit, { cache: tempDir(), author: AUTHOR }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ code: 'push-rejected' });
  expect((error as Error).message).toBe(
    `${remote.url} refused the push: refs/heads/main (pre-receive hook declined); remote: main is protected; error: failed to push some refs to '${remote.url}'`,
  );
  expect(runs).toBe(1);
  expect(refValue(remote.path, 'refs/heads/main')).toBe(before);
});

test('a branch name that would change a refspec is refused before anything is fetched', async () => {
  const remote = remoteRepo();
  const cache = tempDir();
  for (const branch of ['main:refs/heads/other', '*', '+main', '-x', 'a..b', 'main.lock', 'with space']) {
    const error = await setDefaultAgent(remote.url, 'helper', { branch, cache }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error, branch).toMatchObject({
      code: 'unknown-branch',
      message: `${JSON.stringify(branch)} is not a valid branch name (for ${remote.url})`,
    });
  }
  expect(git(remote.path, ['for-each-ref', '--format=%(refname)']).trim()).toBe('refs/heads/main');
});

test('URLs and paths are told apart as git does; credentials are redacted', () => {
  const cases: [string, string | null][] = [
    ['/srv/repos/demo.git', null],
    ['./demo', null],
    ['dir/with:colon', null],
    ['file:///srv/repos/demo.git', 'file:///srv/repos/demo.git'],
    ['git@forge.example:team/demo.git', 'git@forge.example:team/demo.git'],
    ['forge.example:demo.git', 'forge.example:demo.git'],
    ['[::1]:demo.git', '[::1]:demo.git'],
    ['ssh://git@forge.example:2222/team/demo.git', 'ssh://***@forge.example:2222/team/demo.git'],
    ['https://x-access-token:ghp_abcdef123456@forge.example/team/demo.git', 'https://***@forge.example/team/demo.git'],
    ['https://user:p%40ss@w0rd@forge.example/demo.git', 'https://***@forge.example/demo.git'],
    ['user:pw123456@forge.example:demo.git', 'user:***@forge.example:demo.git'],
  ];
  for (const [spec, display] of cases) expect(parseRemote(spec)?.display ?? null, spec).toBe(display);
  const remote = parseRemote('https://x-access-token:ghp_abcdef123456@forge.example/team/demo.git')!;
  expect(
    redactText(
      "fatal: unable to access 'https://x-access-token:ghp_abcdef123456@forge.example/team/demo.git/': 403, token ghp_abcdef123456",
      remote,
    ),
  ).toBe("fatal: unable to access 'https://***@forge.example/team/demo.git/': 403, token ***");
  expect(redactUrl('https://tok@forge.example/x')).toBe('https://***@forge.example/x');
  // The ssh user is not a secret: it is not blanked elsewhere in a message.
  expect(redactText('git said: git is fine', parseRemote('git@forge.example:demo.git')!)).toBe('git said: git is fine');
  expect(defaultCacheRoot({ XDG_CACHE_HOME: '/var/cache/me' })).toBe('/var/cache/me/svc-manifest');
  expect(defaultCacheRoot({ XDG_CACHE_HOME: 'relative/ignored' })).toBe(join(homedir(), '.cache', 'svc-manifest'));
  expect(defaultCacheRoot({})).toBe(join(homedir(), '.cache', 'svc-manifest'));
  // One cache per repository, whatever the credentials.
  expect(cachePath(parseRemote('https://a:one-secret@forge.example/demo.git')!, '/c')).toBe(
    cachePath(parseRemote('https://forge.example/demo.git')!, '/c'),
  );
  expect(cachePath(parseRemote('https://forge.example/demo.git')!, '/c')).toMatch(
    /^\/c\/repos\/forge\.example_demo\.git-[0-9a-f]{16}\.git$/,
  );
});
