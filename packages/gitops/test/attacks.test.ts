/**
 * Regression corpus: catalogs, items, lock files and repositories crafted by an attacker.
 * Every attack is refused with its code, and the repository's refs (`git for-each-ref`)
 * and tree (`git ls-tree -r -t`) are exactly what they were before.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  install,
  remove,
  RefusedError,
  runGitCli,
  setAgentScope,
  setDefaultAgent,
  update,
  type ApplyOptions,
  type CatalogLimits,
  type RefusalCode,
} from '../src/index.js';
import { lf, PDF_V1, PDF_V2, writeCatalogItem } from './support/fixtures.js';
import { verifyTree } from '../src/applier.js';
import { GitRepo } from '../src/git/repo.js';
import { MemoryCatalog, type MemoryItem } from './support/memory-catalog.js';
import { AUTHOR, cleanupTempDirs, expectRefused, git, refsOf, show, tempDir, writeFiles } from './support/repos.js';

afterAll(cleanupTempDirs);

const MANIFEST = lf([
  '# demo',
  'svc_version: 2',
  'default_agent: main',
  'agents:',
  '  main:',
  '    enabled: true',
  '  helper:',
  '    enabled: true',
]);
const README = 'read me\n';

/**
 * A repository with a manifest, a README, a folder, an executable, and a tracked
 * symlink `link` → `docs`. Bare unless `bare: false`; `extra` adds or replaces files.
 */
function victim(
  options: { bare?: boolean; extra?: Record<string, string | Uint8Array>; symlinks?: Record<string, string> } = {},
): string {
  const dir = tempDir();
  const work = join(dir, 'work');
  git(dir, ['init', '-q', '-b', 'main', work]);
  git(work, ['config', 'core.autocrlf', 'false']);
  writeFiles(work, {
    'svc.yaml': MANIFEST,
    'README.md': README,
    'docs/guide.md': 'guide\n',
    'bin/tool': '#!/bin/sh\n',
    ...options.extra,
  });
  for (const [path, target] of Object.entries({ link: 'docs', ...options.symlinks }))
    symlinkSync(target, join(work, path));
  git(work, ['add', '-A']);
  git(work, ['update-index', '--chmod=+x', 'bin/tool']);
  git(work, ['commit', '-q', '-m', 'initial']);
  if (options.bare === false) return work;
  const bare = join(dir, 'repo.git');
  git(dir, ['clone', '-q', '--bare', work, bare]);
  return bare;
}

async function options(extra: ApplyOptions = {}): Promise<ApplyOptions> {
  return { author: AUTHOR, ...extra };
}

/** Runs `operation`, expects a refusal with `code`, and checks no ref moved (support/repos.ts). */
async function expectRefusedWith(
  repo: string,
  code: RefusalCode,
  operation: () => Promise<unknown>,
): Promise<RefusedError> {
  const error = await expectRefused(repo, operation);
  expect(error.code, error.message).toBe(code);
  return error;
}

function evil(files: Record<string, string | Uint8Array>, more: Partial<MemoryItem> = {}): MemoryCatalog {
  return new MemoryCatalog({ evil: { files, ...more } });
}

