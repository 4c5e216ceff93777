/**
 * The names a manifest declares and where it uses them: agents, connectors and sandbox
 * templates. Go to definition, find references, rename, hover and reference completion all
 * read this one index, built once per parsed document from the located tree.
 */
import { findEntry, resolveAlias, type ManifestDocument, type MapNode, type ValueNode } from '@svc-manifest/validator';

export type NameKind = 'agent' | 'connector' | 'template';

/** One place a name is written: its declaration or a reference to it. */
export interface NameSite {
  kind: NameKind;
  name: string;
  role: 'definition' | 'reference';
  /** Offsets of the name's text, quotes excluded. */
  start: number;
  end: number;
  /** The node that declares the thing (the agent's map, the connector's map); definitions only. */
  declaration?: { start: number; end: number };
}

export interface NameIndex {
  sites: NameSite[];
  definitions: Record<NameKind, Map<string, NameSite>>;
}

const indexCache = new WeakMap<ManifestDocument, NameIndex>();

export function nameIndex(doc: ManifestDocument): NameIndex {
  let index = indexCache.get(doc);
  if (!index) {
    index = buildIndex(doc);
    indexCache.set(doc, index);
  }
  return index;
}

/** The site whose name text contains `offset` (end inclusive, so a cursor just after a name counts). */
export function siteAt(index: NameIndex, offset: number): NameSite | undefined {
  return index.sites.find((site) => offset >= site.start && offset <= site.end);
}

/** The declaration and every reference of the name at a site. */
export function sitesOf(index: NameIndex, kind: NameKind, name: string): NameSite[] {
  return index.sites.filter((site) => site.kind === kind && site.name === name);
}

function buildIndex(doc: ManifestDocument): NameIndex {
  const sites: NameSite[] = [];
  const definitions: NameIndex['definitions'] = { agent: new Map(), connector: new Map(), template: new Map() };
  const text = doc.text;
  const root = resolveAlias(doc.root);
  if (root?.kind !== 'map') return { sites, definitions };

  const scalarSite = (node: ValueNode | undefined, kind: NameKind, role: NameSite['role'], declaration?: ValueNode): void => {
    const scalar = resolveAlias(node);
    if (!scalar || scalar.kind !== 'scalar' || typeof scalar.value !== 'string' || scalar.value === '') return;
    // An alias's text is `*name`, not the value: only name sites written in place.
    if (node !== scalar) return;
    const quoted = text[scalar.start] === '"' || text[scalar.start] === "'";
    const start = scalar.start + (quoted ? 1 : 0);
    const end = Math.max(start, scalar.end - (quoted ? 1 : 0));
    const site: NameSite = { kind, name: scalar.value, role, start, end };
    if (declaration) site.declaration = { start: declaration.start, end: declaration.end };
    sites.push(site);
    if (role === 'definition' && !definitions[kind].has(site.name)) definitions[kind].set(site.name, site);
  };
  const listSites = (node: ValueNode | undefined, kind: NameKind): void => {
    const list = resolveAlias(node);
    if (list?.kind === 'seq') for (const item of list.items) scalarSite(item, kind, 'reference');
  };
  const mapOf = (node: ValueNode | undefined): MapNode | undefined => {
    const resolved = resolveAlias(node);
    return resolved?.kind === 'map' ? resolved : undefined;
  };

  // Declarations.
  const agents = findEntry(root, 'agents');
  const agentsValue = resolveAlias(agents?.value);
  const agentMaps: MapNode[] = [];
  if (agentsValue?.kind === 'map') {
    for (const entry of agentsValue.entries) {
      if (entry.merge || entry.ignored) continue;
      const site: NameSite = {
        kind: 'agent',
        name: entry.key,
        role: 'definition',
        start: entry.keyStart + (text[entry.keyStart] === '"' || text[entry.keyStart] === "'" ? 1 : 0),
        end: entry.keyEnd - (text[entry.keyEnd - 1] === '"' || text[entry.keyEnd - 1] === "'" ? 1 : 0),
        declaration: { start: entry.start, end: entry.end },
      };
      sites.push(site);
      if (!definitions.agent.has(site.name)) definitions.agent.set(site.name, site);
      const map = mapOf(entry.value);
      if (map) agentMaps.push(map);
    }
  } else if (agentsValue?.kind === 'seq') {
    for (const item of agentsValue.items) {
      const map = mapOf(item);
      if (!map) continue;
      scalarSite(findEntry(map, 'name')?.value, 'agent', 'definition', map);
      agentMaps.push(map);
    }
  }
  const connectors = resolveAlias(findEntry(root, 'connectors')?.value);
  if (connectors?.kind === 'seq') {
    for (const item of connectors.items) {
      const map = mapOf(item);
      if (map) scalarSite(findEntry(map, 'slug')?.value, 'connector', 'definition', map);
    }
  }
  const sandbox = mapOf(findEntry(root, 'sandbox')?.value);
  const templates = resolveAlias(sandbox ? findEntry(sandbox, 'templates')?.value : undefined);
  if (templates?.kind === 'seq') {
    for (const item of templates.items) {
      const map = mapOf(item);
      if (map) scalarSite(findEntry(map, 'slug')?.value, 'template', 'definition', map);
    }
  }

  // References.
  scalarSite(findEntry(root, 'default_agent')?.value, 'agent', 'reference');
  if (sandbox) scalarSite(findEntry(sandbox, 'default')?.value, 'template', 'reference');
  const triggers = resolveAlias(findEntry(root, 'triggers')?.value);
  if (triggers?.kind === 'seq') {
    for (const item of triggers.items) {
      const map = mapOf(item);
      if (!map) continue;
      scalarSite(findEntry(map, 'agent')?.value, 'agent', 'reference');
      scalarSite(findEntry(map, 'agent_name')?.value, 'agent', 'reference');
    }
  }
  for (const agent of agentMaps) {
    scalarSite(findEntry(agent, 'sandbox')?.value, 'template', 'reference');
    listSites(findEntry(agent, 'connectors')?.value, 'connector');
    listSites(findEntry(agent, 'connectors_required')?.value, 'connector');
    listSites(findEntry(agent, 'connectors_personal')?.value, 'connector');
  }
  sites.sort((a, b) => a.start - b.start);
  return { sites, definitions };
}

