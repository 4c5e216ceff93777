/**
 * Our reading against the reference parsers (issue #33): the `yaml` library with the options our
 * decisions name (YAML 1.2, merge keys, unique keys, strict) for YAML, Python's `tomllib` for
 * TOML, on generated and mutated texts (support/reference-texts.ts), read afresh and by
 * `update()` from a related text (once or through a text between). Where the reference reads a
 * text, we read the same value (compared exactly: TOML integers by their digits, floats bit for
 * bit, dates and times by their fields) or refuse it by a decision recorded in docs/decisions.md;
 * where it refuses one, we refuse it with located diagnostics; `update()` gives what a fresh
 * parse gives. Map keys are compared as sets: YAML puts merged keys where the merge key stands,
 * we after the map's own, and a manifest's keys have no order that means anything.
 *
 * `REFERENCE_DIFF_TEXTS=<n>` sets the number of texts per format (2,000 by default) and prints
 * the counts by class; `REFERENCE_DIFF_SEED=<n>` the seed (33); `REFERENCE_DIFF_EXAMPLES=1` also prints
 * the examples kept of each disagreement. The run of record (20,000 texts per format) is in
 * docs/decisions.md, "(#33) Our reading against the reference parsers".
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ManifestDocument, TomlDateTime, severityOf, type RuleCode } from '@svc-manifest/validator';
import { generateToml, generateYaml, mutate, Random } from './support/reference-texts.js';
import { tomlReferences, type Reference } from './support/tomllib.js';

const COUNT = Number(process.env.REFERENCE_DIFF_TEXTS ?? 2000);
const SEED = Number(process.env.REFERENCE_DIFF_SEED ?? 33);
const REPORT = process.env.REFERENCE_DIFF_TEXTS !== undefined;

type Format = 'yaml' | 'toml';

/** A text to read, the related text `update()` starts from, and sometimes a text the update passes through. */
interface DiffCase {
  text: string;
  related: string;
  between?: string;
}

/** The texts where readings differed, by hand (the reproductions), read along with the generated ones. */
const HAND_CASES: Record<Format, string[]> = {
  yaml: [
    'svc_version: 2\nagents: { main: { <<: no, enabled: true } }\n',
    "x:\n  <<: ''\n  a: 1\n",
    'x:\n  <<: |\n    text\n  a: 1\n',
    'name: {a: 1, [2, 3]: x}\n',
    '? [a, b]\n: x\n',
    'base: &b {a: 1}\nx:\n  <<: [*b, 3]\n',
    'base: &b {a: 1}\nlist: &l [*b, {c: 2}]\nx:\n  <<: *l\n  d: 4\n',
    'a: 1\r\nb: 2\rc: 3\n',
    'name: "\u0085"\n',
  ],
  toml: [
    'a =\r1',
    'a = 1\r',
    'a = """x\ry"""',
    'svc_version = 2\n\ragents = 1\n[agents.main]\n',
    'x = 1\n\rb = 1\n[b]\n',
    'a = 9007199254740993',
    'a = 0xFFFFFFFFFFFFFF',
    'a = 9223372036854775807',
    'a = {x = 1,}',
    'a = {x = 1,\ny = 2}',
    'a = "\\x41"',
    'a = "\\e"',
    'a = 07:32',
    'a = 07:32:60',
    'a = 1979-05-27 07:32:60',
    'a = "\u0085"',
    '# \u009b\na = 1',
  ],
};

