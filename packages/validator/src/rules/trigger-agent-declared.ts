import type { CodeRule } from './rule.js';
import { declaredAgents, mapAt, referencesAt, TRIGGER_ITEM } from '../model/declarations.js';
import { declaredNames } from '../model/reference-helpers.js';
import { reportUndeclared } from './report-undeclared.js';
import { findEntry, resolveAlias } from '../document/nodes.js';

export const triggerAgentDeclared: CodeRule<'trigger-agent-declared'> = {
  id: 'trigger-agent-declared',
  kind: 'reference',
  severity: 'warning',
  description: "A trigger's `agent` (or `agent_name`) names a declared agent.",
  check(context) {
    const agents = declaredAgents(context);
    const declared = declaredNames(agents);
    if (agents.length === 0) return; // a manifest without agents may run the platform's default agent
    const triggers = resolveAlias(findEntry(context.root, 'triggers')?.value);
    if (triggers?.kind !== 'seq') return;
    context.forEachItem(
      'triggers',
      triggers,
      TRIGGER_ITEM,
      (item, index) => {
        const map = mapAt(item);
        for (const key of ['agent', 'agent_name']) {
          for (const reference of referencesAt(map, key, `/triggers/${index}`)) {
            reportUndeclared(context, this.id, reference, declared, { label: `trigger ${key}`, kind: 'agent' });
          }
        }
      },
      declared.token,
    );
  },
};