/** Which kind of name a value at a path refers to, by the path's shape (for completion in half-typed text). */
export function referenceKindAt(segments: readonly (string | number)[]): NameKind | undefined {
  const s = segments;
  const n = s.length;
  if (n === 1 && s[0] === 'default_agent') return 'agent';
  if (n === 2 && s[0] === 'sandbox' && s[1] === 'default') return 'template';
  if (n === 3 && s[0] === 'triggers' && typeof s[1] === 'number' && (s[2] === 'agent' || s[2] === 'agent_name')) return 'agent';
  if (s[0] === 'agents' && n >= 3) {
    const key = s[2];
    if (n === 3 && key === 'sandbox') return 'template';
    if ((n === 3 || (n === 4 && typeof s[3] === 'number')) && (key === 'connectors' || key === 'connectors_required' || key === 'connectors_personal')) {
      return 'connector';
    }
  }
  return undefined;
}

/**
 * Whether a name site can be at this path (a declaration or a reference), so callers can
 * skip building the index for offsets that are not on a name. `onKey`: the offset is on the
 * last segment's key (only version 2 agents are declared by a key).
 */
export function mayHoldName(segments: readonly (string | number)[], onKey: boolean): boolean {
  const s = segments;
  if (onKey) return s.length === 2 && s[0] === 'agents' && typeof s[1] === 'string';
  if (referenceKindAt(s)) return true;
  if (s.length === 3 && typeof s[1] === 'number') {
    if (s[0] === 'agents' && s[2] === 'name') return true;
    if (s[0] === 'connectors' && s[2] === 'slug') return true;
  }
  return s.length === 4 && s[0] === 'sandbox' && s[1] === 'templates' && typeof s[2] === 'number' && s[3] === 'slug';
}
