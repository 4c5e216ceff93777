/**
 * fast-check arbitraries for manifests: garbage, text mutations, and large generated manifests
 * with edits that hit the YAML chunker's boundaries. Shared by property.test.ts.
 */
import fc from 'fast-check';

/** Characters that matter to YAML and TOML, plus a few that the validator treats specially. */
export const SPECIAL = [
  ...'[]{}:,-?#&*!|>\'"%@`=.\\ \t\r\n',
  '\n  ',
  '\n- ',
  '"""',
  "'''",
  '---\n',
  '\uFEFF',
  '\u0000',
  '\u0085',
  '\uD800',
  '😀',
  'é',
  '__proto__',
  '<<: ',
  '*a',
  '&a ',
  'svc_version: 2',
  '[[triggers]]',
  'x = 1',
];
export const garbage = fc.oneof(
  fc.constantFrom(...SPECIAL),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.array(fc.constantFrom(...SPECIAL), { maxLength: 6 }).map((parts) => parts.join('')),
);

export type Mutation = (text: string) => string;
const at = (n: number, length: number) => (length === 0 ? 0 : n % (length + 1));
export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // insert, delete, replace characters
  fc.tuple(fc.nat(), garbage).map(
    ([n, s]) =>
      (t: string) =>
        t.slice(0, at(n, t.length)) + s + t.slice(at(n, t.length)),
  ),
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 20 })).map(
    ([n, k]) =>
      (t: string) =>
        t.slice(0, at(n, t.length)) + t.slice(at(n, t.length) + k),
  ),
  fc.tuple(fc.nat(), garbage).map(
    ([n, s]) =>
      (t: string) =>
        t.slice(0, at(n, t.length)) + s + t.slice(at(n, t.length) + s.length),
  ),
  // insert, delete, duplicate, swap, indent lines
  fc.tuple(fc.nat(), garbage).map(([n, s]) => (t: string) => {
    const lines = t.split('\n');
    lines.splice(n % (lines.length + 1), 0, s);
    return lines.join('\n');
  }),
  fc.nat().map((n) => (t: string) => {
    const lines = t.split('\n');
    lines.splice(n % lines.length, 1);
    return lines.join('\n');
  }),
  fc.nat().map((n) => (t: string) => {
    const lines = t.split('\n');
    const i = n % lines.length;
    lines.splice(i, 0, lines[i]!);
    return lines.join('\n');
  }),
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => (t: string) => {
    const lines = t.split('\n');
    const i = a % lines.length;
    const j = b % lines.length;
    [lines[i], lines[j]] = [lines[j]!, lines[i]!];
    return lines.join('\n');
  }),
  fc.tuple(fc.nat(), fc.constantFrom('  ', ' ', '\t', '- ')).map(([n, prefix]) => (t: string) => {
    const lines = t.split('\n');
    const i = n % lines.length;
    lines[i] = prefix + lines[i];
    return lines.join('\n');
  }),
  fc.nat().map((n) => (t: string) => {
    const lines = t.split('\n');
    const i = n % lines.length;
    lines[i] = lines[i]!.replace(/^ {1,2}/, '');
    return lines.join('\n');
  }),
);
export const mutations = fc.array(mutation, { minLength: 1, maxLength: 6 });
export const applyAll = (text: string, list: Mutation[]) => list.reduce((t, m) => m(t), text);

