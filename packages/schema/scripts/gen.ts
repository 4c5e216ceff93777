/**
 * `npm run gen` (schema half): writes the published JSON Schemas and the TypeScript types
 * from packages/schema/src/source.ts. Deterministic; CI re-runs it and fails on any diff.
 * The base address of the `$id`s is `SVC_SCHEMA_URL` (default: DEFAULT_SCHEMA_URL); Taplo's rule links
 * follow it (`ruleUrl`: the rule pages of the site serving the schemas).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';
import { catalogEntry, schemastoreTests } from './schemastore.js';
import { buildSchemas, DEFAULT_SCHEMA_URL, GENERATED_NOTE } from '../src/build.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const baseUrl = process.env.SVC_SCHEMA_URL || DEFAULT_SCHEMA_URL;
const schemas = buildSchemas(baseUrl);

const outDir = join(packageDir, 'generated');
mkdirSync(outDir, { recursive: true });
const write = (file: string, content: string) => writeFileSync(join(outDir, file), content);
write('svc.schema.json', JSON.stringify(schemas.combined, null, 2) + '\n');
write('svc.v1.schema.json', JSON.stringify(schemas.v1, null, 2) + '\n');
write('svc.v2.schema.json', JSON.stringify(schemas.v2, null, 2) + '\n');

// SchemaStore: the catalog entry and the test files, rewritten whole so a removed fixture leaves no file behind.
const storeDir = join(outDir, 'schemastore');
rmSync(storeDir, { recursive: true, force: true });
const repoRoot = join(packageDir, '..', '..');
for (const file of [
  { path: 'catalog-entry.json', text: JSON.stringify(catalogEntry(schemas.urls), null, 2) + '\n' },
  ...schemastoreTests(join(repoRoot, 'fixtures'), join(repoRoot, 'examples')),
]) {
  mkdirSync(dirname(join(storeDir, file.path)), { recursive: true });
  writeFileSync(join(storeDir, file.path), file.text);
}

/** The name of a definition's type: `agentV2` → `AgentV2` (a schema's title is for people: "Agent"). */
const typeName = (definition: string) => definition[0]!.toUpperCase() + definition.slice(1);

/** A copy of the schema that says only what a type can: shapes, not conditions. */
function forTypes(node: unknown, definition?: string): unknown {
  if (Array.isArray(node)) return node.map((item) => forTypes(item));
  if (!node || typeof node !== 'object') return node;
  const source = node as Record<string, unknown>;
  if ('x-svc-forbidden' in source) return { tsType: 'never', description: source.description };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'properties' || key === 'definitions') {
      // A record of schemas, not a schema: convert each member.
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, member]) => [
          name,
          forTypes(member, key === 'definitions' ? name : undefined),
        ]),
      );
      continue;
    }
    if (key === 'title') {
      if (definition) out.title = typeName(definition);
      continue;
    }
    if (
      [
        'allOf',
        'if',
        'then',
        'else',
        'not',
        'markdownDescription',
        '$comment',
        '$id',
        '$schema',
        'propertyNames',
      ].includes(key)
    )
      continue;
    if (key.startsWith('x-svc-')) continue;
    out[key] = forTypes(value);
  }
  // A schema that constrains nothing (v1 `credential`, connector `spec`) is `unknown`, not `{}`.
  const shapeKeys = [
    'type',
    'enum',
    'const',
    '$ref',
    'anyOf',
    'oneOf',
    'allOf',
    'properties',
    'items',
    'additionalProperties',
    'tsType',
  ];
  if (!shapeKeys.some((key) => key in source) && !('definitions' in source)) out.tsType = 'unknown';
  // `allOf: [slug, not default]` on a property: keep the first branch's shape.
  if (Array.isArray(source.allOf) && !('type' in source) && !('$ref' in source) && !('properties' in source)) {
    const shape = (source.allOf as Record<string, unknown>[]).find((part) => '$ref' in part || 'type' in part);
    if (shape) Object.assign(out, forTypes(shape));
  }
  return out;
}

// The types follow the source's shape without editor hints: the published one splits objects from their rules for Taplo.
const sourceShape = buildSchemas(baseUrl, { shape: 'validation' });
const typeRoot = {
  title: 'Manifest',
  description: 'An svc project manifest: svc_version 1 or 2.',
  anyOf: [{ $ref: '#/definitions/manifestV1' }, { $ref: '#/definitions/manifestV2' }],
  definitions: (forTypes({ definitions: sourceShape.combined.definitions }) as { definitions: unknown }).definitions,
};
const types = await compile(typeRoot as never, 'Manifest', {
  bannerComment: `/* eslint-disable */\n// ${GENERATED_NOTE}\n// (types.ts is made by json-schema-to-typescript from the published schemas.)`,
  additionalProperties: true,
  unreachableDefinitions: false,
  strictIndexSignatures: false,
  format: true,
  style: { singleQuote: true, printWidth: 120 },
});
writeFileSync(join(packageDir, 'src', 'generated', 'types.ts'), types);
console.log(
  `wrote ${outDir}/svc{,.v1,.v2}.schema.json and src/generated/types.ts (schema_url ${schemas.urls.combined})`,
);
