/**
 * What a manifest declares — agents, connectors, sandbox templates, triggers — and where it
 * refers to them, read once per located tree. The cross-reference rules, the language
 * server's navigation (definition, references, rename, hover, completion) and the applier's
 * preconditions ("is agent X declared and enabled?") all ask this one index.
 */
import {
  escapePointerSegment,
  findEntry,
  pointerSegments,
  resolveAlias,
  type MapEntry,
  type MapNode,
  type ValueNode,
} from '../document/nodes.js';
import type { SvcVersion } from './versions.js';
import type { TextSource } from '../document/piece-text.js';
import { commonEnds, keptEnds, withKept, withRunReplaced, type KeptEnds } from '../document/spliced-lists.js';

export type DeclarationKind = 'agent' | 'connector' | 'template' | 'trigger';

export interface Declaration {
  kind: DeclarationKind;
  name: string;
  /** Pointer to the declared object (`/agents/main`, `/connectors/0`). */
  path: string;
  /** The same place as path segments (`['agents', 'main']`, `['connectors', 0]`), for edits. */
  segments: (string | number)[];
  /** The characters that spell the name (a map key, or a `name`/`slug` value), quotes included. */
  start: number;
  end: number;
  /** The name's characters without its quotes. */
  nameStart: number;
  nameEnd: number;
  /** False when the name comes through an alias (`slug: *x`): its text is not the name. */
  written: boolean;
  /** The declared object's node (the agent's map, the connector's map). */
  node: ValueNode;
  /** The declared object's extent: the `key: value` entry of a map-form agent, else the object. */
  spanStart: number;
  spanEnd: number;
  /** For a map-form (`svc_version` 2) agent: its entry under `agents`. */
  entry?: MapEntry;
}

export interface AgentDeclaration extends Declaration {
  kind: 'agent';
  /** `enabled: false` switches an agent off; anything else (or nothing) leaves it on. */
  enabled: boolean;
}

export type ReferenceKind = 'agent' | 'connector' | 'template';

/** A string value somewhere that should name a declaration. */
export interface Reference {
  kind?: ReferenceKind;
  name: string;
  path: string;
  start: number;
  end: number;
  /** Set by the index: the name's characters without quotes, and whether the text spells it (not an alias). */
  nameStart?: number;
  nameEnd?: number;
  written?: boolean;
}

/** What an agent's name means in a manifest, for callers that act on an agent. */
export type AgentStatus = { state: 'enabled' | 'disabled'; agent: AgentDeclaration } | { state: 'undeclared' };

export function mapAt(node: ValueNode | undefined | null): MapNode | undefined {
  const resolved = resolveAlias(node);
  return resolved?.kind === 'map' ? resolved : undefined;
}

function itemsAt(container: MapNode, key: string): { node: ValueNode; index: number }[] {
  const seq = resolveAlias(findEntry(container, key)?.value);
  return seq?.kind === 'seq' ? seq.items.map((node, index) => ({ node, index })) : [];
}

/** Offsets of a name's text without its surrounding quotes. */
export function unquoted(text: TextSource, start: number, end: number): [number, number] {
  const open = text.charCodeAt(start);
  const quoted = end - start >= 2 && (open === 34 || open === 39) && text.charCodeAt(end - 1) === open;
  return quoted ? [start + 1, end - 1] : [start, end];
}

type Span = { start: number; end: number };

/**
 * A declaration that knows its nodes and reads its offsets from them when asked: an edit moves
 * an unchanged item's nodes in place instead of parsing it again, so an unchanged item's
 * declaration is reused as it is, and an edit does not visit every declaration after it.
 */
class LocatedDeclaration implements Declaration {
  kind: DeclarationKind;
  name: string;
  path: string;
  segments: (string | number)[];
  written: boolean;
  node: ValueNode;
  entry?: MapEntry;
  enabled?: boolean;
  readonly #name: ValueNode | MapEntry;
  readonly #nameIsKey: boolean;
  readonly #quotes: number;
  readonly #span: Span;

  constructor(
    fields: Omit<Declaration, 'start' | 'end' | 'nameStart' | 'nameEnd' | 'spanStart' | 'spanEnd'>,
    name: ValueNode | MapEntry,
    quotes: number,
    span: Span,
  ) {
    this.kind = fields.kind;
    this.name = fields.name;
    this.path = fields.path;
    this.segments = fields.segments;
    this.written = fields.written;
    this.node = fields.node;
    if (fields.entry) this.entry = fields.entry;
    this.#name = name;
    this.#nameIsKey = 'keyStart' in name;
    this.#quotes = quotes;
    this.#span = span;
  }

