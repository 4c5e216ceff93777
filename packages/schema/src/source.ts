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
 *
 * Hints for other editors' servers (yaml-language-server, Taplo), written here where they belong;
 * they never change a verdict, and the validators are compiled without them (build.ts,
 * `EDITOR_ONLY_KEYWORDS`): `doNotSuggest` (forbidden keys, aliases), per-value enum descriptions
 * (`markdownEnumDescriptions`/`enumDescriptions`), `examples`, `defaultSnippets`, and `errorMessage`
 * on a `required` whose failure is the rule's only error. What can be derived from the annotations
 * above (`deprecationMessage`, `x-taplo`, the shapes Taplo reads) is added by editor-shape.ts.
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
  SVC_CLI_PERMISSIONS_V1_ONLY,
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

/** A key that must not appear, and why. Editors do not offer it. */
function forbidden(reason: string, markdown = reason): SchemaObject {
  return { ...doc(markdown), not: {}, 'x-svc-forbidden': reason, doNotSuggest: true };
}

/** The second spelling of a key (`sessionMode` for `session_mode`): accepted, never offered. */
function alias(schema: SchemaObject): SchemaObject {
  return { ...schema, doNotSuggest: true };
}

/**
 * "At least one of these keys". `message` is what an editor shows for the missing key: each
 * branch can fail only by that key's absence, so the message hides nothing.
 */
function requireOne(keys: readonly string[], message?: string): SchemaObject[] {
  return keys.map((key) => ({ required: [key], ...(message ? { errorMessage: message } : {}) }));
}

/**
 * An enum whose every value is described, for editors that show a value's own text when offering
 * it (yaml-language-server reads `markdownEnumDescriptions`, then `enumDescriptions`).
 */
function enumOf<Value extends string | number>(descriptions: readonly (readonly [Value, string])[]): SchemaObject {
  return {
    enum: descriptions.map(([value]) => value),
    markdownEnumDescriptions: descriptions.map(([, markdown]) => markdown),
    enumDescriptions: descriptions.map(([, markdown]) => doc(markdown).description),
  };
}

