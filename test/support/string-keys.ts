/**
 * Every key the published schema types as a string, found by walking the schema (not listed by
 * hand), with a valid manifest that has it. Used to check that a TOML date or time at any such
 * key is one located type error (our validator) and one schema error (python-jsonschema).
 */
import { buildSchemas, dereference } from '@svc-manifest/schema';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, unknown>;

/** Valid manifests with one of every object kind; a string-typed key is set to a date inside them. */
const BASES: Record<1 | 2, Record<string, Json>> = {
  1: {
    svc_version: 1,
    project: { name: 'billing' },
    env: { required: ['API_KEY'] },
    agent_runtime: { config_dir: '.agents' },
    sandbox: { default: 'py', templates: [{ slug: 'py', image: 'python:3.12' }] },
    agents: [{ name: 'main', env: { API_KEY: 'x' } }],
    channels: [{ platform: 'chat_a', events: ['message'] }],
    triggers: [{ slug: 'nightly', type: 'cron', cron: '0 2 * * *', prompt: 'Report.', filter: { branch: 'main' } }],
    connectors: [
      {
        slug: 'api',
        provider: 'http',
        base_url: 'https://api.example.com',
        headers: { 'X-Team': 'billing' },
        policies: [{ match: 'api.*', action: 'block' }],
      },
    ],
  },
  2: {
    svc_version: 2,
    default_agent: 'main',
    project: { name: 'billing' },
    env: { required: ['API_KEY'] },
    agent_runtime: { config_dir: '.agents' },
    sandbox: { default: 'py', templates: [{ slug: 'py', image: 'python:3.12' }] },
    agents: { main: { sandbox: 'py', connectors_required: ['api'] } },
    apps: { web: { port: 3000 } },
    triggers: [{ slug: 'nightly', type: 'cron', cron: '0 2 * * *', prompt: 'Report.', filter: { branch: 'main' } }],
    connectors: [
      {
        slug: 'api',
        provider: 'http',
        base_url: 'https://api.example.com',
        headers: { 'X-Team': 'billing' },
        policies: [{ match: 'api.*', action: 'block' }],
      },
    ],
  },
};

/** Keys that may not appear with a key of the base: set the one, drop the other. */
const EXCLUSIVE: Record<string, string> = {
  dockerfile: 'image',
  baseUrl: 'base_url',
  connectors_personal: 'connectors_required',
};

/**
 * The schema whose shape the walk follows: the validation shape (the source's, without editor
 * hints). The published files are in the shape other editors read, which moves an object's rules
 * beside each reference to it; test/editor-shape.test.ts holds the two shapes to the same verdicts,
 * and the cases made here are checked against the published files.
 */
function schemaToWalk(version: 1 | 2): Schema {
  return dereference(buildSchemas(undefined, { shape: 'validation' })[`v${version}`]);
}

function isStringTyped(schema: Schema): boolean {
  if (schema.type === 'string') return true;
  return Array.isArray(schema.allOf) && (schema.allOf as Schema[]).some((part) => part.type === 'string');
}

/**
 * Paths (keys and `0` for list items) to every value under `schema` that `select` picks, following
 * the base's shape (only objects and lists the base has are entered).
 */
function typedPaths(
  schema: Schema,
  base: Json | undefined,
  path: string[],
  out: string[][],
  select: (schema: Schema) => boolean,
): void {
  if (path.length > 0 && select(schema)) out.push(path);
  if (schema.type === 'array' && schema.items && Array.isArray(base) && base.length > 0) {
    typedPaths(schema.items as Schema, base[0], [...path, '0'], out, select);
    return;
  }
  if (schema.type !== 'object' || !base || typeof base !== 'object' || Array.isArray(base)) return;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const [key, child] of Object.entries(properties)) typedPaths(child, base[key], [...path, key], out, select);
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object') {
    for (const key of Object.keys(base).filter((k) => !(k in properties)))
      typedPaths(extra as Schema, base[key], [...path, key], out, select);
  }
}

function stringPaths(schema: Schema, base: Json | undefined, path: string[], out: string[][]): void {
  typedPaths(schema, base, path, out, isStringTyped);
}

export interface StringKeyCase {
  version: 1 | 2;
  /** Where the date is, e.g. `/triggers/0/name`. */
  pointer: string;
  /** The manifest as TOML, with a TOML offset date-time at `pointer`. */
  toml: string;
}

const DATE = '1979-05-27T07:32:00Z';
const MARK = '\u0000date\u0000';

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

/** TOML for a JSON value on one line (inline tables and arrays); MARK becomes the date. */
function tomlValue(value: Json): string {
  if (value === MARK) return DATE;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`;
  if (value === null) throw new Error('TOML has no null');
  return `{ ${Object.entries(value)
    .map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`)
    .join(', ')} }`;
}

function withMark(base: Record<string, Json>, path: string[]): Record<string, Json> {
  const copy = JSON.parse(JSON.stringify(base)) as Record<string, Json>;
  let node: Json = copy;
  for (const segment of path.slice(0, -1)) node = (node as Record<string, Json>)[segment]!;
  const parent = node as Record<string, Json>;
  const last = path[path.length - 1]!;
  parent[last] = MARK;
  const other = EXCLUSIVE[last];
  if (other) delete parent[other];
  return copy;
}

/** One TOML manifest per string-typed key of each version. */
export function stringKeyCases(): StringKeyCase[] {
  const cases: StringKeyCase[] = [];
  for (const version of [1, 2] as const) {
    const schema = schemaToWalk(version);
    const paths: string[][] = [];
    // Every property of every object is visited with the base's value, or a present sibling's.
    stringPaths(schema, widen(BASES[version], schema), [], paths);
    for (const path of paths) {
      const manifest = withMark(BASES[version], path);
      const toml =
        Object.entries(manifest)
          .map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`)
          .join('\n') + '\n';
      cases.push({ version, pointer: '/' + path.join('/'), toml });
    }
  }
  return cases;
}

/** The base with an empty-string placeholder for every optional string key its objects lack, so the walk reaches them. */
function widen(base: Json, schema: Schema): Json {
  if (Array.isArray(base)) return base.map((item) => widen(item, (schema.items ?? {}) as Schema));
  if (!base || typeof base !== 'object') return base;
  const out: Record<string, Json> = { ...base };
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const [key, child] of Object.entries(properties)) {
    if (key in out) out[key] = widen(out[key]!, child);
    else if (isStringTyped(child)) out[key] = '';
  }
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object')
    for (const key of Object.keys(out).filter((k) => !(k in properties))) out[key] = widen(out[key]!, extra as Schema);
  return out;
}

export interface ShapeCase {
  version: 1 | 2;
  /** Where the wrong value is, e.g. `/triggers/0`. */
  pointer: string;
  /** The manifest as JSON (which is also YAML), with the string "text" where an object or a list belongs. */
  json: string;
}

/** One manifest per position where the schema wants an object or a list, holding a string there instead. */
export function wrongShapeCases(): ShapeCase[] {
  const cases: ShapeCase[] = [];
  for (const version of [1, 2] as const) {
    const schema = schemaToWalk(version);
    const paths: string[][] = [];
    typedPaths(schema, BASES[version], [], paths, (s) => s.type === 'object' || s.type === 'array');
    for (const path of paths) {
      const manifest = withMark(BASES[version], path);
      cases.push({
        version,
        pointer: '/' + path.join('/'),
        json: JSON.stringify(manifest).replace(JSON.stringify(MARK), '"text"'),
      });
    }
  }
  return cases;
}
