import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const tooLarge: ParseRule = {
  id: 'too-large',
  kind: 'parse',
  severity: 'error',
  description: 'The input is larger than the size limit (1 MiB by default); it is not parsed.',
};
