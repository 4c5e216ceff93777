/**
 * Schema validation by parts. The generator (scripts/gen-validators.ts, with the cut made in
 * scripts/validator-parts.ts) compiles each version's schema as a tree of parts: a `shell` for
 * the root and for each big collection (its own keywords: type, required, propertyNames,
 * min/maxProperties, …) and one validator per child part (a top-level key, one trigger, one
 * agent). Walking the tree over a value gives exactly the errors, in the order, of the
 * whole-schema validator (test/schema-parts.test.ts holds it to that); a part's errors are
 * kept per value object, so after an edit only the parts whose value is new are validated
 * again (the document layer keeps an unchanged block's value object from one update to the next).
 */
import { escapePointerSegment } from './document/nodes.js';
import { endsKeptFrom, keptOf, withRunReplaced } from './document/spliced-lists.js';
import type { SchemaError } from './rules/rule.js';

export type CompiledPiece = ((data: unknown) => boolean) & { errors?: SchemaError[] | null };

/** One node of the generated part tree. */
export interface SchemaPart {
  /** JSON pointer of the part's subschema in the version's schema (`''`, `/properties/triggers/items`). */
  at: string;
  /** A leaf: the part's whole validator. */
  validate?: CompiledPiece;
  /** A split node: its own keywords, the child parts left out. */
  shell?: CompiledPiece;
  properties?: [string, SchemaPart][];
  /** Every key not in `properties`. */
  additional?: SchemaPart;
  items?: SchemaPart;
  /** The key schema, checked key by key; its errors follow the shell's, as ajv reports them. */
  propertyNames?: SchemaPart;
}

/** The errors of one part of a value: paths relative to the part's value and schema. */
export interface PartErrors {
  /** Instance pointer of the part's value (`/triggers/3`). */
  pointer: string;
  /** Schema pointer of the part's subschema. */
  at: string;
  /** As the part's validator reported them; the same array while the value object is the same. */
  errors: readonly SchemaError[];
}

/** What one walk validated afresh (cache misses on object values), by instance pointer. */
export interface PartWork {
  /** When given, the pointers of the parts validated afresh are added here. */
  validated?: string[];
}

const NONE: readonly SchemaError[] = Object.freeze([]);
const caches = new WeakMap<CompiledPiece, WeakMap<object, readonly SchemaError[]>>();

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function run(
  piece: CompiledPiece,
  value: unknown,
  pointer: string | (() => string),
  work: PartWork | undefined,
): readonly SchemaError[] {
  if (!work || value === null || typeof value !== 'object') return piece(value) ? NONE : (piece.errors ?? NONE);
  let byValue = caches.get(piece);
  if (!byValue) caches.set(piece, (byValue = new WeakMap()));
  let errors = byValue.get(value);
  if (!errors) {
    work.validated?.push(typeof pointer === 'string' ? pointer : pointer());
    errors = piece(value) ? NONE : (piece.errors ?? NONE);
    byValue.set(value, errors);
  }
  return errors;
}

/**
 * What a walk of a split part over one value object found, and at which pointer. A value object
 * is never changed (the document makes a new one around anything an edit changed), so the same
 * object at the same pointer finds the same again: an unchanged `agents` map is not even listed.
 */
const keptWalks = new WeakMap<SchemaPart, WeakMap<object, { pointer: string; found: PartErrors[] }>>();

/**
 * Validates `value` part by part, in the whole validator's order, calling `found` for each part
 * with errors. With `work`, a part's result is taken from the last validation of the same value
 * object (and what was validated afresh is recorded there).
 */
export function walkParts(
  part: SchemaPart,
  value: unknown,
  pointer: string,
  found: (errors: PartErrors) => void,
  work?: PartWork,
): void {
  if (!work || part.validate || value === null || typeof value !== 'object') {
    walkPart(part, value, pointer, found, work);
    return;
  }
  let byValue = keptWalks.get(part);
  if (!byValue) keptWalks.set(part, (byValue = new WeakMap()));
  const kept = byValue.get(value);
  if (kept?.pointer === pointer) {
    const list = kept.found;
    for (let i = 0; i < list.length; i++) found(list[i]!);
    return;
  }
  const collected: PartErrors[] = [];
  walkPart(
    part,
    value,
    pointer,
    (errors) => {
      collected.push(errors);
      found(errors);
    },
    work,
  );
  byValue.set(value, { pointer, found: collected });
}

