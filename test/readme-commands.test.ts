/**
 * The README is executable. In a fresh clone of the repository (its committed HEAD), the quick
 * start's first line runs first, exactly as written; then every shell command of the root README
 * and of each package README runs as written, in the folder the README names, and what it prints,
 * exits with and writes is checked.
 *
 * Everything runs offline (`npm_config_offline`: only the npm cache answers) and, after `npm ci`,
 * against a registry address where nothing listens: a command that falls back to looking a name
 * up in a registry (a plain `npx svc-manifest` where the bin is not linked) fails here instead of
 * reaching out. Every shell block must be known to this test: a new one fails it until it is
 * given checks (or a reason not to run it).
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cloneRepository, initializeOverStdio } from './support/fresh-clone.js';
import { offlineEnv } from './support/packed.js';

const LIBRARY_LINE =
  "node --input-type=module -e \"import { validateManifest } from '@svc-manifest/validator'; import { readFileSync } from 'node:fs'; console.log(validateManifest(readFileSync('examples/svc.yaml', 'utf8'), { filename: 'svc.yaml' }).ok)\"";

const MONOREPO_LINE =
  'mono=$(mktemp -d) && git -C "$mono" init --quiet && mkdir -p "$mono/services/api" "$mono/services/web" "$mono/node_modules/dep"';

const FIX_LINE =
  'npx --no-install svc-manifest validate --fix-dry-run fixable/svc.yaml  # the safe fixes as a unified diff; nothing is written';

/**
 * The fix, migrate and convert examples (the same three commands in the root and the validator
 * README), run in examples/: the diff, the located refusal and the YAML, with nothing written.
 */
function checkFixMigrateConvert(file: string): void {
  const b = block(file, FIX_LINE);
  expect(b.lines).toHaveLength(3);
  const before = ['fixable/svc.yaml', 'legacy/svc.toml'].map((path) => readFileSync(join(examples, path), 'utf8'));
  const [fix, migrate, convert] = runLines(b, examples);
  expect(fix).toMatchObject({ status: 0, stderr: '✔ fixable/svc.yaml: no problems\n' });
  expect(fix!.stdout).toContain(
    '\n-svc_version: 2.0            # a whole number, written as a decimal\n+svc_version: 2            # a whole number, written as a decimal\n',
  );
  expect(fix!.stdout).toContain(
    '\n+    connectors: [docs]       # misspelt: `connectors`\n+    connectors_required:    # the old name of `connectors_required`\n',
  );
  expect(migrate!.status).toBe(1);
  expect(migrate!.stdout).toMatch(
    /^legacy\/svc\.toml\n {2}11:28 +error +agent 'triage': svc_cli permission 'channel\.read' exists only in svc_version 1 +migrate-svc-cli\n/,
  );
  expect(convert).toMatchObject({ status: 0, stderr: '' });
  expect(convert!.stdout).toContain('\nagents:\n  - name: triage\n');
  expect(convert!.stdout.startsWith('# A legacy manifest')).toBe(true);
  // Nothing was written.
  expect(['fixable/svc.yaml', 'legacy/svc.toml'].map((path) => readFileSync(join(examples, path), 'utf8'))).toEqual(
    before,
  );
  expect(existsSync(join(examples, 'legacy', 'svc.yaml'))).toBe(false);
}

// Builds, packaging and npm runs on a shared machine: generous time per command.
vi.setConfig({ testTimeout: 300_000 });

const READMES = [
  'README.md',
  'packages/schema/README.md',
  'packages/validator/README.md',
  'packages/lsp/README.md',
  'packages/gitops/README.md',
  'packages/vscode-extension/README.md',
];

/** Sections whose commands another suite runs (pre-commit, the GitHub Action, editor set-ups). */
const TESTED_ELSEWHERE = /^(pre-commit|CI|Editors)\b/i;

interface Block {
  file: string;
  /** The headings above the block, outermost first. */
  headings: string[];
  /** Command lines (comments and blank lines left out; `\` continuations joined). */
  lines: string[];
}

