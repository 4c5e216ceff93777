/** Reading our schema annotations: which keys an object schema declares, which it forbids. */

type SchemaObject = Record<string, unknown>;

/** Keys an object schema lists that are not forbidden (`x-svc-forbidden`). */
export function knownKeys(schema: SchemaObject): string[] {
  const properties = (schema.properties ?? {}) as Record<string, SchemaObject | boolean>;
  return Object.entries(properties)
    .filter(([, sub]) => sub !== false && !(typeof sub === 'object' && 'x-svc-forbidden' in sub))
    .map(([key]) => key);
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
  if (known[key]) return known[key]!;
  const values = propertySchema?.enum as unknown[] | undefined;
  if (values?.length) return values[0] as string;
  if (propertySchema && 'const' in propertySchema) return propertySchema.const as string;
  if (propertySchema?.type === 'integer' || propertySchema?.type === 'number') return (propertySchema.minimum as number) ?? 1;
  if (propertySchema?.type === 'boolean') return true;
  return 'value';
}