describe('item paths', () => {
  const unsafe: [string, string][] = [
    ['svc.yaml/pwn', 'is inside svc.yaml, which is reserved'],
    ['svc.yaml', 'is the manifest (svc.yaml)'],
    ['SVC.YAML', 'is the manifest (svc.yaml)'],
    ['svc.toml', 'is the manifest (svc.toml)'],
    ['svc.lock.json', 'is the lock file (svc.lock.json)'],
    ['.git/config', "has a component '.git' that git treats as .git"],
    ['.git./config', "has a component '.git.' that git treats as .git"],
    ['.git /config', "has a component '.git ' that git treats as .git"],
    ['.GIT/config', "has a component '.GIT' that git treats as .git"],
    ['GIT~1/config', "has a component 'GIT~1' that git treats as .git"],
    ['a/.git/hooks/post-checkout', "has a component '.git' that git treats as .git"],
    ['.gitmodules', "has a component '.gitmodules' that git treats as .gitmodules"],
    ['sub/GITMOD~1', "has a component 'GITMOD~1' that git treats as .gitmodules"],
    ['.gitattributes', "has a component '.gitattributes' that git treats as .gitattributes"],
    ['.git::$INDEX_ALLOCATION/config', "contains ':', which is not allowed in file names on Windows"],
    ['\u200c.git/config', 'contains invisible character U+200C'],
    ['a\\b', 'contains a backslash (paths use /)'],
    ['a\nb', 'contains control character U+000A'],
    ['x\rSigned-off-by: Mallory <m@example.test>', 'contains control character U+000D'],
    ['../x', 'must be normalised (no empty, . or .. segments)'],
    ['skills/../../x', 'must be normalised (no empty, . or .. segments)'],
    ['./x', 'must be normalised (no empty, . or .. segments)'],
    ['a//b', 'must be normalised (no empty, . or .. segments)'],
    ['a/', 'must be normalised (no empty, . or .. segments)'],
    ['/etc/passwd', 'must be relative (it starts with /)'],
    ['', 'must not be empty'],
    ['skills./x', "has a component 'skills.' ending in a dot or space (Windows drops them)"],
    ['aux.txt', "has a component 'aux.txt' that is a Windows device name"],
    ['PROGRA~1/x', "has a component 'PROGRA~1' that looks like an NTFS 8.3 short name (it may name another file)"],
    ['e\u0301.md', 'is not in Unicode normal form C'],
    [`${'a'.repeat(256)}.md`, 'has a component longer than 255 bytes'],
  ];
  test.each(unsafe)('unsafe path %j is refused before anything is fetched', async (path, why) => {
    const repo = victim();
    const catalog = evil({ [path]: 'pwned\n' });
    const error = await expectRefusedWith(repo, 'unsafe-path', async () =>
      install(repo, 'evil', { ...(await options()), catalog }),
    );
    expect(error.message).toBe(`marketplace item 'evil' lists file ${JSON.stringify(path)}, which ${why}`);
    expect(error.details.file).toBe(path);
    expect(catalog.reads).toEqual(['item evil']);
  });

  const conflicts: [string, string][] = [
    ['docs', 'is a tracked directory'],
    ['README.md/x', "would go through 'README.md', which is a tracked file"],
    ['bin/tool/x', "would go through 'bin/tool', which is a tracked file"],
    ['link/pwned.txt', "would go through 'link', which is a tracked symlink"],
    ['Readme.md', "differs only in case from 'README.md' (one path on case-insensitive file systems)"],
    [
      'DOCS/new.md',
      "has a folder 'DOCS' that differs only in case from 'docs' (one path on case-insensitive file systems)",
    ],
  ];
  test.each(conflicts)('%j conflicts with what the repository tracks', async (path, why) => {
    const repo = victim();
    const error = await expectRefusedWith(repo, 'path-conflict', async () =>
      install(repo, 'evil', { ...(await options()), catalog: evil({ [path]: 'pwned\n' }) }),
    );
    expect(error.message).toBe(`item file '${path}' ${why}; nothing was written`);
    expect(error.details.file).toBe(path);
  });

  test('a tracked file is never adopted, not even with identical content (a later remove would delete it)', async () => {
    const repo = victim();
    for (const [path, content] of [
      ['README.md', README],
      ['README.md', 'other\n'],
      ['link', 'docs'],
    ] as const) {
      const error = await expectRefusedWith(repo, 'conflict', async () =>
        install(repo, 'evil', { ...(await options()), catalog: evil({ [path]: content }) }),
      );
      expect(error.details.files).toEqual([expect.objectContaining({ path, status: 'exists' })]);
    }
  });

  test('two item paths that are one file on a case-insensitive disk, or one inside the other', async () => {
    const repo = victim();
    const twins = await expectRefusedWith(repo, 'invalid-item', async () =>
      install(repo, 'evil', { ...(await options()), catalog: evil({ 'x.md': 'a', 'X.md': 'b' }) }),
    );
    expect(twins.message).toBe(
      "marketplace item 'evil' is invalid: files lists 'x.md' and 'X.md', which differ only in case",
    );
    const nested = await expectRefusedWith(repo, 'path-conflict', async () =>
      install(repo, 'evil', { ...(await options()), catalog: evil({ new: 'a', 'new/inner': 'b' }) }),
    );
    expect(nested.message).toBe("item file 'new/inner' is inside 'new', also an item file; nothing was written");
  });

  test('a file the item owns but that is now a symlink is never written through or deleted', async () => {
    const repo = victim({ bare: false });
    const catalog = tempDir();
    writeCatalogItem(catalog, 'pdf-tools', PDF_V1);
    expect((await install(repo, 'pdf-tools', { ...(await options()), catalog })).status).toBe('committed');
    execFileSync('rm', [join(repo, 'skills/pdf-tools/SKILL.md')]);
    symlinkSync('/etc/passwd', join(repo, 'skills/pdf-tools/SKILL.md'));
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-q', '-m', 'SKILL.md becomes a symlink']);
    writeCatalogItem(catalog, 'pdf-tools', PDF_V2);
    const updated = await expectRefusedWith(repo, 'conflict', async () =>
      update(repo, 'pdf-tools', { ...(await options()), catalog }),
    );
    expect(updated.details.files).toEqual([
      {
        path: 'skills/pdf-tools/SKILL.md',
        status: 'conflict',
        message:
          'skills/pdf-tools/SKILL.md is now a tracked symlink in the repository; an item only replaces regular files',
      },
    ]);
    const removed = await expectRefusedWith(repo, 'path-conflict', async () =>
      remove(repo, 'pdf-tools', { ...(await options()), force: true }),
    );
    expect(removed.message).toBe("item file 'skills/pdf-tools/SKILL.md' is a tracked symlink; nothing was written");
  });
});