function shellBlocks(file: string, text: string): Block[] {
  const blocks: Block[] = [];
  const headings: string[] = [];
  let current: Block | undefined;
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    if (fence === undefined) {
      const heading = /^(#{1,6}) (.*)$/.exec(line);
      if (heading) {
        headings.length = heading[1]!.length - 1;
        headings[heading[1]!.length - 1] = heading[2]!.trim();
        continue;
      }
      const open = /^(```+)\s*([\w-]*)/.exec(line);
      if (open) {
        fence = open[1]!;
        if (['sh', 'bash', 'shell'].includes(open[2]!))
          current = { file, headings: headings.filter(Boolean), lines: [] };
      }
      continue;
    }
    if (line.startsWith(fence)) {
      if (current) blocks.push(current);
      current = undefined;
      fence = undefined;
      continue;
    }
    if (!current || line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const previous = current.lines.at(-1);
    if (previous?.endsWith('\\'))
      current.lines[current.lines.length - 1] = `${previous.slice(0, -1)}${line.trimStart()}`;
    else current.lines.push(line);
  }
  return blocks;
}

let work: string;
let clone: string;
let examples: string;
let env: NodeJS.ProcessEnv;
let quickStart: SpawnSyncReturns<string>;
let blocks: Block[];

/**
 * Runs a shell script. npm's own warnings about the machine's npm configuration (e.g. an unknown
 * key in a global npmrc) are taken out of stderr: they are not the command's output.
 */
function sh(script: string, cwd: string, extraEnv: Record<string, string> = {}): SpawnSyncReturns<string> {
  const result = spawnSync('bash', ['-e', '-c', script], {
    cwd,
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    timeout: 300_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return {
    ...result,
    stderr: result.stderr.replace(/^npm warn (Unknown (user|env|project|global|builtin) config|config) .*\n/gm, ''),
  };
}

function readClone(path: string): string {
  return readFileSync(join(clone, path), 'utf8');
}

/** The one block of `file` whose first command is `first`. */
function block(file: string, first: string): Block {
  const found = blocks.filter((b) => b.file === file && b.lines[0] === first);
  expect(found.length, `${file}: one shell block starting with ${first}`).toBe(1);
  return found[0]!;
}

/** Runs each line of the block on its own in `cwd`, except the `skipped` ones (index → why). */
function runLines(
  b: Block,
  cwd: string,
  skipped: Record<number, string> = {},
): (SpawnSyncReturns<string> | undefined)[] {
  return b.lines.map((line, index) => (index in skipped ? undefined : sh(line, cwd)));
}

/** The stylish output block that follows the paragraph mentioning `marker` in the README. */
function outputBlockAfter(text: string, marker: string): string {
  const at = text.indexOf(marker);
  expect(at, marker).toBeGreaterThanOrEqual(0);
  const match = /\n```\n([\s\S]*?)\n```\n/.exec(text.slice(at));
  return `${match![1]}\n`;
}

/** The blocks the tests below run or set aside, by file and first command. */
const PLANNED: [string, string][] = [
  ['README.md', 'npm ci && npm run example'],
  [
    'README.md',
    'npx --no-install svc-manifest validate                       # svc.yaml / svc.yml / svc.toml in this folder',
  ],
  [
    'README.md',
    'demo=$(mktemp -d) && cp examples/svc.yaml "$demo" && git -C "$demo" init --quiet && git -C "$demo" add svc.yaml',
  ],
  ['README.md', MONOREPO_LINE],
  ['README.md', FIX_LINE],
  ['README.md', LIBRARY_LINE],
  ['README.md', 'npm run site         # site/dist: schemas, manifest reference, rule pages, search, playground'],
  ['README.md', 'npm run build      # tsc -b, then the esbuild bundles (CLI, language server, extension)'],
  ['packages/validator/README.md', 'npm ci && npm run example        # build, then validate examples/svc.yaml'],
  [
    'packages/validator/README.md',
    'npx --no-install svc-manifest validate                        # svc.yaml, svc.yml and svc.toml in this folder',
  ],
  ['packages/validator/README.md', 'npm install --save-dev husky lint-staged @svc-manifest/validator'],
  ['packages/validator/README.md', FIX_LINE],
  ['packages/lsp/README.md', 'npx --no-install svc-manifest-lsp --stdio        # or --node-ipc, --socket=<port>'],
  ['packages/lsp/README.md', 'npx vitest run packages/lsp     # from the repository root'],
  [
    'packages/vscode-extension/README.md',
    'npm run package -w svc-manifest-vscode        # dist/svc-manifest-vscode.vsix',
  ],
];

beforeAll(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'svc-readme-')));
  mkdirSync(join(work, 'tmp'));
  env = offlineEnv({
    XDG_CACHE_HOME: join(work, 'cache'),
    TMPDIR: join(work, 'tmp'),
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
  });
  clone = cloneRepository(work, env);
  examples = join(clone, 'examples');
  blocks = READMES.flatMap((file) => shellBlocks(file, readClone(file)));
  // The quick start's first line, as written: offline, so only the npm cache can answer.
  const first = block('README.md', 'npm ci && npm run example');
  quickStart = sh(first.lines[0]!, clone);
  // From here on a registry lookup has nowhere to go.
  env = { ...env, npm_config_registry: 'http://127.0.0.1:9/' };
}, 900_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the root README', () => {
  it("quick start: the first line installs, builds and validates the example; the second is CI's own", () => {
    const b = block('README.md', 'npm ci && npm run example');
    expect(b.lines).toEqual(['npm ci && npm run example', 'npm ci && npm run test:setup && npm test']);
    expect(quickStart.status, quickStart.stdout + quickStart.stderr).toBe(0);
    expect(quickStart.stdout).toContain('✔ examples/svc.yaml: no problems\n');
    // The second line is what .ci/run runs; the suite cannot run itself from inside.
    expect(readClone('.ci/run')).toMatch(/^npm ci$[\s\S]*^npm run test:setup$[\s\S]*^npm test$/m);
    // `npm ci` linked the workspace bins.
    for (const bin of ['svc-manifest', 'svc-manifest-lsp', 'svc-manifest-git'])
      expect(existsSync(join(clone, 'node_modules', '.bin', bin)), bin).toBe(true);
  });

  it('The CLI: every command, in examples/, with its output, exit code and the files it writes', () => {
    const b = block(
      'README.md',
      'npx --no-install svc-manifest validate                       # svc.yaml / svc.yml / svc.toml in this folder',
    );
    expect(b.lines).toHaveLength(6);
    const [plain, json, sarif, github, schema, broken] = runLines(b, examples);
    expect(plain).toMatchObject({ status: 0, stdout: '✔ svc.yaml: no problems\n' });
    expect(json!.status).toBe(0);
    expect(
      (JSON.parse(json!.stdout) as { filePath: string; errorCount: number; messages: unknown[] }[]).map((r) => [
        r.filePath,
        r.errorCount,
        r.messages.length,
      ]),
    ).toEqual([
      [join(examples, 'svc.yaml'), 0, 0],
      [join(examples, 'legacy', 'svc.toml'), 0, 0],
    ]);
    expect(sarif).toMatchObject({ status: 0, stdout: '' });
    const log = JSON.parse(readFileSync(join(examples, 'svc.sarif'), 'utf8')) as {
      version: string;
      runs: { tool: { driver: { name: string } }; results: unknown[] }[];
    };
    expect(log.version).toBe('2.1.0');
    expect(log.runs.map((run) => [run.tool.driver.name, run.results.length])).toEqual([['svc-manifest', 0]]);
    expect(github).toMatchObject({ status: 0, stdout: '' });
    expect(schema).toMatchObject({ status: 0, stdout: '' });
    expect(JSON.parse(readFileSync(join(examples, 'svc.v2.schema.json'), 'utf8'))).toEqual(
      JSON.parse(readClone('packages/schema/generated/svc.v2.schema.json')),
    );
    // The output the README shows is the output.
    expect(broken!.status).toBe(1);
    expect(broken!.stdout).toBe(outputBlockAfter(readClone('README.md'), 'The last command prints'));
    for (const result of [plain, json, sarif, github, schema, broken]) expect(result!.stderr).toBe('');
  });

  it('The CLI: svc-manifest git commits on a scratch repository', () => {
    const b = block(
      'README.md',
      'demo=$(mktemp -d) && cp examples/svc.yaml "$demo" && git -C "$demo" init --quiet && git -C "$demo" add svc.yaml',
    );
    const before = new Set(readdirSync(join(work, 'tmp')));
    const result = sh(b.lines.join('\n'), clone);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const created = readdirSync(join(work, 'tmp')).filter(
      (name) => !before.has(name) && existsSync(join(work, 'tmp', name, '.git')),
    );
    expect(created).toHaveLength(1);
    const demo = join(work, 'tmp', created[0]!);
    const git = (...args: string[]) => spawnSync('git', ['-C', demo, ...args], { encoding: 'utf8', env }).stdout;
    const branch = git('rev-parse', '--abbrev-ref', 'HEAD').trim();
    expect(result.stdout).toBe(
      `committed ${git('rev-parse', 'HEAD').trim()} on ${branch}: svc: set default agent to reviewer\nsvc: set default agent to reviewer\nadd manifest\n`,
    );
    const committed = spawnSync('git', ['-C', demo, 'show', 'HEAD:svc.yaml'], { encoding: 'utf8', env }).stdout;
    const expected = readClone('examples/svc.yaml').replace(/^default_agent: writer$/m, 'default_agent: reviewer');
    expect(committed).toBe(expected);
    expect(readFileSync(join(demo, 'svc.yaml'), 'utf8')).toBe(expected);
  });

  it('Monorepos and CI: folders, globs and stdin, then the applier on a service of a scratch monorepo', () => {
    const b = block('README.md', MONOREPO_LINE);
    expect(b.lines).toHaveLength(7);
    const before = new Set(readdirSync(join(work, 'tmp')));
    const result = sh(b.lines.join('\n'), clone);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const created = readdirSync(join(work, 'tmp')).filter(
      (name) => !before.has(name) && existsSync(join(work, 'tmp', name, 'services')),
    );
    expect(created).toHaveLength(1);
    const mono = join(work, 'tmp', created[0]!);
    const git = (...args: string[]) => spawnSync('git', ['-C', mono, ...args], { encoding: 'utf8', env }).stdout.trim();
    // What the paragraph below the block says each line prints.
    expect(result.stdout).toBe(
      `✔ 2 files: no problems\n✔ services/api/svc.yaml: no problems\ncommitted ${git('rev-parse', 'HEAD')} on ${git('rev-parse', '--abbrev-ref', 'HEAD')}: svc: set default agent to reviewer\n`,
    );
    expect(readClone('README.md')).toContain('The third line prints `✔ 2 files: no problems`');
    expect(git('show', '--format=', '--name-only', 'HEAD')).toBe('services/web/svc.yml');
    expect(readFileSync(join(mono, 'services/web/svc.yml'), 'utf8')).toBe(
      readClone('examples/svc.yaml').replace(/^default_agent: writer$/m, 'default_agent: reviewer'),
    );
  });

  it('Fix, migrate, convert: the three examples, in examples/', () => {
    checkFixMigrateConvert('README.md');
  });

  it('Library: the one-line check from the root', () => {
    const b = block('README.md', LIBRARY_LINE);
    expect(b.lines).toHaveLength(1);
    expect(sh(b.lines[0]!, clone)).toMatchObject({ status: 0, stdout: 'true\n', stderr: '' });
  });

  it('The site: npm run site builds site/dist, and npm run site:serve serves it with the schema headers', async () => {
    const b = block(
      'README.md',
      'npm run site         # site/dist: schemas, manifest reference, rule pages, search, playground',
    );
    expect(b.lines.map((line) => line.split(/\s+#/)[0]!.trim())).toEqual(['npm run site', 'npm run site:serve']);
    const [site] = runLines(b, clone, { 1: 'a server that runs until stopped: started below' });
    expect(site!.status, site!.stderr).toBe(0);
    const served = (path: string) => readClone(join('site/dist', path));
    expect(JSON.parse(served('manifest/svc.v2.schema.json'))).toEqual(
      JSON.parse(readClone('packages/schema/generated/svc.v2.schema.json')),
    );
    expect(served('_headers')).toContain('Content-Type: application/schema+json');
    // The preview, as written, on a port of its own (SITE_PORT, as the README says).
    const port = String(20_000 + (process.pid % 20_000));
    const preview = spawn('bash', ['-c', b.lines[1]!], {
      cwd: clone,
      env: { ...env, SITE_PORT: port },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      // serve says when it accepts connections; the timer only guards against it never saying so.
      let output = '';
      await new Promise<void>((resolve, reject) => {
        const guard = setTimeout(
          () => reject(new Error(`npm run site:serve did not start serving:\n${output}`)),
          120_000,
        );
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          if (!output.includes('Accepting connections')) return;
          clearTimeout(guard);
          resolve();
        };
        preview.stdout.on('data', onData);
        preview.stderr.on('data', onData);
      });
      const response = await fetch(`http://127.0.0.1:${port}/manifest/svc.v2.schema.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/schema+json');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(((await response.json()) as { $id: string }).$id).toBe(
        'https://schemas.svc.example/manifest/svc.v2.schema.json',
      );
    } finally {
      process.kill(-preview.pid!, 'SIGTERM');
    }
  });

  it('Development: build and gen run, and gen leaves the committed files as they are', () => {
    const b = block(
      'README.md',
      'npm run build      # tsc -b, then the esbuild bundles (CLI, language server, extension)',
    );
    expect(b.lines.map((line) => line.split(/\s+#/)[0]!.trim())).toEqual([
      'npm run build',
      'npm run gen',
      'npx vitest run packages/validator',
      'UPDATE_FIXTURES=1 npx vitest run packages/validator/test/fixtures.test.ts',
      'npm run bench',
    ]);
    const [build, gen] = runLines(b, clone, {
      2: 'a part of the test suite (npm test runs it)',
      3: 'rewrites the expected diagnostics; the fixtures test checks them',
      4: 'benchmarks never run from tests',
    });
    expect(build!.status, build!.stderr).toBe(0);
    expect(gen!.status, gen!.stderr).toBe(0);
    expect(sh('git status --porcelain -- packages fixtures docs', clone).stdout).toBe('');
  });
});

