/**
 * Renders docs/manifest.md, the manifest reference, from the published schemas (which come
 * from src/source.ts): every key of both `svc_version`s with its type, its rules and an example.
 *
 * Everything here is read from the schema: descriptions (the ones hover shows), types, enums,
 * bounds, requiredness, forbidden and deprecated keys, spelling pairs, and the conditional rules
 * (`if`/`then` with an `x-svc-rule` id). Only the example values are chosen here (SAMPLES); each
 * is checked against the key's schema, so an example cannot show a value the validator refuses.
 * A schema construct this renderer does not know is an error, not a silent gap.
 */
import { Ajv } from 'ajv';
import { stringify } from 'yaml';
import { buildSchemas } from '../src/build.js';
import { SVC_VERSIONS, type SvcVersion } from '../src/patterns.js';

type Schema = Record<string, unknown>;
type Segment = { key: string } | { item: true } | { entry: string; label: string };

interface Resolved {
  schema: Schema;
  /** Definition names passed through, outermost first. */
  refs: string[];
  /** The unresolved schema (with `$ref`s), for validating examples. */
  raw: Schema;
}

interface KeyEntry {
  version: SvcVersion;
  key: string;
  segments: Segment[];
  parentPath: string;
  parent: Schema;
  property: Resolved;
}

interface ObjectEntry {
  version: SvcVersion;
  path: string;
  schema: Schema;
  refs: string[];
}

/** Names of maps' entries in paths and examples. */
const MAP_ENTRY_NAMES: Record<string, { sample: string; label: string }> = {
  agents: { sample: 'triage', label: '<name>' },
  apps: { sample: 'web', label: '<name>' },
};

/** What a named definition is called in a key's type. */
const FORMAT_NAMES: Record<string, string> = {
  slug: 'slug',
  envName: 'environment variable name',
  secretEnvName: 'uppercase environment variable name',
  relativePath: 'relative path',
  duration: 'duration',
  nonEmptyString: 'non-empty string',
  enabledFlag: 'flag',
  sessionMode: 'session mode',
  allowlist: 'allowlist',
  svcCliV1: 'permission list',
  svcCliV2: 'permission list',
};

/**
 * Example values, by path (both versions unless the path differs). Keys without one get a value
 * derived from their schema (an enum's first value, a bound, a definition's sample).
 */
