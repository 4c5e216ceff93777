import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const invalidKey: ParseRule = {
  id: 'invalid-key',
  kind: 'parse',
  severity: 'error',
  description: 'A mapping key that is not a plain string (a collection, an alias of one, an empty key).',
};
