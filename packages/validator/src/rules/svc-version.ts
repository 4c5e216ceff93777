import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const svcVersion: ParseRule = {
  id: 'svc-version',
  kind: 'parse',
  severity: 'error',
  description: '`svc_version` is missing or is not 1 or 2; the rest of the file cannot be checked without it.',
};
