import type { StructureRule } from './rule.js';
import { jsonType, keyLabel, showValue, typeName } from '../messages.js';

export const wrongType: StructureRule<'wrong-type'> = {
  id: 'wrong-type',
  kind: 'structure',
  severity: 'error',
  description: 'A value of the wrong kind: a list where a map belongs, text where a number belongs, an empty value.',
  keywords: ['type'],
  explain({ error }, at) {
    const pointer = error.instancePath;
    const value = valueAt(at, pointer);
    const expected = typeName(error.params.type);
    const [start, end] = at.valueRange(pointer);
    const message =
      value === null || value === undefined
        ? `${keyLabel(pointer)} has no value; expected ${expected}`
        : `${keyLabel(pointer)} must be ${expected}, not ${describeActual(value)}`;
    return [{ code: 'wrong-type', message, path: pointer, start, end }];
  },
};

function describeActual(value: unknown): string {
  const type = jsonType(value);
  if (type === 'array' || type === 'object') return typeName(type);
  if (type === 'string') return `the string ${showValue(value)}`;
  return `${typeName(type)} (${String(value)})`;
}

/** The value at a pointer in the manifest's plain value. */
export function valueAt(at: { document: { value: unknown } }, pointer: string): unknown {
  let current: unknown = at.document.value;
  for (const segment of pointer.split('/').slice(1)) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
