import type { CodeRule, RuleContext } from './rule.js';
import { closestMatch } from '../suggest.js';
import { escapePointerSegment, resolveAlias, type MapEntry, type ValueNode } from '../document/nodes.js';
import { NODE_ITEM } from '../model/declarations.js';
import { allowsExtraKeysBelow, knownKeys } from '../schema-keys.js';

type SchemaObject = Record<string, unknown>;

/** Top-level keys of the other version: version-specific-key speaks about those. */
const OTHER_VERSION_KEYS = new Set(['channels', 'default_agent', 'runtime']);

export const possibleTypo: CodeRule<'possible-typo'> = {
  id: 'possible-typo',
  kind: 'style',
  severity: 'warning',
  description:
    'An unknown key in an object that allows extra keys (the top level, triggers, connectors, apps, …) that looks like a misspelt known key.',
  check(context) {
    visit(context, context.root, context.schema, '', 0);
  },
};

/** Below the top level and its collections' items, an item's check is not kept on its own (its parent's is). */
const KEPT_DEPTH = 2;

interface Child {
  entry: MapEntry;
  schema: SchemaObject;
}

/** A child's anchor for `forEachItem`: made once, so the anchors of a kept list of children are kept too. */
const childEntry = (child: Child): MapEntry => child.entry;

/**
 * The children of a map at a kept depth, per entries list and schema, when listing them reported
 * nothing: a collection an edit did not reach keeps its entries list, so it is not gone through
 * again, and its kept item results are found by the same list (an `agents` map of thousands of
 * entries costs a lookup per edit, not a pass).
 */
const keptChildren = new WeakMap<readonly MapEntry[], { schema: SchemaObject; children: Child[] }>();

function visit(
  context: RuleContext,
  node: ValueNode,
  schema: SchemaObject | undefined,
  pointer: string,
  depth: number,
): void {
  const resolved = resolveAlias(node);
  if (!resolved || !schema || depth > 8 || !allowsExtraKeysBelow(schema)) return;
  if (resolved.kind === 'seq') {
    const items = schema.items;
    if (items && typeof items === 'object' && !Array.isArray(items)) {
      const visitOne = (item: ValueNode, index: number) =>
        visit(context, item, items as SchemaObject, `${pointer}/${index}`, depth + 1);
      if (depth < KEPT_DEPTH)
        context.forEachItem(
          pointer,
          resolved,
          { anchor: NODE_ITEM.anchor, pointer: (_item, index) => `${pointer}/${index}` },
          visitOne,
        );
      else resolved.items.forEach(visitOne);
    }
    return;
  }
  if (resolved.kind !== 'map') return;
  const kept = depth < KEPT_DEPTH ? keptChildren.get(resolved.entries) : undefined;
  const children =
    kept?.schema === schema ? kept.children : listChildren(context, resolved.entries, schema, pointer, depth);
  const pointerOf = (child: { entry: MapEntry }) => `${pointer}/${escapePointerSegment(child.entry.key)}`;
  const visitChild = (child: Child) => visit(context, child.entry.value, child.schema, pointerOf(child), depth + 1);
  if (depth < KEPT_DEPTH)
    context.forEachItem(pointer, children, { anchor: childEntry, pointer: pointerOf }, visitChild);
  else children.forEach(visitChild);
}

/** The entries of a map the walk goes into, with their schemas; reports the unknown keys that look like a known one. */
function listChildren(
  context: RuleContext,
  entries: readonly MapEntry[],
  schema: SchemaObject,
  pointer: string,
  depth: number,
): Child[] {
  const properties = (schema.properties ?? {}) as Record<string, SchemaObject>;
  const open = schema.additionalProperties === undefined || schema.additionalProperties === true;
  const known = knownKeys(schema);
  let absent: string[] | undefined; // known keys the map does not use, computed once when needed
  const children: Child[] = [];
  let reported = false;
  for (const entry of entries) {
    if (entry.ignored || entry.merge) continue;
    // Own keys only: `constructor` or `__proto__` in the manifest is not a declared property.
    const property = Object.hasOwn(properties, entry.key) ? properties[entry.key] : undefined;
    if (property) {
      children.push({ entry, schema: property });
      continue;
    }
    if (typeof schema.additionalProperties === 'object') {
      children.push({ entry, schema: schema.additionalProperties as SchemaObject });
      continue;
    }
    if (!open || known.length === 0 || (pointer === '' && OTHER_VERSION_KEYS.has(entry.key))) continue;
    if (!absent) {
      const present = new Set(entries.map((e) => e.key));
      absent = known.filter((key) => !present.has(key));
    }
    const suggestion = closestMatch(entry.key, absent);
    if (!suggestion) continue;
    const childPointer = `${pointer}/${escapePointerSegment(entry.key)}`;
    reported = true;
    context.report({
      code: 'possible-typo',
      message: `unknown key '${entry.key}'; did you mean '${suggestion}'? (extra keys are allowed here, so this is only a warning)`,
      path: childPointer,
      start: entry.keyStart,
      end: entry.keyEnd,
      fixes: context.renameKeyFix(childPointer, suggestion),
    });
  }
  if (depth < KEPT_DEPTH && !reported) keptChildren.set(entries, { schema, children });
  return children;
}
