/**
 * `svc-manifest validate --fix`: applies the fixes that keep the manifest's meaning or carry
 * out the user's evident intent, one at a time through the editing engine, and leaves
 * everything else reported.
 *
 * Safe fixes:
 * - a misspelt key (`unknown-key`, `possible-typo`) renamed to the one known key close to it;
 * - a misspelt enum value (`invalid-value`) replaced by the one allowed value close to it;
 * - `connectors_personal` renamed to `connectors_required` (`deprecated-key`);
 * - `svc_version: 2.0` written `2` (`svc-version-format`);
 * - a top-level key of the other version removed (`version-specific-key`: the spec gives it
 *   no effect in this version).
 *
 * "Close" is the validator's did-you-mean measure; a fix is safe only when exactly one
 * candidate is that close. After each fix the text is validated again, and the fix is kept
 * only when it lowers the number of errors, or keeps it and lowers the number of warnings (or
 * keeps both and lowers the number of infos).
 *
 * Under a policy (`FixOptions.policy`) the diagnostics are the policy's: a rule set to `off` and
 * a problem a comment suppresses are not reported, so they are not fixed either, and the counts
 * are of the severities the policy sets.
 */
import { SVC_CLI_PERMISSIONS_V1_ONLY } from '@svc-manifest/schema';
import type { Diagnostic } from './diagnostic.js';
import { ManifestDocument } from './document/manifest-document.js';
import { isArrayIndex, pointerSegments } from './document/nodes.js';
import { editManifest } from './edit/engine.js';
import { ManifestEditError, valueAtPath, type ManifestChange, type PathSegment } from './edit/changes.js';
import { canonicalJson, isPlainObject } from './edit/json.js';
import { dereferencedV1, dereferencedV2 } from './generated/schemas.js';
import { knownKeys } from './schema-keys.js';
import { closestMatch } from './suggest.js';
import type { ManifestPolicy } from './policy/policy.js';
import { validateDocument, withPolicy } from './validate.js';

type SchemaObject = Record<string, unknown>;

export interface AppliedFix {
  /** The diagnostic the fix answers. */
  code: string;
  /** JSON pointer of what was fixed, in the text before the fix. */
  path: string;
  title: string;
  change: ManifestChange;
}

export interface FixResult {
  /** The fixed text; the input text itself when nothing was fixed. */
  text: string;
  changed: boolean;
  fixes: AppliedFix[];
  /** What the fixed text still has. */
  diagnostics: Diagnostic[];
  document: ManifestDocument;
}

interface Candidate {
  code: string;
  path: string;
  title: string;
  change: ManifestChange;
}

export interface FixOptions {
  /** The policy the manifest is validated under (see `ValidateOptions.policy`): only what it reports is fixed. */
  policy?: ManifestPolicy;
}

/** Rounds at most (each applies one fix); a manifest with more findings keeps the rest reported. */
const MAX_FIXES = 500;

/**
 * The validation of a document as the policy (if any) has it; `once` when no update of the
 * document will reuse it (validateDocument's option).
 */
export function validatedUnder(
  document: ManifestDocument,
  policy: ManifestPolicy | undefined,
  options: { once?: boolean } = {},
): ReturnType<typeof validateDocument> {
  const result = validateDocument(document, options);
  return policy ? withPolicy(document, result, policy) : result;
}

/** Applies every safe fix to a document, one at a time, re-validating after each. */
export function fixManifest(source: ManifestDocument, options: FixOptions = {}): FixResult {
  const policy = options.policy;
  let document = source;
  let result = validatedUnder(document, policy);
  const fixes: AppliedFix[] = [];
  const rejected = new Set<string>();
  for (let round = 0; round < MAX_FIXES; round++) {
    if (document.fatal || result.version === null) break;
    const candidates = safeFixes(document, result.version, result.diagnostics).filter(
      (c) => !rejected.has(keyOf(c.change)),
    );
    let applied = false;
    for (const candidate of candidates) {
      const next = tryFix(document, candidate.change);
      const nextResult = next && validatedUnder(next, policy);
      if (next && nextResult && better(nextResult.diagnostics, result.diagnostics)) {
        fixes.push(candidate);
        document = next;
        result = nextResult;
        applied = true;
        break;
      }
      rejected.add(keyOf(candidate.change));
    }
    if (!applied) break;
  }
  return {
    text: document.text,
    changed: document.text !== source.text,
    fixes,
    diagnostics: result.diagnostics,
    document,
  };
}

function keyOf(change: ManifestChange): string {
  return canonicalJson(change);
}

export function tryFix(document: ManifestDocument, change: ManifestChange): ManifestDocument | undefined {
  try {
    const edit = editManifest(document, [change]);
    return edit.text === document.text ? undefined : edit.document;
  } catch (error) {
    if (error instanceof ManifestEditError) return undefined;
    throw error;
  }
}

function counts(diagnostics: readonly Diagnostic[]): [number, number, number] {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  for (const d of diagnostics) {
    if (d.severity === 'error') errors++;
    else if (d.severity === 'warning') warnings++;
    else infos++;
  }
  return [errors, warnings, infos];
}

/**
 * Fewer errors, or as many errors and fewer warnings, or as many of both and fewer infos (a rule
 * a policy sets to `info` is still fixed): when `--fix` keeps a fix (fix-preview.ts asks too).
 */
