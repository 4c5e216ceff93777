/**
 * A manifest change as a list of small semantic operations on the parsed document.
 * Each format-specific editor carries the same operations onto the user's text; the
 * reference meaning is {@link applyChanges} on the parsed value, and every edited text is
 * re-parsed and compared with it before anything is written.
 */
import { EditError } from '../errors.js';
import { cloneJson, isPlainObject, type Json } from '../json.js';

export type PathSegment = string | number;

export type ManifestChange =
  /** Set the value at `path` (a map key that may not exist yet, or an existing sequence index). */
  | { op: 'set'; path: PathSegment[]; value: Json }
  /** Delete a map key or a sequence item. */
  | { op: 'delete'; path: PathSegment[] }
  /** Append an item to the sequence at `path`, creating the sequence when the key is absent. */
  | { op: 'append'; path: PathSegment[]; value: Json };

export function formatPath(path: readonly PathSegment[]): string {
  return path.map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${segment}`)).join('').replace(/^\./, '') || '(root)';
}

/** The document after the changes, computed on a copy of `document`. */
export function applyChanges(document: unknown, changes: readonly ManifestChange[]): unknown {
  let root = cloneJson(document);
  for (const change of changes) root = applyOne(root, change);
  return root;
}

function applyOne(root: unknown, change: ManifestChange): unknown {
  if (change.path.length === 0) {
    if (change.op === 'set') return cloneJson(change.value);
    throw new EditError(`cannot ${change.op} the document root`);
  }
  let parent = walk(root, change.path.slice(0, -1));
  const last = change.path[change.path.length - 1]!;
  if (parent === null && change.op === 'set' && typeof last === 'string' && change.path.length >= 2) {
    // Setting a key under an empty (`key:`) value makes that value a map.
    parent = {};
    setChild(walk(root, change.path.slice(0, -2)), change.path[change.path.length - 2]!, parent, change.path);
  }
  if (change.op === 'append') {
    const container = childOf(parent, last);
    if (container === undefined || container === null) {
      setChild(parent, last, [cloneJson(change.value)], change.path);
    } else if (Array.isArray(container)) {
      container.push(cloneJson(change.value));
    } else {
      throw new EditError(`${formatPath(change.path)} is not a list`);
    }
    return root;
  }
  if (change.op === 'set') {
    setChild(parent, last, cloneJson(change.value), change.path);
    return root;
  }
  if (Array.isArray(parent) && typeof last === 'number') {
    if (last >= parent.length) throw new EditError(`${formatPath(change.path)} does not exist`);
    parent.splice(last, 1);
  } else if (isPlainObject(parent) && typeof last === 'string') {
    if (!(last in parent)) throw new EditError(`${formatPath(change.path)} does not exist`);
    delete parent[last];
  } else {
    throw new EditError(`${formatPath(change.path)} does not exist`);
  }
  return root;
}

function walk(root: unknown, path: readonly PathSegment[]): unknown {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    node = childOf(node, path[i]!);
    if (node === undefined) throw new EditError(`${formatPath(path.slice(0, i + 1))} does not exist`);
  }
  return node;
}

function childOf(node: unknown, segment: PathSegment): unknown {
  if (Array.isArray(node) && typeof segment === 'number') return node[segment];
  if (isPlainObject(node) && typeof segment === 'string') return Object.prototype.hasOwnProperty.call(node, segment) ? node[segment] : undefined;
  return undefined;
}

function setChild(parent: unknown, segment: PathSegment, value: unknown, path: readonly PathSegment[]): void {
  if (Array.isArray(parent) && typeof segment === 'number' && segment < parent.length) parent[segment] = value;
  else if (isPlainObject(parent) && typeof segment === 'string') parent[segment] = value;
  else throw new EditError(`cannot set ${formatPath(path)}: its parent is not a map`);
}
