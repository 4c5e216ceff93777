/**
 * Checks proposals 1–2 of bench/findings.md without touching packages/: copies the built
 * validator (packages/validator/dist) to .bench-work/validator-patched, applies the patch to
 * rules/reference-helpers.js and suggest.js there, and compares validateDocument on already
 * parsed documents (the rules' share of an edit), original vs patched, and that both give
 * the same diagnostics.
 *
 *   npx tsx bench/experiments/rule-patch.ts [lines=50000]
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateManifest } from '../generate.ts';
import { stat } from '../lsp-harness.ts';
import { ROOT, WORK } from '../servers.ts';

const lines = Number(process.argv[2] ?? 50000);
const original = join(ROOT, 'packages', 'validator', 'dist');
const patched = join(WORK, 'validator-patched', 'dist');
rmSync(join(WORK, 'validator-patched'), { recursive: true, force: true });
cpSync(original, patched, { recursive: true });

function patch(file: string, from: string, to: string): void {
  const path = join(patched, file);
  const source = readFileSync(path, 'utf8');
  if (!source.includes(from)) throw new Error(`patch does not apply to ${file}: the validator changed`);
  writeFileSync(path, source.replace(from, to));
}

// 1. Membership by a Set, names cached per declarations array.
patch(
  'rules/reference-helpers.js',
  `    if (reference.name === '' || declarations.some((d) => d.name === reference.name))
        return;
    const names = declarations.map((d) => d.name);`,
  `    let cached = declarationCache.get(declarations);
    if (!cached) {
        const list = declarations.map((d) => d.name);
        cached = { names: list, set: new Set(list), key: list.join('\\u0000') };
        declarationCache.set(declarations, cached);
    }
    if (reference.name === '' || cached.set.has(reference.name))
        return;
    const names = cached.names;`,
);
// 2b. Suggestions memoised by (declared names, reference name), across documents.
patch(
  'rules/reference-helpers.js',
  `    const suggestion = closestMatch(reference.name, names);`,
  `    let memo = suggestionMemo.get(cached.key);
    if (!memo) {
        if (suggestionMemo.size > 64) suggestionMemo.clear();
        suggestionMemo.set(cached.key, (memo = new Map()));
    }
    let suggestion = memo.get(reference.name);
    if (suggestion === undefined && !memo.has(reference.name)) {
        suggestion = closestMatch(reference.name, names);
        memo.set(reference.name, suggestion);
    }`,
);
patch(
  'rules/reference-helpers.js',
  `/** Reports a reference to a name that nothing declares`,
  `const declarationCache = new WeakMap();
const suggestionMemo = new Map();
/** Reports a reference to a name that nothing declares`,
);
// 2a. closestMatch: skip candidates that cannot be within the largest accepted distance (3).
patch(
  'suggest.js',
  `        const score = normalize(candidate) === normalized ? 0.5 : editDistance(input.toLowerCase(), candidate.toLowerCase());`,
  `        const same = normalize(candidate) === normalized;
        if (!same && Math.abs(candidate.length - input.length) > 3)
            continue;
        const score = same ? 0.5 : editDistance(input.toLowerCase(), candidate.toLowerCase());`,
);

type Validator = typeof import('@svc-manifest/validator');
const before = (await import(pathToFileURL(join(original, 'index.js')).href)) as Validator;
const after = (await import(pathToFileURL(join(patched, 'index.js')).href)) as Validator;

for (const errorRate of [0, 0.01]) {
  const manifest = generateManifest({ targetLines: lines, errorRate, seed: 42 });
  const options = { format: 'yaml' as const, limits: { maxBytes: 64 * 1024 * 1024 } };
  const times: Record<string, number[]> = { original: [], patched: [] };
  let same = true;
  for (let i = 0; i < 5; i++) {
    for (const [name, v] of [
      ['original', before],
      ['patched', after],
    ] as const) {
      const doc = v.ManifestDocument.parse(manifest.text, options);
      void doc.value;
      const t = performance.now();
      const result = v.validateDocument(doc);
      times[name]!.push(performance.now() - t);
      (globalThis as { __last?: Record<string, string> }).__last ??= {};
      (globalThis as unknown as { __last: Record<string, string> }).__last[name] = JSON.stringify(result.diagnostics);
    }
    const last = (globalThis as unknown as { __last: Record<string, string> }).__last;
    same &&= last.original === last.patched;
  }
  const o = stat(times.original!.slice(1));
  const p = stat(times.patched!.slice(1));
  console.log(
    `${manifest.name}: validateDocument original ${o.median.toFixed(0)} ms (${o.min.toFixed(0)}–${o.max.toFixed(0)}), patched ${p.median.toFixed(0)} ms (${p.min.toFixed(0)}–${p.max.toFixed(0)}), same diagnostics: ${same}`,
  );
}
