/**
 * Turns ajv's raw errors into one clear, located diagnostic per problem.
 *
 * The validators are compiled from dereferenced schemas, so every error's `schemaPath`
 * spells out the route from the root. Walking it finds the subschemas the error passed
 * through and their annotations:
 * - an `x-svc-rule` subschema groups all its errors for one object into one rule's hands;
 * - an `anyOf` that failed is either narrowed to the one branch whose type fits the value
 *   (so `svc_cli: [project.raed]` reports the unknown name, not three alternatives) or
 *   reported once with the subschema's `x-svc-message`;
 * - every other error goes to the structure rule for its keyword.
 * `if` errors carry no information of their own and are dropped.
 */
import type { RawDiagnostic } from './diagnostic.js';
import type { ManifestLocator } from './locator.js';
import { unescapePointerSegment } from './document/nodes.js';
import { jsonType, keyLabel, showValue } from './messages.js';
import type { KeywordFailure, RuleErrorGroup, SchemaError, SchemaRule, StructureRule } from './rules/rule.js';
import { valueAt } from './rules/wrong-type.js';

type SchemaObject = Record<string, unknown>;

export interface SchemaErrorRules {
  structure: ReadonlyMap<string, StructureRule>;
  schema: ReadonlyMap<string, SchemaRule>;
}

/** The subschemas along a schema path (`#/properties/a/items/allOf/0/required` → root … allOf/0). */
function walk(root: SchemaObject, schemaPath: string): { chain: SchemaObject[]; paths: string[] } {
  const segments = schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean);
  segments.pop(); // the keyword itself
  const chain: SchemaObject[] = [root];
  const paths: string[] = ['#'];
  let node: unknown = root;
  let path = '#';
  for (const raw of segments) {
    const segment = unescapePointerSegment(raw);
    if (node === null || typeof node !== 'object') break;
    node = (node as Record<string, unknown>)[segment];
    path += '/' + raw;
    if (node && typeof node === 'object' && !Array.isArray(node)) {
      chain.push(node as SchemaObject);
      paths.push(path);
    }
  }
  return { chain, paths };
}

/** How many instance-path segments a schema path descends (properties/x, items, additionalProperties each one). */
function instanceDepth(schemaPath: string): number {
  const segments = schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean);
  let depth = 0;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === 'properties' || segment === 'patternProperties') {
      depth += 1;
      i += 1;
    } else if (segment === 'items' || segment === 'additionalProperties') {
      depth += 1;
    }
  }
  return depth;
}

function truncatePointer(pointer: string, depth: number): string {
  return pointer
    .split('/')
    .slice(0, depth + 1)
    .join('/');
}

export function explainSchemaErrors(
  errors: readonly SchemaError[],
  root: SchemaObject,
  locator: ManifestLocator,
  rules: SchemaErrorRules,
): RawDiagnostic[] {
  const failures: KeywordFailure[] = errors
    .filter((error) => error.keyword !== 'if')
    .map((error) => {
      const { chain } = walk(root, error.schemaPath);
      return { error, chain, schema: chain[chain.length - 1]! };
    });
  return explainFailures(failures, root, locator, rules);
}

