/**
 * Independent conformance: every fixture's JSON Schema verdict, checked with Debian's
 * python3-jsonschema (Draft7Validator), a JSON Schema implementation that shares no code
 * with the ajv-based validator. The published schemas must give each fixture the verdict
 * its `# verdict:` line (or its folder) states, and each per-version schema must agree with
 * the combined schema for documents of its version.
 *
 * Requires /usr/bin/python3 with the `python3-jsonschema` package (CI installs it). When it
 * is missing the suite fails; it never skips.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_DIR, declaredVersion, loadExamples, loadFixtures, parseFixture, type Fixture } from './support/fixtures.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(import.meta.dirname, 'support/jsonschema_verdicts.py');
const SCHEMAS = {
  combined: join(SCHEMA_DIR, 'svc.schema.json'),
  v1: join(SCHEMA_DIR, 'svc.v1.schema.json'),
  v2: join(SCHEMA_DIR, 'svc.v2.schema.json'),
};

type SchemaVerdict = { valid: boolean; errors: string[] };
type Verdicts = Record<string, SchemaVerdict>;

const fixtures = loadFixtures();
const examples = loadExamples();

interface Parsed {
  fixture: Fixture;
  value?: unknown;
  parseError?: string;
}

const parsed: Parsed[] = [...fixtures, ...examples].map((fixture) => {
  try {
    return { fixture, value: parseFixture(fixture) };
  } catch (error) {
    return { fixture, parseError: String((error as Error).message ?? error).split('\n')[0] };
  }
});

/** One python process validates every parseable fixture against all three schemas. */
function runPython(documents: unknown[]): Verdicts[] {
  if (!existsSync(PYTHON)) {
    throw new Error(`${PYTHON} not found: the conformance suite needs Debian's python3 with python3-jsonschema (apt-get install -y python3-jsonschema)`);
  }
  const result = spawnSync(PYTHON, [SCRIPT, SCHEMAS.combined, SCHEMAS.v1, SCHEMAS.v2], {
    input: JSON.stringify(documents),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw new Error(`could not run ${PYTHON}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${PYTHON} ${SCRIPT} exited with ${result.status}:\n${result.stderr}`);
  }
  return JSON.parse(result.stdout) as Verdicts[];
}

let verdicts: Map<Fixture, Verdicts>;

beforeAll(() => {
  const withValue = parsed.filter((entry) => entry.parseError === undefined);
  const results = runPython(withValue.map((entry) => entry.value));
  expect(results).toHaveLength(withValue.length);
  verdicts = new Map(withValue.map((entry, index) => [entry.fixture, results[index]!]));
});

describe('fixture layout', () => {
  it('has fixtures and the README example', () => {
    expect(fixtures.length).toBeGreaterThan(0);
    expect(examples.map((example) => example.name)).toContain('examples/svc.yaml');
  });

  it('marks every invalid/ fixture with an explicit verdict line', () => {
    const unmarked = fixtures.filter((fixture) => fixture.folder === 'invalid' && !fixture.explicitVerdict).map((f) => f.name);
    expect(unmarked).toEqual([]);
  });

  it('keeps only valid fixtures under valid/', () => {
    const wrong = fixtures.filter((fixture) => fixture.folder === 'valid' && fixture.verdict !== 'valid').map((f) => f.name);
    expect(wrong).toEqual([]);
  });

  it('starts every fixture with a comment', () => {
    const bare = fixtures.filter((fixture) => !fixture.text.startsWith('#')).map((f) => f.name);
    expect(bare).toEqual([]);
  });
});

describe('python3-jsonschema (Draft7Validator) verdicts on generated/svc.schema.json', () => {
  for (const entry of parsed) {
    const { fixture } = entry;
    it(`${fixture.name} is ${fixture.verdict}`, () => {
      if (fixture.verdict === 'unparseable') {
        expect(entry.parseError, 'expected the YAML/TOML parser to reject the file').toBeDefined();
        return;
      }
      expect(entry.parseError, `the ${fixture.format} parser rejected the file`).toBeUndefined();
      const combined = verdicts.get(fixture)![SCHEMAS.combined]!;
      expect(
        { valid: combined.valid, errors: combined.valid === (fixture.verdict === 'valid') ? [] : combined.errors },
        `python3-jsonschema says ${combined.valid ? 'valid' : 'invalid'}; the fixture says ${fixture.verdict}`,
      ).toEqual({ valid: fixture.verdict === 'valid', errors: [] });
    });
  }
});

describe('per-version schemas agree with the combined schema', () => {
  for (const entry of parsed) {
    const version = declaredVersion(entry.value);
    if (entry.parseError !== undefined || version === undefined) continue;
    it(`${entry.fixture.name} (svc_version ${version})`, () => {
      const result = verdicts.get(entry.fixture)!;
      const own = result[version === 1 ? SCHEMAS.v1 : SCHEMAS.v2]!;
      expect(own.valid, own.errors.join('\n')).toBe(result[SCHEMAS.combined]!.valid);
    });
  }
});
