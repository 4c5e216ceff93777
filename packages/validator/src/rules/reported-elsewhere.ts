/**
 * Rules whose diagnostics are reported outside rules/, where the text is read: by the document
 * layer while parsing and checking limits, by the validator's safety net, and by the language
 * server. Each entry names the module that reports its code (a test checks it does); the code,
 * severity and doc page come from here like every other rule's.
 */
import type { ReportedElsewhereRule } from './rule.js';

export const REPORTED_ELSEWHERE = [
  {
    id: 'alias-cycle',
    kind: 'parse',
    severity: 'error',
    description: 'A YAML alias refers to a value that contains itself.',
    reportedBy: 'validator/src/document/value.ts',
  },
  {
    id: 'alias-expansion',
    kind: 'parse',
    severity: 'error',
    description: 'Aliases would expand the manifest past the size limit (an alias bomb); nothing is expanded.',
    reportedBy: 'validator/src/document/value.ts',
  },
  {
    id: 'byte-order-mark',
    kind: 'parse',
    severity: 'info',
    description: 'The file starts with a byte-order mark; it is ignored and positions do not count it.',
    reportedBy: 'validator/src/document/manifest-document.ts',
  },
  {
    id: 'duplicate-key',
    kind: 'parse',
    severity: 'error',
    description: 'A key appears twice in one mapping; only the first is used.',
    reportedBy: 'validator/src/document/tree-builder.ts',
  },
  {
    id: 'forbidden-character',
    kind: 'parse',
    severity: 'error',
    description: 'A control character, NUL or an unpaired UTF-16 surrogate in the text.',
    reportedBy: 'validator/src/document/limits.ts',
  },
  {
    id: 'invalid-key',
    kind: 'parse',
    severity: 'error',
    description: 'A mapping key that is not a plain string (a collection, an alias of one, an empty key).',
    reportedBy: 'validator/src/document/parse-yaml.ts',
  },
  {
    id: 'invalid-utf8',
    kind: 'parse',
    severity: 'error',
    description: 'Bytes that are not valid UTF-8.',
    reportedBy: 'validator/src/document/manifest-document.ts',
  },
  {
    id: 'multiple-documents',
    kind: 'parse',
    severity: 'error',
    description: 'A YAML file with more than one document (`---`); a manifest is one document.',
    reportedBy: 'validator/src/document/parse-yaml.ts',
  },
  {
    id: 'not-a-mapping',
    kind: 'parse',
    severity: 'error',
    description: 'The manifest is not a mapping of keys to values (an empty file, a list, a lone scalar).',
    reportedBy: 'validator/src/validate.ts',
  },
  {
    id: 'svc-version',
    kind: 'parse',
    severity: 'error',
    description: '`svc_version` is missing or is not 1 or 2; the rest of the file cannot be checked without it.',
    reportedBy: 'validator/src/validate.ts',
  },
  {
    id: 'toml-syntax',
    kind: 'parse',
    severity: 'error',
    description: 'The text is not valid TOML (a syntax error, a key defined twice, a redefined table).',
    reportedBy: 'validator/src/document/parse-toml.ts',
  },
  {
    id: 'too-deep',
    kind: 'parse',
    severity: 'error',
    description: 'Collections nest deeper than the depth limit (64 by default); measured before parsing, so deep input cannot crash the parser.',
    reportedBy: 'validator/src/document/manifest-document.ts',
  },
  {
    id: 'too-large',
    kind: 'parse',
    severity: 'error',
    description: 'The input is larger than the size limit (1 MiB by default); it is not parsed.',
    reportedBy: 'validator/src/document/manifest-document.ts',
  },
  {
    id: 'yaml-syntax',
    kind: 'parse',
    severity: 'error',
    description: 'The text is not valid YAML (a syntax error, tabs in indentation, a bad indent).',
    reportedBy: 'validator/src/document/parse-yaml.ts',
  },
  {
    id: 'yaml-warning',
    kind: 'parse',
    severity: 'warning',
    description: 'The YAML parser has a warning (an unknown tag, an unusual construct).',
    reportedBy: 'validator/src/document/parse-yaml.ts',
  },
  {
    id: 'internal-error',
    kind: 'internal',
    severity: 'error',
    description: 'The validator failed on this input because of a bug of ours; it reports this instead of throwing. Please report it.',
    reportedBy: 'validator/src/validate.ts',
  },
  {
    id: 'unknown-schema',
    kind: 'editor',
    severity: 'info',
    description: 'The file pins a schema (`$schema`, a yaml-language-server modeline or a Taplo `#:schema` directive) that is not one of the svc manifest schemas; it is checked against ours anyway.',
    reportedBy: 'lsp/src/schema-pinning.ts',
  },
  {
    id: 'schema-version-mismatch',
    kind: 'editor',
    severity: 'warning',
    description: 'The file pins the schema of one svc_version but declares the other in `svc_version`.',
    reportedBy: 'lsp/src/schema-pinning.ts',
  },
] as const satisfies readonly ReportedElsewhereRule[];
