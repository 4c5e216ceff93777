import type { StructureRule } from './rule.js';
import { escapePointerSegment } from '../document/nodes.js';
import { closestMatch, listAlternatives } from '../suggest.js';
import { objectLabel } from '../messages.js';
import { knownKeys } from '../schema-keys.js';

export const unknownKey: StructureRule<'unknown-key'> = {
  id: 'unknown-key',
  kind: 'structure',
  severity: 'error',
  description: 'A key the manifest does not define, inside an object that allows only its own keys.',
  keywords: ['additionalProperties'],
  explain({ error, schema }, at) {
    const key = String(error.params.additionalProperty);
    const pointer = `${error.instancePath}/${escapePointerSegment(key)}`;
    const known = knownKeys(schema);
    const suggestion = closestMatch(key, known);
    const where = objectLabel(error.instancePath, at);
    const hint = suggestion
      ? `; did you mean '${suggestion}'?`
      : known.length && known.length <= 12
        ? `; allowed keys are ${listAlternatives(known)}`
        : '';
    const [start, end] = at.keyRange(pointer);
    return [
      {
        code: 'unknown-key',
        message: `unknown key '${key}' in ${where}${hint}`,
        path: pointer,
        start,
        end,
        fixes: [
          ...(suggestion ? (at.renameKeyFix(pointer, suggestion) ?? []) : []),
          ...(at.removeKeyFix(pointer) ?? []),
        ],
      },
    ];
  },
};
