/**
 * THE source schema of the svc manifest: both `svc_version` shapes, described once.
 *
 * Everything the published JSON Schemas say comes from here (`npm run gen`). Where the two
 * versions differ, the difference is written where it is, with `byVersion(version, v1, v2)`.
 * Descriptions are Markdown, written from the spec's "Project manifest" section; the plain
 * `description` is derived from them.
 *
 * Annotations for our own tools (ignored by every other JSON Schema validator):
 * - `x-svc-rule`: the stable rule id a subschema implements; the validator names its errors so.
 * - `x-svc-message`: the message to show when the subschema (a `not`, `anyOf`, …) fails.
 * - `x-svc-forbidden`: on a `{ not: {} }` property: why the key is not allowed.
 * - `x-svc-deprecated`: the key to use instead.
 * - `x-svc-code`: the diagnostic code for a failure of this subschema, when the keyword's default is not right.
 */
import {
  ABSOLUTE_URL_PATH_PATTERN,
  APP_TYPES,
  AUTH_TYPES,
  AUTHORIZATION_STRATEGIES,
  CHANNEL_PLATFORMS,
  CHANNEL_SLUGS,
  CONNECTOR_PROVIDERS,
  DURATION_PATTERN,
  ENABLED_STRING_PATTERN,
  ENV_NAME_PATTERN,
  HEADER_NAME_PATTERN,
  HEADER_VALUE_PATTERN,
  MONITOR_FORBIDDEN_KEYS,
  MONITOR_MODES,
  POLICY_ACTIONS,
  RELATIVE_PATH_PATTERN,
  RESERVED_APP_PORTS,
  RESERVED_PROVIDERS,
  RUNTIMES,
  SANDBOX_FORBIDDEN_KEYS,
  SECRET_ENV_PATTERN,
  SESSION_MODES,
  SLUG_PATTERN,
  TRANSPORTS,
  TRIGGER_TYPES,
  WORKSPACES,
  svcCliPermissions,
  type SvcVersion,
} from './patterns.js';

export type JsonSchema = { [keyword: string]: unknown } | boolean;
type SchemaObject = { [keyword: string]: unknown };

/** Picks the version-specific part of the source. */
function byVersion<T>(version: SvcVersion, v1: T, v2: T): T {
  return version === 1 ? v1 : v2;
}

