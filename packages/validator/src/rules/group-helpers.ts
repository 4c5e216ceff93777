/** Small readers over a rule's group of schema failures. */
import type { RawDiagnostic, RuleCode } from '../diagnostic.js';
import type { ManifestLocator } from '../locator.js';
import { listAlternatives } from '../suggest.js';
import type { RuleErrorGroup } from './rule.js';
import { placeholderFor } from '../schema-keys.js';

/** Keys the group's `required` failures name, in schema order, without repeats. */
export function missingKeys(group: RuleErrorGroup): string[] {
  const keys = group.failures
    .filter((f) => f.error.keyword === 'required')
    .map((f) => String(f.error.params.missingProperty));
  return [...new Set(keys)];
}

/** Pointers of keys the group forbids (a failed `{ not: {} }` property), with the reason. */
function forbiddenKeys(group: RuleErrorGroup): { pointer: string; reason: string }[] {
  return group.failures
    .filter((f) => f.error.keyword === 'not' && typeof f.schema['x-svc-forbidden'] === 'string')
    .map((f) => ({ pointer: f.error.instancePath, reason: f.schema['x-svc-forbidden'] as string }));
}

/** One diagnostic for keys of which the object needs (one or all), located at `where`, with a fix adding the first. */
export function needsKeys(
  group: RuleErrorGroup,
  at: ManifestLocator,
  options: { code: RuleCode; subject: string; keys: string[]; all: boolean; where: string; why?: string },
): RawDiagnostic {
  const { keys } = options;
  const wanted = options.all
    ? listAlternatives(keys, 'and')
    : keys.length > 2
      ? `one of ${listAlternatives(keys)}`
      : listAlternatives(keys);
  const [start, end] = valueOrObject(at, options.where, group.objectPath);
  const fixes = options.all
    ? keys.flatMap((key) => at.insertKeyFix(group.objectPath, key, placeholderFor(key, undefined)) ?? [])
    : (at.insertKeyFix(group.objectPath, keys[0]!, placeholderFor(keys[0]!, undefined)) ?? []);
  const combined =
    options.all && fixes.length > 1
      ? [{ title: `Add ${listAlternatives(keys, 'and')}`, edits: fixes.flatMap((f) => f.edits) }]
      : fixes;
  return {
    code: options.code,
    message: `${options.subject} needs ${wanted}${options.why ? ` ${options.why}` : ''}`,
    path: group.objectPath,
    start,
    end,
    fixes: combined.length ? combined : undefined,
  };
}

/** The range of the value at `pointer` when it exists, else the object's head. */
function valueOrObject(at: ManifestLocator, pointer: string, objectPath: string): [number, number] {
  return at.target(pointer).exact ? at.valueRange(pointer) : at.objectRange(objectPath);
}

export function forbiddenKeyDiagnostics(group: RuleErrorGroup, at: ManifestLocator, code: RuleCode): RawDiagnostic[] {
  return forbiddenKeys(group).map(({ pointer, reason }) => {
    const [start, end] = at.keyRange(pointer);
    return { code, message: reason, path: pointer, start, end, fixes: at.removeKeyFix(pointer) };
  });
}
