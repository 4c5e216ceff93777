import { HEADER_NAME_PATTERN, SLUG_PATTERN } from '@svc-manifest/schema';
import type { StructureRule } from './rule.js';
import { escapePointerSegment } from '../document/nodes.js';
import { objectLabel, PATTERN_PHRASES } from '../messages.js';

export const invalidKeyName: StructureRule<'invalid-key-name'> = {
  id: 'invalid-key-name',
  kind: 'structure',
  severity: 'error',
  description:
    'A map key that is not a valid name there: an agent or app name that is not a slug, a bad header or variable name.',
  keywords: ['propertyNames'],
  explain({ error, schema }, at) {
    const name = String(error.params.propertyName);
    const pointer = `${error.instancePath}/${escapePointerSegment(name)}`;
    const reason =
      typeof schema['x-svc-message'] === 'string'
        ? schema['x-svc-message']
        : typeof schema.pattern === 'string'
          ? (PATTERN_PHRASES[schema.pattern] ?? `it must match ${schema.pattern}`)
          : 'it is not allowed here';
    const [start, end] = at.keyRange(pointer);
    const tooLong =
      name.length > 128 &&
      ((schema.pattern === SLUG_PATTERN && /^[a-z0-9][a-z0-9_-]*$/.test(name)) ||
        (schema.pattern === HEADER_NAME_PATTERN && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)));
    if (tooLong) {
      return [
        {
          code: 'invalid-length',
          message: `key '${name.slice(0, 20)}…' is ${name.length} characters long; at most 128 are allowed`,
          path: pointer,
          start,
          end,
        },
      ];
    }
    return [
      {
        code: 'invalid-key-name',
        message: `'${name}' is not a valid key in ${objectLabel(error.instancePath, at)}: ${reason}`,
        path: pointer,
        start,
        end,
      },
    ];
  },
};