function walkPart(
  part: SchemaPart,
  value: unknown,
  pointer: string,
  found: (errors: PartErrors) => void,
  work?: PartWork,
): void {
  if (part.validate) {
    const errors = run(part.validate, value, pointer, work);
    if (errors.length) found({ pointer, at: part.at, errors });
    return;
  }
  let shellErrors = run(part.shell!, value, pointer, work);
  // ajv goes through an object's keys with `for…in`: for our objects (own keys, no prototype), the order of Object.keys.
  const keys = isObject(value) && (part.propertyNames || part.additional) ? Object.keys(value) : [];
  if (isObject(value) && part.propertyNames?.validate) {
    const names = nameErrors(part.propertyNames.validate, keys, work !== undefined);
    if (names.length) shellErrors = [...shellErrors, ...names];
  }
  if (shellErrors.length) found({ pointer, at: part.at, errors: shellErrors });
  if (isObject(value)) {
    // ajv's order: additionalProperties (keys in the value's order), then properties (in the schema's).
    if (part.additional) {
      const named = part.properties?.length ? new Set(part.properties.map(([name]) => name)) : undefined;
      const others = named ? keys.filter((key) => !named.has(key)) : keys;
      const members = others.map((key) => value[key]);
      walkMembers(
        part.additional,
        members,
        (index) => `${pointer}/${escapePointerSegment(others[index]!)}`,
        found,
        work,
      );
    }
    for (const [name, child] of part.properties ?? []) {
      const member = value[name];
      if (member !== undefined) walkParts(child, member, `${pointer}/${escapePointerSegment(name)}`, found, work);
    }
  } else if (Array.isArray(value) && part.items) {
    walkMembers(part.items, value as unknown[], (index) => `${pointer}/${index}`, found, work);
  }
}

/** Errors of the key schema per key (keys repeat from one validation to the next), per key validator. */
const keptNames = new WeakMap<CompiledPiece, Map<string, readonly SchemaError[]>>();

/**
 * What ajv reports for `propertyNames` on an object, key by key: the key schema's errors (with
 * `propertyName`), then one `propertyNames` error for the key. Paths are relative to the object.
 */
function nameErrors(piece: CompiledPiece, keys: readonly string[], keep: boolean): SchemaError[] {
  let byKey = keep ? keptNames.get(piece) : undefined;
  if (keep && !byKey) keptNames.set(piece, (byKey = new Map()));
  // Bounded: a file's keys, and the ones typed on the way.
  if (byKey && byKey.size > 100_000) byKey.clear();
  const all: SchemaError[] = [];
  for (const key of keys) {
    let errors = byKey?.get(key);
    if (!errors) {
      errors = piece(key) ? NONE : (piece.errors ?? NONE);
      byKey?.set(key, errors);
    }
    if (errors.length === 0) continue;
    for (const error of errors)
      all.push({
        ...error,
        schemaPath: `#/propertyNames${error.schemaPath.slice(1)}`,
        propertyName: key,
      } as SchemaError);
    all.push({
      instancePath: '',
      schemaPath: '#/propertyNames',
      keyword: 'propertyNames',
      params: { propertyName: key },
      message: 'property name must be valid',
    });
  }
  return all;
}

/** The errors of a collection's members, by index, as the last walk over the same collection found them. */
interface KeptMembers {
  members: readonly unknown[];
  errors: (readonly SchemaError[])[];
  /** The indexes of the members with errors, ascending. */
  withErrors: number[];
  /** What was handed on for each of them (parallel to `withErrors`): handed on again while its pointer and errors are the same. */
  reported: PartErrors[];
}
const keptMembers = new WeakMap<SchemaPart, WeakMap<object, KeptMembers>>();

/**
 * The members of a collection (its items, or the values of its other keys), each its own part.
 * With `work`, a leaf part's members are compared with the last walk's by identity from both
 * ends, so that only the members between (the ones an edit changed) are looked up or validated:
 * the others cost a comparison of references.
 */
