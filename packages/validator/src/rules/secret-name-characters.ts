import type { CodeRule } from './rule.js';
import { DECLARATION_ITEM, declaredAgents, mapAt, referencesAt } from '../model/declarations.js';

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export const secretNameCharacters: CodeRule<'secret-name-characters'> = {
  id: 'secret-name-characters',
  kind: 'style',
  severity: 'warning',
  description: "A name in an agent's `secrets` allowlist contains a line break or another control character.",
  spec: 'Version 2 agents: `secrets` is an "allowlist: array of names, or `all`, or `none`" (the spec gives secret names no pattern).',
  check(context) {
    if (context.version !== 2) return;
    context.forEachItem('agents', declaredAgents(context), DECLARATION_ITEM, (agent) => {
      for (const reference of referencesAt(mapAt(agent.node), 'secrets', agent.path)) {
        const control = CONTROL.exec(reference.name);
        if (!control) continue;
        const code = `U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
        context.report({
          code: this.id,
          message: `agent '${agent.name}' secret name ${JSON.stringify(reference.name)} contains control character ${code}; a secret name is one line of printable text`,
          path: reference.path,
          start: reference.start,
          end: reference.end,
        });
      }
    });
  },
};
