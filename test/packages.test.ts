/**
 * The packages as a registry would get them: `npm pack` of every published package in a fresh
 * clone (built as the README says), checked with publint and are-the-types-wrong and for what a
 * tarball must and must not hold, then installed offline into a new project that uses them the
 * way their READMEs say: ES module import (and require of it), types under node16, nodenext and
 * bundler resolution, the CLI (also as lint-staged runs it), the language server's `initialize`
 * over stdio, an applier operation through `svc-manifest git`, and the schema subpaths.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REPO_ROOT } from './support/fixtures.js';
import { cloneRepository, initializeOverStdio } from './support/fresh-clone.js';
import {
  offlineEnv,
  packedManifest,
  packWorkspaces,
  PUBLISHED,
  run,
  writeLockedProject,
  type PackageJson,
  type PackedPackage,
} from './support/packed.js';

const BIN = join(REPO_ROOT, 'node_modules', '.bin');

// tsc, npm and attw on a shared machine: generous time per test.
vi.setConfig({ testTimeout: 300_000 });

let work: string;
let clone: string;
let packs: Map<string, PackedPackage>;
let unpacked: string;
/** A project with all four tarballs installed. */
let app: string;
let env: NodeJS.ProcessEnv;

const INVALID = `svc_version: 2
default_agent: writer
agents:
  writer:
    connectors: none
triggers:
  - slug: nightly
    type: webhook
    prompt: Rebuild the index.
`;

const REPOSITORY_MANIFEST = `# the project's manifest
svc_version: 2
default_agent: writer   # who runs by default
agents:
  writer:
    connectors: none
  reviewer:
    connectors: none
`;

function inApp(
  command: string,
  args: string[],
  options: { cwd?: string; input?: string } = {},
): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd: options.cwd ?? app,
    env,
    encoding: 'utf8',
    input: options.input,
    timeout: 120_000,
  });
}

function file(pack: string, path: string): string {
  return readFileSync(join(unpacked, pack, path), 'utf8');
}

