import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const aliasCycle: ParseRule = {
  id: 'alias-cycle',
  kind: 'parse',
  severity: 'error',
  description: 'A YAML alias refers to a value that contains itself.',
};
