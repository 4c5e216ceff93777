/**
 * `svc-manifest migrate --to 2`: a version 1 manifest becomes version 2 in the same format,
 * through the editing engine (so comments, key order, quoting and blank lines survive):
 *
 * - `svc_version` becomes 2;
 * - the `agents` list becomes a map keyed by each agent's `name`, the other keys kept;
 * - `default_agent` is the `--default-agent` name (declared; when the file declares no agents,
 *   the flag declares that agent with an empty body), else the only agent.
 *
 * What version 2 has no counterpart for is never dropped: `channels`, an agent's `env`,
 * version-1-only `svc_cli` names, a connector `credential` other than `shared`, a connector
 * `agent_scope`, and anything else whose result would not validate as version 2 each get a
 * located error (all in one run), and nothing is migrated.
 */
import { SVC_CLI_PERMISSIONS_V1_ONLY } from '@svc-manifest/schema';
import type { Diagnostic, RawDiagnostic } from './diagnostic.js';
import { ManifestDocument } from './document/manifest-document.js';
import { pointerSegments, resolveAlias, toPointer } from './document/nodes.js';
import { editManifest } from './edit/engine.js';
import { ManifestEditError, type ManifestChange } from './edit/changes.js';
import { cloneJson, isPlainObject } from './edit/json.js';
import { ManifestLocator } from './locator.js';
import { validateDocument } from './validate.js';
import { severityOf } from './rules/index.js';

export interface MigrateOptions {
  /** The version to migrate to; 2 is the only one. */
  to: 2;
  /** The agent `default_agent` names (`--default-agent`). */
  defaultAgent?: string;
}

export interface MigrateResult {
  /** Whether the manifest was migrated (or already was version 2). */
  ok: boolean;
  /** Whether `text` differs from the input. */
  changed: boolean;
  /** The migrated text; the input text when refused or already version 2. */
  text: string;
  /** Refused: why, located in the input. Migrated: what the result still warns about. */
  diagnostics: Diagnostic[];
}

/** Codes of the refusals (rules of kind `migrate` in reported-elsewhere.ts); each has a page docs/rules/<code>.md. */
export const MIGRATE_CODES = [
  'migrate-channels',
  'migrate-agent-env',
  'migrate-svc-cli',
  'migrate-connector-credential',
  'migrate-connector-agent-scope',
  'migrate-default-agent',
  'migrate-agent-name',
  'migrate-invalid-result',
  'migrate-unsupported',
] as const;
export type MigrateCode = (typeof MIGRATE_CODES)[number];

const V1_ONLY = new Set<string>(SVC_CLI_PERMISSIONS_V1_ONLY as readonly string[]);

/** Keys whose diagnostics point at the key rather than the value. */
const KEY_CODES = new Set([
  'unknown-key',
  'forbidden-key',
  'deprecated-key',
  'possible-typo',
  'version-specific-key',
  'invalid-key-name',
]);

export function migrateManifest(source: ManifestDocument, options: MigrateOptions): MigrateResult {
  const validation = validateDocument(source);
  const errors = validation.diagnostics.filter((d) => d.severity === 'error');
  // A manifest that is not valid as what it says it is gets those errors first.
  if (errors.length > 0) return unchanged(source, false, errors);
  if (validation.version === 2) return unchanged(source, true, []);
  const root = resolveAlias(source.root);
  const value = source.value;
  if (root?.kind !== 'map' || !isPlainObject(value)) return unchanged(source, false, []);

  const at = new ManifestLocator(source, root);
  const problems: RawDiagnostic[] = [];
  const migration: Migration = {
    source,
    value,
    at,
    names: agentNames(value),
    agentsRange: 'agents' in value ? at.keyRange('/agents') : at.objectRange(''),
    refuse: (code, pointer, range, message) => {
      problems.push({ code, message, path: pointer, start: range[0], end: range[1] });
    },
  };
  // What the version 2 check sees: the value with every refused part taken out, so each problem is reported once.
  const check = cloneJson<Record<string, unknown>>(value);
  refuseChannels(migration, check);
  refuseAgentParts(migration, check);
  refuseConnectorParts(migration, check);
  const { defaultAgent, declaresIt } = chooseDefaultAgent(migration, options.defaultAgent);
  const changes = migrationChanges(value, defaultAgent, declaresIt);
  refuseInvalidResult(migration, check, changes, defaultAgent ?? migration.names[0] ?? 'agent');

  if (problems.length > 0) return unchanged(source, false, locateAll(source, problems));
  return applyMigration(migration, changes);
}