beforeAll(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'svc-packages-')));
  env = offlineEnv({ XDG_CACHE_HOME: join(work, 'cache') });
  clone = cloneRepository(work, env);
  // The README's first line, less the example: install offline from the npm cache, build.
  run('npm', ['ci'], { cwd: clone, env });
  run('npm', ['run', 'build'], { cwd: clone, env });
  const destination = join(work, 'packs');
  mkdirSync(destination);
  packs = new Map(packWorkspaces(clone, destination, env).map((pack) => [pack.name, pack]));
  unpacked = join(work, 'unpacked');
  for (const pack of packs.values()) {
    const folder = join(unpacked, pack.name);
    mkdirSync(folder, { recursive: true });
    run('tar', ['-xzf', pack.tarball, '-C', folder, '--strip-components=1'], { cwd: work, env });
  }
  app = join(work, 'app');
  mkdirSync(app);
  writeLockedProject(app, [...packs.values()], join(clone, 'package-lock.json'));
  run('npm', ['ci'], { cwd: app, env });
}, 900_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the tarballs', () => {
  it('are made for every published package, and packing leaves the package.json files as committed', () => {
    expect([...packs.keys()].sort()).toEqual([...PUBLISHED].sort());
    expect(run('git', ['status', '--porcelain'], { cwd: clone, env }).stdout).toBe('');
  });

  it.each(PUBLISHED)('%s is clean under publint --strict', (name) => {
    const result = spawnSync(join(BIN, 'publint'), ['run', packs.get(name)!.tarball, '--strict'], {
      encoding: 'utf8',
      env,
      timeout: 120_000,
    });
    expect(result.stdout + result.stderr).toContain('All good!');
    expect(result.status).toBe(0);
  });

  it.each(PUBLISHED)('%s is clean under are-the-types-wrong (esm-only profile)', (name) => {
    const result = spawnSync(
      join(BIN, 'attw'),
      [packs.get(name)!.tarball, '--profile', 'esm-only', '--format', 'json'],
      {
        encoding: 'utf8',
        env,
        timeout: 120_000,
      },
    );
    expect(result.status, result.stdout + result.stderr).toBe(0);
    const problems =
      (JSON.parse(result.stdout) as { problems?: Record<string, { resolutionKind?: string }[]> }).problems ?? {};
    // The esm-only profile leaves out the two CommonJS-only resolutions (node10, node16 from CJS).
    const counted = Object.values(problems)
      .flat()
      .filter((problem) => problem.resolutionKind !== 'node10' && problem.resolutionKind !== 'node16-cjs');
    expect(counted).toEqual([]);
  });

  it.each(PUBLISHED)(
    '%s has a LICENSE, a README that says ESM-only, top-level types and no source condition',
    (name) => {
      const pack = packs.get(name)!;
      expect(pack.files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
      expect(file(name, 'LICENSE')).toMatch(/^MIT License\n/);
      expect(file(name, 'README.md')).toContain('ESM-only, Node ≥ 20.19');
      const manifest = packedManifest(pack);
      expect(manifest.license).toBe('MIT');
      expect(manifest.type).toBe('module');
      expect(manifest.types).toBe('./dist/index.d.ts');
      expect(pack.files).toContain('dist/index.d.ts');
      expect(JSON.stringify(manifest.exports)).not.toContain('"source"');
      expect(manifest).not.toHaveProperty('scripts');
      // Every export target and bin is in the tarball.
      const targets = (value: unknown): string[] =>
        typeof value === 'string'
          ? [value]
          : typeof value === 'object' && value !== null
            ? Object.values(value).flatMap(targets)
            : [];
      expect(targets(manifest.exports).length).toBeGreaterThan(1);
      for (const target of [...targets(manifest.exports), ...Object.values(manifest.bin ?? {})])
        expect(pack.files).toContain(target.replace(/^\.\//, ''));
    },
  );

  it.each(PUBLISHED)('%s: every files entry of the committed package.json matches something packed', (name) => {
    const folder = name.replace('@svc-manifest/', '');
    const committed = JSON.parse(readFileSync(join(clone, 'packages', folder, 'package.json'), 'utf8')) as PackageJson;
    const pack = packs.get(name)!;
    for (const entry of committed.files ?? []) {
      if (entry.startsWith('!')) continue;
      const pattern = new RegExp(
        `^${entry
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*\*\//g, '(.*/)?')
          .replace(/\*/g, '[^/]*')}(/.*)?$`,
      );
      expect(
        pack.files.some((path) => pattern.test(path)),
        `${entry} matches nothing in ${name}`,
      ).toBe(true);
    }
  });

  it.each(PUBLISHED)('%s ships no source map without its sources and no declaration maps', (name) => {
    const pack = packs.get(name)!;
    expect(pack.files.filter((path) => path.endsWith('.d.ts.map'))).toEqual([]);
    for (const map of pack.files.filter((path) => path.endsWith('.map'))) {
      const parsed = JSON.parse(file(name, map)) as { sources: string[]; sourcesContent?: (string | null)[] };
      expect(parsed.sourcesContent?.length, map).toBe(parsed.sources.length);
      expect(
        parsed.sourcesContent!.every((content) => typeof content === 'string' && content.length > 0),
        map,
      ).toBe(true);
    }
    // A sourceMappingURL comment must name a file that is shipped.
    for (const path of pack.files.filter((p) => /\.(c|m)?js$|\.d\.ts$/.test(p))) {
      const reference = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(file(name, path))?.[1];
      if (reference)
        expect(pack.files, `${path} points at ${reference}`).toContain(
          join(path, '..', reference).replace(/^\.\//, ''),
        );
    }
  });

  it('ships the CLI, the language server and the applier once each, as the bundle their bins run', () => {
    // dist/browser.mjs (the `./browser` export) is the library again, built for browsers and workers
    // without Node built-ins; the bins never run it.
    const holding = (name: string, text: string) =>
      packs
        .get(name)!
        .files.filter(
          (path) =>
            !path.endsWith('.d.ts') &&
            !path.endsWith('.md') &&
            path !== 'dist/browser.mjs' &&
            file(name, path).includes(text),
        );
    expect(holding('@svc-manifest/validator', 'usage: svc-manifest <command>')).toEqual(['dist/svc-manifest-main.cjs']);
    expect(holding('@svc-manifest/lsp', 'usage: svc-manifest-lsp --stdio')).toEqual(['dist/svc-manifest-lsp-main.cjs']);
    expect(holding('@svc-manifest/gitops', 'usage: svc-manifest git <command>')).toEqual([
      'dist/svc-manifest-git-main.cjs',
    ]);
    // No tsc output besides declarations in the bundled packages.
    for (const name of ['@svc-manifest/validator', '@svc-manifest/lsp', '@svc-manifest/gitops']) {
      const code = packs.get(name)!.files.filter((path) => /\.(c|m)?js$/.test(path));
      expect(
        code.every(
          (path) =>
            path.startsWith('launcher/') ||
            /^dist\/(index\.mjs|browser\.mjs|svc-manifest(-lsp|-git)?-main\.cjs|code-cache\.cjs)$/.test(path),
        ),
        code.join(', '),
      ).toBe(true);
    }
    // The inlined dependencies' licences travel with the bundles.
    expect(file('@svc-manifest/validator', 'dist/THIRD_PARTY_LICENSES.txt')).toMatch(/^ajv@\S+ \(MIT\)$/m);
    expect(file('@svc-manifest/lsp', 'dist/THIRD_PARTY_LICENSES.txt')).toMatch(/^vscode-languageserver@\S+ \(MIT\)$/m);
    expect(file('@svc-manifest/gitops', 'dist/THIRD_PARTY_LICENSES.txt')).toMatch(/^proper-lockfile@\S+ \(MIT\)$/m);
  });

  it('gitops declares the bin svc-manifest-git, and the validator does not depend on gitops', () => {
    expect(packedManifest(packs.get('@svc-manifest/gitops')!).bin).toEqual({
      'svc-manifest-git': 'launcher/svc-manifest-git.cjs',
    });
    const validator = packedManifest(packs.get('@svc-manifest/validator')!);
    expect(JSON.stringify(validator)).not.toContain('gitops');
    expect(file('@svc-manifest/validator', 'dist/svc-manifest-main.cjs')).not.toContain('@svc-manifest/gitops"');
  });
});

describe('installed into a fresh project', () => {
  it('imports as ES modules, and require() of them works on Node 20.19+', () => {
    const script = [
      "import { validateManifest } from '@svc-manifest/validator';",
      "import { startServer, runLanguageServer } from '@svc-manifest/lsp';",
      "import { runGitCli, setDefaultAgent } from '@svc-manifest/gitops';",
      "import { publishedSchemas } from '@svc-manifest/schema';",
      `const result = validateManifest(${JSON.stringify(INVALID)}, { filename: 'svc.yaml' });`,
      'console.log(JSON.stringify({ ok: result.ok, diagnostics: result.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.column, d.range.end.column]),',
      '  lsp: [typeof startServer, typeof runLanguageServer], gitops: [typeof runGitCli, typeof setDefaultAgent], schema: publishedSchemas().v2.$id }));',
    ].join('\n');
    const imported = inApp(process.execPath, ['--input-type=module', '-e', script]);
    expect(imported.stderr).toBe('');
    expect(JSON.parse(imported.stdout)).toEqual({
      ok: false,
      diagnostics: [['trigger-webhook-secret', 8, 11, 18]],
      lsp: ['function', 'function'],
      gitops: ['function', 'function'],
      schema: 'https://schemas.svc.example/manifest/svc.v2.schema.json',
    });
    const required = inApp(process.execPath, [
      '-e',
      "const { validateManifest } = require('@svc-manifest/validator'); console.log(validateManifest('svc_version: 1\\n').ok)",
    ]);
    expect(required.stdout).toBe('true\n');
  });

  it('type-checks under --moduleResolution node16, nodenext and bundler (and the types are real: a wrong call is an error)', async () => {
    const good = [
      "import { validateManifest, type Diagnostic, type ValidationResult } from '@svc-manifest/validator';",
      "import { startServer, runLanguageServer } from '@svc-manifest/lsp';",
      "import { setDefaultAgent, type ApplyResult } from '@svc-manifest/gitops';",
      "import { publishedSchemas, type Manifest } from '@svc-manifest/schema';",
      "const result: ValidationResult = validateManifest('svc_version: 2\\n', { filename: 'svc.yaml' });",
      'const first: Diagnostic | undefined = result.diagnostics[0];',
      'export const line: number | undefined = first?.range.start.line;',
      'export const apply: (repo: string, agent: string) => Promise<ApplyResult> = setDefaultAgent;',
      'export const v2: object = publishedSchemas().v2;',
      'export const server: typeof startServer = startServer;',
      'export const lsp: (args: readonly string[]) => void = runLanguageServer;',
      'export const manifest: Manifest | undefined = undefined;',
      '',
    ].join('\n');
    const bad = "import { validateManifest } from '@svc-manifest/validator';\nvalidateManifest(42);\n";
    // The project's Node types, as any Node project has them; no skipLibCheck: our .d.ts files are checked too.
    const tsc = (folder: string, module: string, resolution: string, inputs: string[]) =>
      new Promise<{ status: number | null; output: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [
            join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
            '--noEmit',
            '--strict',
            '--target',
            'es2022',
            '--module',
            module,
            '--moduleResolution',
            resolution,
            '--typeRoots',
            join(REPO_ROOT, 'node_modules', '@types'),
            '--types',
            'node',
            ...inputs,
          ],
          { cwd: folder, env },
        );
        let output = '';
        child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
        child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
        child.on('close', (status) => resolve({ status, output }));
      });
    const modes = [
      ['node16', 'node16'],
      ['nodenext', 'nodenext'],
      ['esnext', 'bundler'],
    ] as const;
    const results = await Promise.all(
      modes.map(async ([module, resolution]) => {
        const folder = join(app, `types-${resolution}`);
        mkdirSync(folder, { recursive: true });
        writeFileSync(join(folder, 'good.ts'), good);
        writeFileSync(join(folder, 'bad.ts'), bad);
        // One program with both files: the only error must be the wrong call in bad.ts.
        return { resolution, ...(await tsc(folder, module, resolution, ['good.ts', 'bad.ts'])) };
      }),
    );
    for (const result of results) {
      expect(result.output.trim().split('\n'), result.resolution).toEqual([
        "bad.ts(2,18): error TS2345: Argument of type 'number' is not assignable to parameter of type 'string | Uint8Array<ArrayBufferLike>'.",
      ]);
      expect(result.status, result.resolution).toBe(2);
    }
  }, 300_000);

  it('resolves the schema subpaths with require, import (type: json) and require.resolve', () => {
    const generated = (name: string) =>
      JSON.parse(readFileSync(join(clone, 'packages', 'schema', 'generated', name), 'utf8')) as { $id: string };
    const script = [
      "import { createRequire } from 'node:module';",
      "import combined from '@svc-manifest/schema/svc.schema.json' with { type: 'json' };",
      "import v1 from '@svc-manifest/schema/svc.v1.schema.json' with { type: 'json' };",
      'const require = createRequire(import.meta.url);',
      "const v2 = require('@svc-manifest/schema/svc.v2.schema.json');",
      "const paths = ['svc.schema.json', 'svc.v1.schema.json', 'svc.v2.schema.json'].map((name) => require.resolve(`@svc-manifest/schema/${name}`));",
      'console.log(JSON.stringify({ ids: [combined.$id, v1.$id, v2.$id], paths }));',
    ].join('\n');
    const result = inApp(process.execPath, ['--input-type=module', '-e', script]);
    expect(result.stderr).toBe('');
    const schemaFolder = join(app, 'node_modules', '@svc-manifest', 'schema', 'generated');
    expect(JSON.parse(result.stdout)).toEqual({
      ids: [generated('svc.schema.json').$id, generated('svc.v1.schema.json').$id, generated('svc.v2.schema.json').$id],
      paths: [
        join(schemaFolder, 'svc.schema.json'),
        join(schemaFolder, 'svc.v1.schema.json'),
        join(schemaFolder, 'svc.v2.schema.json'),
      ],
    });
    expect(readFileSync(join(schemaFolder, 'svc.v2.schema.json'), 'utf8')).toBe(
      readFileSync(join(clone, 'packages', 'schema', 'generated', 'svc.v2.schema.json'), 'utf8'),
    );
  });

  it('runs the CLI through npx --no-install, with no registry to fall back on', () => {
    writeFileSync(join(app, 'svc.yaml'), INVALID);
    const noRegistry = { ...env, npm_config_registry: 'http://127.0.0.1:9/' };
    const invalid = spawnSync('npx', ['--no-install', 'svc-manifest', 'validate'], {
      cwd: app,
      env: noRegistry,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(invalid.status).toBe(1);
    expect(invalid.stdout).toContain(
      "  8:11    error   trigger 'nightly' (type 'webhook') needs 'secret_env' or 'secretEnv'",
    );
    const schema = spawnSync('npx', ['--no-install', 'svc-manifest', 'schema', '--version', '1'], {
      cwd: app,
      env: noRegistry,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(schema.status).toBe(0);
    expect(JSON.parse(schema.stdout)).toEqual(
      JSON.parse(readFileSync(join(clone, 'packages', 'schema', 'generated', 'svc.v1.schema.json'), 'utf8')),
    );
  });

  it("runs the command lint-staged runs for the validator README's recipe (the staged paths appended, node_modules/.bin first on PATH)", () => {
    const readme = readFileSync(join(unpacked, '@svc-manifest/validator', 'README.md'), 'utf8');
    const block = /```json\n\/\/ package\.json\n("lint-staged": \{[\s\S]*?\n\})\n```/.exec(readme);
    expect(block, 'the lint-staged block of packages/validator/README.md').not.toBeNull();
    const config = (JSON.parse(`{${block![1]}}`) as { 'lint-staged': Record<string, string> })['lint-staged'];
    expect(Object.keys(config)).toEqual(['**/svc.{yaml,yml,toml}']);
    const command = config['**/svc.{yaml,yml,toml}']!;
    const staged = join(app, 'lint-staged');
    mkdirSync(join(staged, 'deploy'), { recursive: true });
    writeFileSync(join(staged, 'svc.yaml'), REPOSITORY_MANIFEST);
    writeFileSync(join(staged, 'deploy', 'svc.yaml'), INVALID);
    const lintStaged = (files: string[]) =>
      spawnSync('sh', ['-c', `${command} ${files.map((f) => `'${f}'`).join(' ')}`], {
        cwd: staged,
        env: { ...env, PATH: `${join(app, 'node_modules', '.bin')}:${env.PATH}` },
        encoding: 'utf8',
        timeout: 120_000,
      });
    const good = lintStaged([join(staged, 'svc.yaml')]);
    expect(good.status).toBe(0);
    const bad = lintStaged([join(staged, 'svc.yaml'), join(staged, 'deploy', 'svc.yaml')]);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain(`${join(staged, 'deploy', 'svc.yaml')}\n  8:11    error   trigger 'nightly'`);
  });

  it("answers the language server's initialize over stdio (the bin npm linked)", async () => {
    const answer = await initializeOverStdio(join(app, 'node_modules', '.bin', 'svc-manifest-lsp'), ['--stdio'], {
      cwd: app,
      env,
    });
    expect(answer.result.serverInfo?.name).toBe('svc-manifest-lsp');
    expect(answer.result.capabilities).toMatchObject({ hoverProvider: true, definitionProvider: true });
    expect(answer.result.capabilities).toHaveProperty('completionProvider');
    expect(answer.stderr).toBe('');
  });

  it('applies an operation with svc-manifest git, which runs the svc-manifest-git npm linked beside it', () => {
    const seed = join(work, 'seed');
    mkdirSync(seed);
    writeFileSync(join(seed, 'svc.yaml'), REPOSITORY_MANIFEST);
    const git = (args: string[], cwd: string) =>
      run('git', args, { cwd, env: { ...env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } }).stdout;
    git(['init', '--quiet', '-b', 'main'], seed);
    git(['add', 'svc.yaml'], seed);
    git(['-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', 'commit', '--quiet', '-m', 'initial'], seed);
    const bare = join(work, 'repo.git');
    git(['clone', '--quiet', '--bare', seed, bare], work);
    const before = git(['rev-parse', 'main'], bare).trim();

    const result = inApp(join(app, 'node_modules', '.bin', 'svc-manifest'), [
      'git',
      'set-default-agent',
      'reviewer',
      '--repo',
      bare,
      '--author',
      'Ops <ops@example.com>',
    ]);
    expect(result.stderr).toBe('');
    const after = git(['rev-parse', 'main'], bare).trim();
    expect(result.stdout).toBe(`committed ${after} on main: svc: set default agent to reviewer\n`);
    expect(result.status).toBe(0);
    expect(git(['rev-parse', 'main^'], bare).trim()).toBe(before);
    expect(git(['show', 'main:svc.yaml'], bare)).toBe(
      REPOSITORY_MANIFEST.replace('default_agent: writer', 'default_agent: reviewer'),
    );
    expect(git(['log', '-1', '--format=%an <%ae>', 'main'], bare)).toBe('Ops <ops@example.com>\n');

    // The same command under its own name; a refusal exits 1 and changes nothing.
    const refused = inApp(join(app, 'node_modules', '.bin', 'svc-manifest-git'), [
      'set-default-agent',
      'nobody',
      '--repo',
      bare,
    ]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("agent 'nobody' is not declared");
    expect(git(['rev-parse', 'main'], bare).trim()).toBe(after);
  });

  it('without @svc-manifest/gitops, svc-manifest git says what to install and exits 2', () => {
    const alone = join(work, 'validator-only');
    mkdirSync(alone);
    writeLockedProject(alone, [packs.get('@svc-manifest/validator')!], join(clone, 'package-lock.json'));
    run('npm', ['ci'], { cwd: alone, env });
    const result = inApp(
      join(alone, 'node_modules', '.bin', 'svc-manifest'),
      ['git', 'set-default-agent', 'reviewer'],
      { cwd: alone },
    );
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      "svc-manifest: 'svc-manifest git' needs the svc-manifest-git command of @svc-manifest/gitops, which is not installed.\nThe packages are not on a public registry: in a clone of the svc manifest toolchain, run\n  npm run build && npm pack -w @svc-manifest/validator -w @svc-manifest/gitops\nthen install both tarballs in your project: npm install ./svc-manifest-validator-0.1.0.tgz ./svc-manifest-gitops-0.1.0.tgz\n",
    );
  });
});
