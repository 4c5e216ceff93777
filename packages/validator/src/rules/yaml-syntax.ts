import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const yamlSyntax: ParseRule = {
  id: 'yaml-syntax',
  kind: 'parse',
  severity: 'error',
  description: 'The text is not valid YAML (a syntax error, tabs in indentation, a bad indent).',
};
