/**
 * @svc-manifest/validator/library — the public API without the command line: reading, validating
 * and editing manifests. Nothing it reaches imports a Node built-in (test/architecture.test.ts),
 * so it runs in a browser as it runs in Node. `index.ts` adds the `svc-manifest` command.
 */
export type { Diagnostic, Severity, Position, Range, TextEdit, SuggestedFix, RelatedLocation } from './diagnostic.js';
export {
  ManifestDocument,
  detectFormat,
  type ManifestFormat,
  type DocumentOptions,
} from './document/manifest-document.js';
export { mergeTextChanges, type ChangedRegion, type TextChange } from './document/text-change.js';
export { PieceText, type TextSource } from './document/piece-text.js';
export { MarkedLines, type LineMarker, type MarkedLine } from './document/marked-lines.js';
export { LineIndex, lineOfOffset, type LineTable } from './document/line-index.js';
export { DEFAULT_LIMITS, type Limits } from './document/limits.js';
export {
  resolveAlias,
  effectiveEntries,
  findEntry,
  nodeAtPointer,
  pathAtOffset,
  pointerSegments,
  toPointer,
  escapePointerSegment,
  type ValueNode,
  type MapNode,
  type SeqNode,
  type ScalarNode,
  type AliasNode,
  type MapEntry,
  type ScalarValue,
  type TomlDateTimeType,
  type PathStep,
  type PointerTarget,
} from './document/nodes.js';
export { TomlDateTime } from './document/value.js';
export {
  validateManifest,
  validateDocument,
  withPathChecks,
  withPolicy,
  type ValidationResult,
  type ValidateOptions,
} from './validate.js';
export {
  parsePolicy,
  PolicyError,
  CONFIGURABLE_RULES,
  SUPPRESSIBLE_RULES,
  POLICY_FILE_NAME,
  MAX_POLICY_BYTES,
  type ManifestPolicy,
  type ParsedPolicy,
  type PolicyFormat,
  type PolicyRules,
  type RuleSetting,
} from './policy/policy.js';
export { SuppressionSearch } from './policy/suppressions.js';
export { checkPaths, type ManifestFiles, type PathKind } from './paths.js';
export { sourcePaths, type SourcePath } from './model/source-paths.js';
export { RULES, RULES_BY_ID, severityOf, type Rule, type RuleMeta, type RuleCode } from './rules/index.js';
export { closestMatch } from './suggest.js';
export { escapeForTerminal } from './formatters/terminal-text.js';
export { MANIFEST_FILES, MANIFEST_FILE_NAMES, manifestFileNamed, type ManifestFileName } from './model/files.js';
export { SUPPORTED_VERSIONS, isSupportedVersion, manifestVersion, type SvcVersion } from './model/versions.js';
export {
  declarationsOf,
  ManifestDeclarations,
  type Declaration,
  type AgentDeclaration,
  type AgentStatus,
  type DeclarationKind,
  type Reference,
  type ReferenceKind,
} from './model/declarations.js';
export {
  editManifest,
  openForEdit,
  planChange,
  textEdits,
  type EditOptions,
  type ManifestEdit,
} from './edit/engine.js';
export {
  applyChanges,
  valueAtPath,
  formatPath,
  ManifestEditError,
  type ManifestChange,
  type PathSegment,
  type EditErrorReason,
} from './edit/changes.js';
export { canonicalJson, deepEqual, type Json } from './edit/json.js';
export type { OffsetEdit } from './diagnostic.js';
export { tomlToYaml, yamlString, type ConvertedManifest } from './edit/toml-to-yaml.js';
export { fixManifest, type FixResult, type FixOptions, type AppliedFix } from './fix.js';
export {
  migrateManifest,
  MIGRATE_CODES,
  type MigrateOptions,
  type MigrateResult,
  type MigrateCode,
} from './migrate.js';
export {
  readCron,
  isCronProblem,
  CRON_FIELDS,
  CRON_MACROS,
  type CronSchedule,
  type CronProblem,
} from './model/cron.js';
export { isTimeZone, suggestTimeZone } from './model/time-zones.js';
export { formatManifest, formatManifestRange, type FormatOptions, type FormatResult } from './edit/format.js';
