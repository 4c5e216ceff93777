/**
 * `__proto__`, `constructor` and `prototype` are data (docs/decisions.md, "Reading the spec"
 * 15): both parsers and the value builder make null-prototype objects, so no key reaches
 * `Object.prototype`, and the names are accepted wherever the spec's patterns allow them.
 * The manifests and the prototype check are shared (test/support/prototype-keys.ts) with the
 * language-server and applier tests of the same property.
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson, deepEqual, ManifestDocument, validateManifest } from '@svc-manifest/validator';
import {
  expectObjectPrototypeUnchanged,
  ownValueAt,
  PROTOTYPE_KEY_MANIFESTS,
  snapshotObjectPrototype,
} from '../../../test/support/prototype-keys.js';

/** Every object in a value, depth first. */
function objectsIn(value: unknown, out: object[] = []): object[] {
  if (value !== null && typeof value === 'object') {
    out.push(value);
    for (const child of Object.values(value)) objectsIn(child, out);
  }
  return out;
}

describe('keys named __proto__, constructor and prototype', () => {
  for (const manifest of PROTOTYPE_KEY_MANIFESTS) {
    it(`are data in the ${manifest.name} manifest: valid, in the value, and Object.prototype is unchanged`, () => {
      const before = snapshotObjectPrototype();
      const result = validateManifest(manifest.text, { format: manifest.format });
      expect(result.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
      expect(result.ok).toBe(true);
      for (const path of manifest.paths) expect(ownValueAt(result.manifest, path).found, path.join('/')).toBe(true);
      // Maps are null-prototype objects: nothing is inherited, nothing is written to a prototype.
      const objects = objectsIn(result.manifest).filter((o) => !Array.isArray(o));
      expect(objects.length).toBeGreaterThan(5);
      for (const object of objects) expect(Object.getPrototypeOf(object)).toBeNull();
      expectObjectPrototypeUnchanged(before);
    });
  }

  it('an inherited name is not a declared key: a v2 agents map without `constructor` does not declare it', () => {
    const result = validateManifest('svc_version: 2\ndefault_agent: constructor\nagents:\n  main: {}\n');
    expect(result.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.column])).toEqual([
      ['default-agent-declared', 2, 16],
    ]);
  });

  it('`__proto__` is not a slug, so it is refused as an agent name, at the key (invalid-key-name)', () => {
    const before = snapshotObjectPrototype();
    for (const [text, format, line, column] of [
      ['svc_version: 2\ndefault_agent: main\nagents:\n  main: {}\n  __proto__: {}\n', 'yaml', 5, 3],
      ['svc_version = 2\ndefault_agent = "main"\n[agents.main]\n[agents.__proto__]\n', 'toml', 4, 9],
    ] as const) {
      const result = validateManifest(text, { format });
      expect(result.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.column])).toEqual([
        ['invalid-key-name', line, column],
      ]);
    }
    expectObjectPrototypeUnchanged(before);
  });

  it('a header name outside the HTTP token characters is still refused next to the three names', () => {
    const text =
      'svc_version: 1\nconnectors:\n  - slug: api\n    provider: http\n    base_url: https://x.example\n    headers:\n      constructor: a\n      "bad name": b\n';
    const result = validateManifest(text);
    expect(result.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.column])).toEqual([
      ['invalid-key-name', 8, 7],
    ]);
  });

  it('the located tree keeps the keys, and a merge can bring them in without touching a prototype', () => {
    const before = snapshotObjectPrototype();
    const document = ManifestDocument.parse(
      'svc_version: 1\nbase: &b {__proto__: {polluted: true}, constructor: 1}\nproject:\n  <<: *b\n  prototype: 2\n',
    );
    const value = document.value as Record<string, Record<string, unknown>>;
    expect(Object.keys(value.project!).sort()).toEqual(['__proto__', 'constructor', 'prototype']);
    expect(Object.getPrototypeOf(value.project!.__proto__)).toBeNull();
    expectObjectPrototypeUnchanged(before);
  });

  it('canonical JSON keeps a `__proto__` key: values differing only there are not equal', () => {
    const before = snapshotObjectPrototype();
    const value = JSON.parse(
      '{"headers":{"constructor":"b","__proto__":"a"},"filter":{"__proto__":{"x":1}}}',
    ) as unknown;
    expect(canonicalJson(value)).toBe('{"filter":{"__proto__":{"x":1}},"headers":{"__proto__":"a","constructor":"b"}}');
    expect(
      deepEqual(
        value,
        JSON.parse('{"headers":{"constructor":"b","__proto__":"changed"},"filter":{"__proto__":{"x":1}}}'),
      ),
    ).toBe(false);
    expect(deepEqual(value, JSON.parse('{"headers":{"constructor":"b"},"filter":{}}'))).toBe(false);
    expect(
      deepEqual(value, JSON.parse('{"filter":{"__proto__":{"x":1}},"headers":{"__proto__":"a","constructor":"b"}}')),
    ).toBe(true);
    expectObjectPrototypeUnchanged(before);
  });
});
