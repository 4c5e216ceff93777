/**
 * Independent conformance: every fixture's JSON Schema verdict, checked with Debian's
 * python3-jsonschema (Draft7Validator), a JSON Schema implementation that shares no code
 * with the ajv-based validator. The published schemas must give each fixture the verdict
 * its `# verdict:` line (or its folder) states; a fixture with a single fault (one error in
 * its `.expected`) must get exactly one error from the schema too; each per-version schema
 * must agree with the combined schema for documents of its version; and every pattern in the
 * published schemas must match exactly the same strings under ECMA-262 and Python's `re`.
 *
 * YAML fixtures are parsed here with the `yaml` package; TOML fixtures are parsed by Python's
 * own `tomllib`, so a TOML date or time reaches the schema as a date, not as a string.
 *
 * Requires `python3` on PATH with the `python3-jsonschema` package (CI installs it). When it
 * is missing the suite fails with a message saying so; it never skips.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateManifest } from '@svc-manifest/validator';
import { SCHEMA_DIR, loadExamples, loadFixtures, parseYamlFixture, type Fixture } from './support/fixtures.js';
import { stringKeyCases, wrongShapeCases } from './support/string-keys.js';

const PYTHON = 'python3';
const VERDICTS_SCRIPT = join(import.meta.dirname, 'support/jsonschema_verdicts.py');
const REGEX_SCRIPT = join(import.meta.dirname, 'support/regex_matches.py');
const SCHEMAS = {
  combined: join(SCHEMA_DIR, 'svc.schema.json'),
  v1: join(SCHEMA_DIR, 'svc.v1.schema.json'),
  v2: join(SCHEMA_DIR, 'svc.v2.schema.json'),
};

type SchemaVerdict = { valid: boolean; count: number; errors: string[] };
interface PythonResult {
  parseError: string | null;
  version: 1 | 2 | null;
  verdicts: Record<string, SchemaVerdict>;
}

const fixtures = loadFixtures();
const examples = loadExamples();
const work = mkdtempSync(join(tmpdir(), 'svc-conformance-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What Python is given for a fixture: the parsed YAML value, or the TOML file to read itself. */
type PythonInput = { json: unknown } | { toml: string };

interface Entry {
  fixture: Fixture;
  input?: PythonInput;
  /** Set when the JavaScript YAML parser refused the file. */
  parseError?: string;
}

const entries: Entry[] = [...fixtures, ...examples].map((fixture) => {
  if (fixture.format === 'toml') return { fixture, input: { toml: fixture.file } };
  try {
    return { fixture, input: { json: parseYamlFixture(fixture) } };
  } catch (error) {
    return { fixture, parseError: String((error as Error).message ?? error).split('\n')[0] };
  }
});

/**
 * Runs a Python helper on a JSON input file (a file, not stdin: a Python that exits early must
 * not turn into an EPIPE here). Fails with a clear message when python3 or jsonschema is missing.
 */
