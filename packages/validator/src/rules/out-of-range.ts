import type { StructureRule } from './rule.js';
import { keyLabel } from '../messages.js';
import { valueAt } from './wrong-type.js';

export const outOfRange: StructureRule<'out-of-range'> = {
  id: 'out-of-range',
  kind: 'structure',
  severity: 'error',
  description: 'A number outside its bounds (app port 1–65535, idle timeout 120–86400, cpu, memory).',
  keywords: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'],
  explain({ error }, at) {
    const pointer = error.instancePath;
    const limit = error.params.limit;
    const bound = error.keyword.includes('inimum')
      ? error.keyword.startsWith('exclusive')
        ? 'greater than'
        : 'at least'
      : error.keyword.startsWith('exclusive')
        ? 'less than'
        : 'at most';
    const [start, end] = at.valueRange(pointer);
    return [
      {
        code: 'out-of-range',
        message: `${keyLabel(pointer)} is ${String(valueAt(at, pointer))}; it must be ${bound} ${String(limit)}`,
        path: pointer,
        start,
        end,
      },
    ];
  },
};
