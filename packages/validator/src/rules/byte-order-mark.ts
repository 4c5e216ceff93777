import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const byteOrderMark: ParseRule = {
  id: 'byte-order-mark',
  kind: 'parse',
  severity: 'info',
  description: 'The file starts with a byte-order mark; it is ignored and positions do not count it.',
};
