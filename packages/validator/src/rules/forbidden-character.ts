import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const forbiddenCharacter: ParseRule = {
  id: 'forbidden-character',
  kind: 'parse',
  severity: 'error',
  description: 'A control character, NUL or an unpaired UTF-16 surrogate in the text.',
};
