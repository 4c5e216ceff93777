import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const aliasExpansion: ParseRule = {
  id: 'alias-expansion',
  kind: 'parse',
  severity: 'error',
  description: 'Aliases would expand the manifest past the size limit (an alias bomb); nothing is expanded.',
};
