/**
 * How the document layer reads YAML and TOML (docs/decisions.md, the "(#11)" entries):
 * - TOML 1.0 dates and times are types of their own: at every key the published schema types as
 *   a string (found by walking the schema), an offset date-time is exactly one error,
 *   `wrong-type`, on the date's characters, naming the TOML type;
 * - a string where an object or a list belongs is exactly one error (no cascade);
 * - YAML aliases as keys resolve to the anchored scalar.
 * The same generated manifests get exactly one error from python-jsonschema
 * (test/schema-conformance.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { ManifestDocument, TomlDateTime, validateManifest } from '@svc-manifest/validator';
import { stringKeyCases, wrongShapeCases } from '../../../test/support/string-keys.js';

const cases = stringKeyCases();

/** The generated cases number more than `atLeast` and include each of `expected` (`v<version> <pointer>`). */
function expectCoverage(
  generated: readonly { version: number; pointer: string }[],
  atLeast: number,
  expected: readonly string[],
): void {
  const pointers = generated.map((c) => `v${c.version} ${c.pointer}`);
  expect(pointers.length).toBeGreaterThan(atLeast);
  for (const pointer of expected) expect(pointers).toContain(pointer);
}

describe('a TOML date where a string belongs', () => {
  it('covers the string-typed keys of both versions', () => {
    expectCoverage(cases, 60, [
      'v1 /project/description',
      'v2 /sandbox/templates/0/name',
      'v1 /triggers/0/prompt',
      'v2 /connectors/0/headers/X-Team',
      'v2 /agents/main/sandbox',
      'v1 /channels/0/events/0',
      'v2 /default_agent',
    ]);
  });

  for (const c of cases) {
    it(`v${c.version} ${c.pointer}: one wrong-type error at the date, naming the TOML type`, () => {
      const result = validateManifest(c.toml, { format: 'toml' });
      const errors = result.diagnostics.filter((d) => d.severity === 'error');
      expect(errors.map((d) => [d.code, c.toml.slice(d.range.start.offset, d.range.end.offset)])).toEqual([
        ['wrong-type', '1979-05-27T07:32:00Z'],
      ]);
      expect(errors[0]!.message).toContain('a TOML offset date-time');
    });
  }
});

describe('the four TOML date and time types', () => {
  const values: [string, string][] = [
    ['1979-05-27T07:32:00-08:00', 'a TOML offset date-time'],
    ['1979-05-27 07:32:00Z', 'a TOML offset date-time'],
    ['1979-05-27T07:32:00.999', 'a TOML local date-time'],
    ['1979-05-27', 'a TOML local date'],
    ['07:32:00', 'a TOML local time'],
  ];
  for (const [text, type] of values) {
    it(`${text} is ${type}: refused as a string, kept as written in the value`, () => {
      const toml = `svc_version = 1\n[project]\nname = ${text}\n`;
      const result = validateManifest(toml, { format: 'toml' });
      expect(result.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.column])).toEqual([
        ['wrong-type', 3, 8],
      ]);
      expect(result.diagnostics[0]!.message).toBe(`'name' must be a string, not ${type} (${text})`);
      const value = ManifestDocument.parse(toml, { format: 'toml' }).value as { project: { name: unknown } };
      expect(value.project.name).toBeInstanceOf(TomlDateTime);
      expect(JSON.stringify(value.project.name)).toBe(JSON.stringify(text));
    });
  }

  it('are accepted where any value is (v1 credential, connector spec, extra keys)', () => {
    const toml =
      'svc_version = 1\nbuilt = 2024-01-31T09:30:00Z\n[[connectors]]\nslug = "api"\nprovider = "openapi"\ncredential = 07:32:00\nspec = 2024-01-31\n';
    expect(validateManifest(toml, { format: 'toml' }).diagnostics).toEqual([]);
  });

  it('TOML inf and nan (and YAML .inf, .nan) are refused where a number belongs: JSON has no such numbers', () => {
    for (const [text, format, shown] of [
      [
        'svc_version = 2\ndefault_agent = "m"\n[agents.m]\n[apps.web]\nmonthly_budget_usd = inf\n',
        'toml',
        'an infinite number (Infinity)',
      ],
      ['svc_version = 2\ndefault_agent = "m"\n[agents.m]\n[apps.web]\nport = nan\n', 'toml', 'a NaN value (NaN)'],
      [
        'svc_version: 2\ndefault_agent: m\nagents: {m: {}}\napps:\n  web:\n    monthly_budget_usd: -.inf\n',
        'yaml',
        'an infinite number (-Infinity)',
      ],
    ] as const) {
      const result = validateManifest(text, { format });
      expect(result.diagnostics.map((d) => d.code)).toEqual(['wrong-type']);
      expect(result.diagnostics[0]!.message).toContain(`, not ${shown}`);
    }
  });

  it('a YAML timestamp-looking plain scalar is a string (YAML 1.2 core schema has no timestamps)', () => {
    expect(validateManifest('svc_version: 1\nproject:\n  name: 2024-01-31\n').diagnostics).toEqual([]);
  });
});

