import type { StructureRule } from './rule.js';
import { keyLabel } from '../messages.js';
import { valueAt } from './wrong-type.js';

export const invalidLength: StructureRule<'invalid-length'> = {
  id: 'invalid-length',
  kind: 'structure',
  severity: 'error',
  description:
    'Text, a list or a map that is too short or too long (an empty `prompt`, a `run` over 1024 characters, more than 32 headers, no agents).',
  keywords: ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'],
  explain({ error }, at) {
    const pointer = error.instancePath;
    const limit = Number(error.params.limit);
    const value = valueAt(at, pointer);
    const label = keyLabel(pointer);
    let message: string;
    switch (error.keyword) {
      case 'minLength':
        message = limit === 1 ? `${label} must not be empty` : `${label} must be at least ${limit} characters long`;
        break;
      case 'maxLength':
        message = `${label} is ${[...String(value)].length} characters long; at most ${limit} are allowed`;
        break;
      case 'minItems':
        message = `${label} needs at least ${limit} ${limit === 1 ? 'item' : 'items'}`;
        break;
      case 'maxItems':
        message = `${label} has ${(value as unknown[]).length} items; at most ${limit} are allowed`;
        break;
      case 'minProperties':
        message = `${label} needs at least ${limit} ${limit === 1 ? 'entry' : 'entries'}`;
        break;
      default:
        message = `${label} has ${Object.keys(value as object).length} entries; at most ${limit} are allowed`;
    }
    const [start, end] = at.valueRange(pointer);
    return [{ code: 'invalid-length', message, path: pointer, start, end }];
  },
};