const SAMPLES: Record<string, unknown> = {
  default_agent: 'triage',
  runtime: 'runtime_a',
  'project.name': 'support-bot',
  'project.description': 'Answers support tickets and triages bug reports.',
  project: { name: 'support-bot', description: 'Answers support tickets and triages bug reports.' },
  env: { required: ['GITHUB_TOKEN'], optional: ['SENTRY_DSN'] },
  'env.required': ['GITHUB_TOKEN', 'LINEAR_API_KEY'],
  'env.optional': ['SENTRY_DSN'],
  agent_runtime: { config_dir: '.agent' },
  'agent_runtime.config_dir': '.agent',
  sandbox: { default: 'python', templates: [{ slug: 'python', image: 'python:3.12-slim' }] },
  'sandbox.default': 'python',
  'sandbox.templates': [{ slug: 'python', image: 'python:3.12-slim', cpu: 2, memory: 4 }],
  'sandbox.templates[].slug': 'python',
  'sandbox.templates[].name': 'Python 3.12',
  'sandbox.templates[].entrypoint': '/bin/bash',
  'sandbox.templates[].cpu': 2,
  'sandbox.templates[].memory': 4,
  'sandbox.templates[].disk': 20,
  'sandbox.templates[].image': 'python:3.12-slim',
  'sandbox.templates[].dockerfile': 'sandbox/Dockerfile',
  triggers: [
    {
      slug: 'nightly-digest',
      type: 'cron',
      cron: '0 6 * * *',
      timezone: 'Europe/Berlin',
      prompt: "Summarise yesterday's new issues.",
    },
  ],
  'triggers[].slug': 'nightly-digest',
  'triggers[].name': 'Nightly digest',
  'triggers[].agent': 'triage',
  'triggers[].agent_name': 'triage',
  'triggers[].session_mode': 'keyed',
  'triggers[].sessionMode': 'keyed',
  'triggers[].session_key': 'daily-digest',
  'triggers[].sessionKey': 'daily-digest',
  'triggers[].session_id': 'sess_0123',
  'triggers[].sessionId': 'sess_0123',
  'triggers[].filter': { action: 'opened', repository: 'acme/api' },
  'triggers[].prompt': "Summarise yesterday's new issues.",
  'triggers[].prompt_template': 'Triage issue {{issue.number}}: {{issue.title}}',
  'triggers[].cron': '0 6 * * 1-5',
  'triggers[].schedule': 'every weekday at 06:00',
  'triggers[].run_at': '2026-01-15T09:00:00Z',
  'triggers[].runAt': '2026-01-15T09:00:00Z',
  'triggers[].timezone': 'Europe/Berlin',
  'triggers[].secret_env': 'GITHUB_WEBHOOK_SECRET',
  'triggers[].secretEnv': 'GITHUB_WEBHOOK_SECRET',
  'triggers[].run': './scripts/check-error-rate.sh',
  'triggers[].interval': '5m',
  'triggers[].expect_event_within': '1h',
  connectors: [{ slug: 'github', provider: 'mcp', url: 'https://mcp.example.com/github', transport: 'http' }],
  'connectors[].slug': 'github',
  'connectors[].name': 'GitHub',
  'connectors[].app': 'github',
  'connectors[].url': 'https://mcp.example.com/github',
  'connectors[].endpoint': 'https://api.example.com/graphql',
  'connectors[].base_url': 'https://api.example.com/v1',
  'connectors[].baseUrl': 'https://api.example.com/v1',
  'connectors[].spec': 'openapi/billing.yaml',
  'connectors[].platform': 'chat_a',
  'connectors[].credential': 'shared',
  'connectors[].agent_scope': ['triage'],
  'connectors[].auth': { type: 'bearer', token_env: 'BILLING_API_TOKEN' },
  'connectors[].auth.type': 'bearer',
  'connectors[].headers': { 'X-Team': 'support' },
  'connectors[].policies': [{ match: 'github.delete_*', action: 'block' }],
  'connectors[].policies[].match': 'github.create_issue',
  'connectors[].policies[].action': 'require_approval',
  channels: [{ platform: 'chat_a', enabled: true, events: ['message'] }],
  'channels[].platform': 'chat_a',
  'channels[].events': ['message', 'mention'],
  'agents[]': undefined,
  'agents[].name': 'triage',
  'agents[].connectors': ['github'],
  'agents[].env': ['GITHUB_TOKEN'],
  'agents[].svc_cli': ['project.read', 'project.trigger.read'],
  'agents.<name>.sandbox': 'python',
  'agents.<name>.connectors': ['github', 'linear'],
  'agents.<name>.secrets': ['GITHUB_TOKEN'],
  'agents.<name>.skills': 'all',
  'agents.<name>.svc_cli': ['project.read', 'project.session.start'],
  'agents.<name>.connectors_required': ['github'],
  'agents.<name>.connectors_personal': ['github'],
  'apps.<name>.path': 'apps/web',
  'apps.<name>.root': 'apps/web',
  'apps.<name>.output_dir': 'dist',
  'apps.<name>.image': 'ghcr.io/acme/web:1.4.2',
  'apps.<name>.install_command': 'npm ci',
  'apps.<name>.build_command': 'npm run build',
  'apps.<name>.dockerfile': 'apps/web/Dockerfile',
  'apps.<name>.command': ['node', 'server.js'],
  'apps.<name>.port': 3000,
  'apps.<name>.readiness_path': '/healthz',
  'apps.<name>.idle_timeout_seconds': 900,
  'apps.<name>.monthly_budget_usd': 25,
  'apps.<name>.resources': { cpu: 1, memory_gb: 2 },
  'apps.<name>.resources.memory_gb': 2,
};

/** Samples by version where the versions differ. */
const VERSION_SAMPLES: Record<SvcVersion, Record<string, unknown>> = {
  1: {
    agents: [{ name: 'triage', connectors: ['github'] }],
    'connectors[].credential': { env: 'GITHUB_TOKEN' },
  },
  2: {
    agents: { triage: { sandbox: 'python', connectors: ['github'] } },
    apps: { web: { type: 'static', path: 'apps/web', build_command: 'npm run build', output_dir: 'dist' } },
  },
};

