/**
 * Where our edit → diagnostics time goes, in-process, with timing spans around exactly what
 * the server does per edit (packages/lsp: updateState → computeDiagnostics → the JSON-RPC
 * message), on the built (unminified) dist code:
 *
 *   npx tsx bench/profile.ts [lines=50000] [errors=0|1] [edits=8]
 *   PROFILE_OUT=.bench-work/prof/edit-50k.cpuprofile npx tsx bench/profile.ts 50000 0
 *   npx tsx bench/profile-summary.ts .bench-work/prof/edit-50k.cpuprofile
 *
 * With PROFILE_OUT, a CPU profile of the edit loop only (not the open, not the reference
 * full parse) is written there.
 *
 * Spans per edit: update (ManifestDocument.update: chunk plan + re-parse of changed chunks),
 * value (assembling the plain value), validate (validateDocument: ajv + error explanation +
 * code rules + locating), of which ajv alone is measured separately on the same value,
 * lsp (computeDiagnostics once the validation is cached: schema pin + conversion to LSP
 * ranges), json (serialising the publishDiagnostics message). It also reports how many
 * characters the last update parsed (`ManifestDocument.parsedCharacters`) of the whole text.
 * Everything is read through the packages' public API.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { Ajv } from 'ajv';
import { publishedSchemas } from '@svc-manifest/schema';
import { ManifestDocument, RULES, validateDocument } from '@svc-manifest/validator';
import { computeDiagnostics, createState, updateState, type DocumentState } from '@svc-manifest/lsp';
import { generateManifest } from './generate.ts';
import { stat } from './lsp-harness.ts';

const lines = Number(process.argv[2] ?? 50000);
const errors = process.argv[3] === '1';
const edits = Number(process.argv[4] ?? 8);
const manifest = generateManifest({ targetLines: lines, errorRate: errors ? 0.01 : 0, seed: 42 });
const uri = 'file:///tmp/svc-manifest-bench/profile/svc.yaml';
const limits = { maxFileSizeBytes: 64 * 1024 * 1024 };

const t = () => performance.now();
const spans: Record<string, number[]> = {};
const add = (name: string, ms: number) => (spans[name] ??= []).push(ms);

/** ajv alone, on the published schema (compiled here, once; not the validator's own compiled parts). */
const validateV2 = new Ajv({ strict: false, allErrors: true }).compile(publishedSchemas().v2);

// Open (full parse + validation), as the server does on didOpen.
let t0 = t();
let state: DocumentState = createState(uri, 1, manifest.text, limits);
add('open: parse', t() - t0);
t0 = t();
const openDiagnostics = computeDiagnostics(state);
add('open: validate + lsp', t() - t0);

const editOffset = (() => {
  let offset = 0;
  for (let i = 0; i < manifest.spots.edit.line; i++) offset = manifest.text.indexOf('\n', offset) + 1;
  return offset + manifest.spots.edit.character;
})();

// Time every code rule (the same objects validateDocument runs): wrap their check methods.
const ruleMs = new Map<string, number>();
let ruleTiming = false;
for (const rule of RULES as unknown as { id: string; check?: (context: unknown) => void }[]) {
  const check = rule.check;
  if (typeof check !== 'function') continue;
  rule.check = function (this: unknown, context: unknown) {
    if (!ruleTiming) return check.call(this, context);
    const s = performance.now();
    try {
      return check.call(this, context);
    } finally {
      ruleMs.set(rule.id, (ruleMs.get(rule.id) ?? 0) + performance.now() - s);
    }
  };
}

const profileOut = process.env.PROFILE_OUT;
const session = profileOut ? new Session() : undefined;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
}

let text = manifest.text;
let parsed = { parsedCharacters: 0, textLength: 0 };
let diagnosticsCount = 0;
const texts: string[] = [];
const values: unknown[] = [];
for (let i = 0; i < edits + 1; i++) {
  text =
    i % 2 === 0
      ? text.slice(0, editOffset) + 'x' + text.slice(editOffset)
      : text.slice(0, editOffset) + text.slice(editOffset + 1);
  const record = i > 0; // the first edit warms the incremental path
  if (i === 1 && session) await session.post('Profiler.start');
  ruleTiming = record;
  let s = t();
  const next = updateState(state, i + 2, text);
  const update = t() - s;
  s = t();
  const value = next.doc.value;
  const valueMs = t() - s;
  s = t();
  void next.doc.diagnostics;
  const parseDiagnosticsMs = t() - s;
  s = t();
  const result = validateDocument(next.doc);
  const validateMs = t() - s;
  s = t();
  const lsp = computeDiagnostics(next);
  const lspMs = t() - s;
  s = t();
  JSON.stringify({
    jsonrpc: '2.0',
    method: 'textDocument/publishDiagnostics',
    params: { uri, version: i + 2, diagnostics: lsp },
  });
  const jsonMs = t() - s;
  if (record) {
    add('edit: update (incremental parse)', update);
    add('edit: value (assemble plain value)', valueMs);
    add('edit: parse diagnostics', parseDiagnosticsMs);
    add('edit: validateDocument', validateMs);
    add('edit: computeDiagnostics (validation cached)', lspMs);
    add('edit: JSON message', jsonMs);
    add('edit: total (update..json)', update + valueMs + parseDiagnosticsMs + validateMs + lspMs + jsonMs);
    parsed = { parsedCharacters: next.doc.parsedCharacters, textLength: text.length };
    diagnosticsCount = result.diagnostics.length;
    texts.push(text);
    values.push(value);
  }
  state = next;
}
if (session && profileOut) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(profileOut, JSON.stringify(profile));
}
// References, outside the profiled loop: ajv alone on the same values, a full parse.
for (const value of values) {
  const s = t();
  validateV2(value);
  add('  (validateDocument) of which ajv validateV2 alone, same value', t() - s);
}
for (const text of texts.slice(0, 3)) {
  const s = t();
  ManifestDocument.parse(text, { format: 'yaml', limits: { maxBytes: limits.maxFileSizeBytes } });
  add('reference: fresh ManifestDocument.parse of the same text', t() - s);
}

const out: Record<string, unknown> = {
  manifest: manifest.name,
  lines: manifest.lines,
  bytes: manifest.bytes,
  openDiagnostics: openDiagnostics.length,
  editDiagnostics: diagnosticsCount,
  lastUpdateParsed: parsed,
};
const ruleTotal = [...ruleMs.values()].reduce((a, b) => a + b, 0);
add('  (validateDocument) of which code rules, all', ruleTotal / edits);
out.rulesPerEditMs = Object.fromEntries(
  [...ruleMs.entries()]
    .sort((a, b) => b[1] - a[1])
    .filter(([, ms]) => ms / edits >= 0.05)
    .map(([id, ms]) => [id, Math.round((ms / edits) * 10) / 10]),
);
for (const [name, values] of Object.entries(spans)) {
  const s = stat(values);
  out[name] = `${s.median.toFixed(1)} ms (${s.min.toFixed(1)}–${s.max.toFixed(1)}, n=${s.n})`;
}
console.log(JSON.stringify(out, null, 2));
