/**
 * Parts of the validator that many runs never use, reached only through the getters here. This
 * file loads them with the module, as any ES module would; the CLI bundle replaces it with
 * `lazy-parts.bundle.ts` (scripts/lazy-parts-plugin.mjs), whose getters `require()` each part the
 * first time it is asked for, so `svc-manifest validate svc.yaml` never runs the TOML parser's
 * module code. Both files export the same names with the same types.
 */
import * as toml from './document/parse-toml.js';

/** The TOML half of the document layer (and toml-eslint-parser behind it). */
export function tomlParser(): typeof toml {
  return toml;
}