/** The result that leaves the text as it is. */
function unchanged(source: ManifestDocument, ok: boolean, diagnostics: Diagnostic[]): MigrateResult {
  return { ok, changed: false, text: source.text, diagnostics };
}

/** A version 1 manifest being migrated, and where its refusals go. */
interface Migration {
  source: ManifestDocument;
  value: Record<string, unknown>;
  at: ManifestLocator;
  /** Each agent's name, in the order of the `agents` list (duplicates included; items that are no object left out). */
  names: string[];
  /** Where a refusal about the agents as a whole points: the `agents` key, else the whole manifest. */
  agentsRange: [number, number];
  refuse: (code: MigrateCode, pointer: string, range: [number, number], message: string) => void;
}

function agentNames(value: Record<string, unknown>): string[] {
  const agents = Array.isArray(value.agents) ? (value.agents as unknown[]) : [];
  return agents.filter(isPlainObject).map((agent) => agent.name as string);
}

/** `channels`, which version 2 has no counterpart for. Like the refusals below, it takes the refused part out of `check`. */
function refuseChannels({ value, at, refuse }: Migration, check: Record<string, unknown>): void {
  if (!('channels' in value)) return;
  refuse(
    'migrate-channels',
    '/channels',
    at.keyRange('/channels'),
    "svc_version 2 has no 'channels'; set each channel up as a connector with provider 'channel', then remove 'channels'",
  );
  delete check.channels;
}

/** An agent's name used twice (version 2 keys agents by name), its `env`, and its version-1-only `svc_cli` names. */
function refuseAgentParts({ value, at, refuse }: Migration, check: Record<string, unknown>): void {
  const agents = Array.isArray(value.agents) ? (value.agents as unknown[]) : [];
  const seen = new Set<string>();
  agents.forEach((agent, index) => {
    if (!isPlainObject(agent)) return;
    const pointer = `/agents/${index}`;
    const checked = (check.agents as Record<string, unknown>[])[index]!;
    const name = agent.name as string;
    if (seen.has(name)) {
      refuse(
        'migrate-agent-name',
        `${pointer}/name`,
        at.valueRange(`${pointer}/name`),
        `agent name '${name}' is used twice; svc_version 2 keys agents by name`,
      );
    }
    seen.add(name);
    if ('env' in agent) {
      refuse(
        'migrate-agent-env',
        `${pointer}/env`,
        at.keyRange(`${pointer}/env`),
        `agent '${name}': svc_version 2 agents have no 'env'; declare the names in the top-level 'env' (or the agent's 'secrets'), then remove it`,
      );
      delete checked.env;
    }
    if (Array.isArray(agent.svc_cli)) {
      agent.svc_cli.forEach((permission, j) => {
        if (typeof permission !== 'string' || !V1_ONLY.has(permission)) return;
        refuse(
          'migrate-svc-cli',
          `${pointer}/svc_cli/${j}`,
          at.valueRange(`${pointer}/svc_cli/${j}`),
          `agent '${name}': svc_cli permission '${permission}' exists only in svc_version 1`,
        );
      });
      checked.svc_cli = (checked.svc_cli as unknown[]).filter(
        (permission) => typeof permission !== 'string' || !V1_ONLY.has(permission),
      );
    }
  });
}

