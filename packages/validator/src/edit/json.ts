/** JSON-shaped values: comparing and copying what a manifest means. */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  // Maps come from the parsers with a null prototype; a class instance such as a TOML
  // date-time is a value of its own (written and compared as its text), not a map.
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === null || prototype === Object.prototype;
}

/** Canonical JSON: object keys sorted. Two values mean the same document exactly when their canonical forms are equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(normalize(value)) ?? 'undefined';
}

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (isPlainObject(value)) {
    // Null prototype: a key named `__proto__` is an entry like any other, not a prototype.
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value).sort()) if (value[key] !== undefined) out[key] = normalize(value[key]);
    return out;
  }
  return value;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return canonicalJson(a) === canonicalJson(b);
}

/** A deep copy of a JSON-shaped value. */
export function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
