/**
 * Validates one hostile input in its own process and prints the outcome as one JSON line.
 * `node --conditions=source --import tsx hostile-child.ts <case>`; run by hostile-input.test.ts,
 * so that a parser that aborts the process (the `yaml` package can, on ~1000-deep nesting) fails
 * one test instead of killing the test runner.
 */
import { pathToFileURL } from 'node:url';
import { validateManifest, type Limits } from '@svc-manifest/validator';

const N = 5000;

/** A deterministic pseudo-random byte generator (xorshift32). */
function bytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

function billionLaughs(levels: number, width: number): string {
  const lines = ['svc_version: 1', `l0: &l0 [${Array(width).fill('lol').join(', ')}]`];
  for (let level = 1; level < levels; level++)
    lines.push(
      `l${level}: &l${level} [${Array(width)
        .fill(`*l${level - 1}`)
        .join(', ')}]`,
    );
  lines.push(
    `bomb: [${Array(width)
      .fill(`*l${levels - 1}`)
      .join(', ')}]`,
  );
  return lines.join('\n') + '\n';
}

export type Input = { input: string | Uint8Array; format?: 'yaml' | 'toml'; limits?: Partial<Limits> };

export const CASES: Record<string, () => Input> = {
  // Deep nesting, flow style.
  'yaml-flow-seq': () => ({ input: `svc_version: 1\nx: ${'['.repeat(N)}${']'.repeat(N)}\n` }),
  'yaml-flow-map': () => ({ input: `svc_version: 1\nx: ${'{a: '.repeat(N)}1${'}'.repeat(N)}\n` }),
  'yaml-flow-unclosed': () => ({ input: `svc_version: 1\nx: ${'['.repeat(N)}\n` }),
  // Deep nesting, block style (the indentation alone is 12.5 MB: the size limit is raised so depth is what trips).
  'yaml-block-indent': () => ({
    input: `svc_version: 1\n${Array.from({ length: N }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} 1\n`,
    limits: { maxBytes: 64 * 1024 * 1024 },
  }),
  'yaml-block-dashes': () => ({ input: `svc_version: 1\nx:\n  ${'- '.repeat(N)}leaf\n` }),
  'yaml-block-dash-lines': () => ({
    input: `svc_version: 1\nx:\n${Array.from({ length: N }, (_, i) => `${' '.repeat(2 + 2 * i)}-`).join('\n')} leaf\n`,
    limits: { maxBytes: 64 * 1024 * 1024 },
  }),
  // Ways to nest that the raw-text depth scan may not see.
  'yaml-explicit-value-dashes': () => ({ input: `svc_version: 1\n? x\n: ${'- '.repeat(N)}leaf\n` }),
  'yaml-explicit-keys': () => ({ input: `svc_version: 1\nx:\n  ${'? '.repeat(N)}leaf\n` }),
  'yaml-quote-in-plain-continuation': () => ({
    input: `svc_version: 1\na: plain\n  'continued\nx: ${'['.repeat(N)}${']'.repeat(N)}\n`,
  }),
  // TOML.
  'toml-inline-tables': () => ({
    input: `svc_version = 1\nx = ${'{ a = '.repeat(N)}1${' }'.repeat(N)}\n`,
    format: 'toml',
  }),
  'toml-arrays': () => ({ input: `svc_version = 1\nx = ${'['.repeat(N)}${']'.repeat(N)}\n`, format: 'toml' }),
  'toml-dotted-key': () => ({ input: `svc_version = 1\n${Array(N).fill('a').join('.')} = 1\n`, format: 'toml' }),
  'toml-table-header': () => ({ input: `svc_version = 1\n[${Array(N).fill('a').join('.')}]\n`, format: 'toml' }),
  // Aliases.
  'billion-laughs': () => ({ input: billionLaughs(9, 10) }),
  'billion-laughs-wide': () => ({ input: billionLaughs(4, 24) }),
  // Aliases are bounded by what they cost (the expanded size), not by how many there are.
  'aliases-10000': () => ({
    input: `svc_version: 1\nx: &a hello\nlist:\n${Array.from({ length: 10_000 }, () => '  - *a').join('\n')}\n`,
  }),
  // One anchored agent name, schedule and prompt reused by 10,000 triggers (30,000 aliases).
  'aliases-reused-by-triggers': () => ({
    input:
      'svc_version: 2\ndefault_agent: &agent main\nagents:\n  main: {}\nx-shared:\n  cron: &cron "0 * * * *"\n  prompt: &prompt Check the queue.\ntriggers:\n' +
      Array.from(
        { length: 10_000 },
        (_, i) => `  - {slug: t${i}, type: cron, cron: *cron, prompt: *prompt, agent: *agent}`,
      ).join('\n') +
      '\n',
  }),
  // Merge keys that each merge the previous map twice: 2^60 walks unless merged entries are shared.
  'merge-key-chain': () => ({
    input: `svc_version: 1\nx0: &x0 {k0: 0}\n${Array.from({ length: 60 }, (_, i) => `x${i + 1}: &x${i + 1} {<<: [*x${i}, *x${i}], k${i + 1}: ${i + 1}}`).join('\n')}\n`,
  }),
  'alias-cycle': () => ({ input: 'svc_version: 1\nx: &a [1, *a]\n' }),
  // Size.
  '5mb': () => ({ input: `svc_version: 1\nproject:\n  description: "${'x'.repeat(5 * 1024 * 1024)}"\n` }),
  '5mb-deep-after-limit': () => ({
    input: `svc_version: 1\npad: "${'x'.repeat(5 * 1024 * 1024)}"\nx: ${'['.repeat(N)}${']'.repeat(N)}\n`,
  }),
  '1mb-single-line': () => ({ input: `svc_version: 1\nproject: "${'x'.repeat(1024 * 1024 - 64)}"\n` }),
  // Many keys in one map, under the size limit: rule code must stay near-linear in the number of keys.
  'many-extra-keys': () => ({
    input: `svc_version: 1\nproject:\n${Array.from({ length: 50_000 }, (_, i) => `  k${i}: ${i}`).join('\n')}\n`,
  }),
  'many-unknown-agent-keys': () => ({
    input: `svc_version: 2\ndefault_agent: a\nagents:\n  a:\n${Array.from({ length: 40_000 }, (_, i) => `    k${i}: ${i}`).join('\n')}\n`,
  }),
  'many-extra-keys-toml': () => ({
    input: `svc_version = 1\n${Array.from({ length: 40_000 }, (_, i) => `project.k${i} = ${i}`).join('\n')}\n`,
    format: 'toml',
  }),
  // Binary data.
  'random-bytes': () => ({ input: bytes(64 * 1024, 42) }),
  'png-header': () => ({
    input: Uint8Array.from([
      0x89,
      0x50,
      0x4e,
      0x47,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      0,
      0,
      0,
      0x0d,
      0x49,
      0x48,
      0x44,
      0x52,
      ...bytes(512, 7),
    ]),
  }),
  'invalid-utf8': () => ({
    input: Uint8Array.from([
      ...new TextEncoder().encode('svc_version: 1\nproject:\n  name: Caf'),
      0xe9,
      ...new TextEncoder().encode(' orders\n'),
    ]),
  }),
  // Prototype keys, checked for pollution in a fresh process.
  // 2,000 maps that each merge one 2,000-key map: 8 million values once expanded.
  'merge-key-wide': () => ({
    input: `svc_version: 1\nbig: &big {${Array.from({ length: 2_000 }, (_, i) => `k${i}: ${i}`).join(', ')}}\ncopies:\n${Array.from({ length: 2_000 }, () => '  - <<: *big').join('\n')}\n`,
  }),
  'proto-keys': () => ({
    input:
      'svc_version: 1\n__proto__: {polluted: true}\nproject:\n  constructor: {prototype: {polluted: true}}\n  prototype: {polluted: true}\n',
  }),
  'proto-keys-merge': () => ({
    input:
      'svc_version: 1\nbase: &base {__proto__: {polluted: true}, constructor: {polluted: true}}\nproject:\n  <<: *base\n  name: x\n',
  }),
  'proto-keys-toml': () => ({
    input: 'svc_version = 1\n[__proto__]\npolluted = true\n[project.constructor.prototype]\npolluted = true\n',
    format: 'toml',
  }),
  'proto-keys-json-style': () => ({
    input: '{"svc_version": 1, "__proto__": {"polluted": true}, "project": {"__proto__": {"polluted": true}}}\n',
  }),
};

function main(): void {
  const name = process.argv[2] ?? '';
  const make = CASES[name];
  if (!make) {
    process.stderr.write(`unknown case '${name}'\n`);
    process.exit(3);
  }
  const { input, format, limits } = make();
  const result = validateManifest(input, { format, limits });
  const probe: Record<string, unknown> = {};
  process.stdout.write(
    JSON.stringify({
      ok: result.ok,
      length: typeof input === 'string' ? input.length : input.byteLength,
      polluted: 'polluted' in probe || 'polluted' in Object.prototype,
      manifestPrototypes:
        result.manifest && typeof result.manifest === 'object'
          ? [Object.getPrototypeOf(result.manifest) === null, Object.keys(result.manifest)]
          : null,
      diagnostics: result.diagnostics.map((d) => ({
        code: d.code,
        severity: d.severity,
        message: d.message,
        range: d.range,
      })),
    }) + '\n',
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