  get start(): number {
    return this.#nameIsKey ? (this.#name as MapEntry).keyStart : (this.#name as ValueNode).start;
  }

  get end(): number {
    return this.#nameIsKey ? (this.#name as MapEntry).keyEnd : (this.#name as ValueNode).end;
  }

  get nameStart(): number {
    return this.start + this.#quotes;
  }

  get nameEnd(): number {
    return this.end - this.#quotes;
  }

  get spanStart(): number {
    return this.#span.start;
  }

  get spanEnd(): number {
    return this.#span.end;
  }
}

interface KeptList {
  items: readonly object[];
  built: (LocatedDeclaration | null | typeof THROUGH_ALIAS)[];
  list: Declaration[];
  /** Whether an item was read through an alias (then every reading reads it again). */
  throughAlias: boolean;
  /** Every item is a declaration, read directly, and none is left out: `list` holds `built` as it is. */
  complete: boolean;
}

/**
 * Declarations read from the items of a collection, reusing those of the last reading of it:
 * its items are compared by identity from both ends (an edit keeps the nodes of every item whose
 * text did not change), so only changed items are read again, and an item after an added or
 * removed one only to renumber its path. Kept by the first and the last item, and by `slot`
 * (what is read, and where).
 */
const keptLists = new WeakMap<object, Map<string, KeptList>>();

/**
 * What a list of declarations whose names are, in order, those of an earlier list (an edit
 * changed its items but no name) carries: that earlier list. Not enumerable, as a list's kept ends.
 */
const SAME_NAMES = Symbol('same names as');

/**
 * The first list, from an earlier reading of the same collection, whose names are in order
 * those of `list`: what depends only on the names (which ones repeat) holds for both. The list
 * carries it (set once, when the declarations index made it).
 */
export function sameNamesAs(list: readonly Declaration[]): readonly Declaration[] | undefined {
  return (list as { readonly [SAME_NAMES]?: readonly Declaration[] })[SAME_NAMES];
}

/** An item read through an alias: what it says can change while the item's own node does not, so it is read every time. */
const THROUGH_ALIAS = Symbol('through an alias');

function throughAlias(item: object): boolean {
  const node = 'keyStart' in item ? (item as MapEntry).value : (item as ValueNode);
  if (node.kind === 'alias') return true;
  if (node.kind !== 'map') return false;
  for (const entry of node.entries) if (entry.value.kind === 'alias' || entry.merge) return true;
  return false;
}

