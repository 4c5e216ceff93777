/**
 * Generated and mutated YAML and TOML texts for the differential test against the reference
 * parsers (reference-differential.test.ts). Seeded: the same seed gives the same texts. The
 * generators write manifest-like documents with the constructs where readings have differed
 * (merge keys with every kind of source, collection and empty keys, anchors and aliases, integers
 * around 2^53 and 2^63, dates and times with fractions, offsets and leap seconds, TOML 1.1 syntax,
 * escapes, CRLF and lone CR, C1 controls); the mutator inserts, deletes and replaces characters
 * from an alphabet of each format's syntax.
 */

/** A small seeded generator (mulberry32): the same seed, the same sequence. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)]!;
  }
}

// ---------------------------------------------------------------------------------------------
// YAML

const YAML_KEYS = [
  'svc_version',
  'name',
  'agents',
  'main',
  'enabled',
  'model',
  'connectors',
  'slug',
  'tags',
  'a',
  'b',
  'c',
  'x_y',
  'k.1',
  'é',
];
const YAML_ODD_KEYS = [
  '"quoted"',
  "'single'",
  '1',
  '0x1',
  'true',
  '~',
  '""',
  '? [a, b]',
  '[1, 2]',
  '{a: 1}',
  '? {x: y}',
  '"<<"',
  '? ',
];
const YAML_SCALARS = [
  'plain',
  'two words',
  '"double \\n \\t \\" \\u00e9 \\x41"',
  "'single ''quoted'''",
  '1',
  '-0',
  '+12',
  '0x1F',
  '0o17',
  '1e3',
  '1.50',
  '.inf',
  '-.Inf',
  '.nan',
  '~',
  'null',
  'true',
  'True',
  'yes',
  'no',
  '2001-12-14',
  '07:32:60',
  '9007199254740991',
  '9007199254740993',
  '""',
  "''",
  '"\\u0085 next line"',
  '"\\r lone cr"',
  'a # comment',
  '"é ü 😀"',
];

interface YamlContext {
  random: Random;
  anchors: string[];
  mapAnchors: string[];
  next: number;
}

function yamlScalar(context: YamlContext): string {
  const { random } = context;
  if (context.anchors.length > 0 && random.chance(0.08)) return `*${random.pick(context.anchors)}`;
  return random.pick(YAML_SCALARS);
}

function yamlFlow(context: YamlContext, depth: number): string {
  const { random } = context;
  if (depth > 2 || random.chance(0.5)) return yamlScalar(context);
  const count = random.below(3);
  if (random.chance(0.5)) {
    const items = Array.from({ length: count }, () => yamlFlow(context, depth + 1));
    return `[${items.join(', ')}]`;
  }
  const keys = uniqueKeys(context.random, count);
  return `{${keys.map((key) => `${key}: ${yamlFlow(context, depth + 1)}`).join(', ')}}`;
}

function uniqueKeys(random: Random, count: number): string[] {
  const keys = new Set<string>();
  while (keys.size < count)
    keys.add(
      random.chance(0.04)
        ? random.pick(YAML_ODD_KEYS)
        : random.pick(YAML_KEYS) + (random.chance(0.3) ? String(random.below(9)) : ''),
    );
  return [...keys];
}

/** A merge key's value: a source the reference merges, or one it refuses. */
function mergeSource(context: YamlContext): string {
  const { random } = context;
  const good = context.mapAnchors;
  const choices: string[] = [
    '{m: 1, enabled: true}',
    '[]',
    'no',
    "''",
    '',
    '[*missing]',
    '|\n  text',
    '[{a: 1}, 3]',
    '[a: 1]',
  ];
  if (good.length > 0)
    choices.push(
      `*${random.pick(good)}`,
      `[*${random.pick(good)}, *${random.pick(good)}]`,
      `[*${random.pick(good)}, x]`,
    );
  if (context.anchors.length > 0) choices.push(`*${random.pick(context.anchors)}`);
  return random.pick(choices);
}

function yamlBlockMap(context: YamlContext, indent: string, depth: number, lines: string[]): void {
  const { random } = context;
  const keys = uniqueKeys(random, 1 + random.below(4));
  if (random.chance(0.1)) keys.splice(random.below(keys.length + 1), 0, '<<');
  for (const key of keys) {
    if (key === '<<') {
      const source = mergeSource(context);
      lines.push(`${indent}<<:${source === '' ? '' : ' '}${source.replace(/\n/g, `\n${indent}`)}`);
      continue;
    }
    yamlEntry(context, indent, depth, `${key}:`, lines);
  }
}

