/**
 * End to end through a real, independent LSP client: headless Neovim 0.7 (Debian's) starts
 * the built server over stdio, and we read what Neovim saw: diagnostics on the right lines
 * (byte columns, so a wrong UTF-16 conversion would show), completion, hover, and a rename
 * applied to the buffer.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishedSchemas } from '@svc-manifest/schema';
import { ensureBuiltServer, PACKAGE_ROOT } from './built-server.js';

const MANIFEST = `svc_version: 2
default_agent: coder
agents:
  coder:
    sandbx: base
  reviewer:
    workspace: reed
project: { name: "😀 名前", descripton: x }
triggers:
  - slug: nightly
    type: cron
    cron: "0 9 * * *"
    agent: coder
    prompt: go
`;

const lines = MANIFEST.split('\n');
/** Neovim reports byte columns. */
const byteCol = (line: number, needle: string) => Buffer.byteLength(lines[line]!.slice(0, lines[line]!.indexOf(needle)), 'utf8');
const charCol = (line: number, needle: string) => lines[line]!.indexOf(needle);

function hasNeovim(): boolean {
  return spawnSync('nvim', ['--version'], { encoding: 'utf8' }).status === 0;
}

describe('Neovim (headless) drives the built server over stdio', () => {
  let seen: { diagnostics: any[]; completion: string[]; hover: string; afterRename: string; error?: string };

  beforeAll(() => {
    if (!hasNeovim()) throw new Error('nvim is not installed: apt-get install -y neovim');
    const server = ensureBuiltServer();
    const dir = mkdtempSync(join(tmpdir(), 'svc-nvim-'));
    const file = join(dir, 'svc.yaml');
    writeFileSync(file, MANIFEST);
    const task = {
      file,
      node: process.execPath,
      server,
      expectedDiagnostics: 3,
      completionAt: { line: 1, character: charCol(1, 'coder') },
      hoverAt: { line: 10, character: charCol(10, 'type') + 1 },
      renameAt: { line: 12, character: charCol(12, 'coder') + 2 },
      newName: 'writer',
    };
    writeFileSync(join(dir, 'task.json'), JSON.stringify(task));
    const out = join(dir, 'out.json');
    execFileSync('nvim', ['--headless', '-n', '-i', 'NONE', '-u', join(PACKAGE_ROOT, 'test', 'e2e', 'neovim-client.lua')], {
      cwd: dir,
      env: { ...process.env, SVC_E2E_TASK: join(dir, 'task.json'), SVC_E2E_OUT: out, XDG_CONFIG_HOME: dir, XDG_DATA_HOME: dir, XDG_STATE_HOME: dir },
      timeout: 120_000,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    seen = JSON.parse(readFileSync(out, 'utf8'));
  });

  it('ran without a client-side error', () => {
    expect(seen.error).toBeUndefined();
  });

  it('shows diagnostics on the right lines and columns', () => {
    const got = seen.diagnostics
      .map((d) => ({ code: d.code, severity: d.severity, lnum: d.lnum, col: d.col, end_col: d.end_col }))
      .sort((a, b) => a.lnum - b.lnum);
    expect(got).toEqual([
      { code: 'unknown-key', severity: 1, lnum: 4, col: byteCol(4, 'sandbx'), end_col: byteCol(4, 'sandbx') + 6 },
      { code: 'invalid-value', severity: 1, lnum: 6, col: byteCol(6, 'reed'), end_col: byteCol(6, 'reed') + 4 },
      // After an emoji (4 bytes, 2 UTF-16 units) and CJK text (3 bytes each).
      { code: 'possible-typo', severity: 2, lnum: 7, col: byteCol(7, 'descripton'), end_col: byteCol(7, 'descripton') + 10 },
    ]);
    // 32 bytes in, 26 UTF-16 code units in: Neovim converted our UTF-16 column to the right byte.
    expect([byteCol(7, 'descripton'), charCol(7, 'descripton')]).toEqual([32, 26]);
  });

  it('answers completion with the declared agents', () => {
    expect(seen.completion).toEqual(['coder', 'reviewer']);
  });

  it('answers hover with the schema description', () => {
    expect(seen.hover).toContain('**type**');
    const definitions = publishedSchemas().v2.definitions as Record<string, { properties: Record<string, { markdownDescription: string }> }>;
    expect(seen.hover).toContain(definitions.trigger!.properties.type!.markdownDescription);
  });

  it('applies a rename to every reference', () => {
    expect(seen.afterRename).toBe(MANIFEST.replaceAll('coder', 'writer'));
  });
});