function diffCases(format: Format, count: number, seed: number): DiffCase[] {
  const random = new Random(seed);
  const out: DiffCase[] = [];
  const generate = format === 'yaml' ? generateYaml : generateToml;
  for (const text of HAND_CASES[format]) out.push({ text, related: mutate(random, text, format) });
  while (out.length < count) {
    const base = generate(random);
    const text = random.chance(0.5) ? base : mutate(random, base, format);
    const related = text === base || random.chance(0.5) ? mutate(random, base, format) : base;
    out.push({ text, related, between: random.chance(0.25) ? mutate(random, base, format) : undefined });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Our reading

interface OurReading {
  errors: { code: RuleCode; start: number; end: number; message: string }[];
  value: unknown;
  /** Every diagnostic of the document layer, for comparing a fresh parse with an update. */
  shown: string;
}

function read(document: ManifestDocument): OurReading {
  const diagnostics = document.diagnostics;
  return {
    errors: diagnostics.filter((d) => severityOf(d.code) === 'error'),
    value: document.value,
    shown: JSON.stringify(diagnostics.map((d) => [d.code, d.start, d.end, d.message])),
  };
}

// ---------------------------------------------------------------------------------------------
// The references

// `logLevel: 'error'`: the library's warnings (a collection key made a string) are not ours to print.
const YAML_REFERENCE_OPTIONS = {
  version: '1.2',
  merge: true,
  uniqueKeys: true,
  strict: true,
  prettyErrors: false,
  logLevel: 'error',
} as const;

function yamlReference(text: string): Reference {
  try {
    const documents = parseAllDocuments(text, YAML_REFERENCE_OPTIONS);
    if (!Array.isArray(documents) || documents.length === 0) return { value: null };
    if (documents.length > 1) return { error: 'more than one document' };
    const document = documents[0]!;
    if (document.errors.length > 0) return { error: document.errors[0]!.message };
    return { value: document.toJS({ maxAliasCount: -1 }) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

// ---------------------------------------------------------------------------------------------
// Comparing values exactly

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function sameKeys(
  ours: Record<string, unknown>,
  theirs: Record<string, unknown>,
  same: (a: unknown, b: unknown) => boolean,
): boolean {
  const keys = Object.keys(theirs);
  return (
    Object.keys(ours).length === keys.length &&
    keys.every((key) => Object.prototype.hasOwnProperty.call(ours, key) && same(ours[key], theirs[key]))
  );
}

function sameYamlValue(ours: unknown, theirs: unknown): boolean {
  if (typeof theirs === 'number') return typeof ours === 'number' && Object.is(ours, theirs);
  if (Array.isArray(theirs))
    return (
      Array.isArray(ours) && ours.length === theirs.length && theirs.every((item, i) => sameYamlValue(ours[i], item))
    );
  if (isPlainObject(theirs)) {
    if (theirs instanceof Map || theirs instanceof Set || !isPlainObject(ours)) return false;
    return sameKeys(ours, theirs, sameYamlValue);
  }
  return ours === theirs;
}

function pythonFloat(text: string): number {
  if (text === 'inf') return Infinity;
  if (text === '-inf') return -Infinity;
  if (text === 'nan') return NaN;
  return Number(text);
}

/** A TOML date or time as tomllib's encoding writes it: fields, fraction to microseconds, an offset as +HH:MM. */
function canonicalDateTime(value: TomlDateTime): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})?(?:[Tt ]?(\d{2}:\d{2}:\d{2})(?:\.(\d+))?)?([Zz]|[+-]\d{2}:\d{2})?$/.exec(
    value.text,
  );
  if (!match) return null;
  const [, date, time, fraction, offset] = match;
  const clock = time ? `${time}.${(fraction ?? '').padEnd(6, '0').slice(0, 6)}` : undefined;
  const zone = offset === undefined ? '' : /^[Zz]$|^[+-]00:00$/.test(offset) ? '+00:00' : offset;
  if (date && clock) return `${date}T${clock}${zone}`;
  return date ?? clock ?? null;
}

function sameTomlValue(ours: unknown, theirs: unknown): boolean {
  if (Array.isArray(theirs))
    return (
      Array.isArray(ours) && ours.length === theirs.length && theirs.every((item, i) => sameTomlValue(ours[i], item))
    );
  if (isPlainObject(theirs)) {
    if (typeof theirs.$int === 'string')
      return typeof ours === 'number' && Number.isInteger(ours) && BigInt(ours) === BigInt(theirs.$int);
    if (typeof theirs.$float === 'string')
      return typeof ours === 'number' && Object.is(ours, pythonFloat(theirs.$float));
    if (typeof theirs.$datetime === 'string')
      return (
        ours instanceof TomlDateTime &&
        ours.type.replace(/ /g, '-') === theirs.$datetime &&
        canonicalDateTime(ours) === theirs.value
      );
    return isPlainObject(ours) && !(ours instanceof TomlDateTime) && sameKeys(ours, theirs, sameTomlValue);
  }
  return ours === theirs;
}

// ---------------------------------------------------------------------------------------------
// Classes

/** Whether `literal` (the characters a diagnostic covers) is a TOML integer beyond ±(2^53 − 1), in any base. */
function isIntegerBeyondExact(literal: string): boolean {
  if (!/^[+-]?(?:\d[\d_]*|0x[\da-fA-F_]+|0o[0-7_]+|0b[01_]+)$/.test(literal)) return false;
  // The sign does not change the magnitude, which alone decides.
  return BigInt(literal.replace(/_/g, '').replace(/^[+-]/, '')) > BigInt(Number.MAX_SAFE_INTEGER);
}

/**
 * Why we refuse a text the reference reads, when a recorded decision says so; undefined when
 * none does (a disagreement).
 */
function decisionFor(format: Format, text: string, errors: OurReading['errors']): string | undefined {
  // A forbidden character is blanked before the text is parsed, so what is refused after it may
  // follow from the blank (a NEL in the middle of a key): the first refusal is the reason.
  const first = errors.find((error) => error.code === 'forbidden-character');
  const refusals = first ? [first] : errors;
  const reasons = new Set<string>();
  for (const error of refusals) {
    if (error.code === 'forbidden-character') {
      const code = text.charCodeAt(error.start);
      if (code >= 0x80 && code <= 0x9f)
        reasons.add('C1 control characters are refused by policy ("(#33) C1 controls stay forbidden")');
      else if (format === 'yaml') reasons.add('control characters are refused by policy (forbidden-character)');
      else return undefined;
    } else if (format === 'yaml' && error.code === 'invalid-key')
      reasons.add('keys that are no string are refused ("(#33) A collection as a mapping key")');
    else if (format === 'yaml' && error.code === 'duplicate-key')
      reasons.add('keys equal as strings are one key (`1` and `"1"`; "(#33) A collection as a mapping key")');
    else if (
      format === 'toml' &&
      error.code === 'toml-syntax' &&
      isIntegerBeyondExact(text.slice(error.start, error.end))
    )
      reasons.add('integers beyond 2^53 are refused ("(#33) Integers beyond 2^53 are refused")');
    else return undefined;
  }
  // The first reason counts: a text with two such refusals is counted once.
  return [...reasons][0];
}

interface Summary {
  texts: number;
  bothRead: number;
  bothRefused: number;
  byDecision: Record<string, number>;
  disagreements: Record<string, number>;
  examples: { kind: string; text: string; detail: string }[];
}

function compare(format: Format, count: number, seed: number): Summary {
  const cases = diffCases(format, count, seed);
  const references =
    format === 'yaml' ? cases.map((c) => yamlReference(c.text)) : tomlReferences(cases.map((c) => c.text));
  const summary: Summary = {
    texts: cases.length,
    bothRead: 0,
    bothRefused: 0,
    byDecision: {},
    disagreements: {},
    examples: [],
  };
  const disagree = (kind: string, text: string, detail: string): void => {
    summary.disagreements[kind] = (summary.disagreements[kind] ?? 0) + 1;
    if (summary.examples.filter((e) => e.kind === kind).length < 3) summary.examples.push({ kind, text, detail });
  };
  cases.forEach((c, index) => {
    const fresh = read(ManifestDocument.parse(c.text, { format }));
    let document = ManifestDocument.parse(c.related, { format });
    if (c.between !== undefined) document = document.update(c.between);
    const updated = read(document.update(c.text));
    if (updated.shown !== fresh.shown || !isDeepStrictEqual(updated.value, fresh.value)) {
      disagree(
        'update() differs from a fresh parse',
        c.text,
        `from ${JSON.stringify(c.related)}: ${updated.shown} / ${fresh.shown}`,
      );
    }
    const unlocated = fresh.errors.find((e) => !(e.start >= 0 && e.start <= e.end && e.end <= c.text.length));
    if (unlocated) disagree('an error is not located in the text', c.text, JSON.stringify(unlocated));
    const reference = references[index]!;
    const weRefuse = fresh.errors.length > 0;
    if ('error' in reference) {
      if (weRefuse) summary.bothRefused++;
      else disagree('we read a text the reference refuses', c.text, reference.error);
      return;
    }
    if (weRefuse) {
      const decision = decisionFor(format, c.text, fresh.errors);
      if (decision) summary.byDecision[decision] = (summary.byDecision[decision] ?? 0) + 1;
      else
        disagree(
          'we refuse a text the reference reads',
          c.text,
          JSON.stringify(fresh.errors.map((e) => [e.code, e.start, e.message])),
        );
      return;
    }
    // An empty YAML document: the reference's value is null, we have no value (the manifest is empty).
    const ours = fresh.value === undefined && reference.value === null ? null : fresh.value;
    const same = format === 'yaml' ? sameYamlValue(ours, reference.value) : sameTomlValue(ours, reference.value);
    if (same) summary.bothRead++;
    else
      disagree(
        'the values differ',
        c.text,
        `ours ${JSON.stringify(ours)} / reference ${JSON.stringify(reference.value)}`,
      );
  });
  return summary;
}

describe.each(['yaml', 'toml'] as const)('%s: our reading against the reference parser', (format) => {
  it(`is the same on ${COUNT} generated and mutated texts, read afresh and by update()`, () => {
    const summary = compare(format, COUNT, SEED + (format === 'toml' ? 1 : 0));
    if (REPORT) console.log(`${format}: ${JSON.stringify({ ...summary, examples: undefined }, null, 2)}`);
    if (process.env.REFERENCE_DIFF_EXAMPLES)
      for (const example of summary.examples) console.log(example.kind, JSON.stringify(example.text), example.detail);
    expect({ disagreements: summary.disagreements, examples: summary.examples }).toEqual({
      disagreements: {},
      examples: [],
    });
    // Not vacuous: most texts are read by both sides, many refused by both, and the decisions are met.
    expect(summary.bothRead / summary.texts).toBeGreaterThan(0.2);
    expect(summary.bothRefused / summary.texts).toBeGreaterThan(0.1);
    const decisions = Object.keys(summary.byDecision).join('\n');
    if (format === 'yaml') expect(decisions).toContain('keys that are no string');
    else {
      expect(decisions).toContain('integers beyond 2^53');
      expect(decisions).toContain('C1 control characters');
    }
  }, 900_000);
});