function explainFailures(
  failures: KeywordFailure[],
  root: SchemaObject,
  at: ManifestLocator,
  rules: SchemaErrorRules,
): RawDiagnostic[] {
  const diagnostics: RawDiagnostic[] = [];
  const consumed = new Set<KeywordFailure>();

  // 1. Cross-field rules: group by the annotated subschema and the object it applies to.
  const groups = new Map<string, { rule: SchemaRule; group: RuleErrorGroup }>();
  for (const failure of failures) {
    const { chain, paths } = walk(root, failure.error.schemaPath);
    let anchorIndex = -1;
    for (let i = chain.length - 1; i >= 0; i--) {
      if (typeof chain[i]!['x-svc-rule'] === 'string') {
        anchorIndex = i;
        break;
      }
    }
    if (anchorIndex < 0) continue;
    const anchor = chain[anchorIndex]!;
    const rule = rules.schema.get(anchor['x-svc-rule'] as string);
    if (!rule) continue;
    const anchorPath = paths[anchorIndex]!;
    const objectPath = truncatePointer(failure.error.instancePath, instanceDepth(anchorPath));
    // JSON of the pair: a schema path (a pattern's key) and an object's pointer (a manifest's key) may hold any separator.
    const key = JSON.stringify([anchorPath, objectPath]);
    let entry = groups.get(key);
    if (!entry) groups.set(key, (entry = { rule, group: { objectPath, anchor, failures: [] } }));
    entry.group.failures.push(failure);
    consumed.add(failure);
  }
  for (const { rule, group } of groups.values()) diagnostics.push(...rule.explain(group, at));

  // 2. Failed anyOf: narrow to the branch that fits the value's type, or report once.
  const rest = failures.filter((failure) => !consumed.has(failure));
  const anyOfs = rest
    .filter((f) => f.error.keyword === 'anyOf' || f.error.keyword === 'oneOf')
    .sort((a, b) => a.error.schemaPath.length - b.error.schemaPath.length);
  for (const anyOf of anyOfs) {
    if (consumed.has(anyOf)) continue;
    const prefix = anyOf.error.schemaPath + '/';
    const members = rest.filter(
      (f) =>
        f !== anyOf &&
        f.error.schemaPath.startsWith(prefix) &&
        f.error.instancePath.startsWith(anyOf.error.instancePath),
    );
    consumed.add(anyOf);
    members.forEach((m) => consumed.add(m));
    const branches = (anyOf.schema[anyOf.error.keyword] ?? []) as SchemaObject[];
    const value = valueAt(at, anyOf.error.instancePath);
    const fitting = branches
      .map((branch, index) => ({ branch, index }))
      .filter(({ branch }) => branchFits(branch, value));
    if (fitting.length === 1) {
      const branchPrefix = `${prefix}${fitting[0]!.index}/`;
      const branchFailures = members.filter((m) => m.error.schemaPath.startsWith(branchPrefix));
      if (branchFailures.length) {
        diagnostics.push(...explainFailures(branchFailures, root, at, rules));
        continue;
      }
    }
    diagnostics.push(collapsedAnyOf(anyOf, value, fitting.length === 0, at));
  }

  // 3. A key that fails `propertyNames`: one diagnostic, worded by the inner keyword's subschema.
  for (const names of rest.filter((f) => f.error.keyword === 'propertyNames')) {
    if (consumed.has(names)) continue;
    const prefix = names.error.schemaPath + '/';
    const inner = rest.filter(
      (f) => f !== names && f.error.schemaPath.startsWith(prefix) && f.error.instancePath === names.error.instancePath,
    );
    inner.forEach((f) => consumed.add(f));
    consumed.add(names);
    const wording = inner.find(
      (f) => typeof f.schema['x-svc-message'] === 'string' || typeof f.schema.pattern === 'string',
    );
    const rule = rules.structure.get('propertyNames');
    if (rule) diagnostics.push(...rule.explain({ ...names, schema: wording?.schema ?? names.schema }, at));
  }

  // 4. Everything else: the structure rule for the keyword.
  for (const failure of rest) {
    if (consumed.has(failure)) continue;
    const keyword =
      failure.error.keyword === 'not' && typeof failure.schema['x-svc-forbidden'] === 'string'
        ? 'forbidden'
        : failure.error.keyword;
    const rule = rules.structure.get(keyword);
    if (rule) diagnostics.push(...rule.explain(failure, at));
    else diagnostics.push(genericFailure(failure, at));
  }
  return diagnostics;
}

/** Whether a value's JSON type is one an anyOf branch accepts. */
function branchFits(branch: SchemaObject, value: unknown): boolean {
  const type = jsonType(value);
  if (Array.isArray(branch.enum))
    return branch.enum.some(
      (allowed) => jsonType(allowed) === type || (type === 'integer' && typeof allowed === 'number'),
    );
  if ('const' in branch) return jsonType(branch.const) === type;
  const declared = branch.type;
  if (declared === undefined) return true;
  const types = Array.isArray(declared) ? declared : [declared];
  return types.some((t) => t === type || (t === 'number' && type === 'integer'));
}

function collapsedAnyOf(anyOf: KeywordFailure, value: unknown, wrongType: boolean, at: ManifestLocator): RawDiagnostic {
  const pointer = anyOf.error.instancePath;
  const expected =
    typeof anyOf.schema['x-svc-message'] === 'string'
      ? anyOf.schema['x-svc-message']
      : 'the value does not have any of the allowed forms';
  const [start, end] = at.valueRange(pointer);
  const got = value === null || value === undefined ? 'no value' : showValue(value);
  return {
    code: wrongType ? 'wrong-type' : 'invalid-value',
    message: `${keyLabel(pointer)}: ${expected}, got ${got}`,
    path: pointer,
    start,
    end,
  };
}

function genericFailure({ error }: KeywordFailure, at: ManifestLocator): RawDiagnostic {
  const [start, end] = at.valueRange(error.instancePath);
  return {
    code: 'invalid-value',
    message: `${keyLabel(error.instancePath)} ${error.message ?? 'is not valid'}`,
    path: error.instancePath,
    start,
    end,
  };
}