describe('folder catalogs never follow a symlink', () => {
  function catalogWith(setup: (itemDir: string) => void): string {
    const root = tempDir();
    writeCatalogItem(root, 'evil', { version: '1.0.0', files: { 'notes/readme.txt': 'hi\n' }, manifest: {} });
    setup(join(root, 'evil'));
    return root;
  }
  // A host file outside the catalog, with content no path or message could hold by chance
  // (a real host file such as /etc/hostname may be a short word like a temp folder's name).
  const hostSecretPath = join(tempDir(), 'host-secret.txt');
  const hostSecret = `host-secret-${randomUUID()}`;
  writeFileSync(hostSecretPath, hostSecret);

  test('a file that is a symlink to a host file', async () => {
    const repo = victim();
    const catalog = catalogWith((dir) => {
      execFileSync('rm', [join(dir, 'files/notes/readme.txt')]);
      symlinkSync(hostSecretPath, join(dir, 'files/notes/readme.txt'));
    });
    const error = await expectRefusedWith(repo, 'not-regular-file', async () =>
      install(repo, 'evil', { ...(await options()), catalog }),
    );
    expect(error.message).toBe(
      `file 'notes/readme.txt' of marketplace item 'evil': ${join(catalog, 'evil/files/notes/readme.txt')} is a symlink; a catalog may only hold regular files and folders`,
    );
    // The host file's bytes never reached the object database.
    const oid = execFileSync('git', ['hash-object', '--stdin'], { input: hostSecret }).toString().trim();
    expect(() => git(repo, ['cat-file', '-e', oid])).toThrow();
  });

  test('a folder that is a symlink to a host folder', async () => {
    const repo = victim();
    const catalog = catalogWith((dir) => {
      execFileSync('rm', ['-r', join(dir, 'files/notes')]);
      symlinkSync('/etc', join(dir, 'files/notes'));
      writeFileSync(
        join(dir, 'item.json'),
        JSON.stringify({ name: 'evil', version: '1.0.0', files: ['notes/hostname'] }),
      );
    });
    const error = await expectRefusedWith(repo, 'not-regular-file', async () =>
      install(repo, 'evil', { ...(await options()), catalog }),
    );
    expect(error.message).toContain(`${join(catalog, 'evil/files/notes')} is a symlink`);
  });

  test('an item.json that is a symlink', async () => {
    const repo = victim();
    const catalog = catalogWith((dir) => {
      execFileSync('rm', [join(dir, 'item.json')]);
      symlinkSync(hostSecretPath, join(dir, 'item.json'));
    });
    const error = await expectRefusedWith(repo, 'not-regular-file', async () =>
      install(repo, 'evil', { ...(await options()), catalog }),
    );
    expect(error.message).not.toContain(hostSecret);
  });
});

