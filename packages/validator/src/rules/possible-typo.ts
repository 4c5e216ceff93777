import type { CodeRule, RuleContext } from './rule.js';
import { closestMatch } from '../suggest.js';
import { escapePointerSegment, resolveAlias, type MapEntry, type ValueNode } from '../document/nodes.js';
import { allowsExtraKeysBelow, knownKeys } from '../schema-keys.js';

type SchemaObject = Record<string, unknown>;

/** Top-level keys of the other version: version-specific-key speaks about those. */
const OTHER_VERSION_KEYS = new Set(['channels', 'default_agent', 'runtime']);

export const possibleTypo: CodeRule<'possible-typo'> = {
  id: 'possible-typo',
  kind: 'style',
  severity: 'warning',
  description: 'An unknown key in an object that allows extra keys (the top level, triggers, connectors, apps, …) that looks like a misspelt known key.',
  check(context) {
    visit(context, context.root, context.schema, '', 0);
  },
};

/** Below the top level and its collections' items, an item's check is not kept on its own (its parent's is). */
const KEPT_DEPTH = 2;

function visit(context: RuleContext, node: ValueNode, schema: SchemaObject | undefined, pointer: string, depth: number): void {
  const resolved = resolveAlias(node);
  if (!resolved || !schema || depth > 8 || !allowsExtraKeysBelow(schema)) return;
  if (resolved.kind === 'seq') {
    const items = schema.items;
    if (items && typeof items === 'object' && !Array.isArray(items)) {
      const visitOne = (item: ValueNode, index: number) => visit(context, item, items as SchemaObject, `${pointer}/${index}`, depth + 1);
      if (depth < KEPT_DEPTH)
        context.forEachItem(pointer, resolved.items, { anchor: (item) => item, pointer: (_item, index) => `${pointer}/${index}` }, visitOne);
      else resolved.items.forEach(visitOne);
    }
    return;
  }
  if (resolved.kind !== 'map') return;
  const properties = (schema.properties ?? {}) as Record<string, SchemaObject>;
  const open = schema.additionalProperties === undefined || schema.additionalProperties === true;
  const known = knownKeys(schema);
  let absent: string[] | undefined; // known keys the map does not use, computed once when needed
  const children: { entry: MapEntry; schema: SchemaObject }[] = [];
  for (const entry of resolved.entries) {
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
      const present = new Set(resolved.entries.map((e) => e.key));
      absent = known.filter((key) => !present.has(key));
    }
    const suggestion = closestMatch(entry.key, absent);
    if (!suggestion) continue;
    const childPointer = `${pointer}/${escapePointerSegment(entry.key)}`;
    context.report({
      code: 'possible-typo',
      message: `unknown key '${entry.key}'; did you mean '${suggestion}'? (extra keys are allowed here, so this is only a warning)`,
      path: childPointer,
      start: entry.keyStart,
      end: entry.keyEnd,
      fixes: context.renameKeyFix(childPointer, suggestion),
    });
  }
  const pointerOf = (child: { entry: MapEntry }) => `${pointer}/${escapePointerSegment(child.entry.key)}`;
  const visitChild = (child: { entry: MapEntry; schema: SchemaObject }) => visit(context, child.entry.value, child.schema, pointerOf(child), depth + 1);
  if (depth < KEPT_DEPTH) context.forEachItem(pointer, children, { anchor: (child) => child.entry, pointer: pointerOf }, visitChild);
  else children.forEach(visitChild);
}
