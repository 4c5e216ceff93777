/**
 * Every quick fix the validator offers on the fixtures is applied to the text, and the result
 * is validated again: the fix must not break the file (no new syntax error) and the problem it
 * was offered for must be gone.
 */
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { validateManifest, type Diagnostic, type SuggestedFix } from '@svc-manifest/validator';
import { formatKey, formatScalar } from '../src/fixes.js';
import { renderKey, renderScalar } from '../src/edit/yaml-render.js';
import { tomlReferences } from './support/tomllib.js';

const root = join(import.meta.dirname, '..', '..', '..', 'fixtures');

function applyFix(text: string, fix: SuggestedFix): string {
  const edits = [...fix.edits].sort((a, b) => b.range.start.offset - a.range.start.offset);
  let out = text;
  for (const edit of edits)
    out = out.slice(0, edit.range.start.offset) + edit.newText + out.slice(edit.range.end.offset);
  return out;
}

const SYNTAX = new Set(['yaml-syntax', 'toml-syntax', 'duplicate-key', 'multiple-documents']);
const cases: { name: string; file: string; text: string; diagnostic: Diagnostic; fix: SuggestedFix }[] = [];
for (const folder of readdirSync(root).filter((f) => statSync(join(root, f)).isDirectory())) {
  const dir = join(root, folder, 'invalid');
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir).filter((n) => /\.(ya?ml|toml)$/.test(n))) {
    const file = join(dir, name);
    const text = readFileSync(file, 'utf8');
    for (const diagnostic of validateManifest(text, { filename: file }).diagnostics) {
      for (const fix of diagnostic.fixes ?? []) {
        cases.push({ name: `${folder}/${name}: ${diagnostic.code} → ${fix.title}`, file, text, diagnostic, fix });
      }
    }
  }
}

describe('quick fixes on the fixtures', () => {
  it('are offered for many problems', () => {
    expect(cases.length).toBeGreaterThan(40);
  });
  for (const c of cases) {
    it(c.name, () => {
      const before = validateManifest(c.text, { filename: c.file }).diagnostics;
      const fixed = applyFix(c.text, c.fix);
      expect(fixed).not.toBe(c.text);
      const after = validateManifest(fixed, { filename: c.file }).diagnostics;
      const syntaxBefore = before.filter((d) => SYNTAX.has(d.code)).length;
      expect(after.filter((d) => SYNTAX.has(d.code)).map((d) => `${d.code} ${d.message}`)).toHaveLength(syntaxBefore);
      // The problem is gone: no diagnostic of the same code remains at the same path.
      const same = after.filter(
        (d) => d.code === c.diagnostic.code && d.path === c.diagnostic.path && d.message === c.diagnostic.message,
      );
      expect(same).toEqual([]);
    });
  }
});

describe('removing the last entry of a file', () => {
  // The lines removed run to the end of the text, whether or not it ends with a line break.
  it.each([
    [
      'yaml',
      'svc_version: 2\ndefault_agent: a\nagents:\n  a:\n    bogus: 1',
      'svc_version: 2\ndefault_agent: a\nagents:\n  a:\n',
    ],
    [
      'yaml',
      'svc_version: 2\ndefault_agent: a\nagents:\n  a:\n    bogus: 1\n',
      'svc_version: 2\ndefault_agent: a\nagents:\n  a:\n',
    ],
  ] as const)('%s: %j', (format, text, expected) => {
    const [diagnostic] = validateManifest(text, { format }).diagnostics;
    expect(diagnostic?.code).toBe('unknown-key');
    const [fix] = diagnostic!.fixes!;
    expect(fix!.edits.map((e) => [e.range.start.offset, e.range.end.offset])).toEqual([[expected.length, text.length]]);
    expect(applyFix(text, fix!)).toBe(expected);
  });
});

describe('a key a merge key brings in', () => {
  it('gets no removal fix: removing it from the merged map would leave an empty value the merge refuses', () => {
    const text = 'svc_version: 1\nx-v2-parts: &v2\n  apps:\n    web: {port: 3000}\n<<: *v2\n';
    const forbidden = validateManifest(text, { format: 'yaml' }).diagnostics.filter((d) => d.code === 'forbidden-key');
    expect(forbidden.map((d) => [d.range.start.offset, d.range.end.offset, d.fixes])).toEqual([[33, 37, undefined]]);
  });
});

// The builders' scalars and keys (a fix through an alias or a duplicate key, where the editing
// engine has no single splice) read back, in YAML 1.2 and 1.1, as the strings they were given.
describe('a string a fix writes into YAML', () => {
  const STRINGS = [
    'agent',
    'null',
    'True',
    'y',
    'off',
    '~',
    '.inf',
    '-.NaN',
    '.5',
    '-1',
    '0x1F',
    '1e3',
    '123',
    'a b',
    "it's",
    '/app',
    './Dockerfile',
    '_x',
    // What the `yaml` library's YAML 1.1 float pattern takes: a lone dot, a dot and underscores, an exponent alone.
    '.',
    '._',
    '-.',
    'e1',
    'E-5',
    '.e1',
    'Yes',
    'NULL',
    '+1',
    '1_000',
    '0o17',
    '12:30',
    // Line breaks, which single quotes would fold into a space.
    'a\nb',
    'a\r\nb',
  ];
  const readBack = (text: string, version: '1.1' | '1.2') => parseAllDocuments(text, { version })[0]!.toJS() as unknown;

  it.each(STRINGS)('%j as a value', (value) => {
    const text = `k: ${formatScalar(value, 'yaml')}\n`;
    for (const version of ['1.1', '1.2'] as const) expect(readBack(text, version), version).toEqual({ k: value });
  });

  it.each(STRINGS.filter((key) => key !== '~'))('%j as a key', (key) => {
    const text = `${formatKey(key, 'yaml')}: 1\n`;
    for (const version of ['1.1', '1.2'] as const)
      expect(Object.keys(readBack(text, version) as object), version).toEqual([key]);
  });

  // The editing engine's renderer decides plain or quoted by the same test.
  it.each(STRINGS)('%j as a value and a key the editing engine renders', (value) => {
    for (const version of ['1.1', '1.2'] as const) {
      expect(readBack(`k: ${renderScalar(value)}\n`, version), version).toEqual({ k: value });
      expect(Object.keys(readBack(`${renderKey(value)}: 1\n`, version) as object), version).toEqual([value]);
    }
  });

  it('writes TOML strings and keys as tomllib reads them back, control characters and DEL escaped', () => {
    const strings = [
      'agent',
      'a b',
      'x"y',
      'back\\slash',
      'tab\tx',
      'line\nx',
      'del\u007fx',
      'bell\u0007',
      'é',
      '1',
      'a.b',
    ];
    const texts = strings.map((s) => `${formatKey(s, 'toml')} = ${formatScalar(s, 'toml')}\n`);
    expect(tomlReferences(texts)).toEqual(strings.map((s) => ({ value: { [s]: s } })));
  });

  it('stays plain where it can', () => {
    expect(['agent', '/app', './Dockerfile', '_x'].map((value) => formatScalar(value, 'yaml'))).toEqual([
      'agent',
      '/app',
      './Dockerfile',
      '_x',
    ]);
    expect(formatKey('default_agent', 'yaml')).toBe('default_agent');
  });
});
