/**
 * `npm run gen` (validator half): compiles the published schemas with ajv into standalone
 * validation code, so the validator never compiles a schema (or calls `new Function`) at
 * run time. Output: packages/validator/src/generated/validators-v1.ts and validators-v2.ts (committed, checked for drift).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { GENERATED_NOTE } from '../../schema/src/build.js';
import { AJV_OPTIONS, COMPILED, planParts, planPieces, type PartPlan } from './validator-parts.js';

const standalone = ((standaloneModule as unknown as { default?: unknown }).default ?? standaloneModule) as (
  ajv: unknown,
  refs: Record<string, string>,
) => string;

/**
 * The part tree of a plan as a JavaScript literal, naming each compiled piece by its export
 * (`p0`, `p1`, …, in {@link planPieces} order).
 */
function partLiteral(plan: PartPlan, names: Map<string, string>): string {
  const at = JSON.stringify(plan.at);
  if (plan.kind === 'leaf') return `{at:${at},validate:${names.get(`leaf:${plan.at}`)!}}`;
  const fields = [`at:${at}`, `shell:${names.get(`shell:${plan.at}`)!}`];
  fields.push(
    `properties:[${plan.properties.map(([name, part]) => `[${JSON.stringify(name)},${partLiteral(part, names)}]`).join(',')}]`,
  );
  if (plan.additional) fields.push(`additional:${partLiteral(plan.additional, names)}`);
  if (plan.items) fields.push(`items:${partLiteral(plan.items, names)}`);
  if (plan.propertyNames) fields.push(`propertyNames:${partLiteral(plan.propertyNames, names)}`);
  return `{${fields.join(',')}}`;
}

/**
 * ajv's standalone code for one version's schema, cut into parts (scripts/validator-parts.ts),
 * as an ES module exporting the part tree (`partsV<n>`, walked by src/schema-parts.ts) and
 * `validateV<n>`, the whole-value validator made of the parts.
 */
function versionModule(schema: Record<string, unknown>, version: 1 | 2): string {
  const ajv = new Ajv.default({
    ...AJV_OPTIONS,
    keywords: [...AJV_OPTIONS.keywords],
    code: { source: true, esm: true, lines: false },
  });
  const plan = planParts(schema);
  const names = new Map<string, string>();
  const exports: Record<string, string> = {};
  planPieces(plan).forEach((piece, index) => {
    const key = `v${version}-${piece.role}:${piece.at}`;
    ajv.addSchema(piece.schema, key);
    names.set(`${piece.role}:${piece.at}`, `p${index}`);
    exports[`p${index}`] = key;
  });
  let code = standalone(ajv, exports);
  // ajv emits a CommonJS require for its unicode length helper even in ESM mode.
  code = code.replace(/require\("ajv\/dist\/runtime\/ucs2length"\)\.default/g, 'ucs2length');
  if (/require\(/.test(code)) throw new Error('standalone code still contains require(): extend the rewrite above');
  // ajv keeps each schema as an object literal, read only to report an enum's allowed values on a
  // failure. Built at module load, it cost every run (the CLI's start-up above all) time and young
  // heap: each becomes a function that parses the schema's JSON the first time a failure asks.
  code = code.replace(
    /const (schema\d+) = (\{.*?\});(?=const |function |export )/g,
    (_match, name: string, literal: string) => {
      JSON.parse(literal); // the literal is JSON (ajv writes it with JSON.stringify); fail the generation if not
      return `let ${name}Value;const ${name} = () => (${name}Value ??= JSON.parse(${JSON.stringify(literal)}));`;
    },
  );
  code = code.replace(
    /\b(schema\d+)\.(?=properties|items|additionalProperties|allOf|anyOf|not|then|if|enum|propertyNames|definitions)/g,
    '$1().',
  );
  for (const [, name] of code.matchAll(/const (schema\d+) = /g)) {
    const uses = [...code.matchAll(new RegExp(`\\b${name}\\b(?!\\(\\)|Value| = )`, 'g'))];
    if (uses.length)
      throw new Error(`${name} is still used as an object (${uses.length} times): extend the rewrite above`);
  }
  const header = [
    '// @ts-nocheck',
    '/* eslint-disable */',
    `// ${GENERATED_NOTE}`,
    '// ajv standalone validation code for one version of the published svc manifest schema (made by packages/validator/scripts/gen-validators.ts).',
    "import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';",
    "import { collectErrors } from '../schema-parts.js';",
    'const ucs2length = ucs2lengthModule.default ?? ucs2lengthModule;',
  ].join('\n');
  const footer = [
    `export const partsV${version} = ${partLiteral(plan, names)};`,
    `export function validateV${version}(data) { const errors = collectErrors(partsV${version}, data); validateV${version}.errors = errors.length ? errors : null; return errors.length === 0; }`,
  ].join('\n');
  return header + '\n' + code.replace(/^"use strict";/, '') + '\n' + footer + '\n';
}

// One module per version: a run that only meets svc_version 2 never loads the v1 code (in the bundles: scripts/lazy-parts-plugin.mjs).
const generatedDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'generated');
for (const version of [1, 2] as const) {
  const out = join(generatedDir, `validators-v${version}.ts`);
  const code = versionModule(COMPILED[version], version);
  writeFileSync(out, code);
  console.log(`wrote ${out} (${code.length} characters)`);
}
rmSync(join(generatedDir, 'validators.ts'), { force: true });

// The same dereferenced schemas, for reading annotations off error paths at run time without
// building them (JSON.parse of a string is the fastest way V8 loads a large object).
const schemasOut = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'generated', 'schemas.ts');
const literal = (schema: object) => `JSON.parse(${JSON.stringify(JSON.stringify(schema))})`;
writeFileSync(
  schemasOut,
  [
    `// ${GENERATED_NOTE}`,
    '// The published per-version schemas with every $ref inlined and the prose left out: what the validators were compiled from.',
    '// Parsed on first use: only a manifest with schema errors needs them.',
    'let v1: Record<string, unknown> | undefined;',
    'let v2: Record<string, unknown> | undefined;',
    `export const dereferencedV1 = (): Record<string, unknown> => (v1 ??= ${literal(COMPILED[1])});`,
    `export const dereferencedV2 = (): Record<string, unknown> => (v2 ??= ${literal(COMPILED[2])});`,
    '',
  ].join('\n'),
);
console.log(`wrote ${schemasOut}`);