/** A large manifest: enough triggers, agents and connectors that the chunker splits them item by item. */
export function largeManifest(version: 1 | 2, triggers: number, agents: number, seed: number): string {
  const lines: string[] = [
    `# generated manifest ${seed}`,
    `svc_version: ${version}`,
    'project:',
    `  name: Project ${seed}`,
    '  description: >',
    '    A large generated manifest',
    '    for incremental parsing tests.',
    '',
  ];
  if (version === 2) lines.push(`default_agent: agent-0`);
  lines.push('agents:');
  for (let a = 0; a < agents; a++) {
    if (version === 2) {
      lines.push(
        `  agent-${a}:`,
        `    enabled: ${a % 7 !== 3}`,
        `    connectors: [conn-${a % 10}, conn-${(a * 3) % 13}]`,
      );
      if (a % 5 === 0) lines.push('    svc_cli:', '      - project.read', '      - project.trigger.fire');
      if (a % 11 === 0) lines.push(`    sandbox: tpl-${a % 3}`);
    } else {
      lines.push(`  - name: agent-${a}`, `    connectors: [conn-${a % 10}]`);
      if (a % 4 === 0) lines.push('    svc_cli: [project.read]');
    }
  }
  lines.push('', 'triggers:');
  for (let t = 0; t < triggers; t++) {
    const type = ['cron', 'webhook', 'monitor'][(t + seed) % 3]!;
    lines.push(`  - slug: trigger-${t}`, `    type: ${type}`, `    agent: agent-${(t * 7) % (agents + 2)}`);
    if (type === 'cron') lines.push(`    cron: "${t % 60} ${t % 24} * * *"`);
    if (type === 'webhook') lines.push(`    secret_env: HOOK_${t}`);
    if (type === 'monitor')
      lines.push(
        `    run: "check --id ${t} | grep -v ok"`,
        `    mode: ${t % 2 ? 'poll' : 'stream'}`,
        ...(t % 2 ? ['    interval: 5m'] : []),
      );
    if (t % 9 === 0) lines.push('    filter:', `      branch: main`, `      path: "src/${t}/**"`);
    lines.push(
      t % 13 === 0
        ? `    prompt_template: |\n      Event {{id}} for trigger ${t}:\n        details: {{details}}`
        : `    prompt: 'Handle trigger ${t}: it''s due.'`,
    );
  }
  lines.push('', 'connectors:');
  for (let c = 0; c < 14; c++)
    lines.push(`  - slug: conn-${c}`, `    provider: mcp`, `    url: https://mcp.example.com/${c}`);
  lines.push('', 'sandbox:', '  default: tpl-0', '  templates:');
  for (let s = 0; s < 3; s++) lines.push(`    - slug: tpl-${s}`, `      image: registry.example.com/tpl:${s}`);
  return lines.join('\n') + '\n';
}

/** `text` with CRLF line ends when `crlf`, and a BOM in front when `bom` and one seed in four. */
function withEndings(text: string, seed: number, crlf: boolean, bom: boolean): string {
  return (bom && seed % 4 === 0 ? '\uFEFF' : '') + (crlf ? text.replace(/\n/g, '\r\n') : text);
}

export const manifestArb = fc
  .record({
    version: fc.constantFrom(1 as const, 2 as const),
    triggers: fc.integer({ min: 100, max: 140 }),
    agents: fc.integer({ min: 50, max: 70 }),
    seed: fc.nat({ max: 1000 }),
    crlf: fc.boolean(),
    bom: fc.boolean(),
  })
  .map(({ version, triggers, agents, seed, crlf, bom }) => {
    return withEndings(largeManifest(version, triggers, agents, seed), seed, crlf, bom);
  });

/** Edits that keep most of the file and hit chunk structure: lines of a top-level key or an item. */
/** Inserts `insert` at the start of the n-th value (after a `: `). */
export function valueEdit(n: number, insert: string): Mutation {
  return insertAfterNth(/: /g, n, insert);
}

/** Inserts `insert` right after the n-th (modulo their count) match of the global `separator`; no match, no change. */
function insertAfterNth(separator: RegExp, n: number, insert: string): Mutation {
  return (t: string) => {
    const ends = [...t.matchAll(separator)].map((m) => m.index + m[0].length);
    if (ends.length === 0) return t;
    const i = ends[n % ends.length]!;
    return t.slice(0, i) + insert + t.slice(i);
  };
}

/** Manifests just large enough for the chunker to split their collections item by item. */
export const chunkedManifestArb = fc
  .record({
    version: fc.constantFrom(1 as const, 2 as const),
    triggers: fc.integer({ min: 12, max: 20 }),
    agents: fc.integer({ min: 17, max: 22 }),
    seed: fc.nat({ max: 1000 }),
  })
  .map(({ version, triggers, agents, seed }) => largeManifest(version, triggers, agents, seed));

