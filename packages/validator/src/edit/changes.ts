/**
 * Semantic changes of a manifest: what an edit means, independent of the text. The engine
 * carries them onto YAML or TOML text as minimal splices; {@link applyChanges} is their
 * reference meaning on the plain value, against which every edited text is checked.
 */
import type { Diagnostic } from '../diagnostic.js';
import { cloneJson, isPlainObject, type Json } from './json.js';

/** A map key or a list index. */
export type PathSegment = string | number;

export type ManifestChange =
  /**
   * Set the value at `path`: replaces an existing value, or adds the key (a new map entry)
   * when absent, after its last sibling or, with `after`, right after that sibling key when
   * the text allows (the value's meaning is the same either way: map keys have no order).
   */
  | { op: 'set'; path: PathSegment[]; value: Json; after?: string }
  /** Delete a map key or a list item. */
  | { op: 'delete'; path: PathSegment[] }
  /** Append an item to the list at `path`, creating the list when the key is absent. */
  | { op: 'append'; path: PathSegment[]; value: Json }
  /** Insert an item into a list before the index that ends `path` (an index equal to the length appends). */
  | { op: 'insert'; path: PathSegment[]; value: Json }
  /** Rename the map key at `path` to `to`, keeping its value, its place and its comments. */
  | { op: 'rename'; path: PathSegment[]; to: string }
  /**
   * Write the scalar at `path` anew in its plain canonical form without changing what it
   * means (`2.0` → `2`, `+1` → `1`): for values that are right but written unusually.
   */
  | { op: 'rewrite'; path: PathSegment[] }
  /**
   * Turn the list of maps at `path` into a map keyed by each item's `key` field (a string),
   * that field taken out of the item and its other keys kept in order with their comments:
   * `[{name: a, x: 1}]` → `{a: {x: 1}}`. Refused when an item is not a map, lacks the field,
   * or repeats a name.
   */
  | { op: 'keyBy'; path: PathSegment[]; key: string };

/** Why an edit was not made. `unreadable`: the input does not parse within the validator's limits (see `diagnostics`). */
export type EditErrorReason = 'unreadable' | 'invalid-change' | 'unsupported' | 'mismatch';

/** The edit was not made; nothing was changed. */
export class ManifestEditError extends Error {
  override name = 'ManifestEditError';
  constructor(
    readonly reason: EditErrorReason,
    message: string,
    /** For `unreadable`: the validator's findings that refused the text. */
    readonly diagnostics: readonly Diagnostic[] = [],
  ) {
    super(message);
  }
}