describe('sizes are bounded', () => {
  const cases: [string, Partial<CatalogLimits>, Record<string, string>, string][] = [
    [
      'per file',
      { maxFileBytes: 1000 },
      { 'big.bin': 'x'.repeat(1001) },
      "file 'big.bin' of marketplace item 'evil' is larger than the file limit of 1000 bytes; nothing was written",
    ],
    [
      'per item',
      { maxItemBytes: 1000 },
      { a: 'x'.repeat(600), b: 'x'.repeat(600) },
      "marketplace item 'evil' is larger than the item limit of 1000 bytes; nothing was written",
    ],
    [
      'in total',
      { maxTotalBytes: 500 },
      { a: 'x'.repeat(501) },
      'the items this operation fetches is larger than the total limit of 500 bytes; nothing was written',
    ],
    [
      'file count',
      { maxFiles: 2 },
      { a: '1', b: '2', c: '3' },
      "marketplace item 'evil' lists 3 files, more than the limit of 2",
    ],
  ];
  test.each(cases)('%s (a custom catalog that ignores the bound)', async (_name, limits, files, message) => {
    const repo = victim();
    const error = await expectRefusedWith(repo, 'too-large', async () =>
      install(repo, 'evil', { ...(await options()), catalog: evil(files), limits }),
    );
    expect(error.message).toBe(message);
  });

  test('a folder catalog does not read a file beyond the limit', async () => {
    const repo = victim();
    const catalog = tempDir();
    writeCatalogItem(catalog, 'evil', { version: '1.0.0', files: { 'big.bin': 'x'.repeat(5000) }, manifest: {} });
    const error = await expectRefusedWith(repo, 'too-large', async () =>
      install(repo, 'evil', { ...(await options()), catalog, limits: { maxFileBytes: 4096 } }),
    );
    expect(error.message).toBe(
      "file 'big.bin' of marketplace item 'evil' is larger than the limit of 4096 bytes; nothing was written",
    );
  });
});

describe('names that reach a commit message', () => {
  test('a secret name with a newline cannot forge a trailer', async () => {
    const repo = victim();
    const secret = 'TOKEN\nSigned-off-by: Mallory <mallory@example.test>';
    const error = await expectRefusedWith(repo, 'invalid-name', async () =>
      setAgentScope(repo, 'main', { secrets: ['OK', secret] }, await options()),
    );
    expect(error.message).toBe(
      `secret name ${JSON.stringify(secret)} contains control character U+000A (line breaks and control characters are never allowed in names)`,
    );
  });

  test('agent and connector names must match the slug pattern', async () => {
    const repo = victim();
    expect(
      (await expectRefusedWith(repo, 'invalid-name', async () => setDefaultAgent(repo, 'main\nx', await options())))
        .message,
    ).toBe(
      'agent name "main\\nx" contains control character U+000A (line breaks and control characters are never allowed in names)',
    );
    expect(
      (
        await expectRefusedWith(repo, 'invalid-name', async () =>
          setAgentScope(repo, 'main', { connectors: ['Git Hub'] }, await options()),
        )
      ).message,
    ).toBe('connector name "Git Hub" must match [a-z0-9][a-z0-9_-]{0,127}');
  });

  test('an item version with a newline, an author with a newline', async () => {
    const repo = victim();
    const version = '1.0.0\nSigned-off-by: Mallory <m@example.test>';
    const error = await expectRefusedWith(repo, 'invalid-item', async () =>
      install(repo, 'evil', { ...(await options()), catalog: evil({ 'a.md': 'a' }, { version }) }),
    );
    expect(error.message).toContain('contains control character U+000A');
    await expectRefusedWith(repo, 'invalid-name', async () =>
      setDefaultAgent(repo, 'helper', { author: { name: 'Mallory\nX', email: 'm@example.test' } }),
    );
  });
});

describe('item names that are also names of object properties', () => {
  test('constructor, toString and __proto__ find nothing inherited', async () => {
    const repo = victim();
    expect(
      (await expectRefusedWith(repo, 'not-installed', async () => remove(repo, 'constructor', await options())))
        .message,
    ).toBe("'constructor' is not installed (see svc.lock.json)");
    await expectRefusedWith(repo, 'not-installed', async () =>
      update(repo, 'tostring', { ...(await options()), catalog: evil({}) }),
    );
    expect(
      (await expectRefusedWith(repo, 'invalid-name', async () => remove(repo, '__proto__', await options()))).message,
    ).toBe('item name "__proto__" must match [a-z0-9][a-z0-9_-]{0,127}');
    const catalog = new MemoryCatalog({ constructor: { files: { 'skills/constructor/SKILL.md': 'builds things\n' } } });
    expect((await install(repo, 'constructor', { ...(await options()), catalog })).status).toBe('committed');
    expect((await remove(repo, 'constructor', await options())).info.removedFiles).toEqual([
      'skills/constructor/SKILL.md',
    ]);
  });
});

