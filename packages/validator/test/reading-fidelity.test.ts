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
];

describe('texts the reference parsers refuse, or we refuse by a recorded decision', () => {
  for (const c of refusals) {
    it(c.name, () => {
      const fresh = located(validateManifest(c.text, { format: c.format }).diagnostics);
      expect(fresh).toContainEqual(c.expected);
      const updated = located(validateDocument(ManifestDocument.parse(c.before, { format: c.format }).update(c.text)).diagnostics);
      expect(updated).toEqual(fresh);
    });
  }

  it('TOML: the largest exact integers are read exactly', () => {
    const result = validateManifest(`${V2_TOML}\n[project]\nbuild = 9007199254740991\nlow = -9_007_199_254_740_991\n`, { format: 'toml' });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect((result.manifest as { project: unknown }).project).toEqual({ build: 9007199254740991, low: -9007199254740991 });
  });
});
