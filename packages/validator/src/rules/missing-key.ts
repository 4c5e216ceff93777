import type { StructureRule } from './rule.js';
import { objectLabel } from '../messages.js';
import { placeholderFor } from '../schema-keys.js';

export const missingKey: StructureRule<'missing-key'> = {
  id: 'missing-key',
  kind: 'structure',
  severity: 'error',
  description:
    'A required key is missing (e.g. a trigger without `slug`, a version 2 manifest without `default_agent`).',
  keywords: ['required'],
  explain({ error, schema }, at) {
    const key = String(error.params.missingProperty);
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    const [start, end] = at.objectRange(error.instancePath);
    return [
      {
        code: 'missing-key',
        message: `${objectLabel(error.instancePath, at)} is missing the required key '${key}'`,
        path: error.instancePath,
        start,
        end,
        fixes: at.insertKeyFix(error.instancePath, key, placeholderFor(key, properties[key])),
      },
    ];
  },
};