function readItems<T extends ValueNode | MapEntry>(
  slot: string,
  items: readonly T[],
  read: (item: T, index: number) => LocatedDeclaration | null,
  /** Whether an item's declaration counts now (a map's entry may be left out by a key repeated elsewhere); all do when absent. */
  live?: (item: T) => boolean,
  /** What the collection holding `items` carries about the list they were spliced from (see SeqNode.kept). */
  kept?: KeptEnds,
): Declaration[] {
  const n = items.length;
  if (n === 0) return [];
  const previous = keptLists.get(items[0]!)?.get(slot) ?? keptLists.get(items[n - 1]!)?.get(slot);
  // The same items array: the collection was not parsed again (an edit elsewhere), so its nodes,
  // and the declarations that read their offsets from them, are all as they were.
  if (previous && previous.items === items && !previous.throughAlias) return previous.list;
  let prefix = 0;
  let suffix = 0;
  const m = previous ? previous.items.length : 0;
  if (previous) {
    const ends = commonEnds(items, previous.items, kept);
    prefix = ends.prefix;
    // Items after an added or removed one have a new index, which their path holds.
    if (n === m) suffix = ends.suffix;
  }
  // Only the items between the kept ends are read again (an edit in one of thousands of triggers reads one).
  const middle: (LocatedDeclaration | null | typeof THROUGH_ALIAS)[] = [];
  for (let i = prefix; i < n - suffix; i++) middle.push(throughAlias(items[i]!) ? THROUGH_ALIAS : read(items[i]!, i));
  const built = previous ? withRunReplaced(previous.built, prefix, m - suffix, middle) : middle;
  // Every item a declaration read directly, none left out: the list is the readings as they are
  // (a kept complete reading has no other kind, so only the middle needs looking at).
  const complete =
    !live && (previous?.complete ? middle : built).every((found) => found !== null && found !== THROUGH_ALIAS);
  let list: Declaration[];
  /** The part of the list that can differ from the last one. */
  let from = 0;
  let to: number;
  if (complete) {
    list = built.slice() as LocatedDeclaration[];
    to = n;
    if (previous?.complete) [from, to] = [prefix, n - suffix];
  } else {
    list = [];
    for (let i = 0; i < n; i++) {
      const kept = built[i];
      const found = kept === THROUGH_ALIAS ? read(items[i]!, i) : kept;
      if (found && (!live || live(items[i]!))) list.push(found);
    }
    to = list.length;
  }
  const old = previous?.list;
  const sameLength = old !== undefined && old.length === list.length;
  let same = sameLength;
  for (let i = from; same && i < to; i++) same = list[i] === old![i];
  if (same) {
    // The same declarations as last time: the same list, so what was derived from it (the declared names) is too.
    list = old!;
  } else if (old) {
    // What reads the list item by item (kept rule results) needs only look between the kept ends.
    if (complete && previous?.complete) withKept(list, keptEnds(old, prefix, suffix));
    // Names are read only where the declaration objects differ (the edited items).
    let sameNamesHere = sameLength;
    for (let i = from; sameNamesHere && i < to; i++)
      sameNamesHere = list[i] === old[i] || list[i]!.name === old[i]!.name;
    if (sameNamesHere) Object.defineProperty(list, SAME_NAMES, { value: sameNamesAs(old) ?? old });
  }
  const state: KeptList = { items, built, list, throughAlias: !complete && built.includes(THROUGH_ALIAS), complete };
  for (const anchor of [items[0]!, items[n - 1]!]) {
    let bySlot = keptLists.get(anchor);
    if (!bySlot) keptLists.set(anchor, (bySlot = new Map()));
    bySlot.set(slot, state);
  }
  return list;
}

/** Named items of a sequence (`triggers`, `connectors`, v1 `agents`), named by `nameKey`. */
export function namedItems(
  container: MapNode | undefined,
  key: string,
  nameKey: string,
  pointer: string,
  text: TextSource = '',
  kind: DeclarationKind = 'connector',
): Declaration[] {
  if (!container) return [];
  const seq = resolveAlias(findEntry(container, key)?.value);
  if (seq?.kind !== 'seq') return [];
  const read = (node: ValueNode, index: number): LocatedDeclaration | null => {
    const map = mapAt(node);
    const nameNode = map ? findEntry(map, nameKey)?.value : undefined;
    const value = resolveAlias(nameNode);
    if (value?.kind !== 'scalar' || typeof value.value !== 'string') return null;
    const [nameStart] = unquoted(text, value.start, value.end);
    const found = new LocatedDeclaration(
      {
        kind,
        name: value.value,
        path: `${pointer}/${key}/${index}`,
        segments: [...pointerSegments(pointer), key, index],
        written: nameNode === value,
        node,
      },
      value,
      nameStart - value.start,
      map ?? node,
    );
    if (kind === 'agent') found.enabled = isEnabled(node);
    return found;
  };
  // JSON of the parts, not the parts joined: the pointer holds the manifest's keys, which may hold any separator.
  return readItems(
    JSON.stringify([kind, pointer, key, nameKey, text ? 'quoted' : 'plain']),
    seq.items,
    read,
    undefined,
    seq.kept,
  );
}

/**
 * The declarations index of one located tree. Build it with {@link declarationsOf}, which
 * keeps one per tree: every consumer of the same parse shares it.
 */
export class ManifestDeclarations {
  private cachedReferences?: Reference[];
  private readonly byKind = new Map<DeclarationKind, Declaration[]>();

  constructor(
    /** The root map, when the manifest is a map. */
    readonly root: MapNode | undefined,
    /** The version the index reads for: 1 (agents are a list), 2 (a map) or null (whichever the file has). */
    readonly version: SvcVersion | null,
    readonly text: TextSource,
  ) {}

  get agents(): AgentDeclaration[] {
    return this.kind('agent', () => this.readAgents()) as AgentDeclaration[];
  }