describe('the package READMEs', () => {
  it('validator: the quick start line and every CLI example, in examples/', () => {
    const start = block(
      'packages/validator/README.md',
      'npm ci && npm run example        # build, then validate examples/svc.yaml',
    );
    expect(start.lines[0]!.split('#')[0]!.trim()).toBe('npm ci && npm run example'); // run first, above
    const b = block(
      'packages/validator/README.md',
      'npx --no-install svc-manifest validate                        # svc.yaml, svc.yml and svc.toml in this folder',
    );
    expect(b.lines).toHaveLength(9);
    const results = runLines(b, examples);
    expect(results.map((r) => r!.status)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(results.map((r) => r!.stderr)).toEqual(Array(9).fill(''));
    expect(results[0]!.stdout).toBe('✔ svc.yaml: no problems\n');
    expect(results[1]!.stdout).toBe('✔ 2 files: no problems\n');
    expect(JSON.parse(results[2]!.stdout)).toEqual([
      {
        filePath: join(examples, 'svc.yaml'),
        messages: [],
        errorCount: 0,
        fatalErrorCount: 0,
        warningCount: 0,
        fixableErrorCount: 0,
        fixableWarningCount: 0,
      },
    ]);
    expect((JSON.parse(readFileSync(join(examples, 'svc.sarif'), 'utf8')) as { version: string }).version).toBe(
      '2.1.0',
    );
    expect(results[4]!.stdout).toBe('');
    expect(results[5]!.stdout).toBe('✔ svc.yaml: no problems\n');
    expect(JSON.parse(results[6]!.stdout)).toEqual(JSON.parse(readClone('packages/schema/generated/svc.schema.json')));
    expect(JSON.parse(results[7]!.stdout)).toEqual(
      JSON.parse(readClone('packages/schema/generated/svc.v2.schema.json')),
    );
    expect(results[8]!.stdout).toMatch(/^usage: svc-manifest git <command> \[options\]\n/);
  });

  it('validator: fix, migrate and convert, in examples/', () => {
    checkFixMigrateConvert('packages/validator/README.md');
  });

  it("validator: the husky recipe installs into the reader's own project (tested from the tarballs in test/packages.test.ts)", () => {
    const b = block('packages/validator/README.md', 'npm install --save-dev husky lint-staged @svc-manifest/validator');
    expect(b.lines).toEqual([
      'npm install --save-dev husky lint-staged @svc-manifest/validator',
      'npx --no-install husky init && echo "npx --no-install lint-staged" > .husky/pre-commit',
    ]);
  });

  it('lsp: the server command answers initialize over stdio', async () => {
    const b = block(
      'packages/lsp/README.md',
      'npx --no-install svc-manifest-lsp --stdio        # or --node-ipc, --socket=<port>',
    );
    const answer = await initializeOverStdio('bash', ['-c', b.lines[0]!], { cwd: clone, env });
    expect(answer.result.serverInfo?.name).toBe('svc-manifest-lsp');
    expect(answer.result.capabilities).toMatchObject({
      hoverProvider: true,
      definitionProvider: true,
      renameProvider: expect.anything(),
    });
    // The other block, `npx vitest run packages/lsp`, is a part of the test suite (npm test runs it).
    block('packages/lsp/README.md', 'npx vitest run packages/lsp     # from the repository root');
  });

  it('vscode-extension: npm run package writes the .vsix', () => {
    const b = block(
      'packages/vscode-extension/README.md',
      'npm run package -w svc-manifest-vscode        # dist/svc-manifest-vscode.vsix',
    );
    const [packaged] = runLines(b, clone, {
      1: 'installs the end-to-end test tools (npm run test:setup does)',
      2: 'the VS Code end-to-end test, a part of the test suite',
    });
    expect(packaged!.status, packaged!.stderr).toBe(0);
    const vsix = readFileSync(join(clone, 'packages', 'vscode-extension', 'dist', 'svc-manifest-vscode.vsix'));
    expect(vsix.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(vsix.includes(Buffer.from('extension/dist/server.js'))).toBe(true);
  });
});

describe('every README command', () => {
  it('never names one of our commands through plain npx or npm exec (which would look it up in a registry), in any doc', () => {
    const docs: string[] = [];
    const walk = (folder: string) => {
      for (const entry of readdirSync(join(clone, folder), { withFileTypes: true })) {
        const path = folder ? `${folder}/${entry.name}` : entry.name;
        if (entry.isDirectory() && !['node_modules', '.git', 'dist'].includes(entry.name)) walk(path);
        else if (
          entry.isFile() &&
          (/\.md$/.test(entry.name) || path.startsWith('examples/') || entry.name === '.pre-commit-hooks.yaml')
        )
          docs.push(path);
      }
    };
    walk('');
    expect(docs).toEqual(expect.arrayContaining([...READMES, 'examples/svc.yaml', 'docs/decisions.md']));
    const offending: string[] = [];
    for (const doc of docs) {
      for (const match of readClone(doc).matchAll(/\b(npx|npm exec)((?:\s+-[-\w=]+)*)\s+(?:--\s+)?([@\w][\w@/.-]*)/g)) {
        const ours = match[3]!.includes('svc-manifest');
        const guarded = match[2]!.split(/\s+/).includes(match[1] === 'npx' ? '--no-install' : '--no');
        if (ours && !guarded) offending.push(`${doc}: ${match[0]}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('fails here if it falls back to a registry lookup: a plain npx of our name, outside the repository, errors', () => {
    const outside = join(work, 'outside');
    mkdirSync(outside);
    const result = sh('npx svc-manifest --version', outside);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/ENOTCACHED|ECONNREFUSED|only-if-cached/);
  });

  it('is known to this test (or in a section another suite runs)', () => {
    const planned = (b: Block) => PLANNED.some(([file, first]) => b.file === file && b.lines[0] === first);
    const unknown = blocks.filter((b) => !planned(b) && !b.headings.some((heading) => TESTED_ELSEWHERE.test(heading)));
    expect(unknown.map((b) => `${b.file} (${b.headings.join(' > ')}): ${b.lines[0]}`)).toEqual([]);
  });
});