/** Typing inside values: text with the characters YAML treats specially, mostly still valid YAML. */
export const valueEdits = fc.array(
  fc
    .tuple(
      fc.nat(),
      fc.oneof(
        fc.string({ maxLength: 5 }),
        fc.constantFrom('{', '[', '}', ']', "'", '"', '#', ' #', ': ', ', ', '{x', 'a[b', '*', '&', '!'),
      ),
    )
    .map(([n, s]) => valueEdit(n, s)),
  { minLength: 1, maxLength: 3 },
);

export const STRUCTURAL_LINES = [
  '  - slug: trigger-new',
  '    type: cron',
  '    prompt: new',
  '  agent-new:',
  '    enabled: false',
  'agents:',
  'triggers:',
  'triggers: []',
  'extra_key: 1',
  '  - name: agent-0',
  '  agent-0:',
  '    connectors: none',
  '- ',
  '-',
  '  ',
  '\t',
  '[',
  ']',
  '{',
  "'",
  '"',
  '#',
  '# comment',
  'x: &a value',
  'y: *a',
  '---',
  '...',
  '? x',
  ': y',
  'key: |',
  'key: >-',
  '    indented',
  'svc_version: 1',
  'svc_version: 2',
  '__proto__: {}',
  '  __proto__: 1',
  '<<: {a: 1}',
  '%YAML 1.2',
  '!tag x',
  '  - [a,',
  '    b]',
  "  - 'open",
  "    close'",
  "    run: sed -n 's/{/(/p' app.log",
  '    prompt: Check the [errors list',
  '    cron: 0 0 * * *}',
  '  - "a\\',
  '    b"',
  'default_agent: agent-1',
  'connectors:',
  '  - slug: conn-0',
  '    provider: mcp',
];
/** Inserting one of `lines` before a line (weight 3), or putting it in a line's place (weight 2). */
function lineEdits(lines: readonly string[]): { weight: number; arbitrary: fc.Arbitrary<Mutation> }[] {
  const at = fc.tuple(fc.nat(), fc.constantFrom(...lines));
  return [
    {
      weight: 3,
      arbitrary: at.map(([n, line]) => (t: string) => {
        const all = t.split('\n');
        all.splice(n % (all.length + 1), 0, line);
        return all.join('\n');
      }),
    },
    {
      weight: 2,
      arbitrary: at.map(([n, line]) => (t: string) => {
        const all = t.split('\n');
        all[n % all.length] = line;
        return all.join('\n');
      }),
    },
  ];
}

/** Deletes or duplicates a block of 1 to 12 lines (an item moved, removed or pasted). */
const blockEdit: fc.Arbitrary<Mutation> = fc
  .tuple(fc.nat(), fc.integer({ min: 1, max: 12 }), fc.boolean())
  .map(([n, k, duplicate]) => (t: string) => {
    const lines = t.split('\n');
    const i = n % lines.length;
    const block = lines.slice(i, i + k);
    if (duplicate) lines.splice(i, 0, ...block);
    else lines.splice(i, k);
    return lines.join('\n');
  });

export const structuralEdit: fc.Arbitrary<Mutation> = fc.oneof(
  ...lineEdits(STRUCTURAL_LINES),
  // Change a value in place, the most common edit while typing.
  { weight: 3, arbitrary: fc.tuple(fc.nat(), fc.string({ maxLength: 6 })).map(([n, s]) => valueEdit(n, s)) },
  { weight: 2, arbitrary: blockEdit },
  { weight: 4, arbitrary: mutation },
);
export const edits = fc.array(structuralEdit, { minLength: 1, maxLength: 4 });

/**
 * A large TOML manifest whose tables combine across blocks in every way TOML allows: arrays of
 * tables with sub-tables, a table created by a sub-table header before its own, dotted keys
 * continued by a later header, inline tables, multi-line strings and arrays holding lines that
 * look like headers, dates.
 */
