/**
 * What the schema says about a place in a manifest: the keys allowed there, their
 * descriptions, the values an enum offers. Works on the dereferenced schema of one
 * `svc_version`, built once per version; lookups by path are cached, so a keystroke never
 * re-walks the whole schema.
 */
import { buildSchemas, dereference, type PublishedSchemas } from '@svc-manifest/schema';

export type SvcVersion = 1 | 2;
export type Schema = { [keyword: string]: unknown };
export type PathSegment = string | number;

/** A property allowed at a place, with the schema that describes it. */
export interface KeyInfo {
  name: string;
  schema: Schema;
  /** The key to use instead (`x-svc-deprecated`). */
  deprecatedBy?: string;
}

const roots = new Map<SvcVersion, Schema>();
let validationShape: PublishedSchemas | undefined;
const pathCache = new Map<string, Schema[]>();

/** The dereferenced schema of one version, built once. */
export function rootSchema(version: SvcVersion): Schema {
  let root = roots.get(version);
  if (!root) {
    // The source's shape, as the validators read it: the published files are in the shape other
    // editors read, which moves an object's rules beside each reference to it (docs/decisions.md,
    // "(#36) The published schema is in the shape other editors read").
    validationShape ??= buildSchemas(undefined, { shape: 'validation' });
    root = dereference(version === 1 ? validationShape.v1 : validationShape.v2);
    roots.set(version, root);
  }
  return root;
}

