/**
 * fix, migrate and convert, driven by fixtures-transform/{fix,migrate,convert}/:
 * `<case>.in.<ext>` is the input; `<case>.out.<ext>` the exact bytes expected, or
 * `<case>.refused.json` the refusals expected as `[code, line, column]`. A line
 * `# test: --default-agent=NAME` in a migrate input passes that flag.
 *
 * Beyond the bytes, every migrated or converted output is parsed again and compared as
 * data with an independent reference (a plain mapping of the version 1 value; the TOML's
 * value), validated, and checked to hold every comment of its input in the same order.
 * Converted YAML is also read by real YAML 1.1 readers: the `yaml` package in 1.1 mode and
 * PyYAML. The same checks then run over every valid version 1 manifest and every valid TOML
 * manifest of fixtures/, a corpus written independently of these tools.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Lexer, parse as parseYaml } from 'yaml';
import { parseTOML } from 'toml-eslint-parser';
import {
  canonicalJson,
  editManifest,
  fixManifest,
  ManifestDocument,
  manifestVersion,
  migrateManifest,
  MIGRATE_CODES,
  tomlToYaml,
  TomlDateTime,
  validateManifest,
  type ManifestChange,
} from '@svc-manifest/validator';
import { REPO_ROOT } from './support/child.js';

const ROOT = join(REPO_ROOT, 'fixtures-transform');

interface Case {
  name: string;
  input: string;
  ext: 'yaml' | 'toml';
  bytes: Buffer;
  out?: Buffer;
  refused?: [string, number, number][];
}

function cases(kind: 'fix' | 'migrate' | 'convert'): Case[] {
  const dir = join(ROOT, kind);
  const files = readdirSync(dir);
  return files
    .filter((file) => /\.in\.(yaml|toml)$/.test(file))
    .sort()
    .map((file) => {
      const name = file.replace(/\.in\.\w+$/, '');
      const ext: 'yaml' | 'toml' = file.endsWith('.toml') ? 'toml' : 'yaml';
      // convert's outputs are YAML; fix and migrate keep the input's format.
      const outName = files.find((f) => f === `${name}.out.${kind === 'convert' ? 'yaml' : ext}`);
      const refusedName = files.find((f) => f === `${name}.refused.json`);
      return {
        name: `${name}.${ext}`,
        input: join(dir, file),
        ext,
        bytes: readFileSync(join(dir, file)),
        out: outName ? readFileSync(join(dir, outName)) : undefined,
        refused: refusedName
          ? (JSON.parse(readFileSync(join(dir, refusedName), 'utf8')) as [string, number, number][])
          : undefined,
      };
    });
}

function parse(bytes: Buffer | string, ext: 'yaml' | 'toml'): ManifestDocument {
  return ManifestDocument.parse(bytes, { filename: `svc.${ext}` });
}

/** Comment texts in order, read by each format's own tokenizer. */
export function commentsOf(text: string, ext: 'yaml' | 'toml'): string[] {
  const body = text.replace(/^\uFEFF/, '');
  if (ext === 'toml') return parseTOML(body).comments.map((c) => `#${c.value}`.trimEnd());
  return [...new Lexer().lex(body)].filter((token) => token.startsWith('#')).map((token) => token.trimEnd());
}