export function largeTomlManifest(triggers: number, agents: number, seed: number): string {
  const lines: string[] = [
    `# generated manifest ${seed}`,
    'svc_version = 2',
    `default_agent = "agent-0"`,
    `created = 2024-0${1 + (seed % 9)}-01`,
    '',
  ];
  lines.push(
    '[project.settings]',
    `retries = ${seed % 5}`,
    '',
    '[project.links.docs]',
    'url = "https://example.com/docs"',
    '',
    '[project]',
    `name = "Project ${seed}"`,
    'description = """',
    'A large generated manifest',
    '[not.a.header]',
    'for incremental parsing tests."""',
    `owner.name = "team-${seed % 7}"`,
    'links.home = "https://example.com"',
    `links.issues.tracker = "jira-${seed % 3}"`,
    '',
  );
  lines.push('[project.owner.contact]', 'email = "team@example.com"', '');
  for (let a = 0; a < agents; a++) {
    lines.push(`[agents.agent-${a}]`, `enabled = ${a % 7 !== 3}`);
    if (a % 3 === 0) lines.push('connectors = [', `  "conn-${a % 10}",`, `  "conn-${(a * 3) % 13}", # trailing`, ']');
    else lines.push(`connectors = ["conn-${a % 10}"]`);
    if (a % 5 === 0) lines.push(`limits = { cpu = ${a % 4}, memory = "${a}Mi" }`);
    if (a % 11 === 0) lines.push('', `[agents.agent-${a}.sandbox]`, `template = "tpl-${a % 3}"`);
    lines.push('');
  }
  for (let t = 0; t < triggers; t++) {
    const type = ['cron', 'webhook', 'monitor'][(t + seed) % 3]!;
    lines.push(
      '[[triggers]]',
      `slug = "trigger-${t}"`,
      `type = "${type}"`,
      `agent = 'agent-${(t * 7) % (agents + 2)}'`,
    );
    if (type === 'cron') lines.push(`cron = "${t % 60} ${t % 24} * * *"`);
    if (type === 'monitor')
      lines.push(`run = "check --id ${t} | grep -v ok"`, `interval = ${t % 2 ? '"5m"' : '07:30:00'}`);
    if (t % 9 === 0) lines.push(`filter.branch = "main"`, `filter.path = "src/${t}/**"`);
    if (t % 9 === 4) lines.push('', '[triggers.filter]', 'branch = "release"');
    lines.push(
      t % 13 === 0
        ? `prompt = '''\nEvent for trigger ${t}:\n[[triggers]]\n'''`
        : `prompt = "Handle trigger ${t}: it's due."`,
      '',
    );
  }
  for (let c = 0; c < 6; c++)
    lines.push('[[connectors]]', `slug = "conn-${c}"`, 'provider = "mcp"', `url = "https://mcp.example.com/${c}"`, '');
  lines.push('[sandbox]', 'default = "tpl-0"', '');
  for (let s = 0; s < 3; s++)
    lines.push('[[sandbox.templates]]', `slug = "tpl-${s}"`, `image = "registry.example.com/tpl:${s}"`, '');
  return lines.join('\n');
}

export const tomlManifestArb = fc
  .record({
    triggers: fc.integer({ min: 20, max: 60 }),
    agents: fc.integer({ min: 10, max: 30 }),
    seed: fc.nat({ max: 1000 }),
    crlf: fc.boolean(),
    bom: fc.boolean(),
  })
  .map(({ triggers, agents, seed, crlf, bom }) => {
    return withEndings(largeTomlManifest(triggers, agents, seed), seed, crlf, bom);
  });

/** Inserts `insert` at the start of the n-th TOML value (after a ` = `). */
export function tomlValueEdit(n: number, insert: string): Mutation {
  return insertAfterNth(/ = /g, n, insert);
}