function isSchema(value: unknown): value is Schema {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** A property schema that only says "this key is not allowed". */
export function isForbidden(schema: Schema | undefined): boolean {
  return !!schema && isSchema(schema.not) && Object.keys(schema.not).length === 0;
}

/** The schema and the members of its `anyOf`/`allOf` that can contribute structure. */
function branches(schema: Schema): Schema[] {
  const out: Schema[] = [schema];
  for (const keyword of ['anyOf', 'allOf', 'oneOf']) {
    const list = schema[keyword];
    if (Array.isArray(list)) for (const member of list) if (isSchema(member)) out.push(...branches(member));
  }
  return out;
}

function childSchemas(schema: Schema, segment: PathSegment): Schema[] {
  const out: Schema[] = [];
  for (const branch of branches(schema)) {
    if (typeof segment === 'number') {
      if (isSchema(branch.items)) out.push(branch.items);
      continue;
    }
    const properties = branch.properties;
    // Own keys only: a key named `__proto__` or `constructor` is not a declared property.
    if (
      isSchema(properties) &&
      Object.hasOwn(properties, segment) &&
      isSchema(properties[segment]) &&
      !isForbidden(properties[segment])
    ) {
      out.push(properties[segment]);
    } else if (isSchema(branch.additionalProperties)) {
      out.push(branch.additionalProperties);
    }
  }
  return out;
}

/** The subschemas that describe the value at `segments` (several when an `anyOf` allows several shapes). */
export function schemasAt(version: SvcVersion, segments: readonly PathSegment[]): Schema[] {
  // JSON of the path (every index as 0, as the walk reads it), not the keys joined: a key may hold
  // any separator, and joined, ['a.b'] and ['a', 'b'] were one entry.
  const cacheKey = JSON.stringify([version, ...segments.map((s) => (typeof s === 'number' ? 0 : s))]);
  const cached = pathCache.get(cacheKey);
  if (cached) return cached;
  let current: Schema[] = [rootSchema(version)];
  for (const segment of segments) {
    current = current.flatMap((schema) => childSchemas(schema, typeof segment === 'number' ? 0 : segment));
    if (current.length === 0) break;
  }
  if (pathCache.size > 2000) pathCache.clear();
  pathCache.set(cacheKey, current);
  return current;
}

/** Whether a plain value satisfies the simple `if` schemas the manifest uses (`properties` with `const`/`enum`, `required`). */
function matchesCondition(condition: unknown, value: unknown): boolean {
  if (!isSchema(condition) || !isSchema(value)) return false;
  const object = value as Record<string, unknown>;
  if (Array.isArray(condition.required) && !condition.required.every((key) => typeof key === 'string' && key in object))
    return false;
  if (isSchema(condition.properties)) {
    for (const [key, rule] of Object.entries(condition.properties)) {
      if (!(key in object) || !isSchema(rule)) continue;
      if ('const' in rule && object[key] !== rule.const) return false;
      if (Array.isArray(rule.enum) && !rule.enum.includes(object[key])) return false;
    }
  }
  return true;
}

/**
 * The keys allowed in the object at `segments`, in schema order. `value` (the object as it is
 * now) switches on conditional parts: a monitor trigger does not offer `cron`.
 */
export function keysAt(version: SvcVersion, segments: readonly PathSegment[], value?: unknown): KeyInfo[] {
  const keys = new Map<string, KeyInfo>();
  const forbidden = new Set<string>();
  const collect = (schema: Schema): void => {
    if (isSchema(schema.properties)) {
      for (const [name, property] of Object.entries(schema.properties)) {
        if (!isSchema(property)) continue;
        if (isForbidden(property)) {
          forbidden.add(name);
          continue;
        }
        if (!keys.has(name)) {
          const deprecatedBy =
            typeof property['x-svc-deprecated'] === 'string' ? property['x-svc-deprecated'] : undefined;
          keys.set(name, { name, schema: property, deprecatedBy });
        }
      }
    }
    for (const keyword of ['anyOf', 'oneOf']) {
      const list = schema[keyword];
      if (Array.isArray(list))
        for (const member of list) if (isSchema(member) && member.type !== 'array') collect(member);
    }
    if (Array.isArray(schema.allOf)) {
      for (const member of schema.allOf) {
        if (!isSchema(member)) continue;
        if (isSchema(member.if)) {
          if (isSchema(member.then) && matchesCondition(member.if, value)) collectForbiddenOnly(member.then);
        } else collect(member);
      }
    }
  };
  const collectForbiddenOnly = (schema: Schema): void => {
    if (isSchema(schema.properties)) {
      for (const [name, property] of Object.entries(schema.properties))
        if (isSchema(property) && isForbidden(property)) forbidden.add(name);
    }
  };
  for (const schema of schemasAt(version, segments)) collect(schema);
  for (const name of forbidden) keys.delete(name);
  return [...keys.values()];
}

/** The Markdown description of a schema (falls back to the plain one). */
export function describe(schema: Schema | undefined): string | undefined {
  if (!schema) return undefined;
  if (typeof schema.markdownDescription === 'string') return schema.markdownDescription;
  if (typeof schema.description === 'string') return schema.description;
  return undefined;
}

/** Scalar values a schema enumerates (`enum`, `const`, booleans), through `anyOf`/`allOf`. */
export function enumValues(schemas: readonly Schema[]): (string | number | boolean)[] {
  const values: (string | number | boolean)[] = [];
  const add = (value: unknown): void => {
    if (
      (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') &&
      !values.includes(value)
    )
      values.push(value);
  };
  const visit = (schema: Schema, depth: number): void => {
    if (depth > 8) return;
    if (Array.isArray(schema.enum)) schema.enum.forEach(add);
    if ('const' in schema && !isSchema(schema.not)) add(schema.const);
    if (schema.type === 'boolean') [true, false].forEach(add);
    for (const keyword of ['anyOf', 'oneOf']) {
      const list = schema[keyword];
      if (Array.isArray(list))
        for (const member of list) if (isSchema(member) && member.type !== 'array') visit(member, depth + 1);
    }
    if (Array.isArray(schema.allOf)) {
      for (const member of schema.allOf)
        if (isSchema(member) && !isSchema(member.not) && !isSchema(member.if)) visit(member, depth + 1);
    }
  };
  for (const schema of schemas) visit(schema, 0);
  return values;
}

/**
 * What kind of value a schema wants, for choosing how to insert a key. An allowlist
 * (`array | 'all' | 'none'`) counts as a scalar: `key: ` suits either form.
 */
export function valueShape(schema: Schema): 'object' | 'array' | 'scalar' {
  for (const branch of branches(schema)) {
    if (branch.type === 'object' || isSchema(branch.properties)) return 'object';
  }
  return schema.type === 'array' ? 'array' : 'scalar';
}

/**
 * The subschemas of the value at a path, for offering and describing values: like
 * {@link schemasAt}, except `svc_version` itself, which picks the version, allows both.
 */
export function valueSchemasAt(version: SvcVersion, segments: readonly PathSegment[]): Schema[] {
  if (segments.length === 1 && segments[0] === 'svc_version')
    return [...schemasAt(1, segments), ...schemasAt(2, segments)];
  return schemasAt(version, segments);
}

/**
 * Pairs of keys that spell one field two ways (`session_mode` / `sessionMode`): the schema
 * says so with `allOf: [{ not: { required: [a, b] } }]`. Writing one rules out the other.
 */
export function aliasPairsAt(version: SvcVersion, segments: readonly PathSegment[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (const schema of schemasAt(version, segments)) {
    if (!Array.isArray(schema.allOf)) continue;
    for (const member of schema.allOf) {
      const required = isSchema(member) && isSchema(member.not) ? member.not.required : undefined;
      if (
        Array.isArray(required) &&
        required.length === 2 &&
        typeof required[0] === 'string' &&
        typeof required[1] === 'string'
      ) {
        pairs.push([required[0], required[1]]);
      }
    }
  }
  return pairs;
}
