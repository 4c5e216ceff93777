import type { RawDiagnostic } from '../diagnostic.js';
import { escapePointerSegment, type Frame, type MapEntry, type ValueNode } from './nodes.js';

/** What a YAML or TOML builder gives: the located tree, the problems met, and a few facts about the text. */
export interface ParsedFragment {
  root: ValueNode | null;
  diagnostics: RawDiagnostic[];
  /** Number of alias nodes (`*name`) met. */
  aliasCount: number;
  /** Whether a scalar is a TOML date or time (TOML only). */
  hasDateTimes?: boolean;
  /** What the tree's offsets are kept from (when one builder made all of it): moving it moves the whole tree. */
  frame?: Frame;
}

/**
 * Marks the entries a map's value must leave out: repeated keys (the first one wins), each
 * reported with a located diagnostic, and keys that are no string (reported where they were read). Shared by the YAML and TOML builders. Every other key
 * is data, `__proto__` and `constructor` included: values are built as null-prototype
 * objects (see value.ts), so no key can reach `Object.prototype`.
 */
export function checkMapKeys(entries: MapEntry[], pointer: string, diagnostics: RawDiagnostic[]): void {
  const firstByKey = new Map<string, MapEntry>();
  for (const entry of entries) {
    if (entry.merge) continue;
    if (entry.keyRefused) {
      entry.ignored = true;
      continue;
    }
    const first = firstByKey.get(entry.key);
    if (first) {
      entry.ignored = true;
      diagnostics.push({
        code: 'duplicate-key',
        message: `key '${entry.key}' appears twice in the same mapping; only the first is used`,
        path: `${pointer}/${escapePointerSegment(entry.key)}`,
        start: entry.keyStart,
        end: entry.keyEnd,
        related: [{ message: `'${entry.key}' first defined here`, start: first.keyStart, end: first.keyEnd }],
      });
      continue;
    }
    firstByKey.set(entry.key, entry);
  }
}