/** Pairs each value of a list from patterns.ts with its description; the type forbids a missing or extra value. */
function describeValues<Value extends string>(
  values: readonly Value[],
  text: Record<Value, string>,
): [Value, string][] {
  return values.map((value) => [value, text[value]]);
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
    slug: described(
      'A slug: lowercase letters, digits, `_` and `-`, starting with a letter or digit, at most 128 characters.',
      {
        type: 'string',
        pattern: SLUG_PATTERN,
      },
    ),
    nonEmptyString: { type: 'string', minLength: 1 },
    envName: described('An environment variable name: letters, digits and `_`, not starting with a digit.', {
      type: 'string',
      pattern: ENV_NAME_PATTERN,
    }),
    secretEnvName: described(
      'An environment variable name in uppercase: `A`–`Z`, digits and `_`, not starting with a digit.',
      {
        type: 'string',
        pattern: SECRET_ENV_PATTERN,
      },
    ),
    relativePath: described(
      'A non-empty path relative to the repository root: it must not start with `/` and must not contain a `..` segment.',
      {
        type: 'string',
        minLength: 1,
        pattern: RELATIVE_PATH_PATTERN,
      },
    ),
    duration: described(
      'A duration: a positive whole number followed by `s`, `m`, `h` or `d`, e.g. `30s`, `5m`, `1h`, `7d`.',
      {
        type: 'string',
        pattern: DURATION_PATTERN,
      },
    ),
    enabledFlag: {
      ...doc(
        'Whether this is on: a boolean, a number, or one of the strings `true`, `false`, `1`, `0`, `yes`, `no`, `on`, `off` (any letter case).',
      ),
      'x-svc-message': 'expected true or false, a number, or one of the strings true, false, 1, 0, yes, no, on, off',
      anyOf: [{ type: 'boolean' }, { type: 'number' }, { type: 'string', pattern: ENABLED_STRING_PATTERN }],
    },
    sessionMode: described(
      'How a run picks its session: `fresh` (a new session every run), `reuse`, `pinned` (the session in `session_id`) or `keyed` (one session per `session_key`).',
      enumOf(
        describeValues(SESSION_MODES, {
          fresh: 'A new session for every run.',
          reuse: 'Runs reuse a session instead of starting a new one each time.',
          pinned: 'Every run uses the one session named by `session_id`.',
          keyed: 'One session per `session_key`: runs with the same key share it.',
        }),
      ),
    ),
    allowlist: {
      ...doc('An allowlist: an array of names, or `all`, or `none`.'),
      'x-svc-message': "expected an array of names, 'all' or 'none'",
      anyOf: [
        { type: 'array', items: ref('nonEmptyString') },
        enumOf([
          ['all', 'Every one there is.'],
          ['none', 'None at all.'],
        ]),
      ],
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
      anyOf: [
        {
          type: 'array',
          items: enumOf([
            ...svcCliPermissions(v).map((name) => [name, permissionDescription(name)] as const),
            ['*', 'Every permission.'],
          ]),
        },
        enumOf([
          ['all', 'Every permission.'],
          ['none', 'No permission: the agent may not use the `svc` CLI.'],
          ['*', 'Every permission (the same as `all`).'],
        ]),
      ],
    },
    project: openObject({
      ...doc('The project: its `name` and `description`.'),
      title: 'Project',
      properties: {
        name: described("The project's name.", { type: 'string', examples: ['checkout-service'] }),
        description: described('What the project is for.', { type: 'string' }),
      },
    }),
    env: openObject({
      ...doc(
        "Environment variables the project's sessions use: the names that must be set (`required`) and those that may be (`optional`).",
      ),
      title: 'Environment variables',
      properties: {
        required: described('Variables that must be set before a session starts.', {
          type: 'array',
          items: ref('envName'),
        }),
        optional: described('Variables a session uses when they are set.', { type: 'array', items: ref('envName') }),
      },
    }),
    agentRuntime: openObject({
      ...doc('Settings of the agent runtime.'),
      title: 'Agent runtime',
      properties: {
        config_dir: described(
          "Where the agent runtime's configuration lives: a non-empty relative path, not starting with `/`, with no `..` segment.",
          ref('relativePath'),
        ),
      },
    }),
    template: closedObject({
      ...doc("A sandbox template: how a session's sandbox is built. It has exactly one of `image` or `dockerfile`."),
      title: 'Sandbox template',
      defaultSnippets: [
        { label: 'template from an image', body: { slug: '${1:base}', image: '${2:ubuntu:24.04}' } },
        { label: 'template from a Dockerfile', body: { slug: '${1:build}', dockerfile: '${2:Dockerfile}' } },
      ],
      required: ['slug'],
      properties: {
        slug: described("The template's slug (not `default`); agents and `sandbox.default` name templates by it.", {
          allOf: [
            ref('slug'),
            { 'x-svc-message': "'default' is reserved and cannot be a template slug", not: { const: 'default' } },
          ],
        }),
        name: described('A display name.', { type: 'string' }),
        entrypoint: described('The command the sandbox starts with.', { type: 'string' }),
        cpu: described('CPU cores, at least 1.', { type: 'integer', minimum: 1, examples: [2] }),
        memory: described('Memory, at least 1.', { type: 'integer', minimum: 1 }),
        disk: described('Disk, at least 1.', { type: 'integer', minimum: 1 }),
        image: described('A container image to start from (non-empty). Give `image` or `dockerfile`, not both.', {
          ...ref('nonEmptyString'),
          examples: ['ubuntu:24.04'],
        }),
        dockerfile: described('A Dockerfile to build, as a relative path. Give `image` or `dockerfile`, not both.', {
          ...ref('relativePath'),
          examples: ['Dockerfile'],
        }),
      },
      allOf: [
        {
          'x-svc-rule': 'template-image-or-dockerfile',
          anyOf: requireOne(['image', 'dockerfile'], "a sandbox template needs 'image' or 'dockerfile'"),
        },
        { 'x-svc-rule': 'template-image-or-dockerfile', ...notTogether(['image', 'dockerfile']) },
      ],
    }),
    sandbox: openObject({
      ...doc(
        'Sandbox templates and the default one. Template fields (`image`, `dockerfile`, …) go inside a template under `templates`, never directly here.',
      ),
      title: 'Sandbox',
      properties: {
        templates: described('The sandbox templates.', { type: 'array', items: ref('template') }),
        default: described(
          'The slug of the template sessions use unless an agent names another.',
          ref('nonEmptyString'),
        ),
        ...Object.fromEntries(
          SANDBOX_FORBIDDEN_KEYS.map((key) => [
            key,
            forbidden(
              `'${key}' is not allowed directly under 'sandbox'; it belongs to a template in 'sandbox.templates'`,
            ),
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
      title: 'Connector authentication',
      required: ['type'],
      properties: {
        type: described(
          'The authentication scheme.',
          enumOf(
            describeValues(AUTH_TYPES, {
              bearer: 'A bearer token in the `Authorization` header.',
              basic: 'HTTP basic authentication: a user name and a password.',
              custom: 'A scheme of its own, described by the other keys of `auth`.',
              api_key: 'An API key.',
              oauth1: 'OAuth 1.0 request signing.',
              hmac: 'An HMAC signature over each request.',
              aws_sigv4: 'AWS Signature Version 4 request signing.',
              mtls: 'A client certificate (mutual TLS).',
              none: 'No authentication (the only type a `channel` connector may give).',
            }),
          ),
        ),
        secret: forbidden("'secret' is not allowed inside 'auth': never put a secret value in the manifest"),
      },
    }),
    connectorHeaders: {
      ...doc(
        'Extra HTTP headers: at most 32; names of 1–128 HTTP token characters; values of at most 2048 characters with no line breaks.',
      ),
      type: 'object',
      maxProperties: 32,
      propertyNames: {
        pattern: HEADER_NAME_PATTERN,
        'x-svc-message': "a header name is 1 to 128 HTTP token characters (letters, digits and !#$%&'*+-.^_`|~)",
      },
      additionalProperties: {
        type: 'string',
        maxLength: 2048,
        pattern: HEADER_VALUE_PATTERN,
        'x-svc-message': 'a header value is a string of at most 2048 characters with no carriage return or line feed',
      },
    },
    connectorPolicy: closedObject({
      ...doc('A tool-call policy: tools whose name matches `match` get `action`.'),
      title: 'Connector policy',
      required: ['match', 'action'],
      properties: {
        match: described('Which tools the policy covers (non-empty).', ref('nonEmptyString')),
        action: described(
          '`always_run`, `require_approval` (goes to the approval inbox) or `block`.',
          enumOf(
            describeValues(POLICY_ACTIONS, {
              always_run: 'The tool call runs without asking.',
              require_approval: 'The tool call waits in the approval inbox until someone approves it.',
              block: 'The tool call never runs.',
            }),
          ),
        ),
      },
    }),
    ...byVersion<Record<string, SchemaObject>>(
      v,
      {
        agentV1: closedObject({
          ...doc('A version 1 agent.'),
          title: 'Agent',
          required: ['name'],
          properties: {
            name: described("The agent's name (a slug).", ref('slug')),
            connectors: described(
              'Connectors the agent may use: an array of connector slugs, `all` or `none`.',
              ref('allowlist'),
            ),
            env: {
              ...doc('Environment variables the agent gets: an array of variable names, or a map of names to values.'),
              'x-svc-message': 'expected an array of environment variable names or a map of names to strings',
              anyOf: [
                { type: 'array', items: ref('envName') },
                {
                  type: 'object',
                  propertyNames: { pattern: ENV_NAME_PATTERN },
                  additionalProperties: { type: 'string' },
                },
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
          title: 'Agent',
          defaultSnippets: [
            { label: 'agent', body: { enabled: true, connectors: '${1|all,none|}' } },
            {
              label: 'agent with a sandbox',
              body: { enabled: true, sandbox: '${1:base}', workspace: '${2|runtime,read,branch|}' },
            },
          ],
          properties: {
            enabled: described('Whether the agent can run. `default_agent` must name an enabled agent.', {
              type: 'boolean',
            }),
            sandbox: described("The slug of the sandbox template the agent's sessions use.", ref('slug')),
            connectors: described(
              'Connectors the agent may use: an array of connector slugs, `all` or `none`.',
              ref('allowlist'),
            ),
            secrets: described(
              'Secrets the agent may read: an array of secret names, `all` or `none`.',
              ref('allowlist'),
            ),
            skills: described('Skills the agent may use: an array of skill names, `all` or `none`.', ref('allowlist')),
            svc_cli: ref('svcCliV2'),
            connectors_required: described(
              "Connector slugs that must resolve (be connected) before the agent's session starts.",
              {
                type: 'array',
                items: ref('nonEmptyString'),
              },
            ),
            connectors_personal: described('Deprecated: the old name of `connectors_required`.', {
              type: 'array',
              items: ref('nonEmptyString'),
              'x-svc-deprecated': 'connectors_required',
            }),
            workspace: described(
              "What the agent's session works on: `runtime`, `read` or `branch`.",
              enumOf(
                describeValues(WORKSPACES, {
                  runtime: "The runtime's own workspace.",
                  read: 'The repository, read only.',
                  branch: 'A branch of the repository the session may change.',
                }),
              ),
            ),
          },
          allOf: [aliasConflict('connectors_required', 'connectors_personal')],
        }),
        app: openObject({
          ...doc(
            'An app the project deploys. Keys beyond the ones listed are allowed: the spec does not show every app field.',
          ),
          title: 'App',
          defaultSnippets: [
            {
              label: 'static app',
              body: { type: 'static', path: '${1:web}', build_command: '${2:npm run build}', output_dir: '${3:dist}' },
            },
            {
              label: 'app from a Dockerfile',
              body: { type: 'dockerfile', dockerfile: '${1:Dockerfile}', port: '^${2:3000}' },
            },
          ],
          properties: {
            path: described("The app's folder: a non-empty relative path.", ref('relativePath')),
            root: described("The app's root folder: a non-empty relative path.", ref('relativePath')),
            output_dir: described('Where the build writes its output: a non-empty relative path.', ref('relativePath')),
            type: described(
              'How the app is built and served: `static`, `bundle`, `dockerfile` or `oci_image`.',
              enumOf(
                describeValues(APP_TYPES, {
                  static: 'Static files, served as they are (from `output_dir` after the build).',
                  bundle: 'A bundle the platform runs.',
                  dockerfile: 'A container built from `dockerfile`.',
                  oci_image: 'A ready container image, `image`.',
                }),
              ),
            ),
            image: described('A container image (non-empty).', ref('nonEmptyString')),
            install_command: described('The command that installs dependencies (non-empty).', {
              ...ref('nonEmptyString'),
              examples: ['npm ci'],
            }),
            build_command: described('The command that builds the app (non-empty).', {
              ...ref('nonEmptyString'),
              examples: ['npm run build'],
            }),
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
              examples: [3000],
              allOf: [
                {
                  'x-svc-code': 'out-of-range',
                  'x-svc-message': 'ports 7331 and 8080 are reserved by the platform',
                  not: { enum: [...RESERVED_APP_PORTS] },
                },
              ],
            }),
            spa: described('Serve `index.html` for unknown paths (a single-page app).', { type: 'boolean' }),
            readiness_path: described('The HTTP path polled until the app is ready; starts with `/`.', {
              type: 'string',
              pattern: ABSOLUTE_URL_PATH_PATTERN,
              examples: ['/health'],
            }),
            idle_timeout_seconds: described('Seconds without requests before the app sleeps: 120 to 86400.', {
              type: 'integer',
              minimum: 120,
              maximum: 86400,
            }),
            monthly_budget_usd: described('The most the app may cost a month, in US dollars (0 or more).', {
              type: 'number',
              minimum: 0,
            }),
            resources: ref('appResources'),
          },
        }),
        appResources: openObject({
          ...doc(
            'Compute for the app. Keys beyond `cpu` and `memory_gb` (such as `disk_gb`) are allowed: the spec does not show them.',
          ),
          title: 'App resources',
          properties: {
            cpu: described('CPU cores: 1 to 64.', { type: 'integer', minimum: 1, maximum: 64 }),
            memory_gb: described('Memory in GB: 1 to 512.', { type: 'integer', minimum: 1, maximum: 512 }),
          },
        }),
      },
    ),
  };
}

/** What an `svc_cli` permission lets the agent do, from its name (`project.session.read` → read sessions). */
function permissionDescription(name: string): string {
  const [scope, ...rest] = name.split('.');
  const action = rest.pop()!;
  const subject = rest.join(' ') || scope!;
  const sentence = `\`${action}\` on ${subject}`;
  const v1Only = (SVC_CLI_PERMISSIONS_V1_ONLY as readonly string[]).includes(name) ? ' (svc_version 1 only)' : '';
  return `Lets the agent's \`svc\` CLI do ${sentence}${v1Only}.`;
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
    defaultSnippets: [
      {
        label: 'cron trigger',
        description: 'Runs an agent on a schedule.',
        body: {
          slug: '${1:nightly}',
          type: 'cron',
          cron: '${2:0 3 * * *}',
          agent: '${3:main}',
          prompt: '${4:What to do}',
        },
      },
      {
        label: 'webhook trigger',
        description: 'Runs an agent on a signed inbound request.',
        body: {
          slug: '${1:on-push}',
          type: 'webhook',
          secret_env: '${2:WEBHOOK_SECRET}',
          agent: '${3:main}',
          prompt_template: '${4:Handle {{event}}}',
        },
      },
      {
        label: 'monitor trigger (poll)',
        description: 'Runs a command every interval and an agent on what it reports.',
        body: {
          slug: '${1:watch}',
          type: 'monitor',
          mode: 'poll',
          interval: '${2:5m}',
          run: '${3:./check.sh}',
          agent: '${4:main}',
          prompt: '${5:What to do}',
        },
      },
      {
        label: 'monitor trigger (stream)',
        description: 'Runs a command continuously and an agent on each event.',
        body: {
          slug: '${1:tail}',
          type: 'monitor',
          mode: 'stream',
          run: '${2:./events.sh}',
          agent: '${3:main}',
          prompt: '${4:What to do}',
        },
      },
    ],
    required: ['slug', 'type'],
    properties: {
      slug: described("The trigger's slug.", ref('slug')),
      type: described(
        '`cron` (a schedule), `webhook` (an HMAC-signed inbound request) or `monitor` (a command that is polled or streamed).',
        enumOf(
          describeValues(TRIGGER_TYPES, {
            cron: 'On a schedule: needs one of `cron`, `schedule`, `run_at`, `runAt`.',
            webhook: 'On an inbound request signed with the HMAC secret named by `secret_env`.',
            monitor:
              'From a command (`run`) that is polled (`mode: poll`, every `interval`) or streamed (`mode: stream`).',
          }),
        ),
      ),
      name: described('A display name.', { type: 'string' }),
      agent: nonEmpty('The agent that runs (its name).'),
      agent_name: nonEmpty('The agent that runs (its name).'),
      enabled: ref('enabledFlag'),
      session_mode: described('How a run picks its session. Also spelled `sessionMode`.', ref('sessionMode')),
      sessionMode: alias(described('How a run picks its session. Also spelled `session_mode`.', ref('sessionMode'))),
      session_key: nonEmpty('The key of the session a `keyed` run uses. Also spelled `sessionKey`.'),
      sessionKey: alias(nonEmpty('The key of the session a `keyed` run uses. Also spelled `session_key`.')),
      session_id: nonEmpty('The session a `pinned` run uses. Also spelled `sessionId`.'),
      sessionId: alias(nonEmpty('The session a `pinned` run uses. Also spelled `session_id`.')),
      filter: described('Only events whose fields match: a map of string to string.', {
        type: 'object',
        additionalProperties: { type: 'string' },
      }),
      prompt: nonEmpty('The prompt the agent gets. A trigger needs `prompt` or `prompt_template`.'),
      prompt_template: nonEmpty(
        'A prompt template filled in from the event. A trigger needs `prompt` or `prompt_template`.',
      ),
      cron: {
        ...nonEmpty('A cron expression. A `cron` trigger needs one of `cron`, `schedule`, `run_at`, `runAt`.'),
        examples: ['0 3 * * *'],
      },
      schedule: nonEmpty('A schedule. A `cron` trigger needs one of `cron`, `schedule`, `run_at`, `runAt`.'),
      run_at: nonEmpty('A single run time. Also spelled `runAt`.'),
      runAt: alias(nonEmpty('A single run time. Also spelled `run_at`.')),
      timezone: described('The time zone of `cron`/`schedule`/`run_at`.', {
        type: 'string',
        examples: ['UTC', 'Europe/Berlin'],
      }),
      secret_env: described(
        "The environment variable holding the webhook's HMAC secret (uppercase). A `webhook` trigger needs it. Also spelled `secretEnv`.",
        {
          ...ref('secretEnvName'),
          examples: ['WEBHOOK_SECRET'],
        },
      ),
      secretEnv: alias(
        described(
          "The environment variable holding the webhook's HMAC secret (uppercase). Also spelled `secret_env`.",
          ref('secretEnvName'),
        ),
      ),
      run: described('The command a `monitor` runs: non-empty, at most 1024 characters.', {
        type: 'string',
        minLength: 1,
        maxLength: 1024,
      }),
      mode: described(
        'How a `monitor` runs its command: `poll` (every `interval`) or `stream` (continuously).',
        enumOf(
          describeValues(MONITOR_MODES, {
            poll: 'Runs the command every `interval` (required).',
            stream: 'Runs the command continuously and reads its events as they come (no `interval`).',
          }),
        ),
      ),
      interval: described('How often a polling monitor runs, e.g. `5m`.', {
        ...ref('duration'),
        examples: ['5m', '1h'],
      }),
      expect_event_within: described('Report a monitor that sees no event for this long, e.g. `1h`.', {
        ...ref('duration'),
        examples: ['1h'],
      }),
    },
    allOf: [
      // Trigger rule 1: "At least one of `prompt` or `prompt_template` is required."
      {
        'x-svc-rule': 'trigger-prompt-required',
        anyOf: requireOne(['prompt', 'prompt_template'], "a trigger needs 'prompt' or 'prompt_template'"),
      },
      // Rule 2: "`type` `cron` requires at least one of `cron`, `schedule`, `run_at`, `runAt`."
      {
        'x-svc-rule': 'trigger-cron-schedule',
        if: ifType('cron'),
        then: {
          anyOf: requireOne(
            ['cron', 'schedule', 'run_at', 'runAt'],
            "a cron trigger needs one of 'cron', 'schedule', 'run_at' or 'runAt'",
          ),
        },
      },
      // Rule 3: "`type` `webhook` requires `secret_env` or `secretEnv`."
      {
        'x-svc-rule': 'trigger-webhook-secret',
        if: ifType('webhook'),
        then: {
          anyOf: requireOne(
            ['secret_env', 'secretEnv'],
            "a webhook trigger needs 'secret_env' (or 'secretEnv'): the variable holding its HMAC secret",
          ),
        },
      },
      // Rule 4: "`type` `monitor` requires `run` and `mode` and forbids `cron`, `schedule`, `run_at`, `runAt`, `timezone`, `secret_env`, `secretEnv`."
      {
        'x-svc-rule': 'trigger-monitor-fields',
        if: ifType('monitor'),
        then: {
          required: ['run', 'mode'],
          errorMessage: "a monitor trigger needs 'run' (the command) and 'mode' ('poll' or 'stream')",
          properties: Object.fromEntries(
            MONITOR_FORBIDDEN_KEYS.map((key) => [key, forbidden(`a monitor trigger does not take '${key}'`)]),
          ),
        },
      },
      // Rule 5: "A monitor with `mode` `poll` requires `interval`; with `mode` `stream` it forbids `interval`."
      {
        'x-svc-rule': 'trigger-monitor-interval',
        if: ifType('monitor', { properties: { mode: { const: 'poll' } }, required: ['mode'] }),
        then: { required: ['interval'], errorMessage: "a polling monitor needs 'interval', e.g. '5m'" },
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
    ...doc(
      "A connector: gives agents tools (`<connector>.<action>`) through the platform's gateway. Keys beyond the ones listed are allowed.",
    ),
    title: 'Connector',
    defaultSnippets: [
      {
        label: 'MCP connector',
        body: {
          slug: '${1:docs}',
          provider: 'mcp',
          url: '${2:https://mcp.example.com/mcp}',
          transport: '${3|http,sse|}',
        },
      },
      {
        label: 'HTTP connector',
        body: { slug: '${1:api}', provider: 'http', base_url: '${2:https://api.example.com}' },
      },
      {
        label: 'GraphQL connector',
        body: { slug: '${1:graph}', provider: 'graphql', endpoint: '${2:https://api.example.com/graphql}' },
      },
      { label: 'managed connector', body: { slug: '${1:tracker}', provider: 'managed_a', app: '${2:app}' } },
      {
        label: 'channel connector',
        body: {
          slug: '${1|svc_slack,svc_teams,svc_email|}',
          provider: 'channel',
          platform: '${2|chat_a,chat_b,email|}',
        },
      },
    ],
    required: ['slug', 'provider'],
    properties: {
      slug: described(
        "The connector's slug; tools are named `<slug>.<action>`. `svc_slack`, `svc_teams` and `svc_email` are channel connectors; `computer` is reserved.",
        ref('slug'),
      ),
      provider: described(
        'Where the tools come from: `managed_a`, `managed_b`, `mcp`, `openapi`, `collection`, `graphql`, `http` or `channel`. (`computer` is reserved for the connector with slug `computer`.)',
        enumOf([
          ...describeValues(CONNECTOR_PROVIDERS, {
            managed_a: 'A managed app (`app`) run by the platform.',
            managed_b: 'A managed integration of the second kind.',
            mcp: 'An MCP server at `url` (`transport`: `http` or `sse`).',
            openapi: 'An HTTP API described by an OpenAPI document (`spec`).',
            collection: 'An HTTP API described by a request collection (`spec`).',
            graphql: 'A GraphQL API at `endpoint`.',
            http: 'A plain HTTP API at `base_url`.',
            channel: 'A chat or email channel (`platform`); slugs `svc_slack`, `svc_teams`, `svc_email`.',
          }),
          ...RESERVED_PROVIDERS.map(
            (provider) => [provider, `Reserved for the connector with slug \`${provider}\`.`] as const,
          ),
        ]),
      ),
      name: described('A display name (non-empty).', ref('nonEmptyString')),
      app: described('The managed app (required by provider `managed_a`).', ref('nonEmptyString')),
      url: described('The server URL (required by provider `mcp`).', ref('nonEmptyString')),
      endpoint: described('The GraphQL endpoint (required by provider `graphql`).', ref('nonEmptyString')),
      base_url: described(
        'The base URL (provider `http` needs `base_url` or `baseUrl`). Also spelled `baseUrl`.',
        ref('nonEmptyString'),
      ),
      baseUrl: alias(
        described(
          'The base URL (provider `http` needs `base_url` or `baseUrl`). Also spelled `base_url`.',
          ref('nonEmptyString'),
        ),
      ),
      transport: described(
        'How to reach an MCP server: `http` or `sse`.',
        enumOf(
          describeValues(TRANSPORTS, {
            http: 'Streamable HTTP.',
            sse: 'Server-sent events.',
          }),
        ),
      ),
      spec: described('The API description (an OpenAPI document, a collection, …).', {}),
      platform: described(
        'The channel platform: `chat_a`, `chat_b` or `email` (required by provider `channel`).',
        enumOf(
          describeValues(CHANNEL_PLATFORMS, {
            chat_a: 'The first chat platform.',
            chat_b: 'The second chat platform.',
            email: 'Email.',
          }),
        ),
      ),
      credential: byVersion<SchemaObject>(
        version,
        described("The connector's credential (any value in version 1).", {}),
        described('The credential mode; in version 2 it may only be `shared`.', { const: 'shared' }),
      ),
      authorization_strategy: described(
        'Whose account the tools act as: `project` (one shared connection, the default) or `user` (each user connects their own).',
        {
          ...enumOf(
            describeValues(AUTHORIZATION_STRATEGIES, {
              project: 'One shared connection for the whole project (the default).',
              user: 'Each user connects their own account.',
            }),
          ),
          default: 'project',
        },
      ),
      agent_scope: byVersion<SchemaObject>(
        version,
        described('Which agents may use the connector (any value in version 1).', {}),
        forbidden(
          "'agent_scope' is not allowed in svc_version 2; list the connector in each agent's 'connectors' instead",
        ),
      ),
      auth: ref('connectorAuth'),
      headers: ref('connectorHeaders'),
      policies: described('Tool-call policies: which tools always run, need approval, or are blocked.', {
        type: 'array',
        items: ref('connectorPolicy'),
      }),
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
      {
        'x-svc-rule': 'connector-provider-fields',
        if: ifProvider('http'),
        then: { anyOf: requireOne(['base_url', 'baseUrl'], "an http connector needs 'base_url' (or 'baseUrl')") },
      },
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
    title: `svc manifest, version ${v}`,
    type: 'object',
    required: byVersion(v, ['svc_version'], ['svc_version', 'default_agent', 'agents']),
    properties: {
      svc_version: described('The manifest shape: `1` or `2`. It decides which keys the rest of the file may use.', {
        const: v,
        examples: [v],
      }),
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
          agents: described('The agents: an array of agents, each with a `name`.', {
            type: 'array',
            items: ref('agentV1'),
          }),
          apps: forbidden("'apps' is not allowed in svc_version 1; apps need svc_version 2"),
          channels: described('Chat and email channels the project listens on.', {
            type: 'array',
            items: ref('channel'),
          }),
        },
        {
          default_agent: described(
            'The agent new sessions use unless told otherwise: the name of a declared, enabled agent.',
            {
              ...ref('nonEmptyString'),
              examples: ['main'],
            },
          ),
          runtime: described(
            'The agent runtime: `runtime_a` or `runtime_b`.',
            enumOf(
              describeValues(RUNTIMES, {
                runtime_a: 'The first agent runtime.',
                runtime_b: 'The second agent runtime.',
              }),
            ),
          ),
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
