import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const duplicateKey: ParseRule = {
  id: 'duplicate-key',
  kind: 'parse',
  severity: 'error',
  description: 'A key appears twice in one mapping; only the first is used.',
};
