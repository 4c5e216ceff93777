/**
 * End to end through a real, independent LSP client: headless Neovim 0.7 (Debian's) starts
 * the built server over stdio, and we read what Neovim saw: diagnostics on the right lines
 * (byte columns, so a wrong UTF-16 conversion would show), completion, hover, and a rename
 * applied to the buffer. Once for svc.yaml, once for svc.toml.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishedSchemas } from '@svc-manifest/schema';
import { ensureBuiltServer, PACKAGE_ROOT } from './built-server.js';

const YAML = `svc_version: 2
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

const TOML = `svc_version = 2
default_agent = "coder"
project = { name = "😀 名前", descripton = "x" }

[agents.coder]
sandbx = "base"

[agents.reviewer]
workspace = "reed"

[[triggers]]
slug = "nightly"
type = "cron"
cron = "0 9 * * *"
agent = "coder"
prompt = "go"
`;

interface Case {
  file: string;
  text: string;
  /** [code, line, needle] of each expected diagnostic. */
  diagnostics: [string, number, string][];
  completionAt: [number, string, number];
  hoverAt: [number, string];
  renameAt: [number, string];
}

const CASES: Case[] = [
  {
    file: 'svc.yaml',
    text: YAML,
    diagnostics: [
      ['unknown-key', 4, 'sandbx'],
      ['invalid-value', 6, 'reed'],
      ['possible-typo', 7, 'descripton'],
    ],
    completionAt: [1, 'coder', 0],
    hoverAt: [10, 'type'],
    renameAt: [12, 'coder'],
  },
  {
    file: 'svc.toml',
    text: TOML,
    diagnostics: [
      ['possible-typo', 2, 'descripton'],
      ['unknown-key', 5, 'sandbx'],
      ['invalid-value', 8, '"reed"'],
    ],
    completionAt: [1, 'coder', 0],
    hoverAt: [12, 'type'],
    renameAt: [14, 'coder'],
  },
];

const definitions = publishedSchemas().v2.definitions as Record<
  string,
  { properties: Record<string, { markdownDescription: string }> }
>;

function hasNeovim(): boolean {
  return spawnSync('nvim', ['--version'], { encoding: 'utf8' }).status === 0;
}

describe.each(CASES)('Neovim (headless) drives the built server over stdio: $file', (testCase) => {
  const lines = testCase.text.split('\n');
  /** Neovim reports byte columns; LSP counts UTF-16 code units. */
  const byteCol = (line: number, needle: string) =>
    Buffer.byteLength(lines[line]!.slice(0, lines[line]!.indexOf(needle)), 'utf8');
  const charCol = (line: number, needle: string) => lines[line]!.indexOf(needle);
  let seen: {
    diagnostics: any[];
    completion: string[];
    hover: string;
    afterRename: string;
    pulled: { kind: string; resultId: string; codes: string[] };
    pulledAgain: { kind: string; resultId: string };
    afterFormat: string;
    error?: string;
  };
  const renamed = testCase.text.replaceAll('coder', 'writer');
  // The renamed text, indented two more and with spaces at line ends and blank lines at the end: what the formatter undoes.
  const unformatted =
    (testCase.file.endsWith('.toml')
      ? renamed.replace(/^(\w+) = /gm, '$1   =   ')
      : renamed.replace(/^ {2}/gm, '    ')
    ).replace(/\n/g, '  \n') + '\n\n';

  beforeAll(() => {
    if (!hasNeovim()) throw new Error('nvim is not installed: apt-get install -y neovim');
    const server = ensureBuiltServer();
    const dir = mkdtempSync(join(tmpdir(), 'svc-nvim-'));
    const file = join(dir, testCase.file);
    writeFileSync(file, testCase.text);
    const [cLine, cNeedle, cDelta] = testCase.completionAt;
    const task = {
      file,
      node: process.execPath,
      server,
      expectedDiagnostics: testCase.diagnostics.length,
      completionAt: { line: cLine, character: charCol(cLine, cNeedle) + cDelta },
      hoverAt: { line: testCase.hoverAt[0], character: charCol(...testCase.hoverAt) + 1 },
      renameAt: { line: testCase.renameAt[0], character: charCol(...testCase.renameAt) + 2 },
      newName: 'writer',
      unformatted,
    };
    writeFileSync(join(dir, 'task.json'), JSON.stringify(task));
    const out = join(dir, 'out.json');
    execFileSync('nvim', ['--headless', '-n', '-i', 'NONE', '-u', join(PACKAGE_ROOT, 'test', 'e2e', 'init.lua')], {
      cwd: dir,
      env: {
        ...process.env,
        SVC_E2E_TASK: join(dir, 'task.json'),
        SVC_E2E_OUT: out,
        XDG_CONFIG_HOME: dir,
        XDG_DATA_HOME: dir,
        XDG_STATE_HOME: dir,
      },
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
      .map((d) => ({ code: d.code, lnum: d.lnum, col: d.col, end_col: d.end_col }))
      .sort((a, b) => a.lnum - b.lnum);
    expect(got).toEqual(
      testCase.diagnostics.map(([code, line, needle]) => ({
        code,
        lnum: line,
        col: byteCol(line, needle),
        end_col: byteCol(line, needle) + Buffer.byteLength(needle),
      })),
    );
    // After an emoji (4 bytes, 2 UTF-16 units) and CJK text (3 bytes, 1 unit each) the byte
    // column is 6 more than the UTF-16 one: Neovim converted our UTF-16 column correctly.
    const [, typoLine, typo] = testCase.diagnostics.find(([code]) => code === 'possible-typo')!;
    expect(byteCol(typoLine, typo) - charCol(typoLine, typo)).toBe(6);
  });

  it('answers completion with the declared agents', () => {
    expect(seen.completion).toEqual(['coder', 'reviewer']);
  });

  it('answers hover with the schema description', () => {
    expect(seen.hover).toContain('**type**');
    expect(seen.hover).toContain(definitions.trigger!.properties.type!.markdownDescription);
  });

  it('applies a rename to every reference', () => {
    expect(seen.afterRename).toBe(renamed);
  });

  it('pulls diagnostics with a result id, and gets unchanged for the same one', () => {
    expect(seen.pulled.kind).toBe('full');
    expect(seen.pulled.codes.sort()).toEqual(testCase.diagnostics.map(([code]) => code).sort());
    expect(seen.pulledAgain).toEqual({ kind: 'unchanged', resultId: seen.pulled.resultId });
  });

  it("formats the buffer with Neovim's formatting command", () => {
    expect(unformatted).not.toBe(renamed);
    expect(seen.afterFormat).toBe(renamed);
  });
});
