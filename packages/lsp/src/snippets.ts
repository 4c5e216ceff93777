/**
 * Snippets for a whole trigger of each type and a whole connector of each provider. Each one,
 * with its placeholders left at their defaults, satisfies the spec's trigger rules 1–5 and
 * connector rules 1–3 (a test validates every one of them).
 */
import type { ManifestFormat } from '@svc-manifest/validator/library';

interface SnippetField {
  key: string;
  /** The default text; a tab stop unless `fixed`. */
  value: string;
  fixed?: boolean;
  /** Offer these instead of a free placeholder (the first is the default). */
  choices?: string[];
}

export interface SnippetSpec {
  collection: 'triggers' | 'connectors';
  label: string;
  detail: string;
  fields: SnippetField[];
}

interface SnippetInput {
  /** Declared agents, offered as a choice for a trigger's `agent`. */
  agents: string[];
  /** Slugs already used in the collection; defaults avoid them. */
  usedSlugs: Set<string>;
}

/**
 * The most agents a trigger snippet offers as a choice. An editor shows the choices as one
 * drop-down: a longer list helps no one, and every snippet carries all of it (with 2,000 agents,
 * 35 KB per snippet, rendered on every completion). Past it, the placeholder holds the first
 * agent, and completion on the `agent` value offers every one with filtering.
 */
export const MAX_AGENT_CHOICES = 25;

function triggerSpecs(input: SnippetInput): SnippetSpec[] {
  const agents = input.agents;
  const agent = (): SnippetField[] =>
    agents.length === 0
      ? []
      : [{ key: 'agent', value: agents[0]!, ...(agents.length <= MAX_AGENT_CHOICES ? { choices: agents } : {}) }];
  const make = (label: string, detail: string, slug: string, rest: SnippetField[]): SnippetSpec => ({
    collection: 'triggers',
    label,
    detail,
    fields: [{ key: 'slug', value: freeSlug(slug, input.usedSlugs) }, rest[0]!, ...agent(), ...rest.slice(1)],
  });
  return [
    make('trigger: cron', 'A trigger that runs on a schedule', 'nightly-report', [
      { key: 'type', value: 'cron', fixed: true },
      { key: 'prompt', value: 'Summarize what changed since yesterday.' },
      { key: 'cron', value: '0 9 * * *' },
      { key: 'timezone', value: 'UTC' },
    ]),
    make('trigger: webhook', 'A trigger that runs on a signed inbound request', 'on-push', [
      { key: 'type', value: 'webhook', fixed: true },
      { key: 'prompt', value: 'Review the pushed changes.' },
      { key: 'secret_env', value: 'WEBHOOK_SECRET' },
    ]),
    make('trigger: monitor (poll)', 'A trigger that runs a command every interval', 'watch-queue', [
      { key: 'type', value: 'monitor', fixed: true },
      { key: 'prompt', value: 'Investigate the alert.' },
      { key: 'run', value: './scripts/check-queue.sh' },
      { key: 'mode', value: 'poll', fixed: true },
      { key: 'interval', value: '5m' },
    ]),
    make('trigger: monitor (stream)', 'A trigger that watches a command continuously', 'tail-errors', [
      { key: 'type', value: 'monitor', fixed: true },
      { key: 'prompt', value: 'Investigate the error.' },
      { key: 'run', value: 'tail -f logs/errors.log' },
      { key: 'mode', value: 'stream', fixed: true },
    ]),
  ];
}

