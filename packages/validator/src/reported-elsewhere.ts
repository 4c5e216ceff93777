/**
 * Rules whose diagnostics are reported outside rules/: where the text is read, by the document
 * layer while parsing and checking limits; by the validator's safety net; by the language
 * server; by `migrate` (its refusals); and by the policy, about suppression comments. Each entry names the module that reports its code (a
 * test checks it does); the code, severity and doc page come from here like every other rule's.
 * The list lives below rules/ (rules/index.ts includes it) so that the editing engine, which sits
 * below the rules, can read the severities of the document layer's codes.
 */
import type { Severity } from './diagnostic.js';
import type { RuleCode } from './rule-codes.js';
import type { ReportedElsewhereRule } from './rule-meta.js';

export const REPORTED_ELSEWHERE = [
  {
    id: 'path-not-found',
    kind: 'files',
    severity: 'warning',
    description:
      "A source path the manifest names (`config_dir`, a `dockerfile`, an app's `path` or `root`) does not exist relative to the manifest.",
    reportedBy: 'validator/src/paths.ts',
  },
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
    reportedBy: 'validator/src/document/text-checks.ts',
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
    reportedBy: 'validator/src/document/yaml-library.ts',
  },
  {
    id: 'invalid-utf8',
    kind: 'parse',
    severity: 'error',
    description: 'Bytes that are not valid UTF-8.',
    reportedBy: 'validator/src/document/text-checks.ts',
  },
  {
    id: 'multiple-documents',
    kind: 'parse',
    severity: 'error',
    description: 'A YAML file with more than one document (`---`); a manifest is one document.',
    reportedBy: 'validator/src/document/yaml-library.ts',
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
    description:
      'The text is not valid TOML 1.0 (a syntax error, a key defined twice, a redefined table), or holds a value it cannot keep exactly.',
    reportedBy: 'validator/src/document/parse-toml.ts',
  },
  {
    id: 'too-deep',
    kind: 'parse',
    severity: 'error',
    description:
      'Collections nest deeper than the depth limit (64 by default); measured before parsing, so deep input cannot crash the parser.',
    reportedBy: 'validator/src/document/text-checks.ts',
  },
  {
    id: 'too-large',
    kind: 'parse',
    severity: 'error',
    description: 'The input is larger than the size limit (1 MiB by default); it is not parsed.',
    reportedBy: 'validator/src/document/text-checks.ts',
  },
  {
    id: 'yaml-syntax',
    kind: 'parse',
    severity: 'error',
    description: 'The text is not valid YAML (a syntax error, tabs in indentation, a bad indent).',
    reportedBy: 'validator/src/document/yaml-library.ts',
  },
  {
    id: 'yaml-warning',
    kind: 'parse',
    severity: 'warning',
    description: 'The YAML parser has a warning (an unknown tag, an unusual construct).',
    reportedBy: 'validator/src/document/yaml-library.ts',
  },
  {
    id: 'internal-error',
    kind: 'internal',
    severity: 'error',
    description:
      'The validator failed on this input because of a bug of ours; it reports this instead of throwing. Please report it.',
    reportedBy: 'validator/src/validate.ts',
  },
  {
    id: 'unknown-schema',
    kind: 'editor',
    severity: 'info',
    description:
      'The file pins a schema (`$schema`, a yaml-language-server modeline or a Taplo `#:schema` directive) that is not one of the svc manifest schemas; it is checked against ours anyway.',
    reportedBy: 'lsp/src/schema-pinning.ts',
  },
  {
    id: 'schema-version-mismatch',
    kind: 'editor',
    severity: 'warning',
    description: 'The file pins the schema of one svc_version but declares the other in `svc_version`.',
    reportedBy: 'lsp/src/schema-pinning.ts',
  },
  {
    id: 'migrate-channels',
    kind: 'migrate',
    severity: 'error',
    description: 'Top-level `channels` has no version 2 counterpart: `migrate` will not drop it silently.',
    reportedBy: 'validator/src/migrate.ts',
  },
  {
    id: 'migrate-agent-env',
    kind: 'migrate',
    severity: 'error',
    description: "An agent's `env` has no version 2 counterpart: `migrate` will not drop it silently.",
    reportedBy: 'validator/src/migrate.ts',
  },
  {
    id: 'migrate-svc-cli',
    kind: 'migrate',
    severity: 'error',
    description: "An agent's `svc_cli` names a permission only version 1 knows.",
    reportedBy: 'validator/src/migrate.ts',
  },
  {
    id: 'migrate-connector-credential',
    kind: 'migrate',
    severity: 'error',
    description: 'A connector `credential` other than `shared`, which version 2 refuses.',
    reportedBy: 'validator/src/migrate.ts',
  },
  {
    id: 'migrate-connector-agent-scope',
    kind: 'migrate',
    severity: 'error',
    description: 'A connector `agent_scope`, which version 2 forbids.',
    reportedBy: 'validator/src/migrate.ts',
  },
  {
    id: 'migrate-default-agent',
    kind: 'migrate',
    severity: 'error',
    description:
      '`migrate` cannot choose the default agent: several agents and no `--default-agent`, or a name that is not declared.',
    reportedBy: 'validator/src/migrate.ts',
  },
  {
    id: 'migrate-agent-name',
    kind: 'migrate',
    severity: 'error',
    description: 'Two agents share a `name`; a version 2 agents map cannot hold both.',
    reportedBy: 'validator/src/migrate.ts',
  },
  {
    id: 'migrate-invalid-result',
    kind: 'migrate',
    severity: 'error',
    description: 'The migrated manifest would not validate as version 2 (the message is the version 2 finding).',
    reportedBy: 'validator/src/migrate.ts',
  },
  {
    id: 'migrate-unsupported',
    kind: 'migrate',
    severity: 'error',
    description: 'The agents list is written in a way the editing engine cannot rewrite in place.',
    reportedBy: 'validator/src/migrate.ts',
  },
  {
    id: 'unused-suppression',
    kind: 'suppression',
    severity: 'warning',
    description:
      'A suppression comment suppressed nothing: no problem of the rules it names on the next line or in its range, or an `svc-manifest-enable` with no `svc-manifest-disable` to end.',
    reportedBy: 'validator/src/policy/suppressions.ts',
  },
  {
    id: 'invalid-suppression',
    kind: 'suppression',
    severity: 'warning',
    description: 'A suppression comment names no rule, or a rule id that does not exist.',
    reportedBy: 'validator/src/policy/suppressions.ts',
  },
  {
    id: 'unsuppressible-rule',
    kind: 'suppression',
    severity: 'warning',
    description:
      "A suppression comment names a rule no comment can suppress: one the published schema's verdict rests on, or a rule about suppression comments themselves.",
    reportedBy: 'validator/src/policy/suppressions.ts',
  },
] as const satisfies readonly ReportedElsewhereRule[];

const SEVERITY_OF_REPORTED: ReadonlyMap<string, Severity> = new Map(
  REPORTED_ELSEWHERE.map((rule) => [rule.id, rule.severity]),
);

/**
 * The severity of a code reported outside rules/, for the modules below the rule list (the
 * editing engine refuses a text the document layer reports an error in). Every code the document
 * layer reports is listed here (rule-docs.test.ts checks each `reportedBy`); any other code is
 * taken for an error, so that an unlisted problem refuses an edit rather than letting it through.
 */
export function severityOfReported(code: RuleCode): Severity {
  return SEVERITY_OF_REPORTED.get(code) ?? 'error';
}
