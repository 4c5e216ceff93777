import type { CodeRule } from './rule.js';
import { declaredConnectors, declaredTemplates, declaredTriggers, namedItems, type Declaration } from '../model/declarations.js';

export const duplicateSlug: CodeRule<'duplicate-slug'> = {
  id: 'duplicate-slug',
  kind: 'reference',
  severity: 'warning',
  description: 'Two triggers, connectors, templates or (version 1) agents share a slug or name; references to it are ambiguous.',
  check(context) {
    const groups: [string, Declaration[]][] = [
      ['trigger', declaredTriggers(context)],
      ['connector', declaredConnectors(context)],
      ['template', declaredTemplates(context)],
    ];
    if (context.version === 1) groups.push(['agent', namedItems(context.root, 'agents', 'name', '')]);
    for (const [kind, declarations] of groups) {
      for (const [declaration, earlier] of repeated(declarations)) {
        context.report({
          code: this.id,
          message: `${kind} '${declaration.name}' is declared twice; ${kind === 'agent' ? 'names' : 'slugs'} must be unique`,
          path: declaration.path,
          start: declaration.start,
          end: declaration.end,
          related: [{ message: `'${declaration.name}' first declared here`, start: earlier.start, end: earlier.end }],
        });
      }
    }
  },
};

/**
 * Each declaration whose name an earlier one has, with that earlier one. Found once per list:
 * the declarations index gives the same list again while no item of its collection changed
 * (a declaration's offsets follow its nodes, so the pairs stay true when an edit moves them).
 */
const found = new WeakMap<readonly Declaration[], [Declaration, Declaration][]>();
function repeated(declarations: readonly Declaration[]): [Declaration, Declaration][] {
  let pairs = found.get(declarations);
  if (pairs) return pairs;
  pairs = [];
  const first = new Map<string, Declaration>();
  for (const declaration of declarations) {
    const earlier = first.get(declaration.name);
    if (earlier) pairs.push([declaration, earlier]);
    else first.set(declaration.name, declaration);
  }
  found.set(declarations, pairs);
  return pairs;
}
