/** What a manifest declares (agents, connectors, templates), with where, for the cross-reference rules. */
import { findEntry, resolveAlias, type MapEntry, type MapNode, type ValueNode } from '../document/nodes.js';
import type { RuleContext } from './rule.js';

export interface Declaration {
  name: string;
  /** Pointer to the declared object. */
  path: string;
  /** The characters that spell the name (a map key, or a `name`/`slug` value). */
  start: number;
  end: number;
  node: ValueNode;
}

function mapAt(node: ValueNode | undefined | null): MapNode | undefined {
  const resolved = resolveAlias(node);
  return resolved?.kind === 'map' ? resolved : undefined;
}

function itemsAt(root: MapNode, key: string): { node: ValueNode; index: number }[] {
  const seq = resolveAlias(findEntry(root, key)?.value);
  return seq?.kind === 'seq' ? seq.items.map((node, index) => ({ node, index })) : [];
}

/** Named items of a sequence (`triggers`, `connectors`, v1 `agents`), named by `nameKey`. */
export function namedItems(container: MapNode | undefined, key: string, nameKey: string, pointer: string): Declaration[] {
  if (!container) return [];
  const declarations: Declaration[] = [];
  for (const { node, index } of itemsAt(container, key)) {
    const map = mapAt(node);
    const nameEntry = map ? findEntry(map, nameKey) : undefined;
    const value = resolveAlias(nameEntry?.value);
    if (value?.kind === 'scalar' && typeof value.value === 'string') {
      declarations.push({ name: value.value, path: `${pointer}/${key}/${index}`, start: value.start, end: value.end, node });
    }
  }
  return declarations;
}

type AgentDeclaration = Declaration & { enabled: boolean; entry?: MapEntry };

/** Declarations are read once per document (several rules ask), keyed by the document's root. */
const cache = new WeakMap<MapNode, Map<string, unknown>>();
function once<T>(context: RuleContext, kind: string, read: () => T): T {
  let perRoot = cache.get(context.root);
  if (!perRoot) cache.set(context.root, (perRoot = new Map()));
  if (!perRoot.has(kind)) perRoot.set(kind, read());
  return perRoot.get(kind) as T;
}

export function declaredAgents(context: RuleContext): AgentDeclaration[] {
  return once(context, 'agents', () => readAgents(context));
}

function readAgents(context: RuleContext): AgentDeclaration[] {
  if (context.version === 1) return namedItems(context.root, 'agents', 'name', '').map((d) => ({ ...d, enabled: true }));
  const agents = mapAt(findEntry(context.root, 'agents')?.value);
  if (!agents) return [];
  return agents.entries
    .filter((entry) => !entry.ignored)
    .map((entry) => {
      const enabledNode = resolveAlias(mapAt(entry.value) ? findEntry(mapAt(entry.value)!, 'enabled')?.value : undefined);
      const enabled = !(enabledNode?.kind === 'scalar' && enabledNode.value === false);
      return { name: entry.key, path: `/agents/${entry.key}`, start: entry.keyStart, end: entry.keyEnd, node: entry.value, enabled, entry };
    });
}

export function declaredConnectors(context: RuleContext): Declaration[] {
  return once(context, 'connectors', () => namedItems(context.root, 'connectors', 'slug', ''));
}

export function declaredTemplates(context: RuleContext): Declaration[] {
  return once(context, 'templates', () => namedItems(mapAt(findEntry(context.root, 'sandbox')?.value), 'templates', 'slug', '/sandbox'));
}

export function declaredTriggers(context: RuleContext): Declaration[] {
  return once(context, 'triggers', () => namedItems(context.root, 'triggers', 'slug', ''));
}

/** A reference: a string value somewhere that should name a declaration. */
export interface Reference {
  name: string;
  path: string;
  start: number;
  end: number;
}

/** String values of a scalar or a list at `key` of `map`, as references. */
export function referencesAt(map: MapNode | undefined, key: string, pointer: string): Reference[] {
  if (!map) return [];
  const value = resolveAlias(findEntry(map, key)?.value);
  if (value?.kind === 'scalar' && typeof value.value === 'string') return [{ name: value.value, path: `${pointer}/${key}`, start: value.start, end: value.end }];
  if (value?.kind === 'seq') {
    return value.items.flatMap((item, index) => {
      const scalar = resolveAlias(item);
      return scalar?.kind === 'scalar' && typeof scalar.value === 'string'
        ? [{ name: scalar.value, path: `${pointer}/${key}/${index}`, start: scalar.start, end: scalar.end }]
        : [];
    });
  }
  return [];
}

export { mapAt };