function errorsOf(bytes: Buffer | string, ext: 'yaml' | 'toml'): string[] {
  return validateManifest(bytes, { filename: `svc.${ext}` })
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.code} ${d.path}`);
}

/** The spec's mapping from version 1 to version 2, on plain values: the reference the migrated text must mean. */
function referenceMigration(v1: Record<string, unknown>, defaultAgent?: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...v1, svc_version: 2 };
  const agents = Array.isArray(v1.agents) ? (v1.agents as Record<string, unknown>[]) : [];
  const map: Record<string, unknown> = {};
  for (const agent of agents) {
    const { name, ...rest } = agent;
    map[name as string] = rest;
  }
  if (agents.length === 0 && defaultAgent) map[defaultAgent] = {};
  out.agents = map;
  const names = Object.keys(map);
  out.default_agent =
    defaultAgent ??
    (typeof v1.default_agent === 'string' ? v1.default_agent : names.length === 1 ? names[0] : undefined);
  return out;
}

/** Whether version 2 has a counterpart for everything in this version 1 value (the spec's list). */
function hasCounterpart(v1: Record<string, unknown>, defaultAgent?: string): boolean {
  const V1_ONLY =
    /^(project\.session\.exec|project\.gateway\.routing\.edit|project\.schedule\.(read|write)|project\.webhook\.(read|write)|channel\.(read|connect|send|disconnect))$/;
  if ('channels' in v1) return false;
  const agents = Array.isArray(v1.agents) ? (v1.agents as Record<string, unknown>[]) : [];
  for (const agent of agents) {
    if ('env' in agent) return false;
    if (Array.isArray(agent.svc_cli) && agent.svc_cli.some((p) => typeof p === 'string' && V1_ONLY.test(p)))
      return false;
  }
  for (const connector of Array.isArray(v1.connectors) ? (v1.connectors as Record<string, unknown>[]) : []) {
    if ('agent_scope' in connector) return false;
    if ('credential' in connector && connector.credential !== 'shared') return false;
  }
  const expected = referenceMigration(v1, defaultAgent);
  if (
    expected.default_agent === undefined ||
    (defaultAgent && agents.length > 0 && !(defaultAgent in (expected.agents as object)))
  )
    return false;
  return validateManifest(JSON.stringify(expected), { format: 'yaml' }).diagnostics.every(
    (d) => d.severity !== 'error',
  );
}

/** Values PyYAML (a YAML 1.1 reader) reads from each text; dates and other non-JSON values come back tagged. */
function readWithPyYaml(texts: string[]): unknown[] {
  const script = [
    'import sys, json, yaml, datetime',
    'def plain(v):',
    '    if isinstance(v, dict): return {str(k) if isinstance(k, str) else "<key %r>" % (k,): plain(x) for k, x in v.items()}',
    '    if isinstance(v, list): return [plain(x) for x in v]',
    '    if isinstance(v, (datetime.date, datetime.datetime, bytes)): return "<%s %s>" % (type(v).__name__, v)',
    '    if isinstance(v, float) and v != v: return "<nan>"',
    '    if isinstance(v, float) and v in (float("inf"), float("-inf")): return "<%s>" % v',
    '    return v',
    'texts = json.load(sys.stdin)',
    'print(json.dumps([plain(yaml.safe_load(t.encode("utf-8"))) for t in texts]))',
  ].join('\n');
  const result = spawnSync('python3', ['-c', script], {
    input: JSON.stringify(texts),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`PyYAML failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as unknown[];
}

/** The plain value with NaN and infinities tagged like the PyYAML reading. */
function tagged(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tagged);
  // A TOML date-time is read as its text by YAML readers (the converter writes it quoted).
  if (value instanceof TomlDateTime) return value.text;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tagged(v)]));
  if (typeof value === 'number' && Number.isNaN(value)) return '<nan>';
  if (value === Number.POSITIVE_INFINITY) return '<inf>';
  if (value === Number.NEGATIVE_INFINITY) return '<-inf>';
  return value;
}