export function better(after: readonly Diagnostic[], before: readonly Diagnostic[]): boolean {
  const [errorsAfter, warningsAfter, infosAfter] = counts(after);
  const [errorsBefore, warningsBefore, infosBefore] = counts(before);
  if (errorsAfter !== errorsBefore) return errorsAfter < errorsBefore;
  if (warningsAfter !== warningsBefore) return warningsAfter < warningsBefore;
  return infosAfter < infosBefore;
}

/** The engine's path for a JSON pointer into `value` (list indices as numbers). */
export function pointerToPath(value: unknown, pointer: string): PathSegment[] | undefined {
  const path: PathSegment[] = [];
  let node = value;
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(node)) {
      if (!isArrayIndex(segment)) return undefined;
      path.push(Number(segment));
    } else if (isPlainObject(node)) {
      path.push(segment);
    } else {
      return undefined;
    }
    node = valueAtPath(node, [path[path.length - 1]!]);
  }
  return path;
}

/** The fixes judged safe for these diagnostics, in text order. */
export function safeFixes(document: ManifestDocument, version: 1 | 2, diagnostics: readonly Diagnostic[]): Candidate[] {
  const value = document.value;
  const schema = version === 1 ? dereferencedV1() : dereferencedV2();
  const out: Candidate[] = [];
  for (const diagnostic of diagnostics) {
    const path = pointerToPath(value, diagnostic.path);
    if (!path || path.length === 0) continue;
    const last = path[path.length - 1]!;
    const parentPath = path.slice(0, -1);
    const add = (title: string, change: ManifestChange) =>
      out.push({ code: diagnostic.code, path: diagnostic.path, title, change });
    switch (diagnostic.code) {
      case 'unknown-key':
      case 'possible-typo': {
        const parent = valueAtPath(value, parentPath);
        if (typeof last !== 'string' || !isPlainObject(parent)) break;
        const known = new Set<string>();
        for (const s of schemasAt(schema, parentPath)) for (const key of knownKeys(s)) known.add(key);
        const absent = [...known].filter((key) => !Object.prototype.hasOwnProperty.call(parent, key));
        const target = onlyClose(last, absent);
        if (target) add(`rename '${last}' to '${target}'`, { op: 'rename', path, to: target });
        break;
      }
      case 'invalid-value': {
        const current = valueAtPath(value, path);
        if (typeof current !== 'string' || (SVC_CLI_PERMISSIONS_V1_ONLY as readonly string[]).includes(current)) break;
        const allowed = new Set<string>();
        for (const s of schemasAt(schema, path)) for (const v of enumOf(s)) allowed.add(v);
        if (allowed.size === 0 || allowed.has(current)) break;
        const target = onlyClose(current, [...allowed]);
        if (target) add(`change '${current}' to '${target}'`, { op: 'set', path, value: target });
        break;
      }
      case 'deprecated-key': {
        const parent = valueAtPath(value, parentPath);
        if (last !== 'connectors_personal' || !isPlainObject(parent) || 'connectors_required' in parent) break;
        add("rename 'connectors_personal' to 'connectors_required'", { op: 'rename', path, to: 'connectors_required' });
        break;
      }
      case 'svc-version-format':
        add(`write svc_version as ${String(valueAtPath(value, path))}`, { op: 'rewrite', path });
        break;
      case 'version-specific-key':
        if (path.length === 1)
          add(`remove '${String(last)}', which has no effect in svc_version ${version}`, { op: 'delete', path });
        break;
    }
  }
  return out;
}

/** The one candidate close to `input`, or undefined when none or several are. */
function onlyClose(input: string, candidates: readonly string[]): string | undefined {
  const close = candidates.filter((candidate) => candidate !== input && closestMatch(input, [candidate]) === candidate);
  return close.length === 1 ? close[0] : undefined;
}

/** The subschemas that apply to the value at `path` whatever its siblings hold (combinators, not `if`/`then`). */
function schemasAt(root: SchemaObject, path: readonly PathSegment[]): SchemaObject[] {
  let current = expand(root, 0);
  for (const segment of path) {
    const next: SchemaObject[] = [];
    for (const schema of current) {
      const properties = schema.properties as Record<string, unknown> | undefined;
      if (
        typeof segment === 'string' &&
        properties &&
        Object.hasOwn(properties, segment) &&
        isPlainObject(properties[segment])
      )
        next.push(properties[segment]);
      else if (typeof segment === 'string' && isPlainObject(schema.additionalProperties))
        next.push(schema.additionalProperties);
      if (typeof segment === 'number' && isPlainObject(schema.items)) next.push(schema.items);
    }
    current = next.flatMap((schema) => expand(schema, 0));
    if (current.length === 0) break;
  }
  return current;
}

function expand(schema: SchemaObject, depth: number): SchemaObject[] {
  if (depth > 8) return [schema];
  const out = [schema];
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const branches = schema[key];
    if (Array.isArray(branches))
      for (const branch of branches) if (isPlainObject(branch)) out.push(...expand(branch, depth + 1));
  }
  return out;
}

function enumOf(schema: SchemaObject): string[] {
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : [];
  return values.filter((v): v is string => typeof v === 'string');
}
