/** Reading our schema annotations: which keys an object schema declares, which it forbids. */

type SchemaObject = Record<string, unknown>;

const knownKeysCache = new WeakMap<SchemaObject, string[]>();

/** Keys an object schema lists that are not forbidden (`x-svc-forbidden`). Cached per schema object. */
export function knownKeys(schema: SchemaObject): string[] {
  let keys = knownKeysCache.get(schema);
  if (!keys) {
    const properties = (schema.properties ?? {}) as Record<string, SchemaObject | boolean>;
    keys = Object.entries(properties)
      .filter(([, sub]) => sub !== false && !(typeof sub === 'object' && 'x-svc-forbidden' in sub))
      .map(([key]) => key);
    knownKeysCache.set(schema, keys);
  }
  return keys;
}

const openBelowCache = new WeakMap<SchemaObject, boolean>();

/** Whether the schema, or any object schema below it, allows keys it does not list. Cached. */
export function allowsExtraKeysBelow(schema: SchemaObject): boolean {
  const cached = openBelowCache.get(schema);
  if (cached !== undefined) return cached;
  openBelowCache.set(schema, false); // guards against cycles; the schemas have none
  const isObject = schema.type === 'object' || 'properties' in schema;
  let open =
    isObject &&
    (schema.additionalProperties === undefined || schema.additionalProperties === true) &&
    'properties' in schema;
  const children: unknown[] = [
    ...Object.values((schema.properties ?? {}) as Record<string, unknown>),
    schema.items,
    schema.additionalProperties,
  ];
  for (const child of children) {
    if (open) break;
    if (child && typeof child === 'object' && !Array.isArray(child)) open = allowsExtraKeysBelow(child as SchemaObject);
  }
  openBelowCache.set(schema, open);
  return open;
}

/** A value that satisfies a required key well enough for a quick fix to insert it. */
export function placeholderFor(key: string, propertySchema: SchemaObject | undefined): string | number | boolean {
  const known: Record<string, string> = {
    slug: 'new-item',
    prompt: 'Describe the task',
    prompt_template: 'Describe the task',
    cron: '0 * * * *',
    schedule: '0 * * * *',
    secret_env: 'WEBHOOK_SECRET',
    secretEnv: 'WEBHOOK_SECRET',
    run: './check.sh',
    interval: '5m',
    expect_event_within: '1h',
    app: 'app-name',
    url: 'https://example.com/mcp',
    endpoint: 'https://example.com/graphql',
    base_url: 'https://example.com',
    image: 'node:20',
    dockerfile: 'Dockerfile',
    default_agent: 'main',
    match: '*',
    name: 'name',
    platform: 'chat_a',
  };
  if (known[key]) return known[key];
  const values = propertySchema?.enum as unknown[] | undefined;
  if (values?.length) return values[0] as string;
  if (propertySchema && 'const' in propertySchema) return propertySchema.const as string;
  if (propertySchema?.type === 'integer' || propertySchema?.type === 'number')
    return (propertySchema.minimum as number) ?? 1;
  if (propertySchema?.type === 'boolean') return true;
  return 'value';
}
