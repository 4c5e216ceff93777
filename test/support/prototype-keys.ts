/**
 * Manifests whose keys are `__proto__`, `constructor` and `prototype`, and a check that
 * `Object.prototype` is left exactly as it was. Those names are data (docs/decisions.md,
 * "Reading the spec" 15): the spec's agent-name pattern allows `constructor` and `prototype`,
 * the HTTP header-name characters allow all three, and open objects allow any key.
 *
 * Shared by every package's test of it: parse, validate, run language-server features and
 * applier operations on {@link PROTOTYPE_KEY_MANIFESTS}, then call
 * {@link expectObjectPrototypeUnchanged} with the snapshot taken before.
 */
import { expect } from 'vitest';

export interface PrototypeKeyManifest {
  name: string;
  format: 'yaml' | 'toml';
  text: string;
  /** Where such a key is data in the value, as a path of keys from the root. */
  paths: string[][];
}

const V2_YAML = `# Every key named __proto__, constructor or prototype below is data.
svc_version: 2
default_agent: constructor
__proto__:
  polluted: true
agents:
  constructor:
    connectors: [prototype]
  prototype:
    enabled: true
connectors:
  - slug: prototype
    provider: http
    base_url: https://api.example.com
    headers:
      __proto__: a
      constructor: b
      prototype: c
triggers:
  - slug: constructor
    type: cron
    cron: "0 * * * *"
    prompt: Run the report.
    agent: constructor
    filter:
      __proto__: x
      constructor: y
    prototype:
      polluted: true
apps:
  constructor:
    port: 3000
    resources:
      __proto__: 1
      constructor: 2
`;

const V2_TOML = `# Every key named __proto__, constructor or prototype below is data.
svc_version = 2
default_agent = "constructor"

[__proto__]
polluted = true

[agents.constructor]
connectors = ["prototype"]

[agents.prototype]
enabled = true

[[connectors]]
slug = "prototype"
provider = "http"
base_url = "https://api.example.com"
headers = { __proto__ = "a", constructor = "b", prototype = "c" }

[[triggers]]
slug = "constructor"
type = "cron"
cron = "0 * * * *"
prompt = "Run the report."
agent = "constructor"
filter.__proto__ = "x"
filter.constructor = "y"
prototype.polluted = true

[apps.constructor]
port = 3000
resources = { __proto__ = 1, constructor = 2 }
`;

const V1_YAML = `# Version 1: an agent's env map may name variables __proto__, constructor and prototype.
svc_version: 1
agents:
  - name: constructor
    env:
      __proto__: a
      constructor: b
      prototype: c
  - name: prototype
project:
  constructor:
    prototype:
      polluted: true
`;

const PATHS_V2 = [
  ['__proto__'],
  ['agents', 'constructor'],
  ['agents', 'prototype'],
  ['connectors', '0', 'headers', '__proto__'],
  ['connectors', '0', 'headers', 'constructor'],
  ['connectors', '0', 'headers', 'prototype'],
  ['triggers', '0', 'filter', '__proto__'],
  ['triggers', '0', 'filter', 'constructor'],
  ['triggers', '0', 'prototype'],
  ['apps', 'constructor'],
  ['apps', 'constructor', 'resources', '__proto__'],
  ['apps', 'constructor', 'resources', 'constructor'],
];

/** Valid manifests (no errors, no warnings) that use the three names wherever the spec allows them. */
export const PROTOTYPE_KEY_MANIFESTS: readonly PrototypeKeyManifest[] = [
  { name: 'v2 YAML', format: 'yaml', text: V2_YAML, paths: PATHS_V2 },
  { name: 'v2 TOML', format: 'toml', text: V2_TOML, paths: PATHS_V2 },
  {
    name: 'v1 YAML',
    format: 'yaml',
    text: V1_YAML,
    paths: [
      ['agents', '0', 'env', '__proto__'],
      ['agents', '0', 'env', 'constructor'],
      ['agents', '0', 'env', 'prototype'],
      ['project', 'constructor', 'prototype'],
    ],
  },
];

export interface PrototypeSnapshot {
  names: (string | symbol)[];
  descriptors: Map<string | symbol, PropertyDescriptor>;
}

/** Records `Object.prototype`'s own properties (names and descriptors). */
export function snapshotObjectPrototype(): PrototypeSnapshot {
  const names = Reflect.ownKeys(Object.prototype);
  return {
    names,
    descriptors: new Map(names.map((name) => [name, Object.getOwnPropertyDescriptor(Object.prototype, name)!])),
  };
}

/** Fails unless `Object.prototype` has exactly the properties of `before`, with the same values, and a fresh object is clean. */
export function expectObjectPrototypeUnchanged(before: PrototypeSnapshot): void {
  const after = snapshotObjectPrototype();
  expect(after.names.map(String)).toEqual(before.names.map(String));
  for (const name of before.names) {
    const was = before.descriptors.get(name)!;
    const is = after.descriptors.get(name)!;
    // Compared as descriptor fields, never called: unbound methods are what is being checked.
    expect(
      // eslint-disable-next-line @typescript-eslint/unbound-method
      Object.is(is.value, was.value) && Object.is(is.get, was.get) && Object.is(is.set, was.set),
      `Object.prototype.${String(name)} changed`,
    ).toBe(true);
  }
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  const probe: Record<string, unknown> = {};
  expect(probe.polluted).toBeUndefined();
}

/** Follows a path of keys through a plain value, own properties only. */
export function ownValueAt(value: unknown, path: readonly string[]): { found: boolean; value?: unknown } {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, key))
      return { found: false };
    current = (current as Record<string, unknown>)[key];
  }
  return { found: true, value: current };
}

/** The prototypes a polluting write could reach: `Object.prototype` and the built-ins' own. */
const PROTOTYPES: readonly [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
  ['Map.prototype', Map.prototype],
];

export type PrototypesSnapshot = [string, object, Map<string | symbol, PropertyDescriptor>][];

/** Records the own properties of `Object.prototype`, `Array.prototype` and the other built-in prototypes in {@link PROTOTYPES}. */
export function snapshotPrototypes(): PrototypesSnapshot {
  return PROTOTYPES.map(([name, target]) => [
    name,
    target,
    new Map(Reflect.ownKeys(target).map((key) => [key, Object.getOwnPropertyDescriptor(target, key)!])),
  ]);
}

/** Fails unless every prototype of {@link snapshotPrototypes} has exactly the properties it had, with the same values. */
export function expectPrototypesUnchanged(before: PrototypesSnapshot): void {
  for (const [name, target, descriptors] of before) {
    expect(Reflect.ownKeys(target).map(String), name).toEqual([...descriptors.keys()].map(String));
    for (const [key, was] of descriptors) {
      const is = Object.getOwnPropertyDescriptor(target, key)!;
      // Compared as descriptor fields, never called: unbound methods are what is being checked.
      expect(
        // eslint-disable-next-line @typescript-eslint/unbound-method
        Object.is(is.value, was.value) && Object.is(is.get, was.get) && Object.is(is.set, was.set),
        `${name}.${String(key)} changed`,
      ).toBe(true);
    }
  }
  expect(Object.getPrototypeOf([])).toBe(Array.prototype);
  const probe: Record<string, unknown> = {};
  expect(probe.polluted).toBeUndefined();
  expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
}
