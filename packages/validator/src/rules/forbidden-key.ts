import type { StructureRule } from './rule.js';
import { keyLabel, objectLabel } from '../messages.js';

export const forbiddenKey: StructureRule<'forbidden-key'> = {
  id: 'forbidden-key',
  kind: 'structure',
  severity: 'error',
  description:
    'A key the spec forbids where it stands (e.g. `apps` in version 1, `image` directly under `sandbox`, `secret` in `auth`).',
  // 'forbidden' stands for a failed `{ not: {} }` property that carries `x-svc-forbidden`.
  keywords: ['forbidden', 'false schema'],
  explain({ error, schema }, at) {
    const pointer = error.instancePath;
    const reason =
      typeof schema['x-svc-forbidden'] === 'string'
        ? schema['x-svc-forbidden']
        : `${keyLabel(pointer)} is not allowed in ${objectLabel(pointer.replace(/\/[^/]*$/, ''), at)}`;
    const [start, end] = at.keyRange(pointer);
    return [{ code: 'forbidden-key', message: reason, path: pointer, start, end, fixes: at.removeKeyFix(pointer) }];
  },
};
