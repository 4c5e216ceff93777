import type { StructureRule } from './rule.js';
import { SLUG_PATTERN } from '@svc-manifest/schema';
import { keyLabel, PATTERN_PHRASES, showValue } from '../messages.js';
import { valueAt } from './wrong-type.js';

export const invalidFormat: StructureRule<'invalid-format'> = {
  id: 'invalid-format',
  kind: 'structure',
  severity: 'error',
  description:
    'A string that does not have the required form: slugs, environment variable names, relative paths, durations, header names.',
  keywords: ['pattern'],
  explain({ error, schema }, at) {
    const pointer = error.instancePath;
    const pattern = String(error.params.pattern);
    const phrase =
      PATTERN_PHRASES[pattern] ??
      (typeof schema['x-svc-message'] === 'string' ? schema['x-svc-message'] : `it must match ${pattern}`);
    const [start, end] = at.valueRange(pointer);
    const value = valueAt(at, pointer);
    // The 128-character limit lives inside the slug pattern; say so plainly when length is the only fault.
    if (
      pattern === SLUG_PATTERN &&
      typeof value === 'string' &&
      value.length > 128 &&
      /^[a-z0-9][a-z0-9_-]*$/.test(value)
    ) {
      return [
        {
          code: 'invalid-length',
          message: `${keyLabel(pointer)} is ${value.length} characters long; a slug has at most 128`,
          path: pointer,
          start,
          end,
        },
      ];
    }
    return [
      {
        code: 'invalid-format',
        message: `${showValue(valueAt(at, pointer))} is not a valid value for ${keyLabel(pointer)}: ${phrase}`,
        path: pointer,
        start,
        end,
      },
    ];
  },
};