/** Samples for keys whose schema is a named definition. */
const DEFINITION_SAMPLES: Record<string, unknown> = {
  slug: 'triage',
  envName: 'API_TOKEN',
  secretEnvName: 'WEBHOOK_SECRET',
  relativePath: 'config/agent',
  duration: '5m',
  nonEmptyString: 'example',
  enabledFlag: true,
  allowlist: 'all',
};

const code = (value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const fence = text.includes('`') ? '``' : '`';
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
};
const list = (values: readonly unknown[], last = 'or'): string =>
  values.length <= 1
    ? values.map(code).join('')
    : `${values.slice(0, -1).map(code).join(', ')} ${last} ${code(values.at(-1))}`;

function displayPath(segments: readonly Segment[]): string {
  let path = '';
  for (const segment of segments) {
    if ('key' in segment) path += path ? `.${segment.key}` : segment.key;
    else if ('item' in segment) path += '[]';
    else path += `.${segment.label}`;
  }
  return path;
}

function sectionAnchor(path: string): string {
  return 'in-' + anchor(path || 'top-level').slice('key-'.length);
}

function anchor(path: string): string {
  return (
    'key-' +
    path
      .replace(/\[\]/g, '-item')
      .replace(/<name>/g, 'name')
      .replace(/[^A-Za-z0-9_]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase()
  );
}

class Reference {
  // What the rules mean, as the validators read it: each object's `properties` beside its rules, no editor hints.
  readonly schemas = buildSchemas(undefined, { shape: 'validation' });
  readonly keys: KeyEntry[] = [];
  readonly objects: ObjectEntry[] = [];
  private readonly ajv = new Ajv({
    strict: false,
    allErrors: true,
    keywords: [
      'markdownDescription',
      'x-svc-rule',
      'x-svc-message',
      'x-svc-forbidden',
      'x-svc-deprecated',
      'x-svc-code',
    ],
  });

  constructor() {
    // Version 2 first: its sections lead, version 1's own follow.
    for (const version of [...SVC_VERSIONS].reverse()) this.walkObject(version, this.root(version), [], []);
  }

  root(version: SvcVersion): Schema {
    return version === 1 ? this.schemas.v1 : this.schemas.v2;
  }

  definitions(version: SvcVersion): Record<string, Schema> {
    return this.root(version).definitions as Record<string, Schema>;
  }

  resolve(version: SvcVersion, node: Schema): Resolved {
    const refs: string[] = [];
    let current = node;
    let siblings: Schema = {};
    while (typeof current.$ref === 'string') {
      const name = current.$ref.replace('#/definitions/', '');
      const target = this.definitions(version)[name];
      if (!target) throw new Error(`unknown $ref ${current.$ref}`);
      const { $ref: _ref, ...own } = current;
      siblings = { ...own, ...siblings };
      refs.push(name);
      current = target;
    }
    return { schema: { ...current, ...siblings }, refs, raw: node };
  }

  private walkObject(version: SvcVersion, schema: Schema, segments: Segment[], refs: string[]): void {
    const path = displayPath(segments);
    this.objects.push({ version, path, schema, refs });
    for (const [key, raw] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
      const property = this.resolve(version, raw);
      const keySegments = [...segments, { key }];
      this.keys.push({ version, key, segments: keySegments, parentPath: path, parent: schema, property });
      this.walkValue(version, property, keySegments);
    }
  }

  private walkValue(version: SvcVersion, value: Resolved, segments: Segment[]): void {
    const schema = value.schema;
    if (schema.properties) return this.walkObject(version, schema, segments, value.refs);
    if (schema.type === 'array' && schema.items) {
      const item = this.resolve(version, schema.items as Schema);
      if (item.schema.properties) this.walkObject(version, item.schema, [...segments, { item: true }], item.refs);
      return;
    }
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
      const entry = this.resolve(version, schema.additionalProperties as Schema);
      if (entry.schema.properties) {
        const last = segments.at(-1);
        const names = last && 'key' in last ? MAP_ENTRY_NAMES[last.key] : undefined;
        if (!names)
          throw new Error(`map ${displayPath(segments)} has object entries but no entry name in MAP_ENTRY_NAMES`);
        this.walkObject(version, entry.schema, [...segments, { entry: names.sample, label: names.label }], entry.refs);
      }
    }
  }

  /** A key's type in words. */
  typeOf(version: SvcVersion, value: Resolved, path?: string): string {
    const schema = value.schema;
    const format = value.refs.map((name) => FORMAT_NAMES[name]).find(Boolean);
    if ('x-svc-forbidden' in schema) return 'not allowed';
    if ('const' in schema) return code(schema.const);
    if (Array.isArray(schema.enum))
      return schema.enum.length > LONG_ENUM
        ? `one of ${schema.enum.length} names (listed below)`
        : `one of ${list(schema.enum)}`;
    if (Array.isArray(schema.anyOf)) {
      const parts = (schema.anyOf as Schema[]).map((part) => this.typeOf(version, this.resolve(version, part)));
      return format ? `${format}: ${parts.join(', or ')}` : parts.join(', or ');
    }
    if (Array.isArray(schema.allOf) && !schema.type) {
      const shape = (schema.allOf as Schema[]).find((part) => '$ref' in part || 'type' in part);
      if (!shape) throw new Error(`cannot name the type of ${JSON.stringify(schema)}`);
      return this.typeOf(version, this.resolve(version, shape));
    }
    const link = (objectPath: string) =>
      path === undefined ? `\`${objectPath}\`` : `[\`${objectPath}\`](#${sectionAnchor(objectPath)})`;
    if (schema.type === 'array') {
      const item = this.resolve(version, schema.items as Schema);
      if (item.schema.properties) return `array of objects (${link(`${path ?? ''}[]`)})`;
      return `array of ${plural(this.typeOf(version, item))}`;
    }
    if (schema.type === 'object') {
      if (schema.properties) return `object (${link(path ?? '')})`;
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        const entry = this.resolve(version, schema.additionalProperties as Schema);
        return `map of names to ${entry.schema.properties ? `objects (${link(`${path ?? ''}.<name>`)})` : `${this.typeOf(version, entry)}s`}`;
      }
      return 'map';
    }
    if (format === 'non-empty string') return format;
    if (typeof schema.type === 'string')
      return format && format !== 'flag' ? `${schema.type} (${format})` : schema.type;
    if (Object.keys(schema).every((key) => ['description', 'markdownDescription', 'default'].includes(key)))
      return 'any value';
    throw new Error(`cannot name the type of ${JSON.stringify(schema)}`);
  }

  /** The rules a key's own schema states, in words. */
  rules(version: SvcVersion, entry: KeyEntry): string[] {
    const schema = entry.property.schema;
    const rules: string[] = [];
    const required = (entry.parent.required as string[] | undefined) ?? [];
    if (required.includes(entry.key)) rules.push('Required.');
    if (typeof schema['x-svc-forbidden'] === 'string') rules.push(`Not allowed: ${schema['x-svc-forbidden']}.`);
    if (typeof schema['x-svc-deprecated'] === 'string')
      rules.push(
        `Deprecated: use ${code(schema['x-svc-deprecated'])} instead (a warning, [deprecated-key](rules/deprecated-key.md)).`,
      );
    // A named definition's own rule (a slug's pattern, a path's shape), when the key's description is not it.
    const description = this.description(entry.property);
    for (const name of entry.property.refs) {
      const definition = this.definitions(version)[name]!;
      const text = definition.markdownDescription as string | undefined;
      if (text && text !== description && FORMAT_NAMES[name]) rules.push(text);
    }
    rules.push(
      ...this.bounds(version, schema).filter(
        (rule) => !(rule === 'Not empty.' && entry.property.refs.includes('nonEmptyString')),
      ),
    );
    for (const part of (schema.allOf ?? []) as Schema[])
      if (typeof part['x-svc-message'] === 'string') rules.push(`${capitalize(part['x-svc-message'])}.`);
    if (schema.propertyNames) rules.push(...this.keyRules(version, schema.propertyNames as Schema));
    const names = longEnum(schema);
    if (names) rules.push(`The ${names.length} names: ${list(names)}.`);
    if ('default' in schema) rules.push(`Default: ${code(schema.default)}.`);
    for (const other of this.spellingPartners(entry))
      rules.push(`Not together with ${code(other)} (the same setting; [alias-conflict](rules/alias-conflict.md)).`);
    return rules;
  }

  private bounds(version: SvcVersion, schema: Schema): string[] {
    const out: string[] = [];
    const n = (key: string) => (typeof schema[key] === 'number' ? schema[key] : undefined);
    const [min, max] = [n('minimum'), n('maximum')];
    if (min !== undefined && max !== undefined) out.push(`From ${min} to ${max}.`);
    else if (min !== undefined) out.push(`At least ${min}.`);
    else if (max !== undefined) out.push(`At most ${max}.`);
    if (n('minLength') === 1 && !n('maxLength')) out.push('Not empty.');
    else if (n('minLength') !== undefined && n('maxLength') !== undefined)
      out.push(`${n('minLength')} to ${n('maxLength')} characters.`);
    else if (n('maxLength') !== undefined) out.push(`At most ${n('maxLength')} characters.`);
    if (n('minItems') !== undefined) out.push(`At least ${n('minItems')} item${n('minItems') === 1 ? '' : 's'}.`);
    if (n('minProperties') !== undefined)
      out.push(`At least ${n('minProperties')} entr${n('minProperties') === 1 ? 'y' : 'ies'}.`);
    if (n('maxProperties') !== undefined) out.push(`At most ${n('maxProperties')} entries.`);
    if (typeof schema.pattern === 'string' && !this.patternExplained(version, schema))
      out.push(`Matches ${code(schema.pattern)}.`);
    if (
      schema.additionalProperties &&
      typeof schema.additionalProperties === 'object' &&
      !('$ref' in (schema.additionalProperties as Schema))
    ) {
      const values = schema.additionalProperties as Schema;
      // The value's own message says it all when there is one; else its bounds.
      if (typeof values['x-svc-message'] === 'string') out.push(`Each value: ${values['x-svc-message']}.`);
      else {
        const inner = this.bounds(version, values);
        if (inner.length)
          out.push(`Each value: ${inner.map((rule) => rule.replace(/\.$/, '').toLowerCase()).join('; ')}.`);
      }
    }
    return out;
  }

  private patternExplained(version: SvcVersion, schema: Schema): boolean {
    return Object.entries(this.definitions(version)).some(
      ([name, definition]) =>
        FORMAT_NAMES[name] && definition.pattern === schema.pattern && !!definition.markdownDescription,
    );
  }

  private keyRules(version: SvcVersion, propertyNames: Schema): string[] {
    const parts = (propertyNames.allOf as Schema[] | undefined) ?? [propertyNames];
    const out: string[] = [];
    for (const part of parts) {
      const resolved = this.resolve(version, part);
      if (resolved.refs.includes('safeKey')) continue; // said once, for every map, in the introduction
      if (resolved.refs.includes('slug'))
        out.push(
          'Each name is a slug: lowercase letters, digits, `_` and `-`, starting with a letter or digit, at most 128 characters.',
        );
      else if (typeof resolved.schema['x-svc-message'] === 'string')
        out.push(`Names: ${resolved.schema['x-svc-message']}.`);
      else if (typeof resolved.schema.pattern === 'string')
        out.push(`Each name matches ${code(resolved.schema.pattern)}.`);
      else throw new Error(`cannot describe the key rule ${JSON.stringify(part)}`);
    }
    return out;
  }

  /** Keys that are the same setting spelled differently (`session_mode` / `sessionMode`). */
  private spellingPartners(entry: KeyEntry): string[] {
    const partners: string[] = [];
    for (const part of (entry.parent.allOf ?? []) as Schema[]) {
      if (part['x-svc-rule'] !== 'alias-conflict') continue;
      const pair = ((part.not as Schema).required as string[]) ?? [];
      if (pair.includes(entry.key)) partners.push(...pair.filter((key) => key !== entry.key));
    }
    return partners;
  }

  description(value: Resolved): string {
    const text = value.schema.markdownDescription ?? value.schema.description;
    return typeof text === 'string' ? text : '';
  }

  /** The object-level rules (`allOf` entries with an `x-svc-rule`), in words, each linked to its rule page. */
  objectRules(version: SvcVersion, schema: Schema, path: string): string[] {
    const out: string[] = [];
    for (const part of (schema.allOf ?? []) as Schema[]) {
      const rule = part['x-svc-rule'];
      if (typeof rule !== 'string') throw new Error(`${path}: an object-level condition without an x-svc-rule`);
      if (rule === 'alias-conflict') continue; // on each key
      out.push(`${capitalize(this.condition(part, path))} ([${rule}](rules/${rule}.md)).`);
    }
    return out;
  }

  private condition(part: Schema, path: string): string {
    if (part.if) {
      const when = this.when(part.if as Schema, path);
      return `when ${when}: ${this.demand(part.then as Schema, path)}`;
    }
    return this.demand(part, path);
  }

  private when(condition: Schema, path: string): string {
    const properties = (condition.properties ?? {}) as Record<string, Schema>;
    const clauses = Object.entries(properties).map(([key, value]) => {
      if ('const' in value) return `${code(key)} is ${code(value.const)}`;
      if (Array.isArray(value.enum)) return `${code(key)} is ${list(value.enum)}`;
      throw new Error(`${path}: cannot describe the condition on ${key}`);
    });
    for (const key of (condition.required as string[] | undefined) ?? [])
      if (!(key in properties)) clauses.push(`${code(key)} is given`);
    return clauses.join(' and ');
  }

  private demand(then: Schema, path: string): string {
    const clauses: string[] = [];
    if (Array.isArray(then.required)) clauses.push(`needs ${list(then.required as string[], 'and')}`);
    if (Array.isArray(then.anyOf)) {
      const keys = (then.anyOf as Schema[]).map((option) => {
        const required = option.required as string[] | undefined;
        if (!required || required.length !== 1 || Object.keys(option).length !== 1)
          throw new Error(`${path}: cannot describe ${JSON.stringify(option)}`);
        return required[0]!;
      });
      clauses.push(keys.length === 2 ? `needs ${list(keys)}` : `needs one of ${list(keys)}`);
    }
    if (then.not) {
      const required = (then.not as Schema).required as string[] | undefined;
      if (!required) throw new Error(`${path}: cannot describe ${JSON.stringify(then.not)}`);
      clauses.push(`not both ${list(required, 'and')}`);
    }
    const forbidden: string[] = [];
    for (const [key, value] of Object.entries((then.properties ?? {}) as Record<string, Schema>)) {
      if ('x-svc-forbidden' in value) forbidden.push(key);
      else if ('const' in value) clauses.push(`${code(key)} must be ${code(value.const)}`);
      else if (value.properties) {
        for (const [inner, innerValue] of Object.entries(value.properties as Record<string, Schema>)) {
          if (!('const' in innerValue)) throw new Error(`${path}: cannot describe ${key}.${inner}`);
          clauses.push(`${code(`${key}.${inner}`)} must be ${code(innerValue.const)}`);
        }
      } else throw new Error(`${path}: cannot describe the demand on ${key}`);
    }
    if (forbidden.length)
      clauses.push(`${list(forbidden, 'and')} ${forbidden.length === 1 ? 'is' : 'are'} not allowed`);
    const known = ['required', 'anyOf', 'not', 'properties', 'x-svc-rule', 'x-svc-message'];
    for (const key of Object.keys(then))
      if (!known.includes(key)) throw new Error(`${path}: cannot describe '${key}' in a rule`);
    return clauses.join('; ');
  }

  /** An example value for a key: SAMPLES, else derived from its schema. Checked against the key's schema. */
  sample(version: SvcVersion, entry: KeyEntry): unknown {
    const path = displayPath(entry.segments);
    const value =
      path in VERSION_SAMPLES[version]
        ? VERSION_SAMPLES[version][path]
        : path in SAMPLES
          ? SAMPLES[path]
          : this.derive(version, entry.property);
    const validate = this.ajv.compile({ ...entry.property.raw, definitions: this.definitions(version) });
    if (!('x-svc-forbidden' in entry.property.schema) && !validate(value)) {
      throw new Error(
        `the example for ${path} (svc_version ${version}) is invalid: ${JSON.stringify(value)} ${this.ajv.errorsText(validate.errors)}`,
      );
    }
    return value;
  }

  private derive(version: SvcVersion, value: Resolved): unknown {
    const schema = value.schema;
    if ('x-svc-forbidden' in schema) return undefined;
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum)) return schema.enum[0];
    for (const name of value.refs) if (name in DEFINITION_SAMPLES) return DEFINITION_SAMPLES[name];
    if (Array.isArray(schema.allOf) && !schema.type)
      return this.derive(
        version,
        this.resolve(
          version,
          (schema.allOf as Schema[]).find((part) => '$ref' in part || 'type' in part)!,
        ),
      );
    if (schema.type === 'boolean') return true;
    if (schema.type === 'integer' || schema.type === 'number')
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    if (schema.type === 'array') return [this.derive(version, this.resolve(version, schema.items as Schema))];
    if (Array.isArray(schema.anyOf)) return this.derive(version, this.resolve(version, (schema.anyOf as Schema[])[0]!));
    throw new Error(`no example for ${JSON.stringify(schema).slice(0, 200)}: add one to SAMPLES`);
  }

  /** The YAML snippet that shows `value` at the key's place in a manifest. */
  example(version: SvcVersion, entry: KeyEntry, value: unknown): string {
    let wrapped: unknown = value;
    for (let i = entry.segments.length - 1; i >= 0; i--) {
      const segment = entry.segments[i]!;
      if ('key' in segment) wrapped = { [segment.key]: wrapped };
      else if ('item' in segment) wrapped = [wrapped];
      else wrapped = { [segment.entry]: wrapped };
    }
    return stringify(wrapped, { lineWidth: 0 }).trimEnd();
  }
}