function yamlEntry(context: YamlContext, indent: string, depth: number, lead: string, lines: string[]): void {
  const { random } = context;
  const roll = random.next();
  if (depth < 3 && roll < 0.3) {
    const anchor = random.chance(0.3) ? `a${context.next++}` : '';
    lines.push(`${indent}${lead}${anchor ? ` &${anchor}` : ''}`);
    yamlBlockMap(context, `${indent}  `, depth + 1, lines);
    if (anchor) {
      context.anchors.push(anchor);
      context.mapAnchors.push(anchor);
    }
  } else if (depth < 3 && roll < 0.45) {
    lines.push(`${indent}${lead}`);
    const items = 1 + random.below(3);
    for (let i = 0; i < items; i++) {
      if (random.chance(0.4)) {
        const nested: string[] = [];
        yamlBlockMap(context, `${indent}    `, depth + 1, nested);
        nested[0] = `${indent}  - ${nested[0]!.trimStart()}`;
        lines.push(...nested);
      } else lines.push(`${indent}  - ${yamlFlow(context, depth + 1)}`);
    }
  } else if (roll < 0.55) {
    const anchor = `a${context.next++}`;
    lines.push(`${indent}${lead} &${anchor} {x: 1, enabled: false}`);
    context.anchors.push(anchor);
    context.mapAnchors.push(anchor);
  } else if (roll < 0.6) {
    const anchor = `a${context.next++}`;
    lines.push(`${indent}${lead} &${anchor} ${yamlScalar(context)}`);
    context.anchors.push(anchor);
  } else {
    lines.push(`${indent}${lead} ${yamlFlow(context, depth + 1)}`);
  }
}

/** A YAML document: a block map of manifest-like entries, sometimes CRLF, now and then a comment. */
export function generateYaml(random: Random): string {
  const context: YamlContext = { random, anchors: [], mapAnchors: [], next: 0 };
  const lines: string[] = [random.chance(0.5) ? 'svc_version: 2' : 'svc_version: 1'];
  yamlBlockMap(context, '', 0, lines);
  if (random.chance(0.2))
    lines.splice(random.below(lines.length + 1), 0, random.pick(['# a comment', '', '# NEL \u0085 in a comment']));
  const eol = random.chance(0.15) ? '\r\n' : '\n';
  return lines.join(eol) + eol;
}

// ---------------------------------------------------------------------------------------------
// TOML

const TOML_KEYS = [
  'svc_version',
  'name',
  'agents',
  'main',
  'enabled',
  'model',
  'slug',
  'tags',
  'a',
  'b',
  'c',
  'x-y',
  'k_1',
  '1234',
  'true',
  'inf',
];
const TOML_TABLES = ['project', 'sandbox', 'triggers', 'connectors', 'env'];
const TOML_QUOTED_KEYS = ['"a.b"', '"main"', '""', "'lit'", '"é"', '"\\u0041"', '"a b"'];
const TOML_SCALARS = [
  '0',
  '+1',
  '-17',
  '1_000',
  '9007199254740991',
  '-9007199254740991',
  '9007199254740992',
  '0xDEAD_beef',
  '0o755',
  '0b1101',
  '1.5',
  '-0.0',
  '+0.0',
  '6.626e-34',
  '1e3',
  '1E+3',
  '3.14_15',
  'inf',
  '-inf',
  '+nan',
  'nan',
  '9007199254740993.0',
  'true',
  'false',
  '"plain"',
  '"esc \\n \\t \\" \\\\ \\b \\f \\r"',
  '"\\u00e9 \\U0001F600"',
  "'literal \\n'",
  '"""\nmulti\nline"""',
  '"""line \\\n   continued"""',
  "'''\nraw\n'''",
  '"""two "" quotes"""',
  '"é"',
  '"tab\there"',
  '""',
  '1979-05-27T07:32:00Z',
  '1979-05-27T00:32:00.999999-07:00',
  '1979-05-27T00:32:00.1234567+05:30',
  '1979-05-27 07:32:00',
  '1979-05-27t07:32:00z',
  '1979-05-27T07:32:00.5',
  '1979-05-27',
  '07:32:00',
  '00:32:00.25',
  '2000-02-29',
];
/** Values one side or both refuse (beyond 2^53 or 2^63, TOML 1.1, a leap second, no such date, a C1 control). */
const TOML_EDGE_SCALARS = [
  '9007199254740993',
  '9223372036854775807',
  '-9223372036854775808',
  '9223372036854775808',
  '0xFFFFFFFFFFFFFF',
  '01',
  '"\\x41"',
  '"\\e"',
  '"C1 \u0085 here"',
  '07:32',
  '07:32:60',
  '1979-05-27T23:59:60Z',
  '1979-02-29',
];

function tomlKey(random: Random): string {
  const one = (): string => (random.chance(0.85) ? random.pick(TOML_KEYS) : random.pick(TOML_QUOTED_KEYS));
  if (random.chance(0.15)) return `${one()}${random.chance(0.7) ? '.' : ' . '}${one()}`;
  return one();
}