  get connectors(): Declaration[] {
    return this.kind('connector', () => namedItems(this.root, 'connectors', 'slug', '', this.text, 'connector'));
  }

  get templates(): Declaration[] {
    return this.kind('template', () =>
      namedItems(
        mapAt(this.root && findEntry(this.root, 'sandbox')?.value),
        'templates',
        'slug',
        '/sandbox',
        this.text,
        'template',
      ),
    );
  }

  get triggers(): Declaration[] {
    return this.kind('trigger', () => namedItems(this.root, 'triggers', 'slug', '', this.text, 'trigger'));
  }

  declarations(kind: DeclarationKind): Declaration[] {
    switch (kind) {
      case 'agent':
        return this.agents;
      case 'connector':
        return this.connectors;
      case 'template':
        return this.templates;
      case 'trigger':
        return this.triggers;
    }
  }

  /** The first declaration of `name` (a later duplicate is the duplicate rules' business). */
  find(kind: DeclarationKind, name: string): Declaration | undefined {
    return this.declarations(kind).find((declaration) => declaration.name === name);
  }

  agent(name: string): AgentDeclaration | undefined {
    return this.agents.find((agent) => agent.name === name);
  }

  /** Whether `name` is a declared agent, and whether it is enabled. */
  agentStatus(name: string): AgentStatus {
    const agent = this.agent(name);
    if (!agent) return { state: 'undeclared' };
    return { state: agent.enabled ? 'enabled' : 'disabled', agent };
  }

  /** What the spec asks before an agent becomes the default: declared, and enabled. */
  isAgentDeclaredAndEnabled(name: string): boolean {
    return this.agentStatus(name).state === 'enabled';
  }

  /**
   * Every place that names a declaration: `default_agent`, `sandbox.default`, a trigger's
   * `agent`/`agent_name`, and an agent's `sandbox` and connector lists.
   */
  get references(): Reference[] {
    if (this.cachedReferences) return this.cachedReferences;
    const references: Reference[] = [];
    const root = this.root;
    if (root) {
      const add = (kind: ReferenceKind, found: Reference[]): void => {
        for (const reference of found) references.push({ ...reference, kind });
      };
      add('agent', this.referencesAt(root, 'default_agent', ''));
      const sandbox = mapAt(findEntry(root, 'sandbox')?.value);
      add('template', this.referencesAt(sandbox, 'default', '/sandbox'));
      for (const { node, index } of itemsAt(root, 'triggers')) {
        const map = mapAt(node);
        add('agent', this.referencesAt(map, 'agent', `/triggers/${index}`));
        add('agent', this.referencesAt(map, 'agent_name', `/triggers/${index}`));
      }
      for (const agent of this.agents) {
        const map = mapAt(agent.node);
        add('template', this.referencesAt(map, 'sandbox', agent.path));
        for (const key of ['connectors', 'connectors_required', 'connectors_personal'])
          add('connector', this.referencesAt(map, key, agent.path));
      }
      references.sort((a, b) => a.start - b.start);
    }
    return (this.cachedReferences = references);
  }

  private referencesAt(map: MapNode | undefined, key: string, pointer: string): Reference[] {
    return referencesAt(map, key, pointer, this.text);
  }

  private kind(kind: DeclarationKind, read: () => Declaration[]): Declaration[] {
    let found = this.byKind.get(kind);
    if (!found) this.byKind.set(kind, (found = read()));
    return found;
  }

  private readAgents(): AgentDeclaration[] {
    if (!this.root) return [];
    const agentsNode = resolveAlias(findEntry(this.root, 'agents')?.value);
    const listForm = this.version === 1 || (this.version === null && agentsNode?.kind === 'seq');
    if (listForm) {
      return namedItems(this.root, 'agents', 'name', '', this.text, 'agent') as AgentDeclaration[];
    }
    if (agentsNode?.kind !== 'map') return [];
    const read = (entry: MapEntry): LocatedDeclaration => {
      const [nameStart] = unquoted(this.text, entry.keyStart, entry.keyEnd);
      const found = new LocatedDeclaration(
        {
          kind: 'agent',
          name: entry.key,
          path: `/agents/${escapePointerSegment(entry.key)}`,
          segments: ['agents', entry.key],
          written: true,
          node: entry.value,
          entry,
        },
        entry,
        nameStart - entry.keyStart,
        entry,
      );
      found.enabled = isEnabled(entry.value);
      return found;
    };
    // Which entries count (a repeated key is ignored) is decided afresh by every parse.
    return readItems(
      'agent|map',
      agentsNode.entries,
      read,
      (entry) => !entry.ignored && !entry.merge,
    ) as AgentDeclaration[];
  }
}

