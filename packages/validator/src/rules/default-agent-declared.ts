import type { CodeRule } from './rule.js';
import { declaredAgents, referencesAt } from '../model/declarations.js';
import { declaredNames } from '../model/reference-helpers.js';
import { reportUndeclared } from './report-undeclared.js';

export const defaultAgentDeclared: CodeRule<'default-agent-declared'> = {
  id: 'default-agent-declared',
  kind: 'reference',
  severity: 'warning',
  description: '`default_agent` names an agent declared under `agents`, and that agent is enabled.',
  spec: '`setDefaultAgent(agentName)` "checks the agent is declared and enabled, then sets `default_agent` in the manifest".',
  check(context) {
    if (context.version !== 2) return;
    const agents = declaredAgents(context);
    const declared = declaredNames(agents);
    for (const reference of referencesAt(context.root, 'default_agent', '')) {
      const agent = agents.find((a) => a.name === reference.name);
      if (!agent) {
        // Without any valid agents the schema already reports the real problem.
        if (agents.length)
          reportUndeclared(context, this.id, reference, declared, { label: 'default_agent', kind: 'agent' });
        continue;
      }
      if (!agent.enabled) {
        const enabledOthers = agents.filter((a) => a.enabled).map((a) => a.name);
        context.report({
          code: this.id,
          message: `default_agent '${reference.name}' names a disabled agent${enabledOthers.length ? `; enabled agents: ${enabledOthers.map((n) => `'${n}'`).join(', ')}` : ''}`,
          path: reference.path,
          start: reference.start,
          end: reference.end,
          related: [{ message: `agent '${agent.name}' is disabled here`, start: agent.start, end: agent.end }],
        });
      }
    }
  },
};
