/**
 * Texts where our reading once differed from the reference parsers (the `yaml` library with merge
 * keys, Python's `tomllib`), reproduced by hand (issue #33; docs/decisions.md, the "(#33)"
 * entries). Each is refused with the located diagnostic named here, by a fresh parse and by
 * `update()` from a related text alike; packages/validator/test/reference-differential.test.ts
 * compares generated and mutated texts.
 */
import { describe, expect, it } from 'vitest';
import { ManifestDocument, validateDocument, validateManifest, type Diagnostic } from '@svc-manifest/validator';

interface RefusalCase {
  name: string;
  format: 'yaml' | 'toml';
  /** The text `update()` starts from. */
  before: string;
  text: string;
  /** The diagnostic expected: code and the offsets of its range. */
  expected: [code: string, start: number, end: number];
}

const located = (list: readonly Diagnostic[]) => list.map((d) => [d.code, d.range.start.offset, d.range.end.offset]);

const V2_YAML = 'svc_version: 2\ndefault_agent: main\nagents:\n  main:\n    enabled: true\n';
const V2_TOML = 'svc_version = 2\ndefault_agent = "main"\n\n[agents.main]\nenabled = true\n';

const refusals: RefusalCase[] = [
  {
    name: 'TOML: an integer beyond 2^53 − 1 (rounded by a JavaScript number) is refused, not rounded',
    format: 'toml',
    before: V2_TOML,
    text: `${V2_TOML}\n[project]\nbuild = 9007199254740993\n`,
    expected: ['toml-syntax', V2_TOML.length + 19, V2_TOML.length + 35],
  },
  {
    name: 'TOML: a hexadecimal integer beyond 2^53 − 1 too',
    format: 'toml',
    before: V2_TOML,
    text: `${V2_TOML}\n[project]\nbuild = 0xFFFFFFFFFFFFFF\n`,
    expected: ['toml-syntax', V2_TOML.length + 19, V2_TOML.length + 35],
  },
  {
    name: 'TOML: seconds of 60 in a local time are refused, as tomllib refuses them',
    format: 'toml',
    before: V2_TOML,
    text: `${V2_TOML}\n[project]\nstarts = 07:32:60\n`,
    expected: ['toml-syntax', V2_TOML.length + 26, V2_TOML.length + 28],
  },
  {
    name: 'TOML: and in a local date-time and an offset date-time, in an inline table',
    format: 'toml',
    before: V2_TOML,
    text: `${V2_TOML}\n[project]\nat = { a = 1979-05-27 23:59:59, b = 1979-05-27T23:59:60.5+01:00 }\n`,
    expected: ['toml-syntax', V2_TOML.length + 64, V2_TOML.length + 66],
  },
  {
    name: 'YAML: a merge key whose value is a scalar is refused on the value, not dropped',
    format: 'yaml',
    before: V2_YAML,
    text: 'svc_version: 2\ndefault_agent: main\nagents:\n  main: { <<: no, enabled: true }\n',
    expected: ['yaml-syntax', 57, 59],
  },
  {
    name: 'YAML: an empty merge value is refused where the value would be',
    format: 'yaml',
    before: V2_YAML,
    text: `${V2_YAML}    <<:\n`,
    expected: ['yaml-syntax', V2_YAML.length + 7, V2_YAML.length + 7],
  },
  {
    name: 'YAML: a list of merge sources with a scalar in it is refused on that item',
    format: 'yaml',
    before: V2_YAML,
    text: `base: &b {enabled: true}\n${V2_YAML}    <<: [*b, 3]\n`,
    expected: ['yaml-syntax', 25 + V2_YAML.length + 13, 25 + V2_YAML.length + 14],
  },
  {
    name: 'YAML: an alias of a list holding a scalar is refused on the merge key’s value',
    format: 'yaml',
    before: V2_YAML,
    text: `list: &l [{enabled: true}, x]\n${V2_YAML}    <<: *l\n`,
    expected: ['yaml-syntax', 30 + V2_YAML.length + 8, 30 + V2_YAML.length + 10],
  },
  {
    name: 'YAML: a collection as a mapping key is refused where it stands',
    format: 'yaml',
    before: V2_YAML,
    text: `${V2_YAML}project:\n  labels: {team: billing, [2, 3]: x}\n`,
    expected: ['invalid-key', V2_YAML.length + 35, V2_YAML.length + 41],
  },
];

