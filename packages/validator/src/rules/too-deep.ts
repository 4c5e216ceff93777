import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const tooDeep: ParseRule = {
  id: 'too-deep',
  kind: 'parse',
  severity: 'error',
  description: 'Collections nest deeper than the depth limit (64 by default); measured before parsing, so deep input cannot crash the parser.',
};
