/**
 * Hostile input: `validateManifest` returns (never throws) on anything, reports a located
 * diagnostic of the expected code, and the process survives. Inputs that could crash a parser
 * (deep nesting, alias bombs, huge or binary files) run in a child process each
 * (support/hostile-child.ts): if a protection fails, the child dies and one test fails, instead
 * of the `yaml` package aborting the test runner.
 *
 * Known validator bugs are pinned with `it.fails` ("BUG: …"): such a test passes while the bug
 * exists and fails once it is fixed — then turn it into a plain `it`.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ManifestDocument,
  validateDocument,
  validateManifest,
  type Diagnostic,
  type Range,
} from '@svc-manifest/validator';
import { loadFixtures } from '../../../test/support/fixtures.js';
import { CASES } from './support/hostile-child.js';
import { REPO_ROOT } from './support/child.js';

interface ChildOutcome {
  status: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  result?: {
    ok: boolean;
    length: number;
    polluted: boolean;
    manifestPrototypes: [boolean, string[]] | null;
    diagnostics: Pick<Diagnostic, 'code' | 'severity' | 'message' | 'range'>[];
  };
}

const CHILD = join(import.meta.dirname, 'support', 'hostile-child.ts');

/**
 * A child still running after this long is killed and its test fails. It guards against hangs
 * only: no test asserts a duration (speed is measured by `npm run bench`, as ratios). Each bound
 * on work is checked by what the validator reports instead: alias expansion stops at its
 * limit, a too-large input is refused before anything after the limit is read, and an alias bomb
 * runs in a small heap, so expanding it would fail by running out of memory.
 */
const HANG_GUARD_MS = 90_000;

/**
 * Cases that must fit in a small heap (MB): the alias bounds keep memory bounded, so a bomb
 * that were expanded would die of out-of-memory here and fail its test.
 */
const HEAP_MB: Record<string, number> = {
  'billion-laughs': 96,
  'billion-laughs-wide': 96,
  'merge-key-wide': 96,
  'merge-key-chain': 96,
};

function runChild(name: string): Promise<ChildOutcome> {
  return new Promise((resolve) => {
    const heap = HEAP_MB[name] ? [`--max-old-space-size=${HEAP_MB[name]}`] : [];
    const child = spawn(process.execPath, [...heap, '--conditions=source', '--import', 'tsx', CHILD, name], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      let result: ChildOutcome['result'];
      try {
        result = JSON.parse(stdout) as ChildOutcome['result'];
      } catch {
        result = undefined;
      }
      resolve({ status, signal, stderr, result });
    });
  });
}

const outcomes = new Map<string, ChildOutcome>();

beforeAll(async () => {
  const names = Object.keys(CASES);
  const queue = [...names];
  const workers = Array.from({ length: 4 }, async () => {
    for (let name = queue.shift(); name; name = queue.shift()) outcomes.set(name, await runChild(name));
  });
  await Promise.all(workers);
}, 600_000);

/** The child exited 0 and printed its result; returns the result. */
function survived(name: string): NonNullable<ChildOutcome['result']> {
  const outcome = outcomes.get(name)!;
  expect({ status: outcome.status, signal: outcome.signal, stderr: outcome.stderr.slice(0, 2000) }).toEqual({
    status: 0,
    signal: null,
    stderr: '',
  });
  expect(outcome.result).toBeDefined();
  return outcome.result!;
}

function expectSaneRange(range: Range, length: number): void {
  expect(range.start.offset).toBeGreaterThanOrEqual(0);
  expect(range.start.offset).toBeLessThanOrEqual(range.end.offset);
  expect(range.end.offset).toBeLessThanOrEqual(length);
  expect(range.start.line).toBeGreaterThanOrEqual(1);
  expect(range.start.column).toBeGreaterThanOrEqual(1);
}

/** The one diagnostic of `code`, after checking every range is within the input. */
function located(name: string, code: string): Pick<Diagnostic, 'code' | 'severity' | 'message' | 'range'> {
  const result = survived(name);
  for (const d of result.diagnostics) expectSaneRange(d.range, result.length);
  expect(result.ok).toBe(false);
  const found = result.diagnostics.filter((d) => d.code === code);
  expect(
    found.map((d) => d.code),
    JSON.stringify(result.diagnostics.map((d) => d.code)),
  ).toEqual([code]);
  return found[0]!;
}

function inputText(name: string): string {
  const { input } = CASES[name]!();
  return typeof input === 'string' ? input : new TextDecoder().decode(input);
}

