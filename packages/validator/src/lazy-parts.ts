/**
 * Parts of the validator that many runs never use, reached only through the getters here. This
 * file loads them with the module, as any ES module would; the CLI bundle replaces it with
 * `lazy-parts.bundle.ts` (scripts/lazy-parts-plugin.mjs), whose getters `require()` each part the
 * first time it is asked for, so `svc-manifest validate svc.yaml` never runs the TOML parser's
 * or the svc_version 1 validator's module code. Both files export the same names with the same types.
 */
import * as toml from './document/parse-toml.js';
import * as v1 from './generated/validators-v1.js';

/** The TOML half of the document layer (and toml-eslint-parser behind it). */
export function tomlParser(): typeof toml {
  return toml;
}

/** ajv's compiled validator for svc_version 1. */
export function v1Validator(): typeof v1 {
  return v1;
}