describe('engine operations used by fix and migrate (byte-exact)', () => {
  const edit = (text: string, changes: ManifestChange[], filename = 'svc.yaml'): string =>
    editManifest(text, changes, { filename }).text;

  it('keyBy turns a block list into a map, moving a trailing comment of the key line to the new key', () => {
    expect(
      edit('agents:\n  - x: 1\n    name: a   # first\n  - name: b\n', [{ op: 'keyBy', path: ['agents'], key: 'name' }]),
    ).toBe('agents:\n  a:  # first\n    x: 1\n  b: {}\n');
  });

  it("keyBy shifts a list written at its key's column", () => {
    expect(edit('agents:\n- name: a\n  # c\n  x: 1\ny: 2\n', [{ op: 'keyBy', path: ['agents'], key: 'name' }])).toBe(
      'agents:\n  a:\n    # c\n    x: 1\ny: 2\n',
    );
  });

  it('keyBy turns a flow list into a flow map', () => {
    expect(edit('agents: [{name: a}, {x: [1], name: b}]\n', [{ op: 'keyBy', path: ['agents'], key: 'name' }])).toBe(
      'agents: {a: {}, b: {x: [1]}}\n',
    );
  });

  it('keyBy turns TOML arrays of tables into tables, sub-tables following', () => {
    const toml = '[[agents]] # one\nname = "a"\nx = 1\n\n[agents.env]\nK = "v"\n\n[[agents]]\nname = "b"\n';
    expect(edit(toml, [{ op: 'keyBy', path: ['agents'], key: 'name' }], 'svc.toml')).toBe(
      '[agents.a] # one\nx = 1\n\n[agents.a.env]\nK = "v"\n\n[agents.b]\n',
    );
  });

  it('keyBy turns a one-line TOML array of inline tables into an inline table', () => {
    expect(
      edit('agents = [{ name = "a", x = 1 }]\n', [{ op: 'keyBy', path: ['agents'], key: 'name' }], 'svc.toml'),
    ).toBe('agents = {a = { x = 1 }}\n');
  });

  it('keyBy refuses a repeated name, an alias item and a multi-line TOML array', () => {
    expect(() => edit('a:\n  - name: x\n  - name: x\n', [{ op: 'keyBy', path: ['a'], key: 'name' }])).toThrow(
      /used twice/,
    );
    expect(() => edit('b: &b {name: x}\na:\n  - *b\n', [{ op: 'keyBy', path: ['a'], key: 'name' }])).toThrow(
      /not a map written in place/,
    );
    expect(() => edit('l: &l\n  - name: x\na: *l\n', [{ op: 'keyBy', path: ['a'], key: 'name' }])).toThrow(/alias \*l/);
    expect(() =>
      edit('a = [\n  { name = "x" },\n]\n', [{ op: 'keyBy', path: ['a'], key: 'name' }], 'svc.toml'),
    ).toThrow(/several lines/);
  });

  it('rewrite writes a number in its canonical form and keeps everything else', () => {
    expect(edit('svc_version: 2.0  # v\n', [{ op: 'rewrite', path: ['svc_version'] }])).toBe('svc_version: 2  # v\n');
    expect(edit('svc_version = +2 # v\n', [{ op: 'rewrite', path: ['svc_version'] }], 'svc.toml')).toBe(
      'svc_version = 2 # v\n',
    );
    expect(edit('svc_version: 2\n', [{ op: 'rewrite', path: ['svc_version'] }])).toBe('svc_version: 2\n');
  });

  it("set with 'after' places a new key below that sibling", () => {
    expect(edit('a: 1\nb: 2\n', [{ op: 'set', path: ['c'], value: 3, after: 'a' }])).toBe('a: 1\nc: 3\nb: 2\n');
    expect(edit('a = 1 # x\nb = 2\n', [{ op: 'set', path: ['c'], value: 'v', after: 'a' }], 'svc.toml')).toBe(
      'a = 1 # x\nc = "v"\nb = 2\n',
    );
  });
});

describe('validate --fix (fixtures-transform/fix)', () => {
  for (const c of cases('fix')) {
    it(c.name, () => {
      const before = parse(c.bytes, c.ext);
      const result = fixManifest(before);
      expect(Buffer.from(result.text, 'utf8').equals(c.out!), `${c.name}: fixed text\n${result.text}`).toBe(true);
      // The fixed file has no more errors than the input, and fixing again changes nothing.
      expect(errorsOf(result.text, c.ext).length).toBeLessThanOrEqual(errorsOf(c.bytes, c.ext).length);
      expect(fixManifest(parse(c.out!, c.ext)).changed).toBe(false);
      if (c.bytes.equals(c.out!)) expect(result.fixes).toEqual([]);
      else expect(result.fixes.length).toBeGreaterThan(0);
    });
  }

  it('a manifest without findings is returned byte for byte', () => {
    const text = readFileSync(join(REPO_ROOT, 'fixtures/realistic/valid/v2-commerce-platform.yaml'));
    const result = fixManifest(parse(text, 'yaml'));
    expect(result.changed).toBe(false);
    expect(Buffer.from(result.text, 'utf8').equals(text)).toBe(true);
  });

  it('leaves a misspelling with two close candidates reported', () => {
    const result = fixManifest(
      parse(
        'svc_version: 2\ndefault_agent: m\nagents:\n  m: {}\ntriggers:\n  - slug: t\n    type: webhook\n    secret_env: S\n    prompt: p\n    session_kee: k\n',
        'yaml',
      ),
    );
    expect(result.changed).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toContain('possible-typo');
  });
});

