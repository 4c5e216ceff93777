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
import { buildSchemas, dereference, GENERATED_NOTE } from '../../schema/src/build.js';

export const AJV_OPTIONS = {
  allErrors: true,
  strict: true,
  // Conditions name keys their branch does not declare (`anyOf: [{required: [prompt]}, …]`) on purpose.
  strictRequired: false,
  strictTypes: false,
  // Our annotations; other validators ignore unknown keywords, ajv must be told.
  keywords: ['markdownDescription', 'x-svc-rule', 'x-svc-message', 'x-svc-forbidden', 'x-svc-deprecated', 'x-svc-code'],
} as const;

const standalone = ((standaloneModule as unknown as { default?: unknown }).default ?? standaloneModule) as (
  ajv: unknown,
  refs: Record<string, string>,
) => string;

const schemas = buildSchemas();

/**
 * The schema without what only people read (descriptions, titles, comments, defaults): they
 * do not change a verdict, and leaving them out keeps the generated code and the memory it
 * holds small. Hover text comes from @svc-manifest/schema, not from here.
 */
function withoutDocs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDocs);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (['description', 'markdownDescription', 'title', '$comment', 'default'].includes(key)) continue;
    out[key] =
      key === 'properties' || key === 'definitions'
        ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, member]) => [name, withoutDocs(member)]))
        : withoutDocs(value);
  }
  return out;
}
const compiledV1 = withoutDocs(dereference(schemas.v1)) as Record<string, unknown>;
const compiledV2 = withoutDocs(dereference(schemas.v2)) as Record<string, unknown>;
/** ajv's standalone code for one version's schema, as an ES module exporting `exportName`. */
function versionModule(schema: Record<string, unknown>, key: string, exportName: string): string {
  const ajv = new Ajv.default({ ...AJV_OPTIONS, keywords: [...AJV_OPTIONS.keywords], code: { source: true, esm: true, lines: false } });
  ajv.addSchema(schema, key);
  let code = standalone(ajv, { [exportName]: key });
  // ajv emits a CommonJS require for its unicode length helper even in ESM mode.
  code = code.replace(/require\("ajv\/dist\/runtime\/ucs2length"\)\.default/g, 'ucs2length');
  if (/require\(/.test(code)) throw new Error('standalone code still contains require(): extend the rewrite above');
  // ajv keeps each schema as an object literal, read only to report an enum's allowed values on a
  // failure. Built at module load, it cost every run (the CLI's start-up above all) time and young
  // heap: each becomes a function that parses the schema's JSON the first time a failure asks.
  code = code.replace(/const (schema\d+) = (\{.*?\});(?=const |function |export )/g, (_match, name: string, literal: string) => {
    JSON.parse(literal); // the literal is JSON (ajv writes it with JSON.stringify); fail the generation if not
    return `let ${name}Value;const ${name} = () => (${name}Value ??= JSON.parse(${JSON.stringify(literal)}));`;
  });
  code = code.replace(/\b(schema\d+)\.(?=properties|items|additionalProperties|allOf|anyOf|not|then|if|enum|propertyNames|definitions)/g, '$1().');
  for (const [, name] of code.matchAll(/const (schema\d+) = /g)) {
    const uses = [...code.matchAll(new RegExp(`\\b${name}\\b(?!\\(\\)|Value| = )`, 'g'))];
    if (uses.length) throw new Error(`${name} is still used as an object (${uses.length} times): extend the rewrite above`);
  }
  const header = [
    '// @ts-nocheck',
    '/* eslint-disable */',
    `// ${GENERATED_NOTE}`,
    '// ajv standalone validation code for one version of the published svc manifest schema (made by packages/validator/scripts/gen-validators.ts).',
    "import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';",
    'const ucs2length = ucs2lengthModule.default ?? ucs2lengthModule;',
  ].join('\n');
  return header + '\n' + code.replace(/^"use strict";/, '') + '\n';
}

// One module per version: a run that only meets svc_version 2 never loads the v1 code (see src/lazy-parts.ts).
const generatedDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'generated');
for (const [version, schema] of [
  [1, compiledV1],
  [2, compiledV2],
] as const) {
  const out = join(generatedDir, `validators-v${version}.ts`);
  const code = versionModule(schema, `v${version}`, `validateV${version}`);
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
    `export const dereferencedV1 = (): Record<string, unknown> => (v1 ??= ${literal(compiledV1)});`,
    `export const dereferencedV2 = (): Record<string, unknown> => (v2 ??= ${literal(compiledV2)});`,
    '',
  ].join('\n'),
);
console.log(`wrote ${schemasOut}`);
