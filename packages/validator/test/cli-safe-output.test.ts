/**
 * Output is safe to print: control characters and bidirectional overrides from a manifest (or
 * its name) reach a terminal or CI log only escaped, in messages and code frames; checked byte
 * for byte through the built command.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBundle, runBundle } from './support/child.js';

/** ESC and BEL in a comment (a colour sequence and a bell), U+202E (right-to-left override) in a value. */
const HOSTILE =
  'svc_version: 2\ndefault_agent: w\u202eriter\nagents:\n  writer:\n    connectors: none # \u001b[31mred\u0007\n';

let work: string;
beforeAll(() => {
  ensureBundle();
  work = mkdtempSync(join(tmpdir(), 'svc-safe-output-'));
  writeFileSync(join(work, 'svc.yaml'), HOSTILE);
  mkdirSync(join(work, 'bad\u001b]0;title\u0007name'));
  writeFileSync(join(work, 'bad\u001b]0;title\u0007name', 'svc.yaml'), HOSTILE);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every character the output may hold: printable ASCII, line feeds, and the summary's symbols. */
const SAFE_OUTPUT = /^[\n\u0020-\u007e✖✔]*$/;

describe('stylish', () => {
  it('escapes ESC, BEL and U+202E in messages and code frames, with the carets under the escaped text', () => {
    const result = runBundle(['validate', 'svc.yaml'], { cwd: work });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe(
      [
        'svc.yaml',
        "  2:16    warning default_agent 'w\\u202eriter' is not a declared agent; did you mean 'writer'?  default-agent-declared",
        '      1 | svc_version: 2',
        '    > 2 | default_agent: w\\u202eriter',
        '        |                ^^^^^^^^^^^^',
        '  5:24    error   the file contains control character U+001B (2 such characters in the file; this is the first); ' +
          'a manifest is text and may only contain printable characters, tabs and line breaks  forbidden-character',
        '      4 |   writer:',
        '    > 5 |     connectors: none # \\x1b[31mred\\x07',
        '        |                        ^^^^',
        '',
        '✖ 2 problems (1 error, 1 warning)',
        '',
      ].join('\n'),
    );
    expect(result.stdout).toMatch(SAFE_OUTPUT);
  });

  it('puts the carets under what they point at when an escape comes before it on the line', () => {
    writeFileSync(
      join(work, 'caret.yaml'),
      'svc_version: 2\ndefault_agent: writer\nagents:\n  writer: {connectors: none}\n  "\u202eb": {connectors: 7}\n',
    );
    const result = runBundle(['validate', 'caret.yaml'], { cwd: work });
    expect(result.stdout.split('\n').slice(5, 9)).toEqual([
      "  5:22    error   'connectors': expected an array of names, 'all' or 'none', got 7  wrong-type",
      '      4 |   writer: {connectors: none}',
      '    > 5 |   "\\u202eb": {connectors: 7}',
      '        |                           ^',
    ]);
  });

  it('escapes a file name', () => {
    const result = runBundle(['validate', '.', '--no-warnings'], { cwd: work });
    expect(result.stdout.split('\n').filter((line) => line.endsWith('svc.yaml'))).toEqual([
      'bad\\x1b]0;title\\x07name/svc.yaml',
      'svc.yaml',
    ]);
    expect(result.stdout).toMatch(SAFE_OUTPUT);
  });

  it('shows a binary file as escapes, cut to the frame width', () => {
    writeFileSync(join(work, 'binary.yaml'), Buffer.from(Array.from({ length: 1700 }, (_, i) => (i % 31) + 1)));
    const result = runBundle(['validate', 'binary.yaml'], { cwd: work });
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(SAFE_OUTPUT);
    for (const line of result.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(250);
  });
});

describe('github', () => {
  it('escapes them in annotation messages and file names', () => {
    const result = runBundle(['validate', 'svc.yaml', '--format', 'github'], { cwd: work });
    expect(result.stdout).toBe(
      '::warning file=svc.yaml,line=2,col=16,endLine=2,endColumn=23,title=svc-manifest (default-agent-declared)::' +
        "default_agent 'w\\u202eriter' is not a declared agent; did you mean 'writer'?\n" +
        '::error file=svc.yaml,line=5,col=24,endLine=5,endColumn=25,title=svc-manifest (forbidden-character)::' +
        'the file contains control character U+001B (2 such characters in the file; this is the first); ' +
        'a manifest is text and may only contain printable characters, tabs and line breaks\n',
    );
    const named = runBundle(['validate', '.', '--format', 'github', '--no-warnings'], { cwd: work });
    expect(named.stdout).toContain('::error file=bad\\x1b]0;title\\x07name/svc.yaml,line=5');
    expect(named.stdout).toMatch(SAFE_OUTPUT);
  });
});

describe('json and sarif', () => {
  it('stay valid JSON and carry the text exactly', () => {
    const json = runBundle(['validate', 'svc.yaml', '--format', 'json'], { cwd: work });
    expect(JSON.parse(json.stdout)[0].messages[0].message).toBe(
      "default_agent 'w\u202eriter' is not a declared agent; did you mean 'writer'?",
    );
    expect(json.stdout).not.toContain('\u001b');
    const sarif = runBundle(['validate', 'svc.yaml', '--format', 'sarif'], { cwd: work });
    expect(JSON.parse(sarif.stdout).runs[0].results[0].message.text).toBe(
      "default_agent 'w\u202eriter' is not a declared agent; did you mean 'writer'?",
    );
  });
});