describe('YAML aliases as keys', () => {
  const codes = (text: string) =>
    validateManifest(text).diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.column]);

  it('resolve to the anchored scalar and are checked like a written key (a duplicate)', () => {
    expect(codes('svc_version: 1\nproject:\n  name: &n name\n  *n : again\n')).toEqual([['duplicate-key', 4, 3]]);
  });

  it('an alias of a collection as a key is invalid-key at the alias', () => {
    expect(codes('svc_version: 1\nx: &l [a]\nproject:\n  *l : 1\n')).toEqual([['invalid-key', 4, 3]]);
  });

  it('an alias with no anchor before it is a yaml-syntax error at the alias (and nothing else is checked)', () => {
    expect(codes('svc_version: 1\nproject:\n  name: *missing\n  *later : x\nx: &later y\n')).toEqual([
      ['yaml-syntax', 3, 9],
      ['yaml-syntax', 4, 3],
    ]);
  });

  it('the entry says its key was written as an alias (its text is `*name`, not the key)', () => {
    const text = 'svc_version: 2\ndefault_agent: &main reviewer\nagents:\n  *main : {}\n';
    const document = ManifestDocument.parse(text);
    const agents =
      document.root?.kind === 'map' ? document.root.entries.find((e) => e.key === 'agents')?.value : undefined;
    const entry = agents?.kind === 'map' ? agents.entries[0] : undefined;
    expect(
      entry && { key: entry.key, keyAlias: entry.keyAlias, text: text.slice(entry.keyStart, entry.keyEnd) },
    ).toEqual({
      key: 'reviewer',
      keyAlias: 'main',
      text: '*main',
    });
  });

  it('an alias refers to the nearest anchor of its name before it', () => {
    const document = ManifestDocument.parse('svc_version: 1\na: &x first\nb: *x\nc: &x second\nd: *x\n*x : key\n');
    expect(document.value).toMatchObject({ b: 'first', d: 'second', second: 'key' });
  });
});

describe('a string where an object or a list belongs', () => {
  const shapes = wrongShapeCases();
  it('covers the object and list positions of both versions', () => {
    expectCoverage(shapes, 25, [
      'v1 /triggers/0',
      'v2 /agents/main',
      'v2 /connectors/0/auth',
      'v2 /apps/web/resources',
      'v1 /sandbox/templates/0',
      'v2 /connectors/0/headers',
    ]);
  });
  for (const c of shapes) {
    it(`v${c.version} ${c.pointer}: exactly one error, wrong-type at the value`, () => {
      const result = validateManifest(c.json, { format: 'yaml' });
      const errors = result.diagnostics.filter((d) => d.severity === 'error');
      expect(errors.map((d) => [d.code, c.json.slice(d.range.start.offset, d.range.end.offset)])).toEqual([
        ['wrong-type', '"text"'],
      ]);
    });
  }
});
