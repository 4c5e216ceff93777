import type { CodeRule } from './rule.js';
import {
  declaredConnectors,
  declaredTemplates,
  declaredTriggers,
  namedItems,
  sameNamesAs,
  type Declaration,
} from '../model/declarations.js';

export const duplicateSlug: CodeRule<'duplicate-slug'> = {
  id: 'duplicate-slug',
  kind: 'reference',
  severity: 'warning',
  description:
    'Two triggers, connectors, templates or (version 1) agents share a slug or name; references to it are ambiguous.',
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
 * Each declaration whose name an earlier one has, with that earlier one, as indexes. Found once
 * per list of names: the declarations index gives the same list again while no item of its
 * collection changed, and tells when an edit changed items but no name (`sameNamesAs`).
 */
const found = new WeakMap<readonly Declaration[], [number, number][]>();
function repeated(declarations: readonly Declaration[]): [Declaration, Declaration][] {
  const names = sameNamesAs(declarations) ?? declarations;
  let pairs = found.get(names);
  if (!pairs) {
    pairs = [];
    const first = new Map<string, number>();
    declarations.forEach((declaration, index) => {
      const earlier = first.get(declaration.name);
      if (earlier !== undefined) pairs!.push([index, earlier]);
      else first.set(declaration.name, index);
    });
    found.set(names, pairs);
  }
  return pairs.map(([index, earlier]) => [declarations[index]!, declarations[earlier]!]);
}
