import type { SchemaRule } from './rule.js';

export const aliasConflict: SchemaRule<'alias-conflict'> = {
  id: 'alias-conflict',
  kind: 'schema',
  severity: 'error',
  description:
    'Two spellings of one field (`session_mode` and `sessionMode`, `base_url` and `baseUrl`, …) are both given.',
  explain(group, at) {
    const keys = (group.anchor.not as { required?: string[] } | undefined)?.required ?? [];
    const [first, second] = keys;
    if (!first || !second) return [];
    // Point at whichever of the two comes later in the file: that is the one to remove.
    const a = at.keyRange(`${group.objectPath}/${first}`);
    const b = at.keyRange(`${group.objectPath}/${second}`);
    const [later, earlier] = a[0] > b[0] ? [first, second] : [second, first];
    const [start, end] = later === first ? a : b;
    const [relatedStart, relatedEnd] = later === first ? b : a;
    return [
      {
        code: this.id,
        message: `use either '${earlier}' or '${later}', not both: they are two spellings of one field`,
        path: `${group.objectPath}/${later}`,
        start,
        end,
        related: [{ message: `'${earlier}' is given here`, start: relatedStart, end: relatedEnd }],
        fixes: at.removeKeyFix(`${group.objectPath}/${later}`),
      },
    ];
  },
};
