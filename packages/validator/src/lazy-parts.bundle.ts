/**
 * The bundle's `lazy-parts.ts` (see there): the same getters, each loading its part on first
 * use. esbuild turns a `require()` of a bundled ES module into a call that runs the module's
 * top-level code once, when first reached, instead of at start-up.
 */
import type * as toml from './document/parse-toml.js';
import type * as eager from './lazy-parts.js';

declare const require: (id: string) => unknown;

let tomlModule: typeof toml | undefined;

export function tomlParser(): typeof toml {
  return (tomlModule ??= require('./document/parse-toml.js') as typeof toml);
}

// Both files offer the same getters with the same types (checked by tsc, gone from the bundle).
void ({ tomlParser } satisfies typeof eager);