describe('deep nesting is refused before parsing (too-deep), in its own process', () => {
  const cases: [string, string, RegExp][] = [
    ['yaml-flow-seq', '`[[[[…` 5000 deep', /\[/],
    ['yaml-flow-map', '`{a: {a: …` 5000 deep', /\{/],
    ['yaml-flow-unclosed', '5000 unclosed `[`', /\[/],
    ['yaml-block-indent', '5000-deep block mappings by indentation', /k/],
    ['yaml-block-dashes', '`- - - - …` 5000 deep on one line', /-|l/],
    ['yaml-block-dash-lines', '5000 nested `-` lines', /[- ]/],
    ['toml-inline-tables', 'TOML inline tables `{ a = { a = …` 5000 deep', /\{/],
    ['toml-arrays', 'TOML arrays `[[[[…` 5000 deep', /\[/],
    ['toml-dotted-key', 'a TOML dotted key 5000 segments long', /\./],
    ['toml-table-header', 'a TOML table header 5000 segments long', /\./],
  ];
  for (const [name, what, at] of cases) {
    it(`${what} (${name})`, () => {
      const d = located(name, 'too-deep');
      expect(d.severity).toBe('error');
      expect(d.message).toContain('more than 64 levels');
      // Located inside the nesting, past the first 64 levels, one character wide.
      expect(d.range.end.offset - d.range.start.offset).toBe(1);
      expect(d.range.start.line).toBeGreaterThanOrEqual(2);
      expect(inputText(name).charAt(d.range.start.offset)).toMatch(at);
    });
  }

  // Forms the raw-text depth scan (findExcessiveNesting) once missed (fixed in cfd4830): there
  // the process survived only because `yaml` turned its stack overflow into an error, and
  // nesting under ~1000 levels was accepted silently.
  const bypasses: [string, string][] = [
    ['yaml-explicit-value-dashes', '`? x` then `: - - - …` 5000 deep'],
    ['yaml-explicit-keys', '`? ? ? …` 5000 deep'],
    ['yaml-quote-in-plain-continuation', "a plain scalar continued on a line starting with `'`, then `[[[[…`"],
  ];
  for (const [name, what] of bypasses) {
    it(`${what}: the process survives (${name})`, () => {
      const result = survived(name);
      for (const d of result.diagnostics) expectSaneRange(d.range, result.length);
      expect(result.ok).toBe(false);
    });
    it(`${what} is reported as too-deep (${name})`, () => {
      located(name, 'too-deep');
    });
  }

  // The scan once counted `{` / `[` inside plain scalars as flow openers that never close, so a
  // valid manifest with many of them was refused (fixed in 6bdd370).
  it('70 monitor triggers whose `run` holds an unbalanced `{` are not too-deep', () => {
    const triggers = Array.from(
      { length: 70 },
      (_, i) =>
        `  - slug: watch-${i}\n    type: monitor\n    run: sed -n 's/{/(/p' app-${i}.log\n    mode: stream\n    prompt: Check it.`,
    );
    const result = validateManifest(`svc_version: 1\ntriggers:\n${triggers.join('\n')}\n`);
    expect(result.diagnostics).toEqual([]);
  });

  it('100-deep nesting after `? x` / `:` is reported as too-deep (maxDepth 64)', () => {
    const result = validateManifest(`svc_version: 1\n? x\n: ${'- '.repeat(100)}leaf\n`);
    expect(result.diagnostics.map((d) => d.code)).toContain('too-deep');
  });

  it("100-deep flow nesting after a plain-scalar continuation line starting with ' is reported as too-deep", () => {
    const result = validateManifest(
      `svc_version: 1\na: plain\n  'continued\nx: ${'['.repeat(100)}${']'.repeat(100)}\n`,
    );
    expect(result.diagnostics.map((d) => d.code)).toContain('too-deep');
  });
});

describe('aliases, in their own process', () => {
  it('a billion-laughs bomb (10^9 values) is refused at the alias that crosses the limit, quickly', () => {
    const d = located('billion-laughs', 'alias-expansion');
    expect(inputText('billion-laughs').slice(d.range.start.offset, d.range.end.offset)).toMatch(/^\*l\d$/);
    // The work bound: expansion stops counting at the limit (200,000 values of 10^9).
    expect(d.message).toContain('past 200000 values');
    const wide = located('billion-laughs-wide', 'alias-expansion');
    expect(inputText('billion-laughs-wide').slice(wide.range.start.offset, wide.range.end.offset)).toMatch(/^\*l\d$/);
  });

  it('10,000 aliases of a small anchor validate (aliases are bounded by cost, not count)', () => {
    const result = survived('aliases-10000');
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('one anchored agent, schedule and prompt reused by 10,000 triggers validate', () => {
    const result = survived('aliases-reused-by-triggers');
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('a chain of 60 maps that each merge the previous one twice validates (merged entries are computed once per map)', () => {
    const result = survived('merge-key-chain');
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('2,000 merges of a 2,000-key map (8 million values expanded) are refused as alias-expansion', () => {
    const d = located('merge-key-wide', 'alias-expansion');
    expect(d.message).toContain('past 200000 values');
    // At the merge that crossed the bound, not at the start of the file.
    expect(inputText('merge-key-wide').slice(d.range.start.offset, d.range.end.offset)).toBe('*big');
    expect(d.range.start.line).toBeGreaterThan(3);
  });

  it('an alias inside its own anchor: alias-cycle at the alias', () => {
    const d = located('alias-cycle', 'alias-cycle');
    expect(inputText('alias-cycle').slice(d.range.start.offset, d.range.end.offset)).toBe('*a');
  });
});

describe('size, in its own process', () => {
  it('a 5 MB file: too-large just past 1 MiB (zero width: nothing after it was read), without parsing', () => {
    for (const name of ['5mb', '5mb-deep-after-limit']) {
      const d = located(name, 'too-large');
      expect(d.range.start.offset).toBe(1024 * 1024);
      expect(d.range.end.offset).toBe(1024 * 1024);
      // Refused before parsing: nothing past the limit (the deep nesting) is reported.
      expect(survived(name).diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['too-large']);
    }
  });

  it('a 1 MB single line (just under the limit) is parsed and checked', () => {
    const d = located('1mb-single-line', 'wrong-type');
    expect(d.range.start).toMatchObject({ line: 2, column: 10 });
    expect(d.range.end.line).toBe(2);
    expect(d.message).toContain("'project' must be a map");
  });
});

describe('many keys, in its own process', () => {
  // Rule code once went quadratic in the number of keys of one map (possible-typo, and the
  // locator's entry lookup): 50,000 keys took about 2 minutes. Fixed; if it came back, these
  // cases would run past the hang guard.
  it('50,000 extra keys in project are validated', () => {
    survived('many-extra-keys');
  });
  it('40,000 dotted keys under project in TOML are validated', () => {
    survived('many-extra-keys-toml');
  });
  it('40,000 unknown keys in an agent are validated', () => {
    const result = survived('many-unknown-agent-keys');
    expect(result.diagnostics.filter((d) => d.code === 'unknown-key')).toHaveLength(40_000);
  });
});

describe('binary data, in its own process', () => {
  it('random bytes: located diagnostics, starting with invalid-utf8', () => {
    const result = survived('random-bytes');
    for (const d of result.diagnostics) expectSaneRange(d.range, result.length);
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toContain('invalid-utf8');
    expect(result.diagnostics.map((d) => d.code)).toContain('forbidden-character');
  });

  it('a PNG header: invalid-utf8 at its first byte', () => {
    const result = survived('png-header');
    expect(result.diagnostics.find((d) => d.code === 'invalid-utf8')!.range).toMatchObject({
      start: { offset: 0, line: 1, column: 1 },
      end: { offset: 1 },
    });
  });

  it('invalid UTF-8 inside a manifest: located at the bad byte', () => {
    const d = located('invalid-utf8', 'invalid-utf8');
    expect(d.range.start).toEqual({ offset: 35, line: 3, column: 12 });
  });
});

describe('prototype keys are data; values have no prototype', () => {
  const expectedKeys: Record<string, string[]> = {
    'proto-keys': ['svc_version', '__proto__', 'project'],
    'proto-keys-toml': ['svc_version', '__proto__', 'project'],
    'proto-keys-json-style': ['svc_version', '__proto__', 'project'],
    'proto-keys-merge': ['svc_version', 'base', 'project'],
  };
  for (const [name, keys] of Object.entries(expectedKeys)) {
    it(`are accepted as extra keys and pollute nothing in a fresh process (${name})`, () => {
      const result = survived(name);
      expect(result.polluted).toBe(false);
      expect(result.diagnostics).toEqual([]);
      expect(result.ok).toBe(true);
      // [the manifest has no prototype, its own keys]
      expect(result.manifestPrototypes).toEqual([true, keys]);
    });
  }
});

describe('characters', () => {
  it('NUL and other control characters: forbidden-character at the first, with the count', () => {
    const text = 'svc_version: 1\nproject:\n  name: a\u0000b\u001b[31mc\u007f\u0085\n';
    const result = validateManifest(text);
    const d = result.diagnostics.find((x) => x.code === 'forbidden-character')!;
    expect(d.range).toMatchObject({ start: { line: 3, column: 10 }, end: { line: 3, column: 11 } });
    expect(d.message).toContain('U+0000');
    expect(d.message).toContain('4 such characters');
    expect(result.ok).toBe(false);
  });

  it('an unpaired surrogate: forbidden-character', () => {
    const result = validateManifest('svc_version: 1\nproject:\n  name: "\uD800x"\n');
    expect(result.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.column])).toEqual([
      ['forbidden-character', 3, 10],
    ]);
  });

  it('tabs, CR and LF are allowed text', () => {
    expect(validateManifest('svc_version: 1\r\nproject:\r\n  name: "a\tb"\r\n').diagnostics).toEqual([]);
  });
});

describe('byte-order mark', () => {
  const cases = [
    'svc_version: 3\n',
    'svc_version: 1\nproject: [1]\n',
    'svc_version: 2\ndefault_agent: x\nagents: {x: {model: 1}}\n',
    'svc_version: 1\ntrigers: []\n',
    'svc_version = 3\n',
    'svc_version = 1\nproject = 1\n',
  ];
  for (const text of cases) {
    it(`keeps every position: ${JSON.stringify(text)}`, () => {
      const format = text.includes(' = ') ? 'toml' : 'yaml';
      const plain = validateManifest(text, { format }).diagnostics;
      expect(plain.length).toBeGreaterThan(0);
      for (const input of ['\uFEFF' + text, Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)])]) {
        const withBom = validateManifest(input, { format }).diagnostics;
        expect(withBom[0]).toMatchObject({
          code: 'byte-order-mark',
          severity: 'info',
          range: { start: { line: 1, column: 1 } },
        });
        const rest = withBom.slice(1);
        expect(
          rest.map((d) => [d.code, d.range.start.line, d.range.start.column, d.range.end.line, d.range.end.column]),
        ).toEqual(
          plain.map((d) => [d.code, d.range.start.line, d.range.start.column, d.range.end.line, d.range.end.column]),
        );
        // Offsets count the mark; line/column do not.
        expect(rest.map((d) => d.range.start.offset)).toEqual(plain.map((d) => d.range.start.offset + 1));
      }
    });
  }
});

describe('CRLF line ends', () => {
  it('keep the ranges of multiple-documents and toml-syntax off the CR (fixed in cfd4830)', () => {
    const range = (text: string, format: 'yaml' | 'toml') =>
      validateManifest(text, { format }).diagnostics.map(
        (d) => `${d.code} ${d.range.start.line}:${d.range.start.column}-${d.range.end.line}:${d.range.end.column}`,
      );
    expect(range('svc_version: 1\r\n---\r\nsvc_version: 1\r\n', 'yaml')).toEqual(
      range('svc_version: 1\n---\nsvc_version: 1\n', 'yaml'),
    );
    expect(range('svc_version = 1\r\nx = "abc\r\n', 'toml')).toEqual(range('svc_version = 1\nx = "abc\n', 'toml'));
  });

  const position = (d: Diagnostic) =>
    `${d.code} ${d.range.start.line}:${d.range.start.column}-${d.range.end.line}:${d.range.end.column}`;
  // The size limit counts bytes, so a CRLF copy of the 1 MiB fixture hits it elsewhere.
  const fixtures = loadFixtures().filter(
    (f) => f.folder === 'invalid' && f.rule !== 'too-large' && !f.text.includes('\r'),
  );

  it('covers the invalid fixtures', () => {
    expect(fixtures.length).toBeGreaterThan(100);
  });

  for (const fixture of fixtures) {
    it(`give the same diagnostics at the same line/column: ${fixture.name}`, () => {
      const lf = validateManifest(fixture.text, { format: fixture.format }).diagnostics;
      const crlf = validateManifest(fixture.text.replace(/\n/g, '\r\n'), { format: fixture.format }).diagnostics;
      expect(crlf.map(position)).toEqual(lf.map(position));
    });
  }

  it('a realistic manifest with many problems', () => {
    const text = readFileSync(join(REPO_ROOT, 'fixtures/realistic/valid/v1-ops-automation.yaml'), 'utf8')
      .replace('type: cron', 'type: cronn')
      .replace('secretEnv: DEPLOY_HOOK_SECRET', 'secretEnv: deploy')
      .replace('mode: poll', 'mode: pol');
    const lf = validateManifest(text).diagnostics;
    expect(lf.length).toBeGreaterThanOrEqual(3);
    expect(validateManifest(text.replace(/\n/g, '\r\n')).diagnostics.map(position)).toEqual(lf.map(position));
  });
});

describe('a bug of ours', () => {
  it('is reported as internal-error at the start of the file, not thrown', () => {
    const document = ManifestDocument.parse('svc_version: 2\n');
    // Stand in for a bug: reading the document's value throws inside the pipeline.
    Object.defineProperty(document, 'value', {
      get() {
        throw new Error('boom');
      },
    });
    const result = validateDocument(document);
    expect(result.ok).toBe(false);
    expect(
      result.diagnostics.map((d) => [d.code, d.severity, d.message, d.range.start.offset, d.range.end.offset]),
    ).toEqual([['internal-error', 'error', 'the validator failed on this input (boom); please report this', 0, 0]]);
  });
});
