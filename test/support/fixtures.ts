/**
 * Walks `fixtures/<rule-id>/{valid,invalid}/<case>.{yaml,toml}` and turns each file into
 * plain JSON with a parser that is independent of the validator's located document model:
 * the `yaml` package for YAML (TOML is read by Python's `tomllib` in the conformance test).
 *
 * Every fixture states its JSON Schema verdict: a leading `# verdict: valid|invalid|unparseable`
 * line. Files without one get the verdict of their folder (valid/ → valid, invalid/ → invalid).
 * `unparseable` marks files that no conforming YAML/TOML parser turns into a value (syntax
 * errors, duplicate keys, several documents): there is nothing to hand to a schema validator.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTOML, type AST } from 'toml-eslint-parser';
import { parse as parseYaml } from 'yaml';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const FIXTURES_DIR = join(REPO_ROOT, 'fixtures');
export const SCHEMA_DIR = join(REPO_ROOT, 'packages/schema/generated');

export type Verdict = 'valid' | 'invalid' | 'unparseable';
export type Format = 'yaml' | 'toml';

export interface Fixture {
  /** Path relative to the repository root, e.g. `fixtures/trigger-webhook-secret/invalid/v2-missing-secret.toml`. */
  name: string;
  file: string;
  rule: string;
  folder: 'valid' | 'invalid';
  format: Format;
  text: string;
  /** The JSON Schema verdict the fixture claims. */
  verdict: Verdict;
  /** Whether the verdict came from a `# verdict:` line (otherwise from the folder). */
  explicitVerdict: boolean;
}

const VERDICT_LINE = /^#\s*verdict:\s*(valid|invalid|unparseable)\b/m;

/** Every fixture file, sorted by path. Throws on a misplaced file so nothing is skipped silently. */
export function loadFixtures(): Fixture[] {
  const fixtures: Fixture[] = [];
  for (const rule of readdirSync(FIXTURES_DIR).sort()) {
    const ruleDir = join(FIXTURES_DIR, rule);
    if (!statSync(ruleDir).isDirectory()) continue;
    for (const entry of readdirSync(ruleDir).sort()) {
      if (entry !== 'valid' && entry !== 'invalid') {
        if (entry.endsWith('.md')) continue;
        throw new Error(`unexpected entry ${relative(REPO_ROOT, join(ruleDir, entry))}: expected valid/ or invalid/`);
      }
      const folder = entry;
      for (const file of readdirSync(join(ruleDir, folder)).sort()) {
        const path = join(ruleDir, folder, file);
        const format: Format | undefined = file.endsWith('.yaml')
          ? 'yaml'
          : file.endsWith('.toml')
            ? 'toml'
            : undefined;
        if (!format) {
          if (file.endsWith('.expected')) continue; // expected diagnostics, written by the lead's tooling
          throw new Error(`unexpected fixture file ${relative(REPO_ROOT, path)}: expected .yaml or .toml`);
        }
        const text = readFileSync(path, 'utf8');
        const match = VERDICT_LINE.exec(text.replace(/^\uFEFF/, '').slice(0, 4096));
        fixtures.push({
          name: relative(REPO_ROOT, path),
          file: path,
          rule,
          folder,
          format,
          text,
          verdict: (match?.[1] as Verdict | undefined) ?? folder,
          explicitVerdict: Boolean(match),
        });
      }
    }
  }
  return fixtures;
}

/** The example manifests under `examples/` (the README's quick start validates one); all must be valid. */
export function loadExamples(): Fixture[] {
  const dir = join(REPO_ROOT, 'examples');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yaml') || file.endsWith('.toml'))
    .sort()
    .map((file) => {
      const path = join(dir, file);
      return {
        name: relative(REPO_ROOT, path),
        file: path,
        rule: 'examples',
        folder: 'valid' as const,
        format: file.endsWith('.yaml') ? ('yaml' as const) : ('toml' as const),
        text: readFileSync(path, 'utf8'),
        verdict: 'valid' as const,
        explicitVerdict: false,
      };
    });
}

/**
 * The path of every manifest (`.yaml`, `.yml`, `.toml`) under `fixtures/` and `examples/`, at any
 * depth (the examples' sub-projects too), for tests that run something over all of them.
 */
