import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const tomlSyntax: ParseRule = {
  id: 'toml-syntax',
  kind: 'parse',
  severity: 'error',
  description: 'The text is not valid TOML (a syntax error, a key defined twice, a redefined table).',
};
