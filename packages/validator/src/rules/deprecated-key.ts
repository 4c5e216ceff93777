import type { CodeRule } from './rule.js';
import { DECLARATION_ITEM, declaredAgents, mapAt } from '../model/declarations.js';
import { findEntry } from '../document/nodes.js';

export const deprecatedKey: CodeRule<'deprecated-key'> = {
  id: 'deprecated-key',
  kind: 'style',
  severity: 'warning',
  description: 'A deprecated key: `connectors_personal` is the old name of `connectors_required`.',
  spec: 'Versioning 5: "Deprecated names: `connectors_personal` (alias of `connectors_required`)".',
  check(context) {
    if (context.version !== 2) return;
    context.forEachItem('agents', declaredAgents(context), DECLARATION_ITEM, (agent) => {
      const map = mapAt(agent.node);
      const entry = map ? findEntry(map, 'connectors_personal') : undefined;
      if (!entry || !map) return;
      const path = `${agent.path}/connectors_personal`;
      const hasNewName = Boolean(findEntry(map, 'connectors_required'));
      context.report({
        code: this.id,
        message: `'connectors_personal' is deprecated; use 'connectors_required'`,
        path,
        start: entry.keyStart,
        end: entry.keyEnd,
        fixes: hasNewName ? undefined : context.renameKeyFix(path, 'connectors_required'),
      });
    });
  },
};
