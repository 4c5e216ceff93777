/**
 * The bundle's `lazy-parts.ts` (see there): the same getters, each loading its part on first
 * use. esbuild turns a `require()` of a bundled ES module into a call that runs the module's
 * top-level code once, when first reached, instead of at start-up.
 */
import type * as childProcessModule from 'node:child_process';
import type * as tomlSyntaxModule from 'toml-eslint-parser';
import type * as toml from './document/parse-toml.js';
import type * as yamlLibraryModule from './document/yaml-library.js';
import type * as github from './formatters/github.js';
import type * as json from './formatters/json.js';
import type * as sarif from './formatters/sarif.js';
import type * as walk from './inputs/walk.js';
import type * as v1 from './generated/validators-v1.js';
import type * as eager from './lazy-parts.js';

declare const require: (id: string) => unknown;

let tomlModule: typeof toml | undefined;
let yamlLibraryLoaded: typeof yamlLibraryModule | undefined;
let v1Module: typeof v1 | undefined;
let formatterModules: { json: typeof json; sarif: typeof sarif; github: typeof github } | undefined;

export function tomlParser(): typeof toml {
  return (tomlModule ??= require('./document/parse-toml.js') as typeof toml);
}

export function yamlLibrary(): typeof yamlLibraryModule {
  return (yamlLibraryLoaded ??= require('./document/yaml-library.js') as typeof yamlLibraryModule);
}

export function tomlSyntax(): typeof tomlSyntaxModule {
  return require('toml-eslint-parser') as typeof tomlSyntaxModule;
}

export function v1Validator(): typeof v1 {
  return (v1Module ??= require('./generated/validators-v1.js') as typeof v1);
}

export function formatters(): { json: typeof json; sarif: typeof sarif; github: typeof github } {
  return (formatterModules ??= {
    json: require('./formatters/json.js') as typeof json,
    sarif: require('./formatters/sarif.js') as typeof sarif,
    github: require('./formatters/github.js') as typeof github,
  });
}

/** Node's built-in module, required when first asked for (esbuild keeps the `require`). */
export function childProcess(): typeof childProcessModule {
  return require('node:child_process') as typeof childProcessModule;
}

let walkModule: typeof walk | undefined;

export function fileWalker(): typeof walk {
  return (walkModule ??= require('./inputs/walk.js') as typeof walk);
}

// Both files offer the same getters with the same types (checked by tsc, gone from the bundle).
void ({ tomlParser, yamlLibrary, tomlSyntax, v1Validator, formatters, childProcess, fileWalker } satisfies typeof eager);
