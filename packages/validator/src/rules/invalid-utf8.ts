import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const invalidUtf8: ParseRule = {
  id: 'invalid-utf8',
  kind: 'parse',
  severity: 'error',
  description: 'Bytes that are not valid UTF-8.',
};
