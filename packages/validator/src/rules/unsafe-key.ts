import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const unsafeKey: ParseRule = {
  id: 'unsafe-key',
  kind: 'parse',
  severity: 'error',
  description: 'A key named `__proto__`, `constructor` or `prototype`: refused everywhere, as they name JavaScript object internals.',
};
