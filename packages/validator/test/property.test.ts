/**
 * Property-based tests (fast-check): whatever the input, `validateManifest` returns, reports no
 * internal error, sorts its diagnostics and locates every one inside the text with line/column
 * agreeing with the offset. And the incremental YAML parser (`ManifestDocument.update`) gives
 * exactly what a fresh parse gives.
 *
 * Seeds are fixed per run by fast-check's defaults; a failure prints the seed and the shrunk
 * counterexample. `FC_RUNS=<n>` scales the number of runs.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ManifestDocument,
  validateDocument,
  validateManifest,
  type Diagnostic,
  type Position,
  type Range,
} from '@svc-manifest/validator';
import { loadExamples, loadFixtures } from '../../../test/support/fixtures.js';
import {
  applyAll,
  chunkedManifestArb,
  edits,
  garbage,
  largeManifest,
  manifestArb,
  mutations,
  valueEdits,
} from './support/manifest-arbitraries.js';

const SCALE = Number(process.env.FC_RUNS ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

// ---------------------------------------------------------------------------------------------
// Invariants of a result.

/**
 * Line/column of an offset, computed independently of LineIndex: lines end at LF, CRLF or a lone
 * CR (as in YAML and LSP), a BOM is not counted.
 */
function expectedPosition(text: string, offset: number): Omit<Position, 'offset'> {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const ch = text[i];
    if (ch === '\n' || (ch === '\r' && text[i + 1] !== '\n')) {
      line += 1;
      lineStart = i + 1;
    }
  }
  if (line === 1 && text.charCodeAt(0) === 0xfeff && offset >= 1) lineStart = 1;
  return { line, column: offset - lineStart + 1 };
}

function rangeProblem(text: string, range: Range, what: string): string | null {
  const { start, end } = range;
  if (!(Number.isInteger(start.offset) && Number.isInteger(end.offset))) return `${what}: offsets are not integers`;
  if (!(start.offset >= 0 && start.offset <= end.offset && end.offset <= text.length))
    return `${what}: offsets ${start.offset}..${end.offset} outside 0..${text.length}`;
  for (const position of [start, end]) {
    const expected = expectedPosition(text, position.offset);
    if (position.line !== expected.line || position.column !== expected.column) {
      return `${what}: offset ${position.offset} is at ${expected.line}:${expected.column}, reported ${position.line}:${position.column}`;
    }
  }
  return null;
}

/** Every invariant of a validation result; returns the first broken one, or null. */
function resultProblem(text: string, diagnostics: readonly Diagnostic[], ok: boolean): string | null {
  for (const [i, d] of diagnostics.entries()) {
    if (d.code === 'internal-error') return `internal error: ${d.message}`;
    if (!['error', 'warning', 'info'].includes(d.severity)) return `bad severity ${d.severity}`;
    if (typeof d.message !== 'string' || d.message.length === 0) return `empty message for ${d.code}`;
    if (typeof d.path !== 'string' || (d.path !== '' && !d.path.startsWith('/')))
      return `bad path '${d.path}' for ${d.code}`;
    const problem = rangeProblem(text, d.range, `${d.code} #${i}`);
    if (problem) return problem;
    for (const related of d.related ?? []) {
      const relatedProblem = rangeProblem(text, related.range, `${d.code} #${i} related`);
      if (relatedProblem) return relatedProblem;
    }
    for (const fix of d.fixes ?? []) {
      for (const edit of fix.edits) {
        const editProblem = rangeProblem(text, edit.range, `${d.code} #${i} fix '${fix.title}'`);
        if (editProblem) return editProblem;
      }
    }
    const previous = diagnostics[i - 1];
    if (
      previous &&
      (previous.range.start.offset > d.range.start.offset ||
        (previous.range.start.offset === d.range.start.offset && previous.range.end.offset > d.range.end.offset))
    ) {
      return `not sorted: ${previous.code} at ${previous.range.start.offset} before ${d.code} at ${d.range.start.offset}`;
    }
  }
  if (ok !== !diagnostics.some((d) => d.severity === 'error')) return 'ok disagrees with the diagnostics';
  return null;
}

function check(input: string | Uint8Array, format: 'yaml' | 'toml'): void {
  let result: ReturnType<typeof validateManifest>;
  try {
    result = validateManifest(input, { format });
  } catch (error) {
    throw new Error(`validateManifest threw: ${(error as Error).stack}`);
  }
  const text = typeof input === 'string' ? input : ManifestDocument.parse(input, { format }).text;
  const problem = resultProblem(text, result.diagnostics, result.ok);
  if (problem)
    throw new Error(`${problem}\ninput: ${JSON.stringify(typeof input === 'string' ? input : Array.from(input))}`);
}

