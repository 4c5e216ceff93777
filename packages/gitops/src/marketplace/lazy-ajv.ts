/**
 * ajv, which only the lock file's schema check uses. This file imports it with the module, as any
 * ES module would; the package's bundle replaces it with `lazy-ajv.bundle.ts` (scripts/bundle.mjs),
 * whose getter `require()`s ajv the first time it is asked for, so an operation that never reads a
 * lock file never runs ajv's module code. Both files export the same names with the same types.
 */
import { Ajv } from 'ajv';

export function ajvClass(): typeof Ajv {
  return Ajv;
}
