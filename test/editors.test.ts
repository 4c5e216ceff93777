/**
 * The root README's "Editors" section, run in real editors: the configurations are taken from
 * the README unchanged and start the language server by the name npm links for an installed
 * @svc-manifest/lsp (`node_modules/.bin/svc-manifest-lsp`, from the package's `bin`), found on
 * PATH. The installed package is a copy of the package's published files (its bundled server
 * needs nothing else), outside this repository.
 *   - Emacs (Debian's emacs-nox 28 with elpa-eglot, or 29+ with eglot built in), in batch mode
 *     (test/editors/eglot-harness.el): a diagnostic arrives for an invalid svc.yaml / svc.toml.
 *   - Neovim 0.7 (Debian's), headless, with the README's 0.7 configuration as init.lua
 *     (test/editors/nvim-harness.lua); the 0.8+ configuration runs when the Neovim here is 0.8+,
 *     and is at least compiled otherwise.
 *   - Helix and VS Code: the configuration and command are checked against what they name.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuiltServer, PACKAGE_ROOT as LSP_ROOT } from '../packages/lsp/test/built-server.js';
import { readmeBlock, readmeBlocks, readmeSection, ROOT } from './support/readme-section.js';

const YAML = 'svc_version: 2\ndefault_agent: triage\nagents:\n  triage:\n    conectors: none\n';
const TOML = 'svc_version = 2\ndefault_agent = "triage"\n\n[agents.triage]\nconectors = "none"\n';
const MESSAGE = "unknown key 'conectors' in agent 'triage'; did you mean 'connectors'?";

let work: string;
let project: string;
let env: NodeJS.ProcessEnv;

function tool(command: string, args: string[]): { ok: boolean; version: string } {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return { ok: result.status === 0, version: result.stdout ?? '' };
}

beforeAll(() => {
  ensureBuiltServer();
  work = mkdtempSync(join(tmpdir(), 'svc-editors-'));
  project = join(work, 'project');

  // `npm install @svc-manifest/lsp`, as far as the editor can tell: the package's files under
  // node_modules and its bin linked in node_modules/.bin.
  const manifest = JSON.parse(readFileSync(join(LSP_ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  const installed = join(project, 'node_modules', '@svc-manifest', 'lsp');
  mkdirSync(installed, { recursive: true });
  cpSync(join(LSP_ROOT, 'dist'), join(installed, 'dist'), { recursive: true });
  cpSync(join(LSP_ROOT, 'launcher'), join(installed, 'launcher'), { recursive: true });
  cpSync(join(LSP_ROOT, 'package.json'), join(installed, 'package.json'));
  const bin = join(project, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  expect(Object.keys(manifest.bin)).toContain('svc-manifest-lsp');
  symlinkSync(relative(bin, join(installed, manifest.bin['svc-manifest-lsp']!)), join(bin, 'svc-manifest-lsp'));

  const nodeBin = join(work, 'node-bin');
  mkdirSync(nodeBin);
  symlinkSync(process.execPath, join(nodeBin, 'node'));
  const home = join(work, 'home');
  mkdirSync(home);
  env = {
    HOME: home,
    // As the README says: the project's node_modules/.bin on PATH.
    PATH: `${bin}:${nodeBin}:/usr/bin:/bin`,
    LANG: 'C.UTF-8',
    XDG_CONFIG_HOME: home,
    XDG_DATA_HOME: home,
    XDG_STATE_HOME: home,
    XDG_CACHE_HOME: join(work, 'cache'),
  };
  writeFileSync(join(project, 'svc.yaml'), YAML);
  writeFileSync(join(project, 'svc.toml'), TOML);
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('README: Emacs with eglot', () => {
  const run = (file: string) => {
    const emacs = tool('emacs', ['--version']);
    if (!emacs.ok)
      throw new Error(
        'emacs is not installed: run `npm run test:setup` (apt-get install -y emacs-nox elpa-eglot elpa-yaml-mode)',
      );
    const init = join(work, 'init.el');
    writeFileSync(init, readmeBlock('Editors', 'elisp'));
    const out = join(work, `emacs-${file}.json`);
    const result = spawnSync('emacs', ['--batch', '-l', join(ROOT, 'test', 'editors', 'eglot-harness.el')], {
      cwd: project,
      env: { ...env, SVC_INIT: init, SVC_FILE: join(project, file), SVC_OUT: out },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(result.status, result.stderr).toBe(0);
    return JSON.parse(readFileSync(out, 'utf8')) as {
      error?: string;
      mode: string;
      managed: boolean;
      server: string;
      diagnostics: Record<string, unknown>[];
    };
  };

  it('receives the located diagnostic for an invalid svc.yaml', () => {
    const seen = run('svc.yaml');
    expect(seen.error).toBeUndefined();
    expect(seen).toMatchObject({ mode: 'yaml-mode', managed: true, server: 'svc-manifest-lsp --stdio' });
    expect(seen.diagnostics).toEqual([
      { line: 5, column: 4, endLine: 5, endColumn: 13, type: 'eglot-error', text: `svc [unknown-key]: ${MESSAGE}` },
    ]);
  });

  it('receives the located diagnostic for an invalid svc.toml (conf-toml-mode)', () => {
    const seen = run('svc.toml');
    expect(seen.error).toBeUndefined();
    expect(seen).toMatchObject({ mode: 'conf-toml-mode', managed: true });
    expect(seen.diagnostics).toEqual([
      { line: 5, column: 0, endLine: 5, endColumn: 9, type: 'eglot-error', text: `svc [unknown-key]: ${MESSAGE}` },
    ]);
  });
});

describe('README: Neovim', () => {
  const [newer, older] = readmeBlocks('Editors', 'lua');
  const nvim = tool('nvim', ['--version']);
  const [, major, minor] = /NVIM v(\d+)\.(\d+)/.exec(nvim.version) ?? [];
  const atLeast08 = Number(major) > 0 || Number(minor) >= 8;

  /** Neovim with no UI, no shada and no swap file, configured by `init`, running each of `commands` (`-c`). */
  const headlessNvim = (
    init: string,
    commands: string[],
    options: { cwd?: string; env: NodeJS.ProcessEnv; timeout: number },
  ) =>
    spawnSync('nvim', ['--headless', '-n', '-i', 'NONE', '-u', init, ...commands.flatMap((c) => ['-c', c])], {
      ...options,
      encoding: 'utf8',
    });

  const run = (config: string, file: string) => {
    if (!nvim.ok) throw new Error('nvim is not installed: apt-get install -y neovim');
    const init = join(work, 'init.lua');
    writeFileSync(init, config);
    const out = join(work, `nvim-${file}.json`);
    const result = headlessNvim(init, [`luafile ${join(ROOT, 'test', 'editors', 'nvim-harness.lua')}`], {
      cwd: project,
      env: { ...env, SVC_FILE: join(project, file), SVC_OUT: out },
      timeout: 120_000,
    });
    expect(result.status, result.stderr).toBe(0);
    return JSON.parse(readFileSync(out, 'utf8')) as {
      error?: string;
      filetype: string;
      clients: { name: string; cmd: string[] }[];
      diagnostics: Record<string, unknown>[];
    };
  };

  it('has a configuration for 0.8+ and one for 0.7, both starting svc-manifest-lsp --stdio', () => {
    expect(newer).toContain('vim.lsp.start(');
    expect(older).toContain('vim.lsp.start_client(');
    for (const config of [newer!, older!]) expect(config).toContain("cmd = { 'svc-manifest-lsp', '--stdio' }");
  });

  it.each(['svc.yaml', 'svc.toml'])('the configuration for this Neovim shows the diagnostic in %s', (file) => {
    const seen = run(atLeast08 ? newer! : older!, file);
    expect(seen.error).toBeUndefined();
    expect(seen.filetype).toBe(file.endsWith('.toml') ? 'toml' : 'yaml');
    expect(seen.clients).toEqual([{ name: 'svc-manifest-lsp', cmd: ['svc-manifest-lsp', '--stdio'] }]);
    // Line 5 of both files (0-based 4); the key starts at column 4 in YAML, 0 in TOML.
    const col = file.endsWith('.toml') ? 0 : 4;
    expect(seen.diagnostics).toEqual([
      {
        lnum: 4,
        end_lnum: 4,
        col,
        end_col: col + 'conectors'.length,
        severity: 1,
        code: 'unknown-key',
        message: MESSAGE,
      },
    ]);
  });

  it('the 0.8+ configuration compiles as Lua (it runs in the test above when this Neovim is 0.8+)', () => {
    const file = join(work, 'newer.lua');
    writeFileSync(file, newer!);
    const result = headlessNvim('NONE', [`lua assert(loadfile(${JSON.stringify(file)}))`, 'qa!'], {
      env,
      timeout: 60_000,
    });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
  });
});

