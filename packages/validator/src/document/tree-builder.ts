import type { RawDiagnostic } from '../diagnostic.js';
import { escapePointerSegment, type MapEntry } from './nodes.js';

/** Keys that would reach an object's prototype if copied into a plain JavaScript object. */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Marks the entries a map's value must leave out: unsafe keys and repeated keys (the first
 * one wins). Reports each with a located diagnostic. Shared by the YAML and TOML builders.
 */
export function checkMapKeys(entries: MapEntry[], pointer: string, diagnostics: RawDiagnostic[]): void {
  const firstByKey = new Map<string, MapEntry>();
  for (const entry of entries) {
    if (entry.merge) continue;
    if (UNSAFE_KEYS.has(entry.key)) {
      entry.ignored = true;
      diagnostics.push({
        code: 'unsafe-key',
        message: `key '${entry.key}' is not allowed: it names a JavaScript object internal and is rejected everywhere in a manifest`,
        path: `${pointer}/${entry.key}`,
        start: entry.keyStart,
        end: entry.keyEnd,
        // The removal fix is added by the validator, which knows the format's line structure.
      });
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