describe('lock files are checked against their schema, never trusted to delete', () => {
  const oid = 'e69de29bb2d1d6434b8b29ae775a6cb5e5a0a2a5';
  const item = (files: unknown) => ({
    id: 'evil',
    version: '1.0.0',
    source: 'memory://catalog',
    integrity: 'sha256-AAAA',
    files,
    manifest: [],
  });
  const locks: [string, unknown, string][] = [
    [
      'the manifest',
      { lockfileVersion: 1, items: { evil: item({ 'svc.yaml': oid }) } },
      'items["evil"].files["svc.yaml"] is not a file an item may own: the path is the manifest (svc.yaml)',
    ],
    [
      'a path outside the repository',
      { lockfileVersion: 1, items: { evil: item({ '../x': oid }) } },
      'items["evil"].files["../x"] is not a file an item may own: the path must be normalised (no empty, . or .. segments)',
    ],
    [
      'the lock file itself',
      { lockfileVersion: 1, items: { evil: item({ 'svc.lock.json': oid }) } },
      'items["evil"].files["svc.lock.json"] is not a file an item may own: the path is the lock file (svc.lock.json)',
    ],
    [
      'a path in .git',
      { lockfileVersion: 1, items: { evil: item({ '.git/config': oid }) } },
      'items["evil"].files[".git/config"] is not a file an item may own: the path has a component \'.git\' that git treats as .git',
    ],
    ['files: null', { lockfileVersion: 1, items: { evil: item(null) } }, 'items["evil"].files must be object'],
    [
      'a file id that is not an object id',
      { lockfileVersion: 1, items: { evil: item({ 'a.md': 'HEAD' }) } },
      'items["evil"].files["a.md"] "HEAD" does not match ^([0-9a-f]{40}|[0-9a-f]{64})$',
    ],
    [
      'a path claimed twice',
      {
        lockfileVersion: 1,
        items: { evil: item({ 'README.md': oid }), other: { ...item({ 'README.md': oid }), id: 'other' } },
      },
      'items["other"].files["README.md"] is also claimed by item \'evil\'',
    ],
    ['another version', { lockfileVersion: 2, items: {} }, 'lockfileVersion must be equal to constant'],
    [
      'an item name that is not a slug',
      { lockfileVersion: 1, items: { 'Evil\n': item({}) } },
      'items has an item name "Evil\\n" that does not match [a-z0-9][a-z0-9_-]{0,127}',
    ],
    [
      'an unknown key',
      { lockfileVersion: 1, items: {}, hooks: 'rm -rf /' },
      '(the whole file) has an unknown key "hooks"',
    ],
  ];
  test.each(locks)('a lock listing %s', async (_name, lock, where) => {
    const repo = victim({ extra: { 'svc.lock.json': JSON.stringify(lock) } });
    const error = await expectRefusedWith(repo, 'invalid-lock', async () =>
      remove(repo, 'evil', { ...(await options()), force: true }),
    );
    expect(error.message).toBe(`svc.lock.json: ${where}; fix or restore the lock file (nothing was changed)`);
    // Every marketplace operation reads the lock first, so none of them can act on it.
    await expectRefusedWith(repo, 'invalid-lock', async () =>
      install(repo, 'evil', { ...(await options()), catalog: evil({ 'new.md': 'x' }) }),
    );
  });

  test('a lock file that is not JSON, or not UTF-8', async () => {
    for (const bytes of [Buffer.from('{"lockfileVersion": 1, "items": {'), Buffer.from([0xff, 0xfe, 0x7b, 0x7d])]) {
      const repo = victim({ extra: { 'svc.lock.json': bytes } });
      const error = await expectRefusedWith(repo, 'invalid-lock', async () => remove(repo, 'evil', await options()));
      expect(error.message).toMatch(/^svc\.lock\.json is not valid UTF-8 JSON: /);
    }
  });
});