function connectorSpecs(input: SnippetInput): SnippetSpec[] {
  const make = (provider: string, slug: string, extra: SnippetField[]): SnippetSpec => ({
    collection: 'connectors',
    label: `connector: ${provider}`,
    detail: `A connector with provider ${provider}`,
    fields: [
      { key: 'slug', value: provider === 'channel' ? slug : freeSlug(slug, input.usedSlugs) },
      { key: 'provider', value: provider, fixed: true },
      ...extra,
    ],
  });
  return [
    make('managed_a', 'managed-app', [{ key: 'app', value: 'example-app' }]),
    make('managed_b', 'managed-b', [{ key: 'name', value: 'Managed B' }]),
    make('mcp', 'docs-mcp', [
      { key: 'url', value: 'https://mcp.example.com/mcp' },
      { key: 'transport', value: 'http', choices: ['http', 'sse'] },
    ]),
    make('openapi', 'petstore', [{ key: 'spec', value: 'https://api.example.com/openapi.json' }]),
    make('collection', 'api-collection', [{ key: 'spec', value: 'collections/api.json' }]),
    make('graphql', 'graph', [{ key: 'endpoint', value: 'https://api.example.com/graphql' }]),
    make('http', 'rest-api', [{ key: 'base_url', value: 'https://api.example.com' }]),
    make('channel', input.usedSlugs.has('svc_slack') ? freeSlug('team-chat', input.usedSlugs) : 'svc_slack', [
      { key: 'platform', value: 'chat_a', choices: ['chat_a', 'chat_b', 'email'] },
    ]),
  ];
}

function freeSlug(base: string, used: Set<string>): string {
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

export function snippetSpecs(collection: 'triggers' | 'connectors', input: SnippetInput): SnippetSpec[] {
  return collection === 'triggers' ? triggerSpecs(input) : connectorSpecs(input);
}

function escapeSnippet(text: string): string {
  return text.replace(/[\\$}]/g, '\\$&');
}

function escapeChoice(text: string): string {
  return text.replace(/[\\$}|,]/g, '\\$&');
}

/** Whether a YAML plain scalar would be read back as this string. */
export function isPlainYamlString(text: string): boolean {
  if (text === '' || /^[\s\-?:,[\]{}#&*!|>'"%@`~]/.test(text) || /\s$/.test(text)) return false;
  if (/: |\s#|[\t\r\n]/.test(text) || text.endsWith(':')) return false;
  if (/^(?:true|false|yes|no|on|off|null|~|y|n)$/i.test(text)) return false;
  if (
    /^[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/.test(text) ||
    /^0[xob]/i.test(text) ||
    /^[-+]?\.(?:inf|nan)$/i.test(text)
  )
    return false;
  return true;
}

/**
 * The snippet text. YAML: `- ` starts the item unless the line already has it (`freshItem`),
 * and continuation lines are indented to `column`. TOML: an `[[array]]` table.
 */
export function renderSnippet(
  spec: SnippetSpec,
  format: ManifestFormat,
  options: { column: number; freshItem: boolean },
): string {
  let stop = 1;
  const render = (field: SnippetField): string => {
    const quote =
      format === 'toml' || !isPlainYamlString(field.value) || (field.choices ?? []).some((c) => !isPlainYamlString(c));
    let body: string;
    if (field.fixed) body = escapeSnippet(field.value);
    else if (field.choices && field.choices.length > 1)
      body = `\${${stop++}|${field.choices.map(escapeChoice).join(',')}|}`;
    else body = `\${${stop++}:${escapeSnippet(field.value)}}`;
    return quote ? `"${body}"` : body;
  };
  if (format === 'toml') {
    return (
      [`[[${spec.collection}]]`, ...spec.fields.map((field) => `${field.key} = ${render(field)}`)].join('\n') + '\n'
    );
  }
  const itemColumn = options.freshItem ? options.column : options.column + 2;
  const lines = spec.fields.map((field, index) => {
    const line = `${field.key}: ${render(field)}`;
    return index === 0 ? line : ' '.repeat(itemColumn) + line;
  });
  return (options.freshItem ? '' : '- ') + lines.join('\n');
}

/** The text a snippet produces when every placeholder keeps its default (for tests and previews). */
export function expandSnippetDefaults(snippet: string): string {
  return snippet
    .replace(/\$\{\d+\|((?:\\.|[^,|\\])*)(?:,(?:\\.|[^|\\])*)*\|\}/g, (_m, first: string) =>
      first.replace(/\\(.)/g, '$1'),
    )
    .replace(/\$\{\d+:((?:\\.|[^}\\])*)\}/g, (_m, text: string) => text.replace(/\\(.)/g, '$1'))
    .replace(/\\([\\$}])/g, '$1');
}