export function manifestPaths(): string[] {
  const paths: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ya?ml|toml)$/.test(name)) paths.push(path);
    }
  };
  walk(FIXTURES_DIR);
  walk(join(REPO_ROOT, 'examples'));
  return paths;
}

/**
 * Parses a YAML fixture to plain JSON; throws on anything a conforming parser rejects.
 * (TOML fixtures are parsed by Python's own `tomllib` in the conformance test, so TOML dates
 * and times keep their own types there.)
 */
export function parseYamlFixture(fixture: Pick<Fixture, 'text'>): unknown {
  // YAML 1.2 core schema; duplicate keys and several documents throw. Merge keys (`<<: *base`)
  // are applied, as our validator applies them (docs/decisions.md). Aliases are expanded
  // without the package's resource guard: the alias fixtures denote ordinary, schema-valid
  // values that only our validator's limits refuse.
  return jsonRoundTrip(
    parseYaml(fixture.text, { uniqueKeys: true, maxAliasCount: -1, merge: true, logLevel: 'error' }),
  );
}

/**
 * Parses a fixture to plain JSON (TOML dates become their text), for checks that need a value
 * of either format, such as the generated types; throws on anything a conforming parser rejects.
 */
export function parseFixture(fixture: Pick<Fixture, 'format' | 'text'>): unknown {
  return fixture.format === 'yaml'
    ? parseYamlFixture(fixture)
    : jsonRoundTrip(tomlToValue(parseTOML(fixture.text, { tomlVersion: '1.0' })));
}

/** What a schema validator over the wire would see: JSON text, parsed again. */
function jsonRoundTrip(value: unknown): unknown {
  const text = JSON.stringify(value);
  if (text === undefined) throw new Error('document has no JSON value');
  return JSON.parse(text) as unknown;
}

// ---- TOML → value, with null-prototype tables so `__proto__` / `constructor` stay plain keys ----

type Table = Record<string, unknown>;

function newTable(): Table {
  return Object.create(null) as Table;
}

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keyPath(key: AST.TOMLKey): string[] {
  return key.keys.map((part) => (part.type === 'TOMLBare' ? part.name : part.value));
}

function descend(table: Table, keys: string[]): Table {
  let current = table;
  for (const key of keys) {
    let next = current[key];
    if (Array.isArray(next)) next = next[next.length - 1];
    if (!isTable(next)) {
      next = newTable();
      current[key] = next;
    }
    current = next as Table;
  }
  return current;
}

function tomlValue(node: AST.TOMLContentNode): unknown {
  switch (node.type) {
    case 'TOMLArray':
      return node.elements.map(tomlValue);
    case 'TOMLInlineTable': {
      const table = newTable();
      for (const pair of node.body) assign(table, pair);
      return table;
    }
    case 'TOMLValue':
      if (node.kind === 'integer') return Number(node.bigint);
      if (node.value instanceof Date) return (node as AST.TOMLDateTimeValue).datetime;
      return node.value;
  }
}

function assign(table: Table, pair: AST.TOMLKeyValue): void {
  const keys = keyPath(pair.key);
  const target = descend(table, keys.slice(0, -1));
  target[keys[keys.length - 1]!] = tomlValue(pair.value);
}

function tomlToValue(program: AST.TOMLProgram): Table {
  const root = newTable();
  const top = program.body[0];
  if (!top) return root;
  for (const item of top.body) {
    if (item.type === 'TOMLKeyValue') {
      assign(root, item);
      continue;
    }
    const keys = keyPath(item.key);
    const parent = descend(root, keys.slice(0, -1));
    const last = keys[keys.length - 1]!;
    let table: Table;
    if (item.kind === 'array') {
      const list = Array.isArray(parent[last]) ? (parent[last] as unknown[]) : (parent[last] = []);
      table = newTable();
      list.push(table);
    } else {
      const existing = parent[last];
      table = isTable(existing) ? existing : (parent[last] = newTable());
    }
    for (const pair of item.body) assign(table, pair);
  }
  return root;
}

/** The `svc_version` a parsed document claims, when it is 1 or 2. */
export function declaredVersion(value: unknown): 1 | 2 | undefined {
  if (!isTable(value)) return undefined;
  const version = value['svc_version'];
  return version === 1 || version === 2 ? version : undefined;
}