describe('migrate --to 2 (fixtures-transform/migrate)', () => {
  for (const c of cases('migrate')) {
    it(c.name, () => {
      const document = parse(c.bytes, c.ext);
      const flag = /^# test: --default-agent=(\S+)/m.exec(document.text)?.[1];
      const result = migrateManifest(document, { to: 2, defaultAgent: flag });
      if (c.refused) {
        expect(result.ok).toBe(false);
        expect(result.text).toBe(document.text);
        expect(result.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.column])).toEqual(c.refused);
        for (const d of result.diagnostics) expect(MIGRATE_CODES).toContain(d.code);
        return;
      }
      expect(result.ok).toBe(true);
      expect(Buffer.from(result.text, 'utf8').equals(c.out!), `${c.name}: migrated text\n${result.text}`).toBe(true);
      const migrated = parse(c.out!, c.ext);
      expect(errorsOf(c.out!, c.ext)).toEqual([]);
      expect(manifestVersion(migrated.value)).toBe(2);
      const v1 = document.value as Record<string, unknown>;
      const expected = manifestVersion(v1) === 2 ? v1 : referenceMigration(v1, flag);
      expect(canonicalJson(migrated.value)).toBe(canonicalJson(expected));
      expect(commentsOf(result.text, c.ext)).toEqual(commentsOf(document.text, c.ext));
    });
  }
});

describe('convert (fixtures-transform/convert)', () => {
  const all = cases('convert');
  const converted = all.map((c) => tomlToYaml(parse(c.bytes, 'toml')).text);
  const pyyaml = readWithPyYaml(converted);

  all.forEach((c, index) => {
    it(c.name, () => {
      const toml = parse(c.bytes, 'toml');
      const yaml = converted[index]!;
      expect(Buffer.from(yaml, 'utf8').equals(c.out!), `${c.name}: YAML\n${yaml}`).toBe(true);
      // Same data: our reading, a YAML 1.2 reader, and two YAML 1.1 readers.
      expect(canonicalJson(parse(yaml, 'yaml').value)).toBe(canonicalJson(toml.value));
      expect(canonicalJson(parseYaml(yaml.replace(/^\uFEFF/, ''), { version: '1.2' }))).toBe(canonicalJson(toml.value));
      expect(canonicalJson(tagged(parseYaml(yaml.replace(/^\uFEFF/, ''), { version: '1.1' })))).toBe(
        canonicalJson(tagged(toml.value)),
      );
      expect(canonicalJson(pyyaml[index])).toBe(canonicalJson(tagged(toml.value)));
      expect(errorsOf(yaml, 'yaml')).toEqual(errorsOf(c.bytes, 'toml'));
      expect(commentsOf(yaml, 'yaml')).toEqual(commentsOf(toml.text, 'toml'));
    });
  });

  it('escapes characters YAML may not hold raw, or that YAML 1.1 reads as line breaks', () => {
    const toml = parse('svc_version = 2\nx = "a\\u007fb\\u0085c\\u2028d\\uFFFEe"\n', 'toml');
    const yaml = tomlToYaml(toml).text;
    expect(yaml).toBe('svc_version: 2\nx: "a\\u007fb\\u0085c\\u2028d\\ufffee"\n');
    expect(canonicalJson(parseYaml(yaml, { version: '1.1' }))).toBe(canonicalJson(toml.value));
    expect(canonicalJson(readWithPyYaml([yaml])[0])).toBe(canonicalJson(toml.value));
  });

  it('quotes a string YAML 1.1 or 1.2 would read as something else, value or key', () => {
    const toml = parse('svc_version = 2\nx = "e1"\ny = "yes"\nE-5 = "Null"\n', 'toml');
    const yaml = tomlToYaml(toml).text;
    expect(yaml).toBe('svc_version: 2\nx: "e1"\n"y": "yes"\n"E-5": "Null"\n');
    for (const version of ['1.1', '1.2'] as const)
      expect(canonicalJson(parseYaml(yaml, { version })), version).toBe(canonicalJson(toml.value));
  });

  it('keeps a TOML date-time as the string the validator reads, quoted for every reader', () => {
    const yaml = tomlToYaml(parse('svc_version = 2\nwhen = 1979-05-27T07:32:00Z\nday = 2024-01-01\n', 'toml')).text;
    expect(yaml).toBe('svc_version: 2\nwhen: "1979-05-27T07:32:00Z"\nday: "2024-01-01"\n');
  });
});

