import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const yamlWarning: ParseRule = {
  id: 'yaml-warning',
  kind: 'parse',
  severity: 'warning',
  description: 'The YAML parser has a warning (an unknown tag, an unusual construct).',
};