describe('README: Helix and VS Code', () => {
  it('Helix: languages.toml defines the server and adds it to YAML and TOML', () => {
    const script = 'import json, sys, tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))';
    const parsed = spawnSync('python3', ['-c', script], { input: readmeBlock('Editors', 'toml'), encoding: 'utf8' });
    expect(parsed.stderr).toBe('');
    const config = JSON.parse(parsed.stdout) as {
      'language-server': Record<string, { command: string; args: string[] }>;
      language: { name: string; 'language-servers': string[] }[];
    };
    expect(config['language-server']['svc-manifest-lsp']).toMatchObject({
      command: 'svc-manifest-lsp',
      args: ['--stdio'],
    });
    expect(
      config.language.map((language) => [language.name, language['language-servers'].includes('svc-manifest-lsp')]),
    ).toEqual([
      ['yaml', true],
      ['toml', true],
    ]);
  });

  it('VS Code: the README builds and installs the .vsix at the path the package script writes', () => {
    const commands = readmeBlock('Editors', 'sh')
      .trim()
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, ''));
    const extension = JSON.parse(readFileSync(join(ROOT, 'packages', 'vscode-extension', 'package.json'), 'utf8')) as {
      name: string;
      scripts: Record<string, string>;
    };
    const out = /--out (\S+)/.exec(extension.scripts.package!)![1]!;
    expect(commands).toEqual([
      'npm ci',
      `npm run package -w ${extension.name}`,
      `code --install-extension ${join('packages', 'vscode-extension', out)}`,
    ]);
    expect(readmeSection('Editors')).toContain('node_modules/.bin/svc-manifest-lsp');
  });
});