function walkMembers(
  part: SchemaPart,
  members: readonly unknown[],
  pointerOf: (index: number) => string,
  found: (errors: PartErrors) => void,
  work?: PartWork,
): void {
  const n = members.length;
  if (!work || !part.validate || n === 0) {
    for (let index = 0; index < n; index++) walkParts(part, members[index], pointerOf(index), found, work);
    return;
  }
  let byMember = keptMembers.get(part);
  if (!byMember) keptMembers.set(part, (byMember = new WeakMap()));
  const first = members[0];
  const last = members[n - 1];
  const previous =
    (isCollection(first) ? byMember.get(first) : undefined) ?? (isCollection(last) ? byMember.get(last) : undefined);
  let prefix = 0;
  let suffix = 0;
  let errors: (readonly SchemaError[])[];
  const withErrors: number[] = [];
  /** Parallel to `withErrors`: what the last walk handed on for a kept member. */
  const handedOn: (PartErrors | undefined)[] = [];
  // Kept members' results are copied by slices, and only members with errors are visited: in a
  // large file nearly every member is kept and has none.
  if (previous) {
    const old = previous.members;
    const m = old.length;
    // A list spliced from the last one (an edited collection's value) carries which ends it kept.
    const carried = endsKeptFrom(members, old, keptOf(members));
    if (carried) ({ prefix, suffix } = carried);
    else {
      while (prefix < n && prefix < m && members[prefix] === old[prefix] && isCollection(members[prefix])) prefix++;
      while (
        suffix < n - prefix &&
        suffix < m - prefix &&
        members[n - 1 - suffix] === old[m - 1 - suffix] &&
        isCollection(members[n - 1 - suffix])
      )
        suffix++;
    }
    errors = withRunReplaced(
      previous.errors,
      prefix,
      m - suffix,
      new Array<readonly SchemaError[]>(n - prefix - suffix),
    );
    for (let k = 0; k < previous.withErrors.length && previous.withErrors[k]! < prefix; k++) {
      withErrors.push(previous.withErrors[k]!);
      handedOn.push(previous.reported[k]);
    }
  } else errors = new Array<readonly SchemaError[]>(n);
  for (let i = prefix; i < n - suffix; i++) {
    errors[i] = run(part.validate, members[i], () => pointerOf(i), work);
    if (errors[i]!.length) {
      withErrors.push(i);
      handedOn.push(undefined);
    }
  }
  if (previous) {
    const shift = n - previous.members.length;
    for (let k = 0; k < previous.withErrors.length; k++) {
      const i = previous.withErrors[k]! + shift;
      if (i < n - suffix) continue;
      withErrors.push(i);
      handedOn.push(previous.reported[k]);
    }
  }
  // The same object for a member whose pointer and errors did not change: what receives it may keep
  // what it worked out for it (validate.ts keeps where its anchor was).
  const reported: PartErrors[] = new Array<PartErrors>(withErrors.length);
  for (let k = 0; k < withErrors.length; k++) {
    const i = withErrors[k]!;
    const pointer = pointerOf(i);
    const before = handedOn[k];
    const errorsHere = errors[i]!;
    const report =
      before && before.pointer === pointer && before.errors === errorsHere
        ? before
        : { pointer, at: part.at, errors: errorsHere };
    reported[k] = report;
    found(report);
  }
  const state: KeptMembers = { members, errors, withErrors, reported };
  if (isCollection(first)) byMember.set(first, state);
  if (isCollection(last)) byMember.set(last, state);
}

function isCollection(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}

/** A part's errors with paths from the root of the value and of the schema, as the whole validator reports them. */
export function absoluteErrors({ pointer, at, errors }: PartErrors): SchemaError[] {
  return errors.map((error) => ({
    ...error,
    instancePath: pointer + error.instancePath,
    schemaPath: `#${at}${error.schemaPath.slice(1)}`,
  }));
}

/** Every error of a value, uncached: what the whole-schema validator reports. */
export function collectErrors(part: SchemaPart, value: unknown): SchemaError[] {
  const all: SchemaError[] = [];
  walkParts(part, value, '', (found) => all.push(...absoluteErrors(found)));
  return all;
}