// ---------------------------------------------------------------------------------------------
// Inputs.

const SEEDS = [...loadFixtures(), ...loadExamples()].filter((f) => f.text.length < 20_000);
const YAML_SEEDS = SEEDS.filter((f) => f.format === 'yaml');
const TOML_SEEDS = SEEDS.filter((f) => f.format === 'toml');

// ---------------------------------------------------------------------------------------------

describe('validateManifest never throws and locates everything', () => {
  it('random strings (YAML and TOML)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.array(garbage, { maxLength: 30 }).map((p) => p.join('')),
        ),
        fc.constantFrom('yaml' as const, 'toml' as const),
        (text, format) => {
          check(text, format);
        },
      ),
      { numRuns: runs(1500) },
    );
  });

  it('random bytes (Uint8Array)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 400 }),
        fc.constantFrom('yaml' as const, 'toml' as const),
        (bytes, format) => {
          check(bytes, format);
        },
      ),
      { numRuns: runs(800) },
    );
  });

  it('mutated YAML fixtures', () => {
    fc.assert(
      fc.property(fc.constantFrom(...YAML_SEEDS), mutations, (fixture, list) => {
        check(applyAll(fixture.text, list), 'yaml');
      }),
      { numRuns: runs(1000) },
    );
  });

  it('mutated TOML fixtures', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TOML_SEEDS), mutations, (fixture, list) => {
        check(applyAll(fixture.text, list), 'toml');
      }),
      { numRuns: runs(1000) },
    );
  });

  it('mutated fixtures as UTF-8 bytes with random bytes spliced in', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SEEDS),
        fc.nat(),
        fc.uint8Array({ minLength: 1, maxLength: 6 }),
        (fixture, n, splice) => {
          const bytes = new TextEncoder().encode(fixture.text);
          const i = n % (bytes.length + 1);
          check(Uint8Array.from([...bytes.subarray(0, i), ...splice, ...bytes.subarray(i)]), fixture.format);
        },
      ),
      { numRuns: runs(400) },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Incremental parsing.

/** JSON of a tree; alias targets (possibly cyclic) are shown by their position. */
function treeJson(root: ManifestDocument['root']): string {
  return JSON.stringify(root, (key, value: unknown) =>
    key === 'target' ? (value ? `@${(value as { start: number }).start}` : null) : value,
  );
}

function incrementalProblem(before: string, after: string): string | null {
  const fresh = ManifestDocument.parse(after, { format: 'yaml' });
  const updated = ManifestDocument.parse(before, { format: 'yaml' }).update(after);
  if (updated.text !== after) return 'update() has the wrong text';
  if (!isDeepStrictEqual(updated.value, fresh.value)) return 'value differs';
  const a = validateDocument(fresh).diagnostics;
  const b = validateDocument(updated).diagnostics;
  if (!isDeepStrictEqual(b, a)) {
    return `diagnostics differ:\nfresh:   ${JSON.stringify(a.map((d) => [d.code, d.range.start.offset, d.range.end.offset, d.path, d.message]))}\nupdated: ${JSON.stringify(b.map((d) => [d.code, d.range.start.offset, d.range.end.offset, d.path, d.message]))}`;
  }
  if (treeJson(updated.root) !== treeJson(fresh.root)) return 'root tree differs';
  if (updated.fatal !== fresh.fatal) return 'fatal differs';
  return resultProblem(after, a, validateDocument(fresh).ok);
}