describe('texts the reference parsers refuse, or we refuse by a recorded decision', () => {
  for (const c of refusals) {
    it(c.name, () => {
      const fresh = located(validateManifest(c.text, { format: c.format }).diagnostics);
      expect(fresh).toContainEqual(c.expected);
      const updated = located(
        validateDocument(ManifestDocument.parse(c.before, { format: c.format }).update(c.text)).diagnostics,
      );
      expect(updated).toEqual(fresh);
    });
  }

  it('YAML: merge sources that are mappings, aliases of them and lists of those are merged', () => {
    const text = `base: &b {model: x}\nlist: &l [{model: y}]\n${V2_YAML}    <<: [*b, {sandbox: s}]\n  other:\n    <<: *l\n  third:\n    <<: []\n`;
    const result = validateManifest(text, { format: 'yaml' });
    expect(result.diagnostics.filter((d) => d.code === 'yaml-syntax')).toEqual([]);
    const agents = (result.manifest as { agents: Record<string, unknown> }).agents;
    expect(agents).toEqual({ main: { enabled: true, model: 'x', sandbox: 's' }, other: { model: 'y' }, third: {} });
  });

  it('YAML: a key that is no string is left out of the value, not read as the key ""', () => {
    for (const labels of ['{"": 1, [2, 3]: x}', '{"": 1, {a: b}: x}', '{"": 1, ? : x}']) {
      const text = `${V2_YAML}project:\n  labels: ${labels}\n`;
      const fresh = validateManifest(text, { format: 'yaml' });
      expect(
        fresh.diagnostics.map((d) => d.code).filter((code) => code === 'invalid-key' || code === 'duplicate-key'),
      ).toEqual(['invalid-key']);
      expect((fresh.manifest as { project: unknown }).project).toEqual({ labels: { '': 1 } });
      const updated = ManifestDocument.parse(V2_YAML, { format: 'yaml' }).update(text);
      expect(updated.value).toEqual(fresh.manifest);
    }
  });

  it('TOML: the largest exact integers are read exactly', () => {
    const result = validateManifest(`${V2_TOML}\n[project]\nbuild = 9007199254740991\nlow = -9_007_199_254_740_991\n`, {
      format: 'toml',
    });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect((result.manifest as { project: unknown }).project).toEqual({
      build: 9007199254740991,
      low: -9007199254740991,
    });
  });
});

describe('what the reference parsers read, we read to the same value', () => {
  it('YAML: a top-level merge key brings its keys into the value (a file read chunk by chunk)', () => {
    const text = 'svc_version: 2\n<<: {m: 1, enabled: true}\nname: x\n';
    const expected = { svc_version: 2, name: 'x', m: 1, enabled: true };
    expect(ManifestDocument.parse(text, { format: 'yaml' }).value).toEqual(expected);
    expect(ManifestDocument.parse('svc_version: 2\nname: x\n', { format: 'yaml' }).update(text).value).toEqual(
      expected,
    );
  });

  it('YAML: an anchor inside a key that is a collection can be aliased after it', () => {
    const text = '? [&a {x: 1}]\n: v\nb: *a\n';
    const document = ManifestDocument.parse(text, { format: 'yaml' });
    expect(document.diagnostics.map((d) => [d.code, d.start, d.end])).toEqual([['invalid-key', 2, 13]]);
    expect(document.value).toEqual({ b: { x: 1 } });
  });

  it('YAML: a U+FEFF at the start of a line inside the text is part of the line, not a byte-order mark', () => {
    const text = 'svc_version: 2\n\ufeffname: x\n';
    for (const document of [
      ManifestDocument.parse(text, { format: 'yaml' }),
      ManifestDocument.parse('svc_version: 2\nname: x\n', { format: 'yaml' }).update(text),
    ]) {
      expect(document.value).toEqual({ svc_version: 2, '\ufeffname': 'x' });
    }
    const refused = ManifestDocument.parse('svc_version: 1\nconnectors:\n  - plain\n\ufeff', { format: 'yaml' });
    expect(refused.diagnostics.map((d) => d.code)).toEqual(['yaml-syntax']);
  });

  it('YAML: a syntax error at the end of the text is located inside the text', () => {
    for (const text of ["main: ['single ''quoted'''']\n", 'a: {x: 1, y: *b\n']) {
      const errors = ManifestDocument.parse(text, { format: 'yaml' }).diagnostics.filter(
        (d) => d.code === 'yaml-syntax',
      );
      expect(errors.length).toBeGreaterThan(0);
      for (const error of errors) expect(error.end).toBeLessThanOrEqual(text.length);
    }
  });
});

describe('results kept from one validation to the next', () => {
  it('a list of declared names holding one empty name is not taken for an empty list (their tokens differ)', () => {
    const head = 'svc_version: 2\ndefault_agent: main\nagents:\n  main:\n    connectors: [github]\n';
    const withEmptySlug = `${head}connectors:\n  - slug: ""\n    provider: mcp\n    url: https://mcp.example.com\n`;
    const before = ManifestDocument.parse(withEmptySlug, { format: 'yaml' });
    const reference = head.indexOf('github');
    const undeclared = ['agent-connector-declared', reference, reference + 'github'.length];
    expect(located(validateDocument(before).diagnostics)).toContainEqual(undeclared);
    const updated = before.update(head);
    // The same diagnostic at the same place, but about another list of names: a result kept for
    // the old list (taken for the new one by an equal token) would say the old list.
    const fresh = validateManifest(head, { format: 'yaml' }).diagnostics;
    expect(located(fresh)).toContainEqual(undeclared);
    expect(validateDocument(updated).diagnostics).toEqual(fresh);
  });
});