describe('raw errors become refusals', () => {
  test('a manifest that is not UTF-8', async () => {
    const repo = victim({ extra: { 'svc.yaml': Buffer.concat([Buffer.from(MANIFEST), Buffer.from([0xc3, 0x28])]) } });
    const error = await expectRefusedWith(repo, 'manifest-unparsable', async () =>
      setDefaultAgent(repo, 'helper', await options()),
    );
    expect(error.message).toBe('svc.yaml is not valid UTF-8');
  });

  test('a manifest that is a symlink is not read through', async () => {
    const dir = tempDir();
    const work = join(dir, 'work');
    git(dir, ['init', '-q', '-b', 'main', work]);
    writeFiles(work, { 'real.yaml': MANIFEST });
    symlinkSync('/etc/hostname', join(work, 'svc.yaml'));
    git(work, ['add', '-A']);
    git(work, ['commit', '-q', '-m', 'initial']);
    const error = await expectRefusedWith(work, 'not-regular-file', async () =>
      setDefaultAgent(work, 'helper', await options()),
    );
    expect(error.message).toBe(
      'svc.yaml is a symlink in the repository; the applier only reads and edits regular files',
    );
  });

  test('a repository path that does not exist, is not a repository, or is the inside of .git', async () => {
    const repo = victim({ bare: false });
    const missing = join(tempDir(), 'nope');
    expect(
      (await setDefaultAgent(missing, 'helper', await options()).catch((e: RefusedError) => e)) as RefusedError,
    ).toMatchObject({
      code: 'not-a-repository',
      message: `${missing} does not exist`,
    });
    const plain = tempDir();
    expect(
      ((await setDefaultAgent(plain, 'helper', await options()).catch((e: RefusedError) => e)) as RefusedError).code,
    ).toBe('not-a-repository');
    const error = await expectRefusedWith(repo, 'not-a-repository', async () =>
      setDefaultAgent(join(repo, '.git'), 'helper', await options()),
    );
    expect(error.message).toBe(
      `${join(repo, '.git')} is inside the git folder of a repository with a work tree (${join(repo, '.git')}); pass the work tree instead`,
    );
  });

  test.each(['trunk~1', 'main^', 'a..b', '-x', 'x\ny', 'HEAD:x', 'x.lock'])(
    'branch name %j is checked with git check-ref-format',
    async (branch) => {
      const repo = victim();
      const error = await expectRefusedWith(repo, 'invalid-branch', async () =>
        setDefaultAgent(repo, 'helper', await options({ branch })),
      );
      expect(error.message).toBe(`${JSON.stringify(branch)} is not a valid branch name (see git check-ref-format)`);
    },
  );

  test('a stale ref lock is named, not blamed on other writers', async () => {
    const repo = victim();
    const lockFile = join(repo, 'refs/heads/main.lock');
    mkdirSync(join(repo, 'refs/heads'), { recursive: true });
    writeFileSync(lockFile, '');
    const past = new Date(Date.now() - 60_000);
    utimesSync(lockFile, past, past);
    const error = await expectRefusedWith(repo, 'ref-locked', async () =>
      setDefaultAgent(repo, 'helper', await options()),
    );
    expect(error.message).toMatch(
      new RegExp(
        `^${lockFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} has existed since .+ and blocks every update of 'main'`,
      ),
    );
    expect(error.details.file).toBe(lockFile);
  });

  test('an unreachable catalog', async () => {
    const repo = victim();
    const missing = join(tempDir(), 'no-catalog');
    const error = await expectRefusedWith(repo, 'catalog-unreachable', async () =>
      install(repo, 'evil', { ...(await options()), catalog: missing }),
    );
    expect(error.message).toBe(`the catalog folder ${missing} does not exist`);
  });
});

