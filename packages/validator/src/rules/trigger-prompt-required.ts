import type { SchemaRule } from './rule.js';
import { objectLabel } from '../messages.js';
import { needsKeys } from './group-helpers.js';

export const triggerPromptRequired: SchemaRule<'trigger-prompt-required'> = {
  id: 'trigger-prompt-required',
  kind: 'schema',
  severity: 'error',
  description: 'A trigger needs `prompt` or `prompt_template`.',
  spec: 'Trigger rules 1: "At least one of `prompt` or `prompt_template` is required."',
  explain(group, at) {
    return [
      needsKeys(group, at, {
        code: this.id,
        subject: objectLabel(group.objectPath, at),
        keys: ['prompt', 'prompt_template'],
        all: false,
        where: group.objectPath,
      }),
    ];
  },
};
