/**
 * The bundle's `lazy-ajv.ts` (see there): the same getter, loading ajv on first use. esbuild turns
 * a `require()` of a bundled package into a call that runs its module code once, when first reached.
 */
import type * as ajv from 'ajv';
import type * as eager from './lazy-ajv.js';

declare const require: (id: string) => unknown;

let ajvModule: typeof ajv | undefined;

export function ajvClass(): typeof ajv.Ajv {
  return (ajvModule ??= require('ajv') as typeof ajv).Ajv;
}

// Both files offer the same getter with the same type (checked by tsc, gone from the bundle).
void ({ ajvClass } satisfies typeof eager);