describe('the command line: every refusal is one `refused: <code>:` line and exit 1', () => {
  async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runGitCli(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd: tempDir() });
    return { code, stdout, stderr };
  }

  test.each([
    [
      '--repo r/.git',
      (repo: string) => ['set-default-agent', 'helper', '--repo', join(repo, '.git')],
      'not-a-repository',
    ],
    [
      '--repo that does not exist',
      () => ['set-default-agent', 'helper', '--repo', '/nonexistent/svc-repo'],
      'not-a-repository',
    ],
    [
      '--branch trunk~1',
      (repo: string) => ['set-default-agent', 'helper', '--repo', repo, '--branch', 'trunk~1'],
      'invalid-branch',
    ],
    [
      'a secret name with a newline',
      (repo: string) => ['set-agent-scope', 'main', '--secrets', 'A,B\nSigned-off-by: x', '--repo', repo],
      'invalid-name',
    ],
    [
      'an unreachable HTTP catalog',
      (repo: string) => ['install', 'evil', '--repo', repo, '--catalog', 'http://127.0.0.1:9/api'],
      'catalog-unreachable',
    ],
  ] as const)('%s', async (_name, argv, code) => {
    const repo = victim({ bare: false });
    const before = refsOf(repo);
    const result = await cli(argv(repo));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^refused: ${code}: [^\\n]+\\n$`));
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(refsOf(repo)).toBe(before);
  });
});

describe('warnings about the result are carried', () => {
  test('a trigger naming an undeclared agent and a dangling connector: committed, and the result and the CLI say so', async () => {
    const repo = victim();
    const catalog = new MemoryCatalog({
      hooks: {
        files: {},
        manifest: {
          triggers: [{ slug: 'nightly', type: 'cron', cron: '0 3 * * *', prompt: 'report', agent: 'ghost' }],
          agents: { reporter: { enabled: true, connectors: ['nowhere'] } },
        },
      },
    });
    const result = await install(repo, 'hooks', { ...(await options()), catalog });
    expect(result.status).toBe('committed');
    expect(result.warnings).toEqual([
      expect.stringMatching(
        /^svc\.yaml:\d+:\d+ warning agent-connector-declared: agent 'reporter' connector 'nowhere' is not a declared connector/,
      ),
      expect.stringMatching(/^svc\.yaml:\d+:\d+ warning trigger-agent-declared: .*'ghost'/),
    ]);
    expect(show(repo, 'main', 'svc.yaml').toString()).toContain('agent: ghost');

    let stderr = '';
    const code = await runGitCli(['set-default-agent', 'helper', '--repo', repo, '--author', 'A <a@example.test>'], {
      stdout: () => {},
      stderr: (s) => (stderr += s),
      cwd: repo,
    });
    expect(code).toBe(0);
    expect(stderr.split('\n').filter(Boolean)).toEqual(result.warnings.map((warning) => `warning: ${warning}`));
  });
});

describe('defence in depth', () => {
  test('a path git silently leaves out of the tree is caught before the commit', async () => {
    const repo = victim();
    const git_ = await GitRepo.open(repo);
    const base = await git_.treeOf('main');
    const oid = await git_.writeBlob(Buffer.from('pwned\n'));
    // git's index refuses `.git/hooks/x` without an error: the tree comes back unchanged.
    const changes = [{ path: '.git/hooks/post-checkout', mode: '100755', oid }];
    const tree = await git_.buildTree(base, changes);
    expect(tree).toBe(base);
    const error = await verifyTree(git_, base, tree, changes).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'unsafe-path',
      message: 'git did not record ".git/hooks/post-checkout" as written; nothing was committed',
    });
    await expect(
      verifyTree(git_, base, await git_.buildTree(base, [{ path: 'fine.md', mode: '100644', oid }]), [
        { path: 'fine.md', mode: '100644', oid },
      ]),
    ).resolves.toBeUndefined();
  });

  test('a file written where git has a folder of that name would drop the folder: caught by comparing the trees', async () => {
    const repo = victim();
    const git_ = await GitRepo.open(repo);
    const base = await git_.treeOf('main');
    const oid = await git_.writeBlob(Buffer.from('{}\n'));
    const changes = [{ path: 'docs', mode: '100644', oid }];
    const tree = await git_.buildTree(base, changes);
    const error = await verifyTree(git_, base, tree, changes).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'path-conflict',
      message:
        'the change would also remove or replace "docs/guide.md", which the operation does not own; nothing was committed',
    });
  });

  test('a folder named like the lock file is never replaced by the lock file', async () => {
    const repo = victim({ extra: { 'svc.lock.json/keep.txt': 'keep\n' } });
    const error = await expectRefusedWith(repo, 'not-regular-file', async () =>
      install(repo, 'evil', { ...(await options()), catalog: evil({ 'new.md': 'x' }) }),
    );
    expect(error.message).toBe(
      'svc.lock.json is a tracked directory in the repository, not a regular file; it is never replaced',
    );
  });
});