function isEnabled(node: ValueNode): boolean {
  const map = mapAt(node);
  const enabled = resolveAlias(map ? findEntry(map, 'enabled')?.value : undefined);
  return !(enabled?.kind === 'scalar' && enabled.value === false);
}

const indexes = new WeakMap<object, Map<SvcVersion | 'any', ManifestDeclarations>>();

/**
 * The declarations index of a located tree, built once per tree and version. `version`
 * says how to read `agents` (1: a list of `{ name }`, 2: a map by name); null (the default)
 * reads whichever form the file has.
 */
export function declarationsOf(
  tree: { root: ValueNode | null; source: TextSource },
  version: SvcVersion | null = null,
): ManifestDeclarations {
  const root = mapAt(tree.root);
  const key: object = root ?? tree;
  let perTree = indexes.get(key);
  if (!perTree) indexes.set(key, (perTree = new Map()));
  let index = perTree.get(version ?? 'any');
  // A tree moved on by `ManifestDocument.update()` keeps its nodes but not its text: read it again.
  if (!index || index.text !== tree.source)
    perTree.set(version ?? 'any', (index = new ManifestDeclarations(root, version, tree.source)));
  return index;
}

/** String values of a scalar or a list at `key` of `map`, as references. */
export function referencesAt(
  map: MapNode | undefined,
  key: string,
  pointer: string,
  text: TextSource = '',
): Reference[] {
  if (!map) return [];
  const node = findEntry(map, key)?.value;
  const value = resolveAlias(node);
  const reference = (
    scalarNode: ValueNode,
    scalar: { value: unknown; start: number; end: number },
    path: string,
  ): Reference => {
    const [nameStart, nameEnd] = unquoted(text, scalar.start, scalar.end);
    return {
      name: scalar.value as string,
      path,
      start: scalar.start,
      end: scalar.end,
      nameStart,
      nameEnd,
      written: scalarNode === scalar,
    };
  };
  if (node && value?.kind === 'scalar' && typeof value.value === 'string')
    return [reference(node, value, `${pointer}/${key}`)];
  if (value?.kind === 'seq') {
    return value.items.flatMap((item, index) => {
      const scalar = resolveAlias(item);
      return scalar?.kind === 'scalar' && typeof scalar.value === 'string'
        ? [reference(item, scalar, `${pointer}/${key}/${index}`)]
        : [];
    });
  }
  return [];
}

/** A node as an item of its collection, for `RuleContext.forEachItem` (`pointer` is the collection's, then the index). */
export const NODE_ITEM = { anchor: (node: ValueNode): ValueNode => node };

/** A trigger node as an item of `triggers`, for `RuleContext.forEachItem` (made once: anchors are kept per anchor function). */
export const TRIGGER_ITEM = { ...NODE_ITEM, pointer: (_item: unknown, index: number) => `/triggers/${index}` };

/** A declaration as an item of its collection, for `RuleContext.forEachItem`: the agent's entry (or the item's node) and its path. */
export const DECLARATION_ITEM = {
  anchor: (declaration: Declaration): MapEntry | ValueNode => declaration.entry ?? declaration.node,
  pointer: (declaration: Declaration): string => declaration.path,
};

// ---- the rules' view: the index of the tree being checked, for its version -------------

interface RuleTree {
  root: MapNode;
  version: SvcVersion;
  document: { source: TextSource };
}

export function declaredAgents(context: RuleTree): AgentDeclaration[] {
  return declarationsOf({ root: context.root, source: context.document.source }, context.version).agents;
}

export function declaredConnectors(context: RuleTree): Declaration[] {
  return declarationsOf({ root: context.root, source: context.document.source }, context.version).connectors;
}

export function declaredTemplates(context: RuleTree): Declaration[] {
  return declarationsOf({ root: context.root, source: context.document.source }, context.version).templates;
}

export function declaredTriggers(context: RuleTree): Declaration[] {
  return declarationsOf({ root: context.root, source: context.document.source }, context.version).triggers;
}
