import type { ParseRule } from './rule.js';

/** Reported while reading the text (see packages/validator/src/document/). */
export const multipleDocuments: ParseRule = {
  id: 'multiple-documents',
  kind: 'parse',
  severity: 'error',
  description: 'A YAML file with more than one document (`---`); a manifest is one document.',
};
