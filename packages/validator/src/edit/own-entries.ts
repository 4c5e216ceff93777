/**
 * A map's own entries by key (merge keys and ignored duplicates left out), indexed once per
 * map node: planning many edits on one document (the quick fixes of 40 000 unknown keys)
 * stays linear.
 */
import type { MapEntry, MapNode } from '../document/nodes.js';

const indexes = new WeakMap<MapNode, { entries: MapEntry[]; byKey: Map<string, number> }>();

/** The first own entry for `key` and its position in `map.entries`. */
export function ownEntry(map: MapNode, key: string): { entry: MapEntry; index: number } | undefined {
  let index = indexes.get(map);
  if (!index || index.entries !== map.entries) {
    const byKey = new Map<string, number>();
    map.entries.forEach((entry, i) => {
      if (!entry.merge && !entry.ignored && !byKey.has(entry.key)) byKey.set(entry.key, i);
    });
    index = { entries: map.entries, byKey };
    indexes.set(map, index);
  }
  const at = index.byKey.get(key);
  return at === undefined ? undefined : { entry: map.entries[at]!, index: at };
}