/** Enums longer than this are listed in a rule, not in the type. */
const LONG_ENUM = 12;

/** The plural of an item type: `string` → `strings`, `string (slug)` → `slugs`, `one of …` → `… values`. */
function plural(type: string): string {
  const named = /^string \((.+)\)$/.exec(type);
  if (named) return `${named[1]}s`;
  if (/^one of \d+ names/.test(type)) return type.replace(/^one of /, '');
  if (type.startsWith('one of ')) return `${type.slice('one of '.length)}`;
  if (['string', 'non-empty string', 'integer', 'number', 'boolean'].includes(type)) return `${type}s`;
  return type;
}

/** The first enum longer than LONG_ENUM in a schema's alternatives and items. */
function longEnum(schema: Schema): unknown[] | undefined {
  if (Array.isArray(schema.enum) && schema.enum.length > LONG_ENUM) return schema.enum;
  for (const part of [
    ...((schema.anyOf as Schema[] | undefined) ?? []),
    ...(schema.items ? [schema.items as Schema] : []),
  ]) {
    const found = longEnum(part);
    if (found) return found;
  }
  return undefined;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Renders the whole reference (the content of docs/manifest.md). */
export function renderManifestReference(): string {
  const reference = new Reference();
  const out: string[] = [];
  const push = (...lines: string[]) => out.push(...lines);

  push(
    '<!-- Generated by `npm run gen` (packages/schema/scripts/gen-reference.ts) from packages/schema/src/source.ts. Do not edit. -->',
    '',
    '# The svc manifest',
    '',
    'Every key of `svc.yaml` (and of the legacy `svc.toml`, which has the same keys), for both',
    'shapes of the file: `svc_version: 1` and `svc_version: 2`. For each key: its type, the rules the',
    'validator applies, and an example. The same descriptions appear when you hover a key in an editor',
    'with the language server, and the JSON Schemas say the same in machine form. They are files of',
    '`@svc-manifest/schema`, and the site `npm run site` builds serves them at the addresses their',
    '`$id`s name (placeholders until the site is deployed there; see the README, "The site"):',
    '',
    `- both versions: \`${reference.schemas.urls.combined}\``,
    `- version 1: \`${reference.schemas.urls.v1}\``,
    `- version 2: \`${reference.schemas.urls.v2}\``,
    '',
    'Rules that compare one part of the file with another (does `default_agent` name a declared',
    'agent?) and limits on the file itself are in [rules/](rules/README.md), one page per diagnostic.',
    '',
    'Throughout: a path such as `triggers[].slug` means the key `slug` of each item of the list',
    '`triggers`; `agents.<name>.sandbox` means the key `sandbox` of each entry of the map `agents`.',
    'Examples are YAML and show a key in its place, not a whole manifest; in TOML the same values',
    'are written as TOML. No key anywhere may be `__proto__`, `constructor` or `prototype`. Where an',
    'object says "other keys are allowed", unknown keys are accepted (a likely typo of a known key is',
    'still a warning).',
    '',
    'Version 2 is the current shape; the keys of both are below, each marked with the versions that',
    'have it.',
    '',
    '## Contents',
    '',
  );

  // Sections: one per object path, in the order first seen (version 2's walk, then version 1's).
  const sections = new Map<string, ObjectEntry[]>();
  for (const object of reference.objects) sections.set(object.path, [...(sections.get(object.path) ?? []), object]);
  const title = (path: string) => (path === '' ? 'Top level' : `\`${path}\``);
  for (const path of sections.keys()) {
    const versions = sections.get(path)!.map((object) => object.version);
    push(
      `- [${title(path)}](#${sectionAnchor(path)})${versions.length === 1 ? ` (svc_version ${versions[0]} only)` : ''}`,
    );
  }
  push('');

  for (const [path, objects] of sections) {
    push(`<a id="${sectionAnchor(path)}"></a>`, '', `## ${title(path)}`, '');
    const byBody = new Map<string, SvcVersion[]>();
    for (const object of objects) {
      const lines: string[] = [];
      const description = reference.description({ schema: object.schema, refs: object.refs, raw: object.schema });
      if (description && path !== '') lines.push(description, '');
      if (path !== '')
        lines.push(
          object.schema.additionalProperties === false ? 'Only the keys below are allowed.' : 'Other keys are allowed.',
          '',
        );
      const rules = reference.objectRules(object.version, object.schema, path);
      if (rules.length) lines.push('Rules:', '', ...rules.map((rule) => `- ${rule}`), '');
      const required = new Set((object.schema.required as string[] | undefined) ?? []);
      lines.push('| key | type | |', '|---|---|---|');
      for (const entry of reference.keys.filter((key) => key.version === object.version && key.parentPath === path)) {
        const keyPath = displayPath(entry.segments);
        lines.push(
          `| [\`${entry.key}\`](#${anchor(keyPath)}) | ${reference.typeOf(object.version, entry.property, keyPath)} | ${required.has(entry.key) ? 'required' : ''} |`,
        );
      }
      lines.push('');
      const body = lines.join('\n');
      byBody.set(body, [...(byBody.get(body) ?? []), object.version]);
    }
    for (const [body, versions] of byBody) {
      if (byBody.size > 1 || versions.length < SVC_VERSIONS.length)
        push(`**svc_version ${[...versions].sort().join(' and ')}${objects.length === 1 ? ' only' : ''}**`, '');
      push(body);
    }

    // The keys of this object, both versions; a key whose text differs between versions gets one block per version.
    const keyPaths = [
      ...new Set(reference.keys.filter((key) => key.parentPath === path).map((key) => displayPath(key.segments))),
    ];
    for (const keyPath of keyPaths) {
      const entries = reference.keys.filter((key) => displayPath(key.segments) === keyPath);
      push(`<a id="${anchor(keyPath)}"></a>`, '', `### \`${keyPath}\``, '');
      const blocks = new Map<string, SvcVersion[]>();
      for (const entry of entries) {
        const lines: string[] = [];
        const description = reference.description(entry.property);
        if (description) lines.push(description, '');
        lines.push(`- Type: ${reference.typeOf(entry.version, entry.property, keyPath)}`);
        for (const rule of reference.rules(entry.version, entry)) lines.push(`- ${rule}`);
        lines.push('');
        const value = reference.sample(entry.version, entry);
        if (value !== undefined) lines.push('```yaml', reference.example(entry.version, entry, value), '```', '');
        const body = lines.join('\n');
        blocks.set(body, [...(blocks.get(body) ?? []), entry.version]);
      }
      for (const [body, versions] of blocks) {
        const only = entries.length === 1 ? ' only' : '';
        push(`*svc_version ${[...versions].sort().join(' and ')}${only}*`, '');
        push(body);
      }
    }
  }
  return (
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}

/** Every key path of both versions, for tests: `{ path, versions }`. */
export function manifestKeyPaths(): { path: string; versions: SvcVersion[] }[] {
  const reference = new Reference();
  const paths = new Map<string, SvcVersion[]>();
  for (const entry of reference.keys) {
    const path = displayPath(entry.segments);
    paths.set(path, [...(paths.get(path) ?? []), entry.version]);
  }
  return [...paths].map(([path, versions]) => ({ path, versions }));
}
