/**
 * The schema model looks properties up by own key: a manifest key named `__proto__` or
 * `constructor` is not a declared property (it would otherwise find `Object.prototype` or the
 * `Object` function on the schema's plain `properties` object). The full run of every feature
 * on such keys is test/prototype-keys.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { schemasAt } from '../src/schema-model.js';

describe('schemasAt with keys named like prototypes', () => {
  for (const version of [1, 2] as const) {
    it(`finds what an undeclared key finds, never a built-in (svc_version ${version})`, () => {
      for (const parent of [[], ['triggers', 0], ['project']] as const) {
        const undeclared = schemasAt(version, [...parent, 'zz-undeclared']);
        for (const name of ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString']) {
          const found = schemasAt(version, [...parent, name]);
          expect(found, `${[...parent, name].join('.')}`).toEqual(undeclared);
          for (const schema of found) expect(schema === Object.prototype || typeof schema === 'function').toBe(false);
        }
      }
    });
  }
});