describe('incremental YAML parsing: parse(t1).update(t2) is parse(t2)', () => {
  it('the generated manifests are chunked item by item and valid-ish', () => {
    const text = largeManifest(2, 120, 60, 1);
    expect(text.split('\n').length).toBeGreaterThan(700);
    const result = validateManifest(text);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // A fresh parse and a no-op update agree.
    expect(incrementalProblem(text, text)).toBeNull();
    // The chunked parse's root map starts at offset 0 (before the leading comment); a whole-text
    // parse starts it at the first key. So this shows the chunker is in use.
    expect(ManifestDocument.parse(text).root?.start).toBe(0);
  });

  it('after random edits of large manifests', () => {
    fc.assert(
      fc.property(manifestArb, edits, (t1, list) => {
        const t2 = applyAll(t1, list);
        const problem = incrementalProblem(t1, t2);
        if (problem) throw new Error(problem);
      }),
      { numRuns: runs(80) },
    );
  });

  it('after a chain of edits, each update starting from the previous document', () => {
    fc.assert(
      fc.property(manifestArb, fc.array(edits, { minLength: 2, maxLength: 5 }), (t1, steps) => {
        let document = ManifestDocument.parse(t1, { format: 'yaml' });
        let text = t1;
        for (const step of steps) {
          text = applyAll(text, step);
          document = document.update(text);
          const fresh = ManifestDocument.parse(text, { format: 'yaml' });
          if (!isDeepStrictEqual(document.value, fresh.value)) throw new Error('value differs');
          if (!isDeepStrictEqual(validateDocument(document).diagnostics, validateDocument(fresh).diagnostics))
            throw new Error('diagnostics differ');
          if (treeJson(document.root) !== treeJson(fresh.root)) throw new Error('root tree differs');
        }
      }),
      { numRuns: runs(30) },
    );
  });

  it('edits that undo themselves (t1 → t2 → t1) give back the first document', () => {
    fc.assert(
      fc.property(manifestArb, edits, (t1, list) => {
        const t2 = applyAll(t1, list);
        const first = ManifestDocument.parse(t1, { format: 'yaml' });
        // What the first document is, taken before it is updated (update() takes its trees over).
        const expected = {
          value: first.value,
          diagnostics: validateDocument(first).diagnostics,
          tree: treeJson(first.root),
        };
        const back = first.update(t2).update(t1);
        if (!isDeepStrictEqual(back.value, expected.value)) throw new Error('value differs');
        if (!isDeepStrictEqual(validateDocument(back).diagnostics, expected.diagnostics))
          throw new Error('diagnostics differ');
        if (treeJson(back.root) !== expected.tree) throw new Error('root tree differs');
      }),
      { numRuns: runs(40) },
    );
  });

  // The chunker must not change what the text means: on YAML the parser reads without error, the
  // chunked parse (what parse() and update() both use) must equal a whole-text parse. A trailing
  // anchor (`&u`) makes the chunker give up, which yields the whole-text parse to compare with.
  // Found the bug fixed in 6bdd370: `[`, `{` inside plain scalars were taken for flow indicators,
  // so an unbalanced one (`run: sed -n 's/{/(/p' app.log`) made the last item of a split
  // collection swallow the following top-level keys.
  it('the chunked parse equals a whole-text parse (valid YAML after random edits)', () => {
    fc.assert(
      fc.property(chunkedManifestArb, valueEdits, (t1, list) => {
        let t2 = applyAll(t1, list);
        if (!t2.endsWith('\n')) t2 += '\n';
        const problem = chunkingProblem(t2);
        if (problem) throw new Error(problem);
      }),
      { numRuns: runs(300) },
    );
  });

  it('an unbalanced `{` in a plain scalar does not change how a large manifest parses', () => {
    const trigger = (i: number, run: string) =>
      `  - slug: watch-${i}\n    type: monitor\n    run: ${run}\n    mode: stream\n    prompt: Check it.`;
    const items = Array.from({ length: 10 }, (_, i) =>
      trigger(i, i === 2 ? "sed -n 's/{/(/p' app.log" : 'tail -f app.log'),
    ).join('\n');
    const text = `svc_version: 1\ntriggers:\n${items}\nconnectors:\n  - slug: logs\n    provider: mcp\n    url: https://mcp.example.com/logs\n`;
    expect(chunkingProblem(text)).toBeNull();
    const result = validateManifest(text);
    expect(result.diagnostics).toEqual([]);
    expect(Object.keys(result.manifest as object)).toEqual(['svc_version', 'triggers', 'connectors']);
  });
});

/** Compares the chunked parse of `text` with a whole-text parse; null when they agree or cannot be compared. */
function chunkingProblem(text: string): string | null {
  const chunked = ManifestDocument.parse(text, { format: 'yaml' });
  const whole = ManifestDocument.parse(`${text}zz_unchunked: &u 1\n`, { format: 'yaml' });
  const wholeDiagnostics = validateDocument(whole).diagnostics;
  if (wholeDiagnostics.some((d) => ['yaml-syntax', 'yaml-warning', 'multiple-documents'].includes(d.code))) return null; // error recovery may differ
  const wholeValue = whole.value as Record<string, unknown> | undefined;
  if (wholeValue && typeof wholeValue === 'object') delete wholeValue.zz_unchunked;
  const shown = (list: readonly Diagnostic[]) =>
    list
      .filter((d) => d.range.start.offset < text.length && !d.message.includes('zz_unchunked'))
      .map((d) => [d.code, d.range.start.offset, d.range.end.offset, d.path, d.message]);
  const a = shown(validateDocument(chunked).diagnostics);
  const b = shown(wholeDiagnostics);
  if (!isDeepStrictEqual(a, b))
    return `diagnostics differ:\nchunked: ${JSON.stringify(a.slice(0, 5))}\nwhole:   ${JSON.stringify(b.slice(0, 5))}`;
  if (!isDeepStrictEqual(chunked.value, wholeValue)) return 'value differs';
  return null;
}