/** A connector's `credential` other than `shared`, and its `agent_scope`. */
function refuseConnectorParts({ value, at, refuse }: Migration, check: Record<string, unknown>): void {
  const connectors = Array.isArray(value.connectors) ? (value.connectors as unknown[]) : [];
  connectors.forEach((connector, index) => {
    if (!isPlainObject(connector)) return;
    const pointer = `/connectors/${index}`;
    const checked = (check.connectors as Record<string, unknown>[])[index]!;
    const slug = typeof connector.slug === 'string' ? connector.slug : String(index);
    if ('credential' in connector && connector.credential !== 'shared') {
      refuse(
        'migrate-connector-credential',
        `${pointer}/credential`,
        at.valueRange(`${pointer}/credential`),
        `connector '${slug}': svc_version 2 accepts only credential 'shared', not ${JSON.stringify(connector.credential)}`,
      );
      delete checked.credential;
    }
    if ('agent_scope' in connector) {
      refuse(
        'migrate-connector-agent-scope',
        `${pointer}/agent_scope`,
        at.keyRange(`${pointer}/agent_scope`),
        `connector '${slug}': svc_version 2 has no 'agent_scope'; list the connector in each agent's 'connectors' instead`,
      );
      delete checked.agent_scope;
    }
  });
}

/**
 * The agent version 2's `default_agent` names: the flag's (which declares it when the file
 * declares no agents), else a declared `default_agent`, else the only agent; refused otherwise.
 */
function chooseDefaultAgent(
  { value, at, names, agentsRange, refuse }: Migration,
  flag: string | undefined,
): { defaultAgent?: string; declaresIt: boolean } {
  const existing = value.default_agent;
  const declared = names.length ? `declared: ${names.map((n) => `'${n}'`).join(', ')}` : 'the file declares no agents';
  if (flag !== undefined) {
    if (names.length === 0) return { defaultAgent: flag, declaresIt: true };
    if (names.includes(flag)) return { defaultAgent: flag, declaresIt: false };
    refuse(
      'migrate-default-agent',
      '/agents',
      agentsRange,
      `--default-agent '${flag}' is not a declared agent (${declared})`,
    );
  } else if (typeof existing === 'string' && names.includes(existing)) {
    return { defaultAgent: existing, declaresIt: false };
  } else if (existing !== undefined) {
    refuse(
      'migrate-default-agent',
      '/default_agent',
      at.valueRange('/default_agent'),
      `default_agent ${JSON.stringify(existing)} is not a declared agent (${declared}); fix it or pass --default-agent`,
    );
  } else if (names.length === 1) {
    return { defaultAgent: names[0], declaresIt: false };
  } else {
    refuse(
      'migrate-default-agent',
      names.length ? '/agents' : '',
      agentsRange,
      `svc_version 2 needs a default_agent: pass --default-agent NAME (${declared})`,
    );
  }
  return { defaultAgent: undefined, declaresIt: false };
}

/** The edits that make version 2: the version, the agents keyed by name (or the one the flag declares), the default agent. */
function migrationChanges(
  value: Record<string, unknown>,
  defaultAgent: string | undefined,
  declaresIt: boolean,
): ManifestChange[] {
  const changes: ManifestChange[] = [{ op: 'set', path: ['svc_version'], value: 2 }];
  if (Array.isArray(value.agents) && value.agents.length > 0)
    changes.push({ op: 'keyBy', path: ['agents'], key: 'name' });
  if (declaresIt && defaultAgent !== undefined)
    changes.push({ op: 'set', path: ['agents'], value: { [defaultAgent]: {} } });
  if (defaultAgent !== undefined && value.default_agent !== defaultAgent)
    changes.push({ op: 'set', path: ['default_agent'], value: defaultAgent, after: 'svc_version' });
  return changes;
}

/**
 * Anything else that would not validate as version 2: the changes applied to `check` (the
 * refused parts already out) are validated, and each error is refused where it comes from.
 */
