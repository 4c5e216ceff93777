import type { CodeRule, RuleContext } from './rule.js';
import { closestMatch } from '../suggest.js';
import { escapePointerSegment, resolveAlias, type ValueNode } from '../document/nodes.js';
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

function visit(context: RuleContext, node: ValueNode, schema: SchemaObject | undefined, pointer: string, depth: number): void {
  const resolved = resolveAlias(node);
  if (!resolved || !schema || depth > 8 || !allowsExtraKeysBelow(schema)) return;
  if (resolved.kind === 'seq') {
    const items = schema.items;
    if (items && typeof items === 'object' && !Array.isArray(items)) {
      resolved.items.forEach((item, index) => visit(context, item, items as SchemaObject, `${pointer}/${index}`, depth + 1));
    }
    return;
  }
  if (resolved.kind !== 'map') return;
  const properties = (schema.properties ?? {}) as Record<string, SchemaObject>;
  const open = schema.additionalProperties === undefined || schema.additionalProperties === true;
  const known = knownKeys(schema);
  let absent: string[] | undefined; // known keys the map does not use, computed once when needed
  for (const entry of resolved.entries) {
    if (entry.ignored || entry.merge) continue;
    const childPointer = `${pointer}/${escapePointerSegment(entry.key)}`;
    // Own keys only: `constructor` or `__proto__` in the manifest is not a declared property.
    const property = Object.hasOwn(properties, entry.key) ? properties[entry.key] : undefined;
    if (property) {
      visit(context, entry.value, property, childPointer, depth + 1);
      continue;
    }
    if (typeof schema.additionalProperties === 'object') {
      visit(context, entry.value, schema.additionalProperties as SchemaObject, childPointer, depth + 1);
      continue;
    }
    if (!open || known.length === 0 || (pointer === '' && OTHER_VERSION_KEYS.has(entry.key))) continue;
    if (!absent) {
      const present = new Set(resolved.entries.map((e) => e.key));
      absent = known.filter((key) => !present.has(key));
    }
    const suggestion = closestMatch(entry.key, absent);
    if (!suggestion) continue;
    context.report({
      code: 'possible-typo',
      message: `unknown key '${entry.key}'; did you mean '${suggestion}'? (extra keys are allowed here, so this is only a warning)`,
      path: childPointer,
      start: entry.keyStart,
      end: entry.keyEnd,
      fixes: context.renameKeyFix(childPointer, suggestion),
    });
  }
}