export function formatPath(path: readonly PathSegment[]): string {
  return (
    path
      .map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${segment}`))
      .join('')
      .replace(/^\./, '') || '(root)'
  );
}

/** The value after the changes, computed on a copy of `value`. Throws {@link ManifestEditError} (`invalid-change`) when a change does not apply. */
export function applyChanges(value: unknown, changes: readonly ManifestChange[]): unknown {
  let root = cloneJson(value);
  for (const change of changes) root = applyOne(root, change);
  return root;
}

function invalid(message: string): ManifestEditError {
  return new ManifestEditError('invalid-change', message);
}

function applyOne(root: unknown, change: ManifestChange): unknown {
  if (change.path.length === 0) {
    if (change.op === 'set') return cloneJson(change.value);
    throw invalid(`cannot ${change.op} the document root`);
  }
  let parent = walk(root, change.path.slice(0, -1));
  const last = change.path[change.path.length - 1]!;
  if (parent === null && change.op === 'set' && typeof last === 'string' && change.path.length >= 2) {
    // Setting a key under an empty (`key:`) value makes that value a map.
    parent = {};
    setChild(walk(root, change.path.slice(0, -2)), change.path[change.path.length - 2]!, parent, change.path);
  }
  switch (change.op) {
    case 'append': {
      const container = childOf(parent, last);
      if (container === undefined || container === null) setChild(parent, last, [cloneJson(change.value)], change.path);
      else if (Array.isArray(container)) container.push(cloneJson(change.value));
      else throw invalid(`${formatPath(change.path)} is not a list`);
      return root;
    }
    case 'set':
      setChild(parent, last, cloneJson(change.value), change.path);
      return root;
    case 'insert':
      if (!Array.isArray(parent) || typeof last !== 'number' || last > parent.length)
        throw invalid(`cannot insert at ${formatPath(change.path)}`);
      parent.splice(last, 0, cloneJson(change.value));
      return root;
    case 'rename': {
      if (!isPlainObject(parent) || typeof last !== 'string' || !Object.prototype.hasOwnProperty.call(parent, last)) {
        throw invalid(`${formatPath(change.path)} does not exist`);
      }
      if (change.to === last) return root;
      if (Object.prototype.hasOwnProperty.call(parent, change.to))
        throw invalid(`cannot rename ${formatPath(change.path)}: '${change.to}' exists`);
      // Rebuild the map so the key keeps its place.
      const entries = Object.entries(parent);
      for (const key of Object.keys(parent)) delete parent[key];
      for (const [key, child] of entries) defineOwn(parent, key === last ? change.to : key, child);
      return root;
    }
    case 'rewrite': {
      const current = childOf(parent, last);
      if (current === undefined) throw invalid(`${formatPath(change.path)} does not exist`);
      if (current !== null && typeof current === 'object') throw invalid(`${formatPath(change.path)} is not a scalar`);
      return root;
    }
    case 'keyBy': {
      const list = childOf(parent, last);
      if (!Array.isArray(list)) throw invalid(`${formatPath(change.path)} is not a list`);
      setChild(parent, last, keyItems(list, change.key, change.path), change.path);
      return root;
    }
    case 'delete':
      if (Array.isArray(parent) && typeof last === 'number') {
        if (last >= parent.length) throw invalid(`${formatPath(change.path)} does not exist`);
        parent.splice(last, 1);
      } else if (isPlainObject(parent) && typeof last === 'string') {
        if (!Object.prototype.hasOwnProperty.call(parent, last))
          throw invalid(`${formatPath(change.path)} does not exist`);
        delete parent[last];
      } else {
        throw invalid(`${formatPath(change.path)} does not exist`);
      }
      return root;
  }
}

/** The map a `keyBy` change makes of `list`. Throws {@link ManifestEditError} (`invalid-change`) on a list it cannot key. */
export function keyItems(list: readonly unknown[], key: string, path: readonly PathSegment[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  list.forEach((item, index) => {
    const where = formatPath([...path, index]);
    if (!isPlainObject(item)) throw invalid(`${where} is not a map`);
    const name = Object.prototype.hasOwnProperty.call(item, key) ? item[key] : undefined;
    if (typeof name !== 'string') throw invalid(`${where} has no string '${key}'`);
    if (Object.prototype.hasOwnProperty.call(out, name))
      throw invalid(`${where}: '${key}' ${JSON.stringify(name)} is used twice`);
    const body: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(item)) if (k !== key) defineOwn(body, k, v);
    defineOwn(out, name, body);
  });
  return out;
}

/** The value at `path` in a plain value; undefined when it is not there. */
export function valueAtPath(root: unknown, path: readonly PathSegment[]): unknown {
  let node = root;
  for (const segment of path) {
    node = childOf(node, segment);
    if (node === undefined) return undefined;
  }
  return node;
}

function walk(root: unknown, path: readonly PathSegment[]): unknown {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    node = childOf(node, path[i]!);
    if (node === undefined) throw invalid(`${formatPath(path.slice(0, i + 1))} does not exist`);
  }
  return node;
}

function childOf(node: unknown, segment: PathSegment): unknown {
  if (Array.isArray(node) && typeof segment === 'number') return node[segment];
  if (isPlainObject(node) && typeof segment === 'string')
    return Object.prototype.hasOwnProperty.call(node, segment) ? node[segment] : undefined;
  return undefined;
}

function setChild(parent: unknown, segment: PathSegment, value: unknown, path: readonly PathSegment[]): void {
  if (Array.isArray(parent) && typeof segment === 'number' && segment < parent.length) parent[segment] = value;
  else if (isPlainObject(parent) && typeof segment === 'string') defineOwn(parent, segment, value);
  else throw invalid(`cannot set ${formatPath(path)}: its parent is not a map`);
}

/** An own property, even for a key such as `__proto__` (a name from untrusted input never reaches a prototype). */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