function runPython<T>(script: string, input: unknown, extraArgs: string[] = []): T {
  const probe = spawnSync(PYTHON, ['-c', 'import jsonschema, tomllib'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `the conformance suite needs ${PYTHON} (>= 3.11) on PATH with python3-jsonschema (apt-get install -y python3-jsonschema): ` +
        (probe.error?.message ?? probe.stderr.trim()),
    );
  }
  const file = join(work, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(input));
  const result = spawnSync(PYTHON, [script, file, ...extraArgs], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw new Error(`could not run ${PYTHON} ${script}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${PYTHON} ${script} exited with ${result.status}:\n${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

const results = new Map<Fixture, PythonResult>();

beforeAll(() => {
  const withInput = entries.filter((entry) => entry.input !== undefined);
  const out = runPython<PythonResult[]>(
    VERDICTS_SCRIPT,
    withInput.map((entry) => entry.input),
    [SCHEMAS.combined, SCHEMAS.v1, SCHEMAS.v2],
  );
  expect(out).toHaveLength(withInput.length);
  withInput.forEach((entry, index) => results.set(entry.fixture, out[index]!));
});

/** The number of errors in a fixture's `.expected` file (our validator's diagnostics). */
function expectedErrors(fixture: Fixture): number | undefined {
  const file = `${fixture.file}.expected`;
  if (!existsSync(file)) return undefined;
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => / error [a-z0-9-]+ \|/.test(line.split(' | ')[0] + ' |')).length;
}

describe('fixture layout', () => {
  it('has fixtures and the README example', () => {
    expect(fixtures.length).toBeGreaterThan(0);
    expect(examples.map((example) => example.name)).toContain('examples/svc.yaml');
  });

  it('marks every invalid/ fixture with an explicit verdict line', () => {
    const unmarked = fixtures
      .filter((fixture) => fixture.folder === 'invalid' && !fixture.explicitVerdict)
      .map((f) => f.name);
    expect(unmarked).toEqual([]);
  });

  it('keeps only valid fixtures under valid/', () => {
    const wrong = fixtures
      .filter((fixture) => fixture.folder === 'valid' && fixture.verdict !== 'valid')
      .map((f) => f.name);
    expect(wrong).toEqual([]);
  });

  it('starts every fixture with a comment (after a byte-order mark, if any)', () => {
    const bare = fixtures.filter((fixture) => !fixture.text.replace(/^\uFEFF/, '').startsWith('#')).map((f) => f.name);
    expect(bare).toEqual([]);
  });
});

describe('python3-jsonschema (Draft7Validator) verdicts on generated/svc.schema.json', () => {
  for (const entry of entries) {
    const { fixture } = entry;
    it(`${fixture.name} is ${fixture.verdict}`, () => {
      const python = results.get(fixture);
      const parseError = entry.parseError ?? python?.parseError ?? undefined;
      if (fixture.verdict === 'unparseable') {
        expect(parseError, `expected the ${fixture.format} parser to reject the file`).toBeDefined();
        return;
      }
      expect(parseError, `the ${fixture.format} parser rejected the file`).toBeUndefined();
      const combined = python!.verdicts[SCHEMAS.combined]!;
      expect(
        { valid: combined.valid, errors: combined.valid === (fixture.verdict === 'valid') ? [] : combined.errors },
        `python3-jsonschema says ${combined.valid ? 'valid' : 'invalid'}; the fixture says ${fixture.verdict}`,
      ).toEqual({ valid: fixture.verdict === 'valid', errors: [] });
    });
  }
});

describe('a single-fault fixture gets exactly one error from the schema, as from our validator', () => {
  const singleFault = entries.filter(
    (entry) =>
      entry.fixture.folder === 'invalid' && entry.fixture.verdict === 'invalid' && expectedErrors(entry.fixture) === 1,
  );
  it('covers most invalid fixtures', () => {
    expect(singleFault.length).toBeGreaterThan(150);
  });
  for (const { fixture } of singleFault) {
    it(`${fixture.name}: one error`, () => {
      const python = results.get(fixture)!;
      const combined = python.verdicts[SCHEMAS.combined]!;
      expect({ count: combined.count, errors: combined.errors }).toEqual({ count: 1, errors: [expect.any(String)] });
      const own = python.verdicts[python.version === 1 ? SCHEMAS.v1 : SCHEMAS.v2]!;
      if (python.version !== null) expect(own.count, own.errors.join('\n')).toBe(1);
    });
  }
});

describe('per-version schemas agree with the combined schema', () => {
  for (const entry of entries) {
    it(`${entry.fixture.name}`, () => {
      const python = results.get(entry.fixture);
      if (!python || python.parseError !== null || python.version === null) return;
      const own = python.verdicts[python.version === 1 ? SCHEMAS.v1 : SCHEMAS.v2]!;
      expect(own.valid, own.errors.join('\n')).toBe(python.verdicts[SCHEMAS.combined]!.valid);
    });
  }
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every `pattern` in a schema, with where it is. */
function patternsIn(node: unknown, path = '#', out = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(node)) node.forEach((item, index) => patternsIn(item, `${path}/${index}`, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') out.set(value, out.get(value) ?? path);
      else patternsIn(value, `${path}/${key}`, out);
    }
  }
  return out;
}

describe('published patterns mean the same under ECMA-262 and Python re', () => {
  const patterns = new Map<string, string>();
  for (const file of Object.values(SCHEMAS))
    for (const [pattern, at] of patternsIn(JSON.parse(readFileSync(file, 'utf8')))) patterns.set(pattern, at);
  const bases = [
    'a',
    'main',
    'api-1',
    'A_1',
    'GITHUB_SECRET',
    'X-Api-Key',
    "!#$%&'*+.^_`|~",
    '5m',
    '30s',
    'yes',
    'TRUE',
    'off',
    '/health',
    'dir/file',
    'a/..',
    '../x',
    '..\\x',
    'x\\..',
    '..',
    '',
    'a b',
    '1a',
  ];
  const probes = [
    ...new Set(
      bases.flatMap((s) => [
        s,
        `${s}\n`,
        `${s}\r\n`,
        `${s}\r`,
        `${s}\u2028`,
        `\n${s}`,
        `${s}\n${s}`,
        `a\r/${s}`,
        `a\u2028/${s}`,
      ]),
    ),
  ];

  it('the schemas have the spec patterns', () => {
    expect(patterns.size).toBeGreaterThanOrEqual(8);
  });

  it('every pattern gives the same answer for every probe (trailing newline, CR, U+2028 included)', () => {
    const list = [...patterns.keys()];
    const python = runPython<boolean[][]>(REGEX_SCRIPT, { patterns: list, probes });
    const differences: string[] = [];
    list.forEach((pattern, i) => {
      // ajv compiles patterns with the `u` flag.
      const regex = new RegExp(pattern, 'u');
      probes.forEach((probe, j) => {
        if (regex.test(probe) !== python[i]![j])
          differences.push(
            `${patterns.get(pattern)}: ${JSON.stringify(probe)} (ECMA-262 ${regex.test(probe)}, Python ${python[i]![j]})`,
          );
      });
    });
    expect(differences).toEqual([]);
  });

  it('a value ending in a newline is refused by python-jsonschema and by our validator alike', () => {
    const base = { svc_version: 2, default_agent: 'main', agents: { main: {} } };
    const cases: [string, unknown][] = [
      ['agent name', { ...base, agents: { 'main\n': {} } }],
      ['trigger slug', { ...base, triggers: [{ slug: 'nightly\n', type: 'cron', cron: '0 * * * *', prompt: 'p' }] }],
      [
        'secret_env',
        { ...base, triggers: [{ slug: 'hook', type: 'webhook', secret_env: 'HOOK_SECRET\n', prompt: 'p' }] },
      ],
      [
        'interval',
        { ...base, triggers: [{ slug: 'm', type: 'monitor', run: 'x', mode: 'poll', interval: '5m\n', prompt: 'p' }] },
      ],
      [
        'enabled string',
        { ...base, triggers: [{ slug: 'c', type: 'cron', cron: '0 * * * *', prompt: 'p', enabled: 'yes\n' }] },
      ],
      ['env name', { ...base, env: { required: ['API_KEY\n'] } }],
      [
        'header name',
        {
          ...base,
          connectors: [{ slug: 'api', provider: 'http', base_url: 'https://x', headers: { 'X-Api\n': 'v' } }],
        },
      ],
      [
        'header value',
        {
          ...base,
          connectors: [{ slug: 'api', provider: 'http', base_url: 'https://x', headers: { 'X-Api': 'v\n' } }],
        },
      ],
      ['app name', { ...base, apps: { 'web\n': { port: 3000 } } }],
      ['sandbox slug', { ...base, agents: { main: { sandbox: 'box\n' } } }],
    ];
    const python = runPython<PythonResult[]>(
      VERDICTS_SCRIPT,
      cases.map(([, json]) => ({ json })),
      [SCHEMAS.combined, SCHEMAS.v2],
    );
    const verdicts = cases.map(([what, json], i) => ({
      what,
      python: python[i]!.verdicts[SCHEMAS.combined]!.count,
      pythonV2: python[i]!.verdicts[SCHEMAS.v2]!.count,
      ours: validateManifest(JSON.stringify(json), { format: 'yaml' }).diagnostics.filter((d) => d.severity === 'error')
        .length,
    }));
    expect(verdicts).toEqual(cases.map(([what]) => ({ what, python: 1, pythonV2: 1, ours: 1 })));
  });
});