/** A Markdown description and its plain-text twin. */
function doc(markdown: string): { description: string; markdownDescription: string } {
  return { description: markdown.replace(/`/g, '').replace(/\*\*/g, ''), markdownDescription: markdown };
}

function ref(name: string): SchemaObject {
  return { $ref: `#/definitions/${name}` };
}

function described(markdown: string, schema: SchemaObject): SchemaObject {
  return { ...doc(markdown), ...schema };
}

/** A key that must not appear, and why. */
function forbidden(reason: string, markdown = reason): SchemaObject {
  return { ...doc(markdown), not: {}, 'x-svc-forbidden': reason };
}

function requireOne(keys: readonly string[]): SchemaObject[] {
  return keys.map((key) => ({ required: [key] }));
}

/**
 * "These keys may not appear together". `required` holds for any value that is not an object,
 * so a bare `not: { required }` would also fail for a string or a list where the object
 * belongs, adding a second error to the type error; `type: 'object'` inside the `not` keeps
 * the rule to objects.
 */
function notTogether(keys: readonly string[]): SchemaObject {
  return { not: { type: 'object', required: [...keys] } };
}

/** Two spellings of one field (`session_mode` / `sessionMode`) may not both be given. */
function aliasConflict(a: string, b: string): SchemaObject {
  return {
    'x-svc-rule': 'alias-conflict',
    'x-svc-message': `use either '${a}' or '${b}', not both`,
    ...notTogether([a, b]),
  };
}

/**
 * An object that allows keys beyond the ones it lists (the spec's "additional keys are allowed").
 * Any key is data, `__proto__` and `constructor` included (docs/decisions.md, 15).
 */
function openObject(schema: SchemaObject): SchemaObject {
  return { type: 'object', ...schema };
}

/** An object that allows only the keys it lists. */
function closedObject(schema: SchemaObject): SchemaObject {
  return { type: 'object', ...schema, additionalProperties: false };
}

/** Definitions shared by both versions, and the version-specific ones under versioned names. */
export function definitions(version: SvcVersion): Record<string, SchemaObject> {
  const v = version;
  return {
    slug: described('A slug: lowercase letters, digits, `_` and `-`, starting with a letter or digit, at most 128 characters.', {
      type: 'string',
      pattern: SLUG_PATTERN,
    }),
    nonEmptyString: { type: 'string', minLength: 1 },
    envName: described('An environment variable name: letters, digits and `_`, not starting with a digit.', {
      type: 'string',
      pattern: ENV_NAME_PATTERN,
    }),
    secretEnvName: described('An environment variable name in uppercase: `A`–`Z`, digits and `_`, not starting with a digit.', {
      type: 'string',
      pattern: SECRET_ENV_PATTERN,
    }),
    relativePath: described('A non-empty path relative to the repository root: it must not start with `/` and must not contain a `..` segment.', {
      type: 'string',
      minLength: 1,
      pattern: RELATIVE_PATH_PATTERN,
    }),
    duration: described('A duration: a positive whole number followed by `s`, `m`, `h` or `d`, e.g. `30s`, `5m`, `1h`, `7d`.', {
      type: 'string',
      pattern: DURATION_PATTERN,
    }),
    enabledFlag: {
      ...doc('Whether this is on: a boolean, a number, or one of the strings `true`, `false`, `1`, `0`, `yes`, `no`, `on`, `off` (any letter case).'),
      'x-svc-message': 'expected true or false, a number, or one of the strings true, false, 1, 0, yes, no, on, off',
      anyOf: [{ type: 'boolean' }, { type: 'number' }, { type: 'string', pattern: ENABLED_STRING_PATTERN }],
    },
    sessionMode: described(
      'How a run picks its session: `fresh` (a new session every run), `reuse`, `pinned` (the session in `session_id`) or `keyed` (one session per `session_key`).',
      {
        enum: [...SESSION_MODES],
      },
    ),
    allowlist: {
      ...doc('An allowlist: an array of names, or `all`, or `none`.'),
      'x-svc-message': "expected an array of names, 'all' or 'none'",
      anyOf: [{ type: 'array', items: ref('nonEmptyString') }, { enum: ['all', 'none'] }],
    },
    [`svcCliV${v}`]: {
      ...doc(
        byVersion(
          v,
          'The `svc` CLI permissions the agent may use: an array of permission names (version 1 accepts ten legacy names more than version 2), `*`, `all` or `none`.',
          'The `svc` CLI permissions the agent may use: an array of permission names, `*`, `all` or `none`.',
        ),
      ),
      'x-svc-message': "expected an array of svc_cli permission names, '*', 'all' or 'none'",
      anyOf: [{ type: 'array', items: { enum: [...svcCliPermissions(v), '*'] } }, { enum: ['all', 'none', '*'] }],
    },
    project: openObject({
      ...doc('The project: its `name` and `description`.'),
      title: 'Project',
      properties: {
        name: described("The project's name.", { type: 'string' }),
        description: described('What the project is for.', { type: 'string' }),
      },
    }),
    env: openObject({
      ...doc("Environment variables the project's sessions use: the names that must be set (`required`) and those that may be (`optional`)."),
      title: 'Env',
      properties: {
        required: described('Variables that must be set before a session starts.', { type: 'array', items: ref('envName') }),
        optional: described('Variables a session uses when they are set.', { type: 'array', items: ref('envName') }),
      },
    }),
    agentRuntime: openObject({
      ...doc('Settings of the agent runtime.'),
      title: 'AgentRuntime',
      properties: {
        config_dir: described(
          "Where the agent runtime's configuration lives: a non-empty relative path, not starting with `/`, with no `..` segment.",
          ref('relativePath'),
        ),
      },
    }),
    template: closedObject({
      ...doc("A sandbox template: how a session's sandbox is built. It has exactly one of `image` or `dockerfile`."),
      title: 'Template',
      required: ['slug'],
      properties: {
        slug: described("The template's slug (not `default`); agents and `sandbox.default` name templates by it.", {
          allOf: [ref('slug'), { 'x-svc-message': "'default' is reserved and cannot be a template slug", not: { const: 'default' } }],
        }),
        name: described('A display name.', { type: 'string' }),
        entrypoint: described('The command the sandbox starts with.', { type: 'string' }),
        cpu: described('CPU cores, at least 1.', { type: 'integer', minimum: 1 }),
        memory: described('Memory, at least 1.', { type: 'integer', minimum: 1 }),
        disk: described('Disk, at least 1.', { type: 'integer', minimum: 1 }),
        image: described('A container image to start from (non-empty). Give `image` or `dockerfile`, not both.', ref('nonEmptyString')),
        dockerfile: described('A Dockerfile to build, as a relative path. Give `image` or `dockerfile`, not both.', ref('relativePath')),
      },
      allOf: [
        { 'x-svc-rule': 'template-image-or-dockerfile', anyOf: requireOne(['image', 'dockerfile']) },
        { 'x-svc-rule': 'template-image-or-dockerfile', ...notTogether(['image', 'dockerfile']) },
      ],
    }),
    sandbox: openObject({
      ...doc('Sandbox templates and the default one. Template fields (`image`, `dockerfile`, …) go inside a template under `templates`, never directly here.'),
      title: 'Sandbox',
      properties: {
        templates: described('The sandbox templates.', { type: 'array', items: ref('template') }),
        default: described('The slug of the template sessions use unless an agent names another.', ref('nonEmptyString')),
        ...Object.fromEntries(
          SANDBOX_FORBIDDEN_KEYS.map((key) => [
            key,
            forbidden(`'${key}' is not allowed directly under 'sandbox'; it belongs to a template in 'sandbox.templates'`),
          ]),
        ),
      },
    }),
    trigger: trigger(),
    [`connectorV${v}`]: connector(v),
    connectorAuth: openObject({
      ...doc(
        'How the connector authenticates. `type` is required; the key `secret` is not allowed (reference secrets by name instead of inlining them); other keys are allowed.',
      ),
      title: 'ConnectorAuth',
      required: ['type'],
      properties: {
        type: described('The authentication scheme.', { enum: [...AUTH_TYPES] }),
        secret: forbidden("'secret' is not allowed inside 'auth': never put a secret value in the manifest"),
      },
    }),
    connectorHeaders: {
      ...doc('Extra HTTP headers: at most 32; names of 1–128 HTTP token characters; values of at most 2048 characters with no line breaks.'),
      type: 'object',
      maxProperties: 32,
      propertyNames: { pattern: HEADER_NAME_PATTERN, 'x-svc-message': "a header name is 1 to 128 HTTP token characters (letters, digits and !#$%&'*+-.^_`|~)" },
      additionalProperties: {
        type: 'string',
        maxLength: 2048,
        pattern: HEADER_VALUE_PATTERN,
        'x-svc-message': 'a header value is a string of at most 2048 characters with no carriage return or line feed',
      },
    },
    connectorPolicy: closedObject({
      ...doc('A tool-call policy: tools whose name matches `match` get `action`.'),
      title: 'ConnectorPolicy',
      required: ['match', 'action'],
      properties: {
        match: described('Which tools the policy covers (non-empty).', ref('nonEmptyString')),
        action: described('`always_run`, `require_approval` (goes to the approval inbox) or `block`.', { enum: [...POLICY_ACTIONS] }),
      },
    }),
    ...byVersion<Record<string, SchemaObject>>(
      v,
      {
        agentV1: closedObject({
          ...doc('A version 1 agent.'),
          title: 'AgentV1',
          required: ['name'],
          properties: {
            name: described("The agent's name (a slug).", ref('slug')),
            connectors: described('Connectors the agent may use: an array of connector slugs, `all` or `none`.', ref('allowlist')),
            env: {
              ...doc('Environment variables the agent gets: an array of variable names, or a map of names to values.'),
              'x-svc-message': 'expected an array of environment variable names or a map of names to strings',
              anyOf: [
                { type: 'array', items: ref('envName') },
                { type: 'object', propertyNames: { pattern: ENV_NAME_PATTERN }, additionalProperties: { type: 'string' } },
              ],
            },
            svc_cli: ref('svcCliV1'),
          },
        }),
        channel: closedObject({
          ...doc('A version 1 channel: a chat or email surface the project listens on.'),
          title: 'Channel',
          required: ['platform'],
          properties: {
            platform: described('The channel platform (non-empty).', ref('nonEmptyString')),
            enabled: ref('enabledFlag'),
            events: described('The events the channel delivers.', { type: 'array', items: { type: 'string' } }),
          },
        }),
      },
      {
        agentV2: closedObject({
          ...doc('A version 2 agent. Only the keys listed here are allowed.'),
          title: 'AgentV2',
          properties: {
            enabled: described('Whether the agent can run. `default_agent` must name an enabled agent.', { type: 'boolean' }),
            sandbox: described("The slug of the sandbox template the agent's sessions use.", ref('slug')),
            connectors: described('Connectors the agent may use: an array of connector slugs, `all` or `none`.', ref('allowlist')),
            secrets: described('Secrets the agent may read: an array of secret names, `all` or `none`.', ref('allowlist')),
            skills: described('Skills the agent may use: an array of skill names, `all` or `none`.', ref('allowlist')),
            svc_cli: ref('svcCliV2'),
            connectors_required: described("Connector slugs that must resolve (be connected) before the agent's session starts.", {
              type: 'array',
              items: ref('nonEmptyString'),
            }),
            connectors_personal: described('Deprecated: the old name of `connectors_required`.', {
              type: 'array',
              items: ref('nonEmptyString'),
              'x-svc-deprecated': 'connectors_required',
            }),
            workspace: described("What the agent's session works on: `runtime`, `read` or `branch`.", { enum: [...WORKSPACES] }),
          },
          allOf: [aliasConflict('connectors_required', 'connectors_personal')],
        }),
        app: openObject({
          ...doc('An app the project deploys. Keys beyond the ones listed are allowed: the spec does not show every app field.'),
          title: 'App',
          properties: {
            path: described("The app's folder: a non-empty relative path.", ref('relativePath')),
            root: described("The app's root folder: a non-empty relative path.", ref('relativePath')),
            output_dir: described('Where the build writes its output: a non-empty relative path.', ref('relativePath')),
            type: described('How the app is built and served: `static`, `bundle`, `dockerfile` or `oci_image`.', { enum: [...APP_TYPES] }),
            image: described('A container image (non-empty).', ref('nonEmptyString')),
            install_command: described('The command that installs dependencies (non-empty).', ref('nonEmptyString')),
            build_command: described('The command that builds the app (non-empty).', ref('nonEmptyString')),
            dockerfile: described('A Dockerfile, as a non-empty relative path.', ref('relativePath')),
            command: described('The command that starts the app: an array of at least one non-empty string.', {
              type: 'array',
              minItems: 1,
              items: ref('nonEmptyString'),
            }),
            port: described('The port the app listens on: 1 to 65535, but not 7331 or 8080 (the platform uses them).', {
              type: 'integer',
              minimum: 1,
              maximum: 65535,
              allOf: [
                { 'x-svc-code': 'out-of-range', 'x-svc-message': 'ports 7331 and 8080 are reserved by the platform', not: { enum: [...RESERVED_APP_PORTS] } },
              ],
            }),
            spa: described('Serve `index.html` for unknown paths (a single-page app).', { type: 'boolean' }),
            readiness_path: described('The HTTP path polled until the app is ready; starts with `/`.', {
              type: 'string',
              pattern: ABSOLUTE_URL_PATH_PATTERN,
            }),
            idle_timeout_seconds: described('Seconds without requests before the app sleeps: 120 to 86400.', {
              type: 'integer',
              minimum: 120,
              maximum: 86400,
            }),
            monthly_budget_usd: described('The most the app may cost a month, in US dollars (0 or more).', { type: 'number', minimum: 0 }),
            resources: openObject({
              ...doc('Compute for the app. Keys beyond `cpu` and `memory_gb` (such as `disk_gb`) are allowed: the spec does not show them.'),
              title: 'AppResources',
              properties: {
                cpu: described('CPU cores: 1 to 64.', { type: 'integer', minimum: 1, maximum: 64 }),
                memory_gb: described('Memory in GB: 1 to 512.', { type: 'integer', minimum: 1, maximum: 512 }),
              },
            }),
          },
        }),
      },
    ),
  };
}

function trigger(): SchemaObject {
  const nonEmpty = (markdown: string) => described(markdown, ref('nonEmptyString'));
  const ifType = (type: string, extra: SchemaObject = {}) => ({
    properties: { type: { const: type }, ...((extra.properties as object) ?? {}) },
    required: ['type', ...((extra.required as string[]) ?? [])],
  });
  return openObject({
    ...doc(
      'A trigger: starts an agent run on a schedule (`cron`), on a signed inbound webhook (`webhook`), or from a `monitor` command. Keys beyond the ones listed are allowed.',
    ),
    title: 'Trigger',
    required: ['slug', 'type'],
    properties: {
      slug: described("The trigger's slug.", ref('slug')),
      type: described('`cron` (a schedule), `webhook` (an HMAC-signed inbound request) or `monitor` (a command that is polled or streamed).', {
        enum: [...TRIGGER_TYPES],
      }),
      name: described('A display name.', { type: 'string' }),
      agent: nonEmpty('The agent that runs (its name).'),
      agent_name: nonEmpty('The agent that runs (its name).'),
      enabled: ref('enabledFlag'),
      session_mode: described('How a run picks its session. Also spelled `sessionMode`.', ref('sessionMode')),
      sessionMode: described('How a run picks its session. Also spelled `session_mode`.', ref('sessionMode')),
      session_key: nonEmpty('The key of the session a `keyed` run uses. Also spelled `sessionKey`.'),
      sessionKey: nonEmpty('The key of the session a `keyed` run uses. Also spelled `session_key`.'),
      session_id: nonEmpty('The session a `pinned` run uses. Also spelled `sessionId`.'),
      sessionId: nonEmpty('The session a `pinned` run uses. Also spelled `session_id`.'),
      filter: described('Only events whose fields match: a map of string to string.', {
        type: 'object',
        additionalProperties: { type: 'string' },
      }),
      prompt: nonEmpty('The prompt the agent gets. A trigger needs `prompt` or `prompt_template`.'),
      prompt_template: nonEmpty('A prompt template filled in from the event. A trigger needs `prompt` or `prompt_template`.'),
      cron: nonEmpty('A cron expression. A `cron` trigger needs one of `cron`, `schedule`, `run_at`, `runAt`.'),
      schedule: nonEmpty('A schedule. A `cron` trigger needs one of `cron`, `schedule`, `run_at`, `runAt`.'),
      run_at: nonEmpty('A single run time. Also spelled `runAt`.'),
      runAt: nonEmpty('A single run time. Also spelled `run_at`.'),
      timezone: described('The time zone of `cron`/`schedule`/`run_at`.', { type: 'string' }),
      secret_env: described(
        "The environment variable holding the webhook's HMAC secret (uppercase). A `webhook` trigger needs it. Also spelled `secretEnv`.",
        ref('secretEnvName'),
      ),
      secretEnv: described("The environment variable holding the webhook's HMAC secret (uppercase). Also spelled `secret_env`.", ref('secretEnvName')),
      run: described('The command a `monitor` runs: non-empty, at most 1024 characters.', { type: 'string', minLength: 1, maxLength: 1024 }),
      mode: described('How a `monitor` runs its command: `poll` (every `interval`) or `stream` (continuously).', { enum: [...MONITOR_MODES] }),
      interval: described('How often a polling monitor runs, e.g. `5m`.', ref('duration')),
      expect_event_within: described('Report a monitor that sees no event for this long, e.g. `1h`.', ref('duration')),
    },
    allOf: [
      // Trigger rule 1: "At least one of `prompt` or `prompt_template` is required."
      { 'x-svc-rule': 'trigger-prompt-required', anyOf: requireOne(['prompt', 'prompt_template']) },
      // Rule 2: "`type` `cron` requires at least one of `cron`, `schedule`, `run_at`, `runAt`."
      { 'x-svc-rule': 'trigger-cron-schedule', if: ifType('cron'), then: { anyOf: requireOne(['cron', 'schedule', 'run_at', 'runAt']) } },
      // Rule 3: "`type` `webhook` requires `secret_env` or `secretEnv`."
      { 'x-svc-rule': 'trigger-webhook-secret', if: ifType('webhook'), then: { anyOf: requireOne(['secret_env', 'secretEnv']) } },
      // Rule 4: "`type` `monitor` requires `run` and `mode` and forbids `cron`, `schedule`, `run_at`, `runAt`, `timezone`, `secret_env`, `secretEnv`."
      {
        'x-svc-rule': 'trigger-monitor-fields',
        if: ifType('monitor'),
        then: {
          required: ['run', 'mode'],
          properties: Object.fromEntries(MONITOR_FORBIDDEN_KEYS.map((key) => [key, forbidden(`a monitor trigger does not take '${key}'`)])),
        },
      },
      // Rule 5: "A monitor with `mode` `poll` requires `interval`; with `mode` `stream` it forbids `interval`."
      {
        'x-svc-rule': 'trigger-monitor-interval',
        if: ifType('monitor', { properties: { mode: { const: 'poll' } }, required: ['mode'] }),
        then: { required: ['interval'] },
      },
      {
        'x-svc-rule': 'trigger-monitor-interval',
        if: ifType('monitor', { properties: { mode: { const: 'stream' } }, required: ['mode'] }),
        then: { properties: { interval: forbidden("a streaming monitor does not take 'interval'") } },
      },
      aliasConflict('session_mode', 'sessionMode'),
      aliasConflict('session_key', 'sessionKey'),
      aliasConflict('session_id', 'sessionId'),
      aliasConflict('run_at', 'runAt'),
      aliasConflict('secret_env', 'secretEnv'),
    ],
  });
}

function connector(version: SvcVersion): SchemaObject {
  const ifProvider = (provider: string) => ({ properties: { provider: { const: provider } }, required: ['provider'] });
  return openObject({
    ...doc("A connector: gives agents tools (`<connector>.<action>`) through the platform's gateway. Keys beyond the ones listed are allowed."),
    title: `ConnectorV${version}`,
    required: ['slug', 'provider'],
    properties: {
      slug: described(
        "The connector's slug; tools are named `<slug>.<action>`. `svc_slack`, `svc_teams` and `svc_email` are channel connectors; `computer` is reserved.",
        ref('slug'),
      ),
      provider: described(
        'Where the tools come from: `managed_a`, `managed_b`, `mcp`, `openapi`, `collection`, `graphql`, `http` or `channel`. (`computer` is reserved for the connector with slug `computer`.)',
        { enum: [...CONNECTOR_PROVIDERS, ...RESERVED_PROVIDERS] },
      ),
      name: described('A display name (non-empty).', ref('nonEmptyString')),
      app: described('The managed app (required by provider `managed_a`).', ref('nonEmptyString')),
      url: described('The server URL (required by provider `mcp`).', ref('nonEmptyString')),
      endpoint: described('The GraphQL endpoint (required by provider `graphql`).', ref('nonEmptyString')),
      base_url: described('The base URL (provider `http` needs `base_url` or `baseUrl`). Also spelled `baseUrl`.', ref('nonEmptyString')),
      baseUrl: described('The base URL (provider `http` needs `base_url` or `baseUrl`). Also spelled `base_url`.', ref('nonEmptyString')),
      transport: described('How to reach an MCP server: `http` or `sse`.', { enum: [...TRANSPORTS] }),
      spec: described('The API description (an OpenAPI document, a collection, …).', {}),
      platform: described('The channel platform: `chat_a`, `chat_b` or `email` (required by provider `channel`).', { enum: [...CHANNEL_PLATFORMS] }),
      credential: byVersion<SchemaObject>(
        version,
        described("The connector's credential (any value in version 1).", {}),
        described('The credential mode; in version 2 it may only be `shared`.', { const: 'shared' }),
      ),
      authorization_strategy: described(
        'Whose account the tools act as: `project` (one shared connection, the default) or `user` (each user connects their own).',
        {
          enum: [...AUTHORIZATION_STRATEGIES],
          default: 'project',
        },
      ),
      agent_scope: byVersion<SchemaObject>(
        version,
        described('Which agents may use the connector (any value in version 1).', {}),
        forbidden("'agent_scope' is not allowed in svc_version 2; list the connector in each agent's 'connectors' instead"),
      ),
      auth: ref('connectorAuth'),
      headers: ref('connectorHeaders'),
      policies: described('Tool-call policies: which tools always run, need approval, or are blocked.', { type: 'array', items: ref('connectorPolicy') }),
    },
    allOf: [
      // Connector rule 1: "Slugs `svc_slack`, `svc_teams`, `svc_email` require `provider` `channel`. Slug `computer` requires `provider` `computer`."
      {
        'x-svc-rule': 'connector-reserved-slug',
        if: { properties: { slug: { enum: [...CHANNEL_SLUGS] } }, required: ['slug'] },
        then: { properties: { provider: { const: 'channel' } } },
      },
      {
        'x-svc-rule': 'connector-reserved-slug',
        if: { properties: { slug: { const: 'computer' } }, required: ['slug'] },
        then: { properties: { provider: { const: 'computer' } } },
      },
      {
        'x-svc-rule': 'connector-reserved-slug',
        if: ifProvider('computer'),
        then: { properties: { slug: { const: 'computer' } } },
      },
      // Rule 2: "`managed_a` requires `app`; `mcp` requires `url`; `graphql` requires `endpoint`; `http` requires `base_url` or `baseUrl`; `channel` requires `platform`."
      { 'x-svc-rule': 'connector-provider-fields', if: ifProvider('managed_a'), then: { required: ['app'] } },
      { 'x-svc-rule': 'connector-provider-fields', if: ifProvider('mcp'), then: { required: ['url'] } },
      { 'x-svc-rule': 'connector-provider-fields', if: ifProvider('graphql'), then: { required: ['endpoint'] } },
      { 'x-svc-rule': 'connector-provider-fields', if: ifProvider('http'), then: { anyOf: requireOne(['base_url', 'baseUrl']) } },
      { 'x-svc-rule': 'connector-provider-fields', if: ifProvider('channel'), then: { required: ['platform'] } },
      // Rule 3: "For `provider` `channel`, when `auth` is present its `type` must be `none`."
      {
        'x-svc-rule': 'connector-channel-auth',
        if: { properties: { provider: { const: 'channel' } }, required: ['provider', 'auth'] },
        then: { properties: { auth: { properties: { type: { const: 'none' } } } } },
      },
      aliasConflict('base_url', 'baseUrl'),
    ],
  });
}

/** The root of one version's manifest. */
export function manifestRoot(version: SvcVersion): SchemaObject {
  const v = version;
  return {
    ...doc(
      byVersion(
        v,
        'An svc project manifest, `svc_version` 1 (array-form `agents`, `channels`; no `apps`).',
        'An svc project manifest, `svc_version` 2 (map-form `agents`, `default_agent`, `apps`, `runtime`).',
      ),
    ),
    title: `ManifestV${v}`,
    type: 'object',
    required: byVersion(v, ['svc_version'], ['svc_version', 'default_agent', 'agents']),
    properties: {
      svc_version: described('The manifest shape: `1` or `2`. It decides which keys the rest of the file may use.', { const: v }),
      project: ref('project'),
      env: ref('env'),
      agent_runtime: ref('agentRuntime'),
      sandbox: ref('sandbox'),
      sandboxes: forbidden("'sandboxes' is not a manifest key; use 'sandbox' with 'templates'"),
      triggers: described('Triggers that start agent runs.', { type: 'array', items: ref('trigger') }),
      connectors: described('Connectors that give agents tools.', { type: 'array', items: ref(`connectorV${v}`) }),
      ...byVersion<Record<string, SchemaObject>>(
        v,
        {
          agents: described('The agents: an array of agents, each with a `name`.', { type: 'array', items: ref('agentV1') }),
          apps: forbidden("'apps' is not allowed in svc_version 1; apps need svc_version 2"),
          channels: described('Chat and email channels the project listens on.', { type: 'array', items: ref('channel') }),
        },
        {
          default_agent: described('The agent new sessions use unless told otherwise: the name of a declared, enabled agent.', ref('nonEmptyString')),
          runtime: described('The agent runtime: `runtime_a` or `runtime_b`.', { enum: [...RUNTIMES] }),
          agents: described('The agents, keyed by name (a slug); at least one.', {
            type: 'object',
            minProperties: 1,
            propertyNames: ref('slug'),
            additionalProperties: ref('agentV2'),
          }),
          apps: described('Apps the project deploys, keyed by name (a slug).', {
            type: 'object',
            propertyNames: ref('slug'),
            additionalProperties: ref('app'),
          }),
        },
      ),
    },
  };
}
