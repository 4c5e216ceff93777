/**
 * @svc-manifest/validator — located validation of svc.yaml / svc.toml manifests.
 * This file is the whole public API.
 */
export type { Diagnostic, Severity, Position, Range, TextEdit, SuggestedFix, RelatedLocation } from './diagnostic.js';
export { ManifestDocument, detectFormat, type ManifestFormat, type DocumentOptions } from './document/manifest-document.js';
export { LineIndex, lineOfOffset } from './document/line-index.js';
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
  type PathStep,
  type PointerTarget,
} from './document/nodes.js';
export { validateManifest, validateDocument, type ValidationResult, type ValidateOptions } from './validate.js';
export { RULES, RULES_BY_ID, severityOf, type Rule, type RuleMeta, type RuleCode } from './rules/index.js';
export { closestMatch } from './suggest.js';
export { runCli, type CliIo } from './cli.js';
export { processIo } from './process-io.js';
