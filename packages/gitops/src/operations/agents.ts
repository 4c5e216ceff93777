/** `setDefaultAgent` and `setAgentScope` as edits of the manifest. */
import type { Edit } from '../applier.js';
import { RefusedError } from '../errors.js';
import type { AgentDeclaration } from '@svc-manifest/validator';
import type { PathSegment } from '../manifest/changes.js';
import type { ManifestFile } from '../manifest/manifest-file.js';
import { checkScopeNames } from '../policy/scope-names.js';
import { checkName, SLUG } from '../policy/names.js';
import { editManifest, readManifest, type ManifestLocation } from './manifest-access.js';

/** An allowlist: names, or everything, or nothing. */
export type Allowlist = string[] | 'all' | 'none';

export interface AgentScope {
  secrets?: Allowlist;
  connectors?: Allowlist;
}

export interface AgentChangeInfo {
  agent: string;
  manifest: string;
}

/**
 * Where an agent is declared, read from the validator's declarations index (the same one
 * the `default-agent-declared` rule and the language server read): `agents.<name>` in a
 * version 2 map, `agents[i]` with that `name` in a version 1 list.
 */
function locateAgent(manifest: ManifestFile, name: string): { path: PathSegment[]; agent: AgentDeclaration } {
  const declarations = manifest.declarations;
  const agent = declarations.agent(name);
  if (agent) return { path: agent.segments, agent };
  const declared = declarations.agents.map((a) => a.name);
  throw new RefusedError(
    'unknown-agent',
    `agent '${name}' is not declared in ${manifest.path}${declared.length ? ` (declared: ${declared.join(', ')})` : ' (it declares no agents)'}`,
    { file: manifest.path },
  );
}

/** Sets `default_agent`, after checking the agent is declared and enabled (svc_version 2 only). */
export function setDefaultAgentEdit(name: string, location: ManifestLocation = {}): Edit<AgentChangeInfo> {
  return async (snapshot) => {
    checkName(name, 'agent name', SLUG);
    const manifest = await readManifest(snapshot, location);
    const version = manifest.version;
    if (version !== 2) {
      throw new RefusedError(
        'unsupported-version',
        version === 1
          ? `${manifest.path} uses svc_version 1, which has no default_agent; migrate it to svc_version 2 first`
          : `${manifest.path} has no valid svc_version; default_agent needs svc_version 2`,
        { file: manifest.path },
      );
    }
    // The spec's precondition, asked of the same index as the `default-agent-declared` rule.
    const { agent } = locateAgent(manifest, name);
    if (!manifest.declarations.isAgentDeclaredAndEnabled(agent.name)) {
      throw new RefusedError(
        'agent-disabled',
        `agent '${name}' is disabled (enabled: false); enable it before making it the default`,
        { file: manifest.path },
      );
    }
    return {
      writes: editManifest(manifest, [{ op: 'set', path: ['default_agent'], value: name }]),
      message: `svc: set default agent to ${name}`,
      info: { agent: name, manifest: manifest.path },
    };
  };
}

/** Sets an agent's `secrets` and/or `connectors` allowlists. */
export function setAgentScopeEdit(
  name: string,
  scope: AgentScope,
  location: ManifestLocation = {},
): Edit<AgentChangeInfo> {
  const fields = (['secrets', 'connectors'] as const).filter((field) => scope[field] !== undefined);
  if (fields.length === 0) throw new TypeError('setAgentScope needs secrets and/or connectors');
  for (const field of fields) checkAllowlist(field, scope[field]!);
  return async (snapshot) => {
    checkScopeNames(name, scope);
    const manifest = await readManifest(snapshot, location);
    const { path } = locateAgent(manifest, name);
    const changes = fields.map((field) => ({ op: 'set' as const, path: [...path, field], value: scope[field]! }));
    const summary = fields.map((field) => `${field}=${describe(scope[field]!)}`).join(', ');
    return {
      writes: editManifest(manifest, changes),
      message: `svc: set scope of agent ${name} (${summary})`,
      info: { agent: name, manifest: manifest.path },
    };
  };
}

function checkAllowlist(field: string, value: Allowlist): void {
  if (value === 'all' || value === 'none') return;
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string' || name.trim() === '')) {
    throw new TypeError(`${field} must be an array of names, 'all' or 'none'`);
  }
}

function describe(value: Allowlist): string {
  return Array.isArray(value) ? `[${value.join(',')}]` : value;
}
