/**
 * A new value for an existing collection, as finer changes: key by key for maps, item by
 * item for lists, so that what stays keeps its text and comments. Both formats' planners use
 * these.
 */
import type { MapNode, SeqNode } from '../document/nodes.js';
import type { ManifestChange, PathSegment } from './changes.js';
import { deepEqual, isPlainObject, type Json } from './json.js';
import { ownEntry } from './own-entries.js';

/** Changes to a map, key by key: keys to set first (so the map never becomes empty midway), then deletions. */
export function mapDiff(
  map: MapNode,
  current: unknown,
  value: Record<string, Json>,
  path: readonly PathSegment[],
): ManifestChange[] {
  const effective = isPlainObject(current) ? current : {};
  const changes: ManifestChange[] = [];
  for (const [key, child] of Object.entries(value)) {
    const has = ownEntry(map, key)?.entry !== undefined || Object.prototype.hasOwnProperty.call(effective, key);
    if (!has || !deepEqual(effective[key], child)) changes.push({ op: 'set', path: [...path, key], value: child });
  }
  for (const entry of map.entries) {
    if (entry.merge || entry.ignored) continue;
    if (!Object.prototype.hasOwnProperty.call(value, entry.key))
      changes.push({ op: 'delete', path: [...path, entry.key] });
  }
  return changes;
}

/**
 * Changes to a sequence: items kept in order stay untouched, others are deleted, new ones
 * appended; lists of maps of the same length are changed item by item. `undefined` when the
 * new list is not reachable that way (reordering): the caller rewrites it.
 */
export function seqDiff(
  seq: SeqNode,
  current: unknown[],
  value: Json[],
  path: readonly PathSegment[],
): ManifestChange[] | undefined {
  const scalarsOnly = [...current, ...value].every((item) => !Array.isArray(item) && !isPlainObject(item));
  if (scalarsOnly) {
    const deletions: number[] = [];
    let next = 0;
    current.forEach((item, index) => {
      if (next < value.length && deepEqual(item, value[next])) next++;
      else deletions.push(index);
    });
    if (deletions.length === current.length) return undefined;
    return [
      ...deletions.reverse().map((index): ManifestChange => ({ op: 'delete', path: [...path, index] })),
      ...value.slice(next).map((item): ManifestChange => ({ op: 'append', path: [...path], value: item })),
    ];
  }
  if (seq.items.length !== current.length) return undefined;
  const shared = Math.min(current.length, value.length);
  const changes: ManifestChange[] = [];
  for (let i = 0; i < shared; i++) {
    if (!deepEqual(current[i], value[i])) changes.push({ op: 'set', path: [...path, i], value: value[i]! });
  }
  for (let i = current.length - 1; i >= value.length; i--) changes.push({ op: 'delete', path: [...path, i] });
  for (const item of value.slice(current.length)) changes.push({ op: 'append', path: [...path], value: item });
  return changes;
}
