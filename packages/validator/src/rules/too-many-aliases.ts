import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const tooManyAliases: ParseRule = {
  id: 'too-many-aliases',
  kind: 'parse',
  severity: 'error',
  description: 'More YAML aliases than the alias limit (100 by default).',
};
