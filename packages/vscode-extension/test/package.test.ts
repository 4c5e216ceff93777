/**
 * The extension's manifest (package.json) and its packaging: what VS Code and
 * the .vsix get, checked without an editor.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type Diagnostic,
} from 'vscode-languageserver-protocol/node';
import { DEFAULT_SETTINGS } from '@svc-manifest/lsp';
import { MANIFEST_FILE_NAMES } from '../src/files';

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const contributes = pkg.contributes ?? {};
const extensionSource = readFileSync(join(pkgDir, 'src', 'extension.ts'), 'utf8');

describe('package.json contributions', () => {
  it('contributes no YAML schema association, language or grammar (coexistence with Red Hat YAML and TOML extensions)', () => {
    expect(contributes.yamlValidation).toBeUndefined();
    expect(contributes.jsonValidation).toBeUndefined();
    expect(contributes.languages).toBeUndefined();
    expect(contributes.grammars).toBeUndefined();
    const defaults = JSON.stringify(contributes.configurationDefaults ?? {});
    expect(defaults).not.toMatch(/yaml\.schemas|files\.associations|svc\.ya?ml|svc\.toml/);
  });

  it('activates for every manifest name, for YAML/TOML/plain-text documents, and never on "*"', () => {
    const events: string[] = pkg.activationEvents;
    for (const name of MANIFEST_FILE_NAMES) expect(events).toContain(`workspaceContains:**/${name}`);
    for (const lang of ['yaml', 'toml', 'plaintext']) expect(events).toContain(`onLanguage:${lang}`);
    expect(events).not.toContain('*');
  });

  it('contributes the settings the server reads, each with a description and a default', () => {
    const props = contributes.configuration.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(props).sort()).toEqual(
      [
        'svc.enable',
        'svc.files.extraPatterns',
        'svc.inlayHints.enable',
        'svc.trace.server',
        'svc.validation.maxFileSizeBytes',
        'svc.validation.enable',
        'svc.hover.enable',
        'svc.completion.enable',
        'svc.format.enable',
        'svc.pathChecks.enable',
      ].sort(),
    );
    for (const [key, p] of Object.entries(props)) {
      expect(p.description ?? p.markdownDescription, key).toBeTruthy();
      expect(p, key).toHaveProperty('default');
    }
    expect(props['svc.enable']).toMatchObject({ type: 'boolean', default: true });
    expect(props['svc.files.extraPatterns']).toMatchObject({ type: 'array', items: { type: 'string' }, default: [] });
    expect(props['svc.validation.maxFileSizeBytes']).toMatchObject({ type: 'number', default: 1024 * 1024 });
    expect(props['svc.trace.server']).toMatchObject({ enum: ['off', 'messages', 'verbose'], default: 'off' });
    // The per-folder switches are resource-scoped: each folder of a multi-root workspace has its own.
    for (const name of ['validation', 'hover', 'completion', 'format', 'pathChecks'])
      expect(props[`svc.${name}.enable`], name).toMatchObject({ type: 'boolean', default: true, scope: 'resource' });
  });

  it("has the same defaults as the language server's settings", () => {
    const props = contributes.configuration.properties as Record<string, { default: unknown }>;
    expect(props['svc.enable']!.default).toBe(DEFAULT_SETTINGS.enable);
    expect(props['svc.files.extraPatterns']!.default).toEqual(DEFAULT_SETTINGS.extraPatterns);
    expect(props['svc.validation.maxFileSizeBytes']!.default).toBe(DEFAULT_SETTINGS.maxFileSizeBytes);
    expect(props['svc.inlayHints.enable']!.default).toBe(DEFAULT_SETTINGS.inlayHints);
  });

  it('contributes "svc: Restart language server" and "svc: Show output", and registers both', () => {
    const commands = contributes.commands as { command: string; title: string; category: string }[];
    expect(commands.map((c) => `${c.category}: ${c.title}`)).toEqual([
      'svc: Restart language server',
      'svc: Show output',
      'svc: Fix all safe problems',
      'svc: Migrate to version 2',
      'svc: Convert to YAML',
      'svc: Format manifest',
    ]);
    const paletteSource = readFileSync(join(pkgDir, 'src', 'palette.ts'), 'utf8');
    for (const c of commands) expect(extensionSource + paletteSource).toContain(`registerCommand('${c.command}'`);
  });

  it('points at the bundled client and ships only bundles and docs', () => {
    expect(pkg.main).toBe('./dist/extension.js');
    expect(pkg.type ?? 'commonjs').toBe('commonjs');
    expect(pkg.engines.vscode).toMatch(/^\^1\.\d+\.\d+$/);
    expect(pkg.files).toEqual(
      expect.arrayContaining(['dist/extension.js', 'dist/server.js', 'README.md', 'CHANGELOG.md', 'LICENSE']),
    );
    for (const f of pkg.files as string[]) expect(f).not.toMatch(/node_modules/);
    for (const f of [pkg.icon, 'README.md', 'CHANGELOG.md', 'LICENSE', 'images/screenshot.png']) {
      expect(existsSync(join(pkgDir, f)), f).toBe(true);
    }
  });
});

describe('the .vsix', () => {
  it('contains only the manifest, the docs, the images and the bundles, desktop and web (vsce ls)', () => {
    const vsce = createRequire(import.meta.url).resolve('@vscode/vsce/vsce');
    const r = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: pkgDir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const files = r.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .sort();
    const expected = [
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'images/icon.png',
      'images/screenshot.png',
      'package.json',
    ];
    // The bundles are listed once built (npm run bundle).
    for (const bundle of ['dist/extension.js', 'dist/server.js', 'dist/web/extension.js', 'dist/web/server.js'])
      if (existsSync(join(pkgDir, bundle))) expected.push(bundle);
    expect(files).toEqual(expected.sort());
  }, 60_000);
});

describe('bundles', () => {
  /** Modules a bundle still loads at run time. */
  function runtimeRequires(file: string): string[] {
    const text = readFileSync(file, 'utf8');
    const found = new Set<string>();
    // (Not inside a string: ajv keeps `'require("ajv/dist/runtime/ucs2length")'` as code text.)
    for (const m of text.matchAll(/(?<![\w$.'"`])require\(\s*["'`]([^"'`]+)["'`]\s*\)/g)) found.add(m[1]!);
    return [...found].sort();
  }

  let out = '';
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'svc-vscode-bundle-'));
    const r = spawnSync(
      process.execPath,
      [join(pkgDir, 'scripts', 'bundle.mjs'), '--require-server', '--outdir', out],
      {
        cwd: pkgDir,
        encoding: 'utf8',
      },
    );
    expect(r.status, r.stderr).toBe(0);
  }, 60_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('need nothing but Node built-ins (and `vscode` for the client) at run time', () => {
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    const client = runtimeRequires(join(out, 'extension.js'));
    expect(client).toContain('vscode');
    expect(client.filter((m) => m !== 'vscode' && !builtins.has(m))).toEqual([]);
    const server = runtimeRequires(join(out, 'server.js'));
    expect(server.filter((m) => !builtins.has(m))).toEqual([]);
    expect(server).not.toContain('vscode');
  });

  it('the server bundle runs on its own, away from any node_modules, and reports a mistake', async () => {
    const alone = mkdtempSync(join(tmpdir(), 'svc-server-alone-'));
    const serverJs = join(alone, 'server.js');
    cpSync(join(out, 'server.js'), serverJs);
    const child = spawn(process.execPath, [serverJs, '--stdio'], {
      cwd: alone,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NODE_PATH: '' },
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    const connection = createMessageConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    try {
      connection.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
      connection.onRequest('client/registerCapability', () => null);
      const uri = 'file:///w/svc.yaml';
      const diagnostics = new Promise<Diagnostic[]>((resolve) =>
        connection.onNotification(
          'textDocument/publishDiagnostics',
          (p: { uri: string; diagnostics: Diagnostic[] }) => {
            if (p.uri === uri && p.diagnostics.length > 0) resolve(p.diagnostics);
          },
        ),
      );
      connection.listen();
      await connection.sendRequest('initialize', {
        processId: process.pid,
        rootUri: 'file:///w',
        capabilities: { workspace: { configuration: true } },
      });
      await connection.sendNotification('initialized', {});
      await connection.sendNotification('textDocument/didOpen', {
        textDocument: {
          uri,
          languageId: 'yaml',
          version: 1,
          text: 'svc_version: 2\ndefault_agent: helper\nagents:\n  helper:\n    enabeld: true\n',
        },
      });
      const found = await Promise.race([
        diagnostics,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`no diagnostics from the bundled server; stderr:\n${stderr}`)), 20_000),
        ),
      ]);
      const typo = found.find((d) => typeof d.message === 'string' && d.message.includes('enabeld'));
      expect(typo, JSON.stringify(found)).toBeDefined();
      expect(typo!.code).toBe('unknown-key');
      expect(typo!.range.start).toEqual({ line: 4, character: 4 });
    } finally {
      connection.dispose();
      child.kill('SIGKILL');
      rmSync(alone, { recursive: true, force: true });
    }
  }, 60_000);
});
