/**
 * Parts of the validator that many runs never use, reached only through the getters here. This
 * file loads them with the module, as any ES module would; the CLI bundle replaces it with
 * `lazy-parts.bundle.ts` (scripts/lazy-parts-plugin.mjs), whose getters `require()` each part the
 * first time it is asked for, so `svc-manifest validate svc.yaml` never runs the TOML parser's
 * or the svc_version 1 validator's module code, nor the `yaml` library's when the simple reader
 * reads the file (simple-yaml.ts), nor a formatter it was not asked for, nor Node's
 * child_process (which loads Node's streams and sockets). Both files export the same names with the same types.
 */
import * as childProcessModule from 'node:child_process';
import * as tomlSyntaxModule from 'toml-eslint-parser';
import * as toml from './document/parse-toml.js';
import * as yamlLibraryModule from './document/yaml-library.js';
import * as github from './formatters/github.js';
import * as json from './formatters/json.js';
import * as sarif from './formatters/sarif.js';
import * as walk from './inputs/walk.js';
import * as v1 from './generated/validators-v1.js';

/** The TOML half of the document layer (and toml-eslint-parser behind it). */
export function tomlParser(): typeof toml {
  return toml;
}

/** The YAML reader of record, the `yaml` library's (for the texts simple-yaml.ts declines). */
export function yamlLibrary(): typeof yamlLibraryModule {
  return yamlLibraryModule;
}

/** toml-eslint-parser itself (`convert` reads a TOML file's comments from its syntax tree). */
export function tomlSyntax(): typeof tomlSyntaxModule {
  return tomlSyntaxModule;
}

/** ajv's compiled validator for svc_version 1. */
export function v1Validator(): typeof v1 {
  return v1;
}

/** The report formats other than the default (stylish). */
export function formatters(): { json: typeof json; sarif: typeof sarif; github: typeof github } {
  return { json, sarif, github };
}

/** Node's child_process, for `svc-manifest git` when it runs the applier's command. */
export function childProcess(): typeof childProcessModule {
  return childProcessModule;
}

/** Walking folders and globs for the CLI's arguments (and picomatch and `ignore` behind it). */
export function fileWalker(): typeof walk {
  return walk;
}