describe('the fixtures/ corpus', () => {
  /** The paths of the files under fixtures/ that match `pattern`, sorted. */
  const fixtureFiles = (pattern: RegExp): string[] => {
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (pattern.test(path)) found.push(path);
      }
    };
    walk(join(REPO_ROOT, 'fixtures'));
    return found.sort();
  };
  const documents = fixtureFiles(/\/valid\/[^/]+\.(ya?ml|toml)$/).map((path) => {
    const ext: 'yaml' | 'toml' = path.endsWith('.toml') ? 'toml' : 'yaml';
    return { path: relative(REPO_ROOT, path), ext, bytes: readFileSync(path) };
  });
  const v1 = documents.filter(
    (d) => manifestVersion(parse(d.bytes, d.ext).value) === 1 && errorsOf(d.bytes, d.ext).length === 0,
  );
  const tomls = documents.filter((d) => d.ext === 'toml' && errorsOf(d.bytes, d.ext).length === 0);

  it('has version 1 and TOML manifests to work on', () => {
    expect(v1.length).toBeGreaterThan(20);
    expect(tomls.length).toBeGreaterThan(20);
  });

  it('every valid version 1 manifest migrates exactly where version 2 has a counterpart, and is refused with located errors elsewhere', () => {
    let migrated = 0;
    let refused = 0;
    for (const d of v1) {
      const document = parse(d.bytes, d.ext);
      const value = document.value as Record<string, unknown>;
      const agents = Array.isArray(value.agents) ? (value.agents as { name: string }[]) : [];
      // With several agents, name the first as default; with none, declare one.
      const flag = agents.length > 1 ? agents[0]!.name : agents.length === 0 ? 'main' : undefined;
      const result = migrateManifest(document, { to: 2, defaultAgent: flag });
      expect(result.ok, `${d.path}: ${result.diagnostics.map((x) => `${x.code} ${x.message}`).join('; ')}`).toBe(
        hasCounterpart(value, flag),
      );
      if (!result.ok) {
        refused++;
        expect(result.text).toBe(document.text);
        expect(result.diagnostics.length).toBeGreaterThan(0);
        for (const diagnostic of result.diagnostics) {
          expect(MIGRATE_CODES, d.path).toContain(diagnostic.code);
          expect(diagnostic.range.end.offset, d.path).toBeGreaterThan(diagnostic.range.start.offset);
        }
        continue;
      }
      migrated++;
      const after = parse(result.text, d.ext);
      expect(errorsOf(result.text, d.ext), d.path).toEqual([]);
      expect(canonicalJson(after.value), d.path).toBe(canonicalJson(referenceMigration(value, flag)));
      expect(commentsOf(result.text, d.ext), d.path).toEqual(commentsOf(document.text, d.ext));
    }
    expect(migrated).toBeGreaterThan(5);
    expect(refused).toBeGreaterThan(5);
  });

  it('--fix never adds an error, only applies what it lists, and leaves files without findings alone (every fixture, valid and invalid)', () => {
    let fixed = 0;
    for (const path of fixtureFiles(/\.(ya?ml|toml)$/)) {
      const ext = path.endsWith('.toml') ? 'toml' : 'yaml';
      const bytes = readFileSync(path);
      const before = validateManifest(bytes, { filename: `svc.${ext}` }).diagnostics;
      const result = fixManifest(parse(bytes, ext));
      const name = relative(REPO_ROOT, path);
      if (before.length === 0) expect(result.changed, name).toBe(false);
      expect(result.changed, name).toBe(result.fixes.length > 0);
      const errorsBefore = before.filter((d) => d.severity === 'error').length;
      expect(result.diagnostics.filter((d) => d.severity === 'error').length, name).toBeLessThanOrEqual(errorsBefore);
      if (result.changed) {
        fixed++;
        expect(errorsOf(result.text, ext), name).toEqual(
          result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.path}`),
        );
      }
    }
    expect(fixed).toBeGreaterThan(5);
  });

  it('every valid TOML manifest converts to YAML with equal data under YAML 1.1 and 1.2 readers, valid, every comment kept', () => {
    const yamls = tomls.map((d) => tomlToYaml(parse(d.bytes, 'toml')).text);
    const pyyaml = readWithPyYaml(yamls);
    tomls.forEach((d, index) => {
      const toml = parse(d.bytes, 'toml');
      const yaml = yamls[index]!;
      const expected = canonicalJson(tagged(toml.value));
      expect(canonicalJson(tagged(parse(yaml, 'yaml').value)), d.path).toBe(expected);
      expect(canonicalJson(tagged(parseYaml(yaml.replace(/^\uFEFF/, ''), { version: '1.1' }))), d.path).toBe(expected);
      expect(canonicalJson(pyyaml[index]), d.path).toBe(expected);
      expect(errorsOf(yaml, 'yaml'), d.path).toEqual([]);
      expect(commentsOf(yaml, 'yaml'), d.path).toEqual(commentsOf(toml.text, 'toml'));
    });
  });
});

describe('keyBy on generated lists (property)', () => {
  const NAMES = ['a', 'b', 'main', 'ops-bot', 'x_1', 'writer'];
  const agent = fc.record({
    before: fc.boolean(),
    connectors: fc.option(fc.oneof(fc.constant('all'), fc.array(fc.constantFrom('gh', 'kb'), { maxLength: 2 })), {
      nil: undefined,
    }),
    svcCli: fc.option(fc.constant(['project.read']), { nil: undefined }),
    comment: fc.option(fc.constantFrom('# note', '# another note'), { nil: undefined }),
    trailing: fc.option(fc.constant('# trailing'), { nil: undefined }),
  });
  const list = fc
    .uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 5 })
    .chain((names) =>
      fc.tuple(
        fc.constant(names),
        fc.array(agent, { minLength: names.length, maxLength: names.length }),
        fc.constantFrom(0, 2, 4),
        fc.boolean(),
        fc.boolean(),
      ),
    );

  it('YAML block lists: always rewritten, same data as the reference, every comment kept', () => {
    fc.assert(
      fc.property(list, ([names, agents, seqIndent, crlf]) => {
        const lines = ['svc_version: 1', 'agents:'];
        const pad = ' '.repeat(seqIndent);
        names.forEach((name, i) => {
          const a = agents[i]!;
          if (a.comment) lines.push(`${pad}${a.comment}`);
          const body: string[] = [];
          if (a.connectors !== undefined)
            body.push(`connectors: ${Array.isArray(a.connectors) ? `[${a.connectors.join(', ')}]` : a.connectors}`);
          if (a.svcCli) body.push(`svc_cli:\n${pad}    - project.read`);
          const nameLine = `name: ${name}${a.trailing ? `  ${a.trailing}` : ''}`;
          const entries = a.before ? [nameLine, ...body] : [...body, nameLine];
          lines.push(`${pad}- ${entries[0]}`, ...entries.slice(1).map((entry) => `${pad}  ${entry}`));
        });
        lines.push('other: 1', '');
        const text = lines.join('\n').replace(/\n/g, crlf ? '\r\n' : '\n');
        const result = editManifest(text, [{ op: 'keyBy', path: ['agents'], key: 'name' }], { filename: 'svc.yaml' });
        const reference = referenceMigration(parse(text, 'yaml').value as Record<string, unknown>, names[0]).agents;
        expect(canonicalJson((result.value as { agents: unknown }).agents)).toBe(canonicalJson(reference));
        expect(commentsOf(result.text, 'yaml')).toEqual(commentsOf(text, 'yaml'));
        expect(result.text.includes('\r\n')).toBe(crlf);
      }),
      { numRuns: 200 },
    );
  });

  it('TOML arrays of tables: always rewritten, same data as the reference, every comment kept', () => {
    fc.assert(
      fc.property(list, ([names, agents, , , blank]) => {
        const lines = ['svc_version = 1'];
        names.forEach((name, i) => {
          const a = agents[i]!;
          if (blank) lines.push('');
          if (a.comment) lines.push(a.comment);
          lines.push('[[agents]]');
          const body: string[] = [];
          if (a.connectors !== undefined)
            body.push(
              `connectors = ${Array.isArray(a.connectors) ? `[${a.connectors.map((c) => `"${c}"`).join(', ')}]` : `"${a.connectors}"`}`,
            );
          if (a.svcCli) body.push('svc_cli = ["project.read"]');
          const nameLine = `name = "${name}"${a.trailing ? ` ${a.trailing}` : ''}`;
          lines.push(...(a.before ? [nameLine, ...body] : [...body, nameLine]));
        });
        const text = lines.join('\n') + '\n';
        const result = editManifest(text, [{ op: 'keyBy', path: ['agents'], key: 'name' }], { filename: 'svc.toml' });
        const reference = referenceMigration(parse(text, 'toml').value as Record<string, unknown>, names[0]).agents;
        expect(canonicalJson((result.value as { agents: unknown }).agents)).toBe(canonicalJson(reference));
        expect(commentsOf(result.text, 'toml')).toEqual(commentsOf(text, 'toml'));
      }),
      { numRuns: 200 },
    );
  });
});
