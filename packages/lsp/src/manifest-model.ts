/**
 * The names a manifest declares and where it uses them: agents, connectors and sandbox
 * templates, as LSP name sites. Go to definition, find references, rename, hover and
 * reference completion all read this one index, built once per parsed document from the
 * validator's declarations index (`declarationsOf`) — the same reading the validator's
 * cross-reference rules and the git applier use.
 */
import {
  declarationsOf,
  type Declaration,
  type ManifestDocument,
  type Reference,
} from '@svc-manifest/validator/library';

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
  // The version is not asked: `agents` is read in whichever form (map or list) the file has.
  const declarations = declarationsOf(doc);
  const define = (kind: NameKind, declaration: Declaration): void => {
    // A map key always spells its name; a `name:`/`slug:` value only when written in place (not `*alias`) and not empty.
    if (!declaration.entry && (!declaration.written || declaration.name === '')) return;
    const site: NameSite = {
      kind,
      name: declaration.name,
      role: 'definition',
      start: declaration.nameStart,
      end: declaration.nameEnd,
      declaration: { start: declaration.spanStart, end: declaration.spanEnd },
    };
    sites.push(site);
    if (!definitions[kind].has(site.name)) definitions[kind].set(site.name, site);
  };
  for (const agent of declarations.agents) define('agent', agent);
  for (const connector of declarations.connectors) define('connector', connector);
  for (const template of declarations.templates) define('template', template);
  const refer = (reference: Reference): void => {
    if (!reference.kind || !reference.written || reference.name === '') return;
    sites.push({
      kind: reference.kind,
      name: reference.name,
      role: 'reference',
      start: reference.nameStart ?? reference.start,
      end: reference.nameEnd ?? reference.end,
    });
  };
  for (const reference of declarations.references) refer(reference);
  sites.sort((a, b) => a.start - b.start);
  return { sites, definitions };
}

/** Which kind of name a value at a path refers to, by the path's shape (for completion in half-typed text). */
export function referenceKindAt(segments: readonly (string | number)[]): NameKind | undefined {
  const s = segments;
  const n = s.length;
  if (n === 1 && s[0] === 'default_agent') return 'agent';
  if (n === 2 && s[0] === 'sandbox' && s[1] === 'default') return 'template';
  if (n === 3 && s[0] === 'triggers' && typeof s[1] === 'number' && (s[2] === 'agent' || s[2] === 'agent_name'))
    return 'agent';
  if (s[0] === 'agents' && n >= 3) {
    const key = s[2];
    if (n === 3 && key === 'sandbox') return 'template';
    if (
      (n === 3 || (n === 4 && typeof s[3] === 'number')) &&
      (key === 'connectors' || key === 'connectors_required' || key === 'connectors_personal')
    ) {
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
