/** `setDefaultAgent` and `setAgentScope` as edits of the manifest. */
import type { Edit } from '../applier.js';
import { RefusedError } from '../errors.js';
import { isPlainObject } from '../json.js';
import type { PathSegment } from '../manifest/changes.js';
import type { ManifestFile } from '../manifest/manifest-file.js';
import { checkScopeNames } from '../policy/scope-names.js';
import { checkName, SLUG } from '../policy/names.js';
import { editManifest, manifestVersion, readManifest } from './manifest-access.js';

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

/** Where an agent is declared: `agents.<name>` (v2 map) or `agents[i]` with that name (v1 list). */
function locateAgent(manifest: ManifestFile, name: string): { path: PathSegment[]; agent: Record<string, unknown> } {
  const value = manifest.value as Record<string, unknown>;
  const agents = value?.agents;
  if (isPlainObject(agents) && Object.prototype.hasOwnProperty.call(agents, name)) {
    const agent = agents[name];
    return { path: ['agents', name], agent: isPlainObject(agent) ? agent : {} };
  }
  if (Array.isArray(agents)) {
    const index = agents.findIndex((agent) => isPlainObject(agent) && agent.name === name);
    if (index >= 0) return { path: ['agents', index], agent: agents[index] as Record<string, unknown> };
  }
  const declared = isPlainObject(agents)
    ? Object.keys(agents)
    : Array.isArray(agents)
      ? agents.map((agent) => (isPlainObject(agent) ? String(agent.name) : '?'))
      : [];
  throw new RefusedError(
    'unknown-agent',
    `agent '${name}' is not declared in ${manifest.path}${declared.length ? ` (declared: ${declared.join(', ')})` : ' (it declares no agents)'}`,
    { file: manifest.path },
  );
}

/** Sets `default_agent`, after checking the agent is declared and enabled (svc_version 2 only). */
export function setDefaultAgentEdit(name: string): Edit<AgentChangeInfo> {
  return async (snapshot) => {
    checkName(name, 'agent name', SLUG);
    const manifest = await readManifest(snapshot);
    const version = manifestVersion(manifest.value);
    if (version !== 2) {
      throw new RefusedError(
        'unsupported-version',
        version === 1
          ? `${manifest.path} uses svc_version 1, which has no default_agent; migrate it to svc_version 2 first`
          : `${manifest.path} has no valid svc_version; default_agent needs svc_version 2`,
        { file: manifest.path },
      );
    }
    const { agent } = locateAgent(manifest, name);
    if (agent.enabled === false) {
      throw new RefusedError('agent-disabled', `agent '${name}' is disabled (enabled: false); enable it before making it the default`, { file: manifest.path });
    }
    return {
      writes: editManifest(manifest, [{ op: 'set', path: ['default_agent'], value: name }]),
      message: `svc: set default agent to ${name}`,
      info: { agent: name, manifest: manifest.path },
    };
  };
}

/** Sets an agent's `secrets` and/or `connectors` allowlists. */
export function setAgentScopeEdit(name: string, scope: AgentScope): Edit<AgentChangeInfo> {
  const fields = (['secrets', 'connectors'] as const).filter((field) => scope[field] !== undefined);
  if (fields.length === 0) throw new TypeError('setAgentScope needs secrets and/or connectors');
  for (const field of fields) checkAllowlist(field, scope[field]!);
  return async (snapshot) => {
    checkScopeNames(name, scope);
    const manifest = await readManifest(snapshot);
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
