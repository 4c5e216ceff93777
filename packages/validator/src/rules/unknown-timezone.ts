import type { CodeRule } from './rule.js';
import { mapAt, TRIGGER_ITEM } from '../model/declarations.js';
import { findEntry, resolveAlias } from '../document/nodes.js';
import { isTimeZone, suggestTimeZone } from '../model/time-zones.js';
import { objectLabel } from '../messages.js';
import { writtenStart } from './cron-syntax.js';

export const unknownTimezone: CodeRule<'unknown-timezone'> = {
  id: 'unknown-timezone',
  kind: 'style',
  severity: 'warning',
  description:
    "A trigger's `timezone` is not a time zone of the IANA database (a name or a link the runtime's date support accepts).",
  spec: 'Trigger fields: "`timezone`" (the spec gives it no format; its schedule runs in that zone).',
  check(context) {
    const triggers = resolveAlias(findEntry(context.root, 'triggers')?.value);
    if (triggers?.kind !== 'seq') return;
    context.forEachItem('triggers', triggers, TRIGGER_ITEM, (item, index) => {
      const map = mapAt(item);
      const node = map && findEntry(map, 'timezone')?.value;
      const scalar = resolveAlias(node);
      if (scalar?.kind !== 'scalar' || typeof scalar.value !== 'string' || scalar.value === '' || scalar.tomlType)
        return;
      if (isTimeZone(scalar.value)) return;
      const suggestion = suggestTimeZone(scalar.value);
      const base = node === scalar ? writtenStart(context, scalar) : undefined;
      const pointer = `/triggers/${index}`;
      context.report({
        code: this.id,
        message: `${objectLabel(pointer, context)} timezone '${scalar.value}' is not an IANA time zone${suggestion ? `; did you mean '${suggestion}'?` : " (a name such as 'Europe/Berlin' or 'UTC')"}`,
        path: `${pointer}/timezone`,
        start: node!.start,
        end: node!.end,
        ...(suggestion && base !== undefined
          ? {
              fixes: [
                {
                  title: `Change to '${suggestion}'`,
                  edits: [{ start: base, end: base + scalar.value.length, newText: suggestion }],
                },
              ],
            }
          : {}),
      });
    });
  },
};