describe('a TOML date at any string-typed key is one schema error (Python reads the TOML with tomllib)', () => {
  const cases = stringKeyCases();
  it('every such manifest gets exactly one error, at the date', () => {
    const inputs = cases.map((c, i) => {
      const file = join(work, `string-key-${i}.toml`);
      writeFileSync(file, c.toml);
      return { toml: file };
    });
    const python = runPython<PythonResult[]>(VERDICTS_SCRIPT, inputs, [SCHEMAS.combined, SCHEMAS.v1, SCHEMAS.v2]);
    const outcome = cases.map((c, i) => {
      const result = python[i]!;
      const own = result.verdicts[c.version === 1 ? SCHEMAS.v1 : SCHEMAS.v2]!;
      return {
        key: `v${c.version} ${c.pointer}`,
        parseError: result.parseError,
        combined: result.verdicts[SCHEMAS.combined]?.errors,
        own: own?.count,
      };
    });
    expect(outcome).toEqual(
      cases.map((c) => ({
        key: `v${c.version} ${c.pointer}`,
        parseError: null,
        combined: [expect.stringMatching(new RegExp(`^${escapeRegExp(c.pointer)}: `))],
        own: 1,
      })),
    );
  });
});

describe('a string where an object or a list belongs is one schema error (no cascade from conditional clauses)', () => {
  const cases = wrongShapeCases();
  it('every such manifest gets exactly one error, at the value', () => {
    const python = runPython<PythonResult[]>(
      VERDICTS_SCRIPT,
      cases.map((c) => ({ json: JSON.parse(c.json) as unknown })),
      [SCHEMAS.combined, SCHEMAS.v1, SCHEMAS.v2],
    );
    const outcome = cases.map((c, i) => {
      const result = python[i]!;
      return {
        key: `v${c.version} ${c.pointer}`,
        combined: result.verdicts[SCHEMAS.combined]!.errors,
        own: result.verdicts[c.version === 1 ? SCHEMAS.v1 : SCHEMAS.v2]!.count,
      };
    });
    expect(outcome).toEqual(
      cases.map((c) => ({
        key: `v${c.version} ${c.pointer}`,
        combined: [expect.stringMatching(new RegExp(`^${escapeRegExp(c.pointer)}: 'text' is not of type`))],
        own: 1,
      })),
    );
  });
});
