import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const notAMapping: ParseRule = {
  id: 'not-a-mapping',
  kind: 'parse',
  severity: 'error',
  description: 'The manifest is not a mapping of keys to values (an empty file, a list, a lone scalar).',
};
