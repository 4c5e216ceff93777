/**
 * A key named `__proto__` in a catalog item's manifest fragment is data (a connector header,
 * a trigger filter): it counts in the item's integrity and in the comparisons that decide
 * whether an entry was edited locally.
 */
import { expect, it } from 'vitest';
import { computeIntegrity, parseItemDescriptor } from '../src/index.js';
import { canonicalJson, deepEqual } from '../src/json.js';
import { expectObjectPrototypeUnchanged, snapshotObjectPrototype } from '../../../test/support/prototype-keys.js';

const descriptor = (header: string) =>
  parseItemDescriptor(
    'api',
    JSON.parse(
      `{"name":"api","version":"1.0.0","files":[],"manifest":{"connectors":[{"slug":"api","provider":"http","base_url":"https://x.example","headers":{"__proto__":"${header}","constructor":"b"}}]}}`,
    ) as unknown,
  );

it('canonical JSON keeps `__proto__` keys, so integrity and equality see them', () => {
  const before = snapshotObjectPrototype();
  const value = JSON.parse('{"b":{"__proto__":{"x":1}},"a":{"__proto__":"a","constructor":"c"}}') as unknown;
  expect(canonicalJson(value)).toBe('{"a":{"__proto__":"a","constructor":"c"},"b":{"__proto__":{"x":1}}}');
  expect(deepEqual(value, JSON.parse('{"a":{"__proto__":"changed","constructor":"c"},"b":{"__proto__":{"x":1}}}'))).toBe(false);
  expect(deepEqual(value, JSON.parse('{"a":{"constructor":"c"},"b":{}}'))).toBe(false);
  const empty = new Map<string, Uint8Array>();
  expect(computeIntegrity(descriptor('one'), empty)).not.toBe(computeIntegrity(descriptor('two'), empty));
  expect(computeIntegrity(descriptor('one'), empty)).toBe(computeIntegrity(descriptor('one'), empty));
  expectObjectPrototypeUnchanged(before);
});
