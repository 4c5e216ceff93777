/**
 * How each version's schema is cut into parts that are validated one at a time (see
 * src/schema-parts.ts), shared by the generator (gen-validators.ts) and the test that holds the
 * parts to the whole-schema validator (test/schema-parts.test.ts). No side effects.
 */
import { buildSchemas, dereference } from '../../schema/src/build.js';

export const AJV_OPTIONS = {
  allErrors: true,
  strict: true,
  // Conditions name keys their branch does not declare (`anyOf: [{required: [prompt]}, …]`) on purpose.
  strictRequired: false,
  strictTypes: false,
  // Our annotations; other validators ignore unknown keywords, ajv must be told.
  keywords: ['markdownDescription', 'x-svc-rule', 'x-svc-message', 'x-svc-forbidden', 'x-svc-deprecated', 'x-svc-code'],
} as const;

type SchemaObject = Record<string, unknown>;

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
        ? Object.fromEntries(
            Object.entries(value as Record<string, unknown>).map(([name, member]) => [name, withoutDocs(member)]),
          )
        : withoutDocs(value);
  }
  return out;
}

// The shape the error tracing reads (source.ts's, without editor-only hints), not the published editor shape.
const schemas = buildSchemas(undefined, { shape: 'validation' });
/** What the validators are compiled from, per version: dereferenced, without the prose. */
export const COMPILED: Record<1 | 2, SchemaObject> = {
  1: withoutDocs(dereference(schemas.v1)) as SchemaObject,
  2: withoutDocs(dereference(schemas.v2)) as SchemaObject,
};

/**
 * One part of a schema. A `leaf` is validated whole by its own compiled validator. A `split`
 * node is validated by a `shell` (the node's own keywords: type, required, propertyNames,
 * min/maxProperties…, its split children left out) and then its children, each a part:
 * `properties` (in schema order, as ajv visits them), `additional` (every other key, in the
 * value's key order) and `items` (every item). ajv runs a node's object and array keywords only
 * on a value of that type, and all of them before `properties` and `items` (its keyword order),
 * so shell errors first, then the children's, is ajv's order.
 */
export type PartPlan =
  | { kind: 'leaf'; at: string; schema: SchemaObject }
  | {
      kind: 'split';
      at: string;
      shell: SchemaObject;
      properties: [string, PartPlan][];
      additional?: PartPlan;
      items?: PartPlan;
      /** The key schema, checked key by key (each key's result kept), when the shell has nothing ajv checks after it. */
      propertyNames?: PartPlan;
    };

/** Keywords a split node may have: none of them looks at a child's value, except the ones split off. */
const SHELL_KEYWORDS = new Set([
  '$schema',
  '$id',
  'type',
  'required',
  'properties',
  'additionalProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'items',
  'minItems',
  'maxItems',
]);

/** Keywords ajv checks before `propertyNames` (the validation vocabulary runs before the applicators). */
const BEFORE_PROPERTY_NAMES = new Set(['$schema', '$id', 'type', 'required', 'minProperties', 'maxProperties']);

const isObjectSchema = (value: unknown): value is SchemaObject =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);
/** A collection worth splitting: its items are objects (strings gain nothing from a cache by object). */
const holdsObjects = (schema: unknown): schema is SchemaObject => isObjectSchema(schema) && schema.type === 'object';

export function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function planParts(schema: SchemaObject, at = '', depth = 0): PartPlan {
  const keywords = Object.keys(schema);
  const splittable =
    depth <= 3 &&
    keywords.every((keyword) => SHELL_KEYWORDS.has(keyword)) &&
    (schema.additionalProperties === undefined || isObjectSchema(schema.additionalProperties)) &&
    (schema.items === undefined || isObjectSchema(schema.items));
  if (splittable) {
    const properties: [string, PartPlan][] = Object.entries(
      (schema.properties ?? {}) as Record<string, SchemaObject>,
    ).map(([name, member]) => [name, planParts(member, `${at}/properties/${escapeSegment(name)}`, depth + 1)]);
    const additional = holdsObjects(schema.additionalProperties)
      ? planParts(schema.additionalProperties, `${at}/additionalProperties`, depth + 1)
      : undefined;
    const items = holdsObjects(schema.items) ? planParts(schema.items, `${at}/items`, depth + 1) : undefined;
    const worth =
      depth === 0 ||
      additional !== undefined ||
      items !== undefined ||
      properties.some(([, part]) => part.kind === 'split');
    if (worth) {
      const shell: SchemaObject = { ...schema };
      delete shell.properties;
      if (additional) delete shell.additionalProperties;
      if (items) delete shell.items;
      // ajv checks `propertyNames` after every other keyword a shell can keep but `items`-related
      // ones: split off, its errors still come right after the shell's.
      const namesLast = Object.keys(shell).every(
        (keyword) => keyword === 'propertyNames' || BEFORE_PROPERTY_NAMES.has(keyword),
      );
      const propertyNames =
        isObjectSchema(schema.propertyNames) && namesLast
          ? ({ kind: 'leaf', at: `${at}/propertyNames`, schema: schema.propertyNames } as const)
          : undefined;
      if (propertyNames) delete shell.propertyNames;
      return { kind: 'split', at, shell, properties, additional, items, propertyNames };
    }
  }
  return { kind: 'leaf', at, schema };
}

/** Every compiled piece of a plan, depth first: [schema pointer + role, schema]. */
export function planPieces(plan: PartPlan): { at: string; role: 'leaf' | 'shell'; schema: SchemaObject }[] {
  if (plan.kind === 'leaf') return [{ at: plan.at, role: 'leaf', schema: plan.schema }];
  return [
    { at: plan.at, role: 'shell', schema: plan.shell },
    ...(plan.propertyNames ? planPieces(plan.propertyNames) : []),
    ...plan.properties.flatMap(([, part]) => planPieces(part)),
    ...(plan.additional ? planPieces(plan.additional) : []),
    ...(plan.items ? planPieces(plan.items) : []),
  ];
}