function refuseInvalidResult(
  migration: Migration,
  check: Record<string, unknown>,
  changes: readonly ManifestChange[],
  standInDefaultAgent: string,
): void {
  const { value, at, names, agentsRange, refuse } = migration;
  try {
    const intended = applyForCheck(check, changes, standInDefaultAgent);
    const result = validateDocument(ManifestDocument.parse(JSON.stringify(intended), { format: 'yaml' }));
    for (const diagnostic of result.diagnostics) {
      if (diagnostic.severity !== 'error') continue;
      const pointer = mapBack(diagnostic.path, names, value);
      const range = KEY_CODES.has(diagnostic.code) ? at.keyRange(pointer) : at.valueRange(pointer);
      refuse('migrate-invalid-result', pointer, range, `as svc_version 2: ${diagnostic.message} (${diagnostic.code})`);
    }
  } catch (error) {
    if (!(error instanceof ManifestEditError)) throw error;
    refuse('migrate-unsupported', '/agents', agentsRange, error.message);
  }
}

/** The changes made to the text, refused when the editing engine cannot make them or the result is not a valid version 2 manifest. */
function applyMigration(
  { source, value, at, names, agentsRange }: Migration,
  changes: readonly ManifestChange[],
): MigrateResult {
  let edited;
  try {
    edited = editManifest(source, changes);
  } catch (error) {
    if (!(error instanceof ManifestEditError)) throw error;
    return unchanged(
      source,
      false,
      locateAll(source, [
        {
          code: 'migrate-unsupported',
          message: `cannot migrate this text in place: ${error.message}`,
          path: '/agents',
          start: agentsRange[0],
          end: agentsRange[1],
        },
      ]),
    );
  }
  const after = validateDocument(edited.document);
  const left = after.diagnostics.filter((d) => d.severity === 'error');
  if (left.length > 0 || after.version !== 2) {
    const raw = left.map((d): RawDiagnostic => {
      const pointer = mapBack(d.path, names, value);
      const [start, end] = at.valueRange(pointer);
      return {
        code: 'migrate-invalid-result',
        message: `as svc_version 2: ${d.message} (${d.code})`,
        path: pointer,
        start,
        end,
      };
    });
    return unchanged(source, false, locateAll(source, raw));
  }
  return { ok: true, changed: edited.text !== source.text, text: edited.text, diagnostics: after.diagnostics };
}

/** The changes on the checked value (refused parts already out), with a stand-in default agent. */
function applyForCheck(
  check: Record<string, unknown>,
  changes: readonly ManifestChange[],
  defaultAgent: string,
): unknown {
  const out = cloneJson(check);
  out.svc_version = 2;
  for (const change of changes) {
    if (change.op === 'keyBy' && Array.isArray(out.agents)) {
      const map: Record<string, unknown> = {};
      for (const agent of out.agents as Record<string, unknown>[]) {
        const { name, ...body } = agent;
        if (typeof name === 'string' && !Object.prototype.hasOwnProperty.call(map, name))
          Object.defineProperty(map, name, { value: body, enumerable: true, writable: true, configurable: true });
      }
      out.agents = map;
    } else if (change.op === 'set' && change.path.length === 1) {
      out[change.path[0] as string] = cloneJson(change.value);
    }
  }
  if (out.default_agent === undefined) out.default_agent = defaultAgent;
  if (out.agents === undefined || (Array.isArray(out.agents) && out.agents.length === 0))
    out.agents = { [defaultAgent]: {} };
  return out;
}

/** A pointer into the migrated value, as a pointer into the version 1 value (`/agents/<name>` → `/agents/<index>`). */
function mapBack(pointer: string, names: readonly string[], original: Record<string, unknown>): string {
  const segments = pointerSegments(pointer);
  if (segments[0] === 'agents' && segments.length >= 2 && Array.isArray(original.agents)) {
    const index = names.indexOf(segments[1]!);
    return toPointer(index >= 0 ? ['agents', String(index), ...segments.slice(2)] : ['agents']);
  }
  if (segments.length >= 1 && !(segments[0]! in original)) return '';
  return toPointer(segments);
}

function locateAll(document: ManifestDocument, raw: RawDiagnostic[]): Diagnostic[] {
  return raw
    .sort((a, b) => a.start - b.start || a.end - b.end)
    .map((d) => document.lines.locate(d, severityOf(d.code)));
}