function tomlValue(random: Random, depth: number): string {
  const roll = random.next();
  if (depth > 2 || roll < 0.7) return random.chance(0.12) ? random.pick(TOML_EDGE_SCALARS) : random.pick(TOML_SCALARS);
  if (roll < 0.85) {
    const items = Array.from({ length: random.below(4) }, () => tomlValue(random, depth + 1));
    if (random.chance(0.3)) return `[\n  ${items.join(',\n  ')}${random.chance(0.5) ? ',' : ''}\n]`;
    return `[${items.join(', ')}${random.chance(0.1) ? ',' : ''}]`;
  }
  const keys = [...new Set(Array.from({ length: random.below(3) }, () => tomlKey(random)))];
  const pairs = keys.map((key) => `${key} = ${tomlValue(random, depth + 1)}`);
  // Trailing commas and line breaks in an inline table are TOML 1.1.
  if (random.chance(0.1)) return `{ ${pairs.join(',\n  ')}, }`;
  return `{ ${pairs.join(', ')} }`;
}

function tomlStatements(random: Random, lines: string[]): void {
  const keys = new Set<string>();
  const count = random.below(4);
  for (let i = 0; i < count; i++) keys.add(tomlKey(random));
  for (const key of keys) lines.push(`${key} = ${tomlValue(random, 0)}${random.chance(0.1) ? ' # note' : ''}`);
}

/** A TOML document: root statements, then tables and arrays of tables; sometimes CRLF. */
export function generateToml(random: Random): string {
  const lines: string[] = [random.chance(0.5) ? 'svc_version = 2' : 'svc_version = 1'];
  tomlStatements(random, lines);
  const tables = random.below(4);
  for (let i = 0; i < tables; i++) {
    lines.push('');
    // Mostly names no statement uses, so that most generated texts define each table once.
    const roll = random.next();
    const table = roll < 0.7 ? `${random.pick(TOML_TABLES)}${i}` : roll < 0.8 ? `"table ${i}"` : tomlKey(random);
    const header = random.chance(0.3) ? `${table}.${random.pick(TOML_KEYS)}` : table;
    lines.push(random.chance(0.3) ? `[[${header}]]` : `[${header}]`);
    tomlStatements(random, lines);
  }
  if (random.chance(0.15))
    lines.splice(
      random.below(lines.length + 1),
      0,
      random.pick(['# comment', '# C1 \u009b in a comment', '', '# another']),
    );
  const eol = random.chance(0.15) ? '\r\n' : '\n';
  return lines.join(eol) + eol;
}

// ---------------------------------------------------------------------------------------------
// Mutations

/** What both formats' mutations insert: line breaks and blanks, then quotes, brackets and commas (each alphabet keeps its order). */
const BREAKS_AND_BLANKS = [' ', '\n', '\r', '\r\n', '\t'];
const QUOTES_AND_BRACKETS = ['"', "'", '[', ']', '{', '}', ','];

const YAML_ALPHABET = [
  ...BREAKS_AND_BLANKS,
  ':',
  ': ',
  '- ',
  '#',
  ...QUOTES_AND_BRACKETS,
  '&a0 ',
  '*a0',
  '<<: ',
  '? ',
  '!',
  '|',
  '>',
  '%',
  '@',
  '\u0085',
  '\u00a0',
  '\u007f',
  '0',
  '9',
  'x',
  '---\n',
  '\ufeff',
];
const TOML_ALPHABET = [
  ...BREAKS_AND_BLANKS,
  '=',
  ' = ',
  '.',
  ...QUOTES_AND_BRACKETS,
  '#',
  '\\',
  '_',
  '+',
  '-',
  ':',
  'e',
  '0',
  '9',
  '60',
  'T',
  'Z',
  '\u0085',
  '\u007f',
  'inf',
  '"""',
  "'''",
  '[a]\n',
  'x = 1\n',
];

/** `text` with 1 to 3 random edits: inserting a piece of the format's syntax, deleting or replacing characters. */
export function mutate(random: Random, text: string, format: 'yaml' | 'toml'): string {
  const alphabet = format === 'yaml' ? YAML_ALPHABET : TOML_ALPHABET;
  let out = text;
  const edits = 1 + random.below(3);
  for (let i = 0; i < edits; i++) {
    const at = random.below(out.length + 1);
    const roll = random.next();
    if (roll < 0.5) out = out.slice(0, at) + random.pick(alphabet) + out.slice(at);
    else if (roll < 0.75) out = out.slice(0, at) + out.slice(at + 1 + random.below(3));
    else out = out.slice(0, at) + random.pick(alphabet) + out.slice(at + 1);
  }
  return out;
}
