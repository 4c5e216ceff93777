import type { CodeRule } from './rule.js';
import { DECLARATION_ITEM, declaredAgents, declaredConnectors, mapAt, referencesAt } from '../model/declarations.js';
import { declaredNames } from '../model/reference-helpers.js';
import { reportUndeclared } from './report-undeclared.js';

export const agentConnectorDeclared: CodeRule<'agent-connector-declared'> = {
  id: 'agent-connector-declared',
  kind: 'reference',
  severity: 'warning',
  description:
    "An agent's `connectors`, `connectors_required` (and deprecated `connectors_personal`) name connectors declared under `connectors`.",
  check(context) {
    const connectors = declaredConnectors(context);
    const declared = declaredNames(connectors);
    context.forEachItem(
      'agents',
      declaredAgents(context),
      DECLARATION_ITEM,
      (agent) => {
        const map = mapAt(agent.node);
        for (const key of ['connectors', 'connectors_required', 'connectors_personal']) {
          for (const reference of referencesAt(map, key, agent.path)) {
            if (
              key === 'connectors' &&
              (reference.name === 'all' || reference.name === 'none') &&
              !reference.path.match(/\/\d+$/)
            )
              continue;
            reportUndeclared(context, this.id, reference, declared, {
              label: `agent '${agent.name}' connector`,
              kind: 'connector',
            });
          }
        }
      },
      declared.token,
    );
  },
};