export const TOML_LINES = [
  '[[triggers]]',
  '[triggers.filter]',
  'branch = "dev"',
  '[agents.agent-0]',
  '[agents.agent-1.sandbox]',
  '[agents]',
  '[project]',
  '[project.owner]',
  '[project.settings]',
  '[sandbox]',
  '[[sandbox.templates]]',
  '[[connectors]]',
  '[connectors]',
  'slug = "x"',
  'filter.branch = "main"',
  'filter = { branch = "main" }',
  'owner.name = "x"',
  'settings.retries = 1',
  'sandbox = 1',
  'enabled = true',
  'svc_version = 2',
  'x = 1',
  'x.y = 2',
  '"x" = 3',
  "'x' . y = 4",
  'limits = { cpu = 1 }',
  'limits.cpu = 2',
  'connectors = [',
  ']',
  '"a",',
  '"""',
  "'''",
  '[',
  ']]',
  '#',
  '# [x]',
  'a = """',
  'b"""',
  '  [agents.agent-2]',
  'when = 2024-01-01T00:00:00Z',
  't = 07:30:00',
  '[a.b]',
  '[a]',
  '[[a]]',
  'a.b = 1',
];
/** Typing that keeps the TOML valid: a value replaced by a string, a comment added at a line end. */
export const validTomlEdit: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.nat(), fc.stringMatching(/^[a-z0-9 .]{0,8}$/)).map(([n, s]) => (t: string) => {
    const values = [...t.matchAll(/ = "([^"\\\n]*)"/g)];
    if (values.length === 0) return t;
    const m = values[n % values.length]!;
    const at = m.index + 4;
    return t.slice(0, at) + s + t.slice(at + m[1]!.length);
  }),
  fc.tuple(fc.nat(), fc.stringMatching(/^[a-z0-9 [\]"'=]{0,8}$/)).map(([n, s]) => (t: string) => {
    const ends = [...t.matchAll(/ = (true|false|\d+|"[^"\\\n]*")\r?\n/g)];
    if (ends.length === 0) return t;
    const m = ends[n % ends.length]!;
    const at = m.index + 3 + m[1]!.length;
    return `${t.slice(0, at)} # ${s}${t.slice(at)}`;
  }),
);

/**
 * Typing a table header: the first characters of one at the start of a line (before what the
 * line holds, as when typing above a header), or a bracket, quote, dot or letter typed inside a
 * header line. Most leave a header broken, or cut short, in the middle of the file.
 */
const headerTyping: fc.Arbitrary<Mutation> = fc.oneof(
  fc
    .tuple(fc.nat(), fc.constantFrom(...TOML_LINES.filter((line) => line.startsWith('['))), fc.nat())
    .map(([n, header, cut]) => (t: string) => {
      const starts = [0, ...[...t.matchAll(/\n/g)].map((m) => m.index + 1)];
      const at = starts[n % starts.length]!;
      return t.slice(0, at) + header.slice(0, 1 + (cut % header.length)) + t.slice(at);
    }),
  fc
    .tuple(fc.nat(), fc.nat(), fc.constantFrom('[', ']', ']]', '"', "'", '.', 'x', ' ', '#'))
    .map(([n, k, typed]) => (t: string) => {
      const headers = [...t.matchAll(/^[ \t]*\[[^\n]*/gm)];
      if (headers.length === 0) return t;
      const m = headers[n % headers.length]!;
      const at = m.index + (k % (m[0].length + 1));
      return t.slice(0, at) + typed + t.slice(at);
    }),
);

export const tomlEdit: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: validTomlEdit },
  { weight: 3, arbitrary: headerTyping },
  ...lineEdits(TOML_LINES),
  // Typing inside a value, mostly keeping the TOML valid.
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.nat(),
        fc.oneof(
          fc.constantFrom('1', 'x', '"', "'", '[', ']', '{', '}', '#', ' # c', '"s", ', '\\', '\n'),
          fc.string({ maxLength: 4 }),
        ),
      )
      .map(([n, s]) => tomlValueEdit(n, s)),
  },
  // Change a quoted value in place: stays valid.
  {
    weight: 4,
    arbitrary: fc.tuple(fc.nat(), fc.stringMatching(/^[a-z0-9 ]{0,6}$/)).map(([n, s]) => tomlValueEdit(n, `"${s}" # `)),
  },
  { weight: 2, arbitrary: blockEdit },
  { weight: 2, arbitrary: mutation },
);
export const tomlEdits = fc.array(tomlEdit, { minLength: 1, maxLength: 4 });
