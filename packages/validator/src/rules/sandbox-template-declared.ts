import type { CodeRule } from './rule.js';
import { DECLARATION_ITEM, declaredAgents, declaredTemplates, mapAt, referencesAt } from '../model/declarations.js';
import { declaredNames } from '../model/reference-helpers.js';
import { reportUndeclared } from './report-undeclared.js';
import { findEntry } from '../document/nodes.js';

export const sandboxTemplateDeclared: CodeRule<'sandbox-template-declared'> = {
  id: 'sandbox-template-declared',
  kind: 'reference',
  severity: 'warning',
  description: "`sandbox.default` and an agent's `sandbox` name a template declared in `sandbox.templates`.",
  check(context) {
    const templates = declaredTemplates(context);
    const declared = declaredNames(templates);
    const sandbox = mapAt(findEntry(context.root, 'sandbox')?.value);
    for (const reference of referencesAt(sandbox, 'default', '/sandbox')) {
      reportUndeclared(context, this.id, reference, declared, { label: 'sandbox default', kind: 'template' });
    }
    if (context.version !== 2) return;
    context.forEachItem(
      'agents',
      declaredAgents(context),
      DECLARATION_ITEM,
      (agent) => {
        for (const reference of referencesAt(mapAt(agent.node), 'sandbox', agent.path)) {
          reportUndeclared(context, this.id, reference, declared, {
            label: `agent '${agent.name}' sandbox`,
            kind: 'template',
          });
        }
      },
      declared.token,
    );
  },
};
