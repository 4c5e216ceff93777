/**
 * The patterns and name lists of the "Project manifest" section of the platform spec,
 * written once. Every pattern is an ECMA-262 regular expression that also means the same in
 * Python's `re`, so any JSON Schema validator gives the same verdict. Two differences between
 * the engines shape how they are written:
 * - `$` also matches just before a final line feed in Python (`name\n` would pass), so a
 *   pattern ends with {@link END} ("no character follows"), which both engines read alike.
 * - `.` does not match CR, U+2028 or U+2029 in ECMA-262 but does in Python, so "any character"
 *   is written `[\s\S]`.
 * `^` (no multiline flag) means the start of the string in both.
 */

/** The end of the string, read the same by ECMA-262 and Python's `re` (unlike `$`). */
export const END = '(?![\\s\\S])';

/** "up to 128 characters, pattern `[a-z0-9][a-z0-9_-]{0,127}`" — slugs, agent names, template slugs, app names. */
export const SLUG_PATTERN = `^[a-z0-9][a-z0-9_-]{0,127}${END}`;

/** `env` names: "letters, digits, underscore, not starting with a digit". */
export const ENV_NAME_PATTERN = `^[A-Za-z_][A-Za-z0-9_]*${END}`;

/** `secret_env` / `secretEnv`: "uppercase letters, digits, underscore, not starting with a digit". */
export const SECRET_ENV_PATTERN = `^[A-Z_][A-Z0-9_]*${END}`;

/**
 * A relative path: "must not start with `/` and must not contain a `..` segment" (non-empty is
 * `minLength: 1` beside it, so an empty path gets its own message).
 * Backslashes count as separators too, so `..\x` and `\x` are refused as well.
 */
export const RELATIVE_PATH_PATTERN = `^(?![/\\\\])(?!(?:[\\s\\S]*[/\\\\])?\\.\\.(?:[/\\\\]|${END}))`;

/** `interval`, `expect_event_within`: "positive integer followed by `s`, `m`, `h` or `d`". */
export const DURATION_PATTERN = `^[1-9][0-9]*[smhd]${END}`;

/** `enabled` as a string: "true/false/1/0/yes/no/on/off in any letter case". */
export const ENABLED_STRING_PATTERN = `^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|1|0|[Yy][Ee][Ss]|[Nn][Oo]|[Oo][Nn]|[Oo][Ff][Ff])${END}`;

/** Header names: 1 to 128 characters "from the HTTP token character set" (RFC 9110 tchar). */
export const HEADER_NAME_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}" + END;

/** Header values: "no carriage return or line feed". */
export const HEADER_VALUE_PATTERN = `^[^\\r\\n]*${END}`;

/** `readiness_path`: "string starting with `/`". */
export const ABSOLUTE_URL_PATH_PATTERN = '^/';

export const TRIGGER_TYPES = ['cron', 'webhook', 'monitor'] as const;
export const SESSION_MODES = ['fresh', 'reuse', 'pinned', 'keyed'] as const;
export const MONITOR_MODES = ['poll', 'stream'] as const;
export const CONNECTOR_PROVIDERS = [
  'managed_a',
  'managed_b',
  'mcp',
  'openapi',
  'collection',
  'graphql',
  'http',
  'channel',
] as const;
/** Connector rule 1 names a provider `computer` that the provider list does not: it is reserved for slug `computer`. */
export const RESERVED_PROVIDERS = ['computer'] as const;
export const CHANNEL_SLUGS = ['svc_slack', 'svc_teams', 'svc_email'] as const;
export const TRANSPORTS = ['http', 'sse'] as const;
export const CHANNEL_PLATFORMS = ['chat_a', 'chat_b', 'email'] as const;
export const AUTHORIZATION_STRATEGIES = ['project', 'user'] as const;
export const AUTH_TYPES = [
  'bearer',
  'basic',
  'custom',
  'api_key',
  'oauth1',
  'hmac',
  'aws_sigv4',
  'mtls',
  'none',
] as const;
export const POLICY_ACTIONS = ['always_run', 'require_approval', 'block'] as const;
export const RUNTIMES = ['runtime_a', 'runtime_b'] as const;
export const WORKSPACES = ['runtime', 'read', 'branch'] as const;
export const APP_TYPES = ['static', 'bundle', 'dockerfile', 'oci_image'] as const;
export const RESERVED_APP_PORTS = [7331, 8080] as const;
export const SANDBOX_FORBIDDEN_KEYS = [
  'image',
  'dockerfile',
  'slug',
  'cpu',
  'memory',
  'disk',
  'entrypoint',
  'context',
  'context_dir',
  'gpu',
] as const;
export const MONITOR_FORBIDDEN_KEYS = [
  'cron',
  'schedule',
  'run_at',
  'runAt',
  'timezone',
  'secret_env',
  'secretEnv',
] as const;

/** `svc_cli` permission names accepted by both versions. */
export const SVC_CLI_PERMISSIONS = [
  'project.read',
  'project.write',
  'project.delete',
  'project.session.read',
  'project.session.start',
  'project.session.stop',
  'project.session.bindings.write',
  'project.members.read',
  'project.members.manage',
  'project.trigger.read',
  'project.trigger.create',
  'project.trigger.update',
  'project.trigger.delete',
  'project.trigger.fire',
  'project.gateway.logs.read',
  'project.gateway.spend.read',
  'project.gateway.budget.set',
  'project.gateway.keys.manage',
  'project.agent.read',
  'project.agent.write',
  'project.skill.read',
  'project.skill.write',
  'project.command.read',
  'project.command.write',
  'project.file.read',
  'project.file.write',
  'project.customize.read',
  'project.customize.write',
  'project.gitops.read',
  'project.gitops.push',
  'project.gitops.merge',
  'project.gitops.ref.any',
  'project.gitops.ref.delete',
  'project.secret.read',
  'project.secret.write',
  'project.connector.read',
  'project.connector.connections.manage',
  'project.connector.write',
  'project.app.read',
  'project.app.write',
  'project.app.deploy',
  'project.review.read',
  'project.review.submit',
  'project.review.act',
  'project.credentials.issue',
  'project.cr.open',
  'project.cr.merge',
] as const;

/** Names that "Version 1 additionally accepts". */
export const SVC_CLI_PERMISSIONS_V1_ONLY = [
  'project.session.exec',
  'project.gateway.routing.edit',
  'project.schedule.read',
  'project.schedule.write',
  'project.webhook.read',
  'project.webhook.write',
  'channel.read',
  'channel.connect',
  'channel.send',
  'channel.disconnect',
] as const;

export type SvcVersion = 1 | 2;
export const SVC_VERSIONS: readonly SvcVersion[] = [1, 2];

export function svcCliPermissions(version: SvcVersion): string[] {
  return version === 1 ? [...SVC_CLI_PERMISSIONS, ...SVC_CLI_PERMISSIONS_V1_ONLY] : [...SVC_CLI_PERMISSIONS];
}
