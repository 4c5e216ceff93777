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
      const first = new Map<string, Declaration>();
      for (const declaration of declarations) {
        const earlier = first.get(declaration.name);
        if (!earlier) {
          first.set(declaration.name, declaration);
          continue;
        }
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
