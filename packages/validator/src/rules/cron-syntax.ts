import type { CodeRule, RuleContext } from './rule.js';
import { mapAt, TRIGGER_ITEM } from '../model/declarations.js';
import { findEntry, resolveAlias, type ScalarNode } from '../document/nodes.js';
import { isCronProblem, readCron } from '../model/cron.js';
import { objectLabel } from '../messages.js';

export const cronSyntax: CodeRule<'cron-syntax'> = {
  id: 'cron-syntax',
  kind: 'style',
  severity: 'warning',
  description:
    "A trigger's `cron` or `schedule` is not a five-field cron expression or one of the `@daily`-style macros.",
  spec: 'Trigger fields: "`cron`, `schedule`, `run_at`, `runAt` (non-empty)" (the spec asks only for a non-empty string).',
  check(context) {
    const triggers = resolveAlias(findEntry(context.root, 'triggers')?.value);
    if (triggers?.kind !== 'seq') return;
    // Per trigger node, as trigger-agent-declared does: after an edit only the changed triggers are read again.
    context.forEachItem('triggers', triggers, TRIGGER_ITEM, (item, index) => {
      const map = mapAt(item);
      if (!map) return;
      const pointer = `/triggers/${index}`;
      for (const key of ['cron', 'schedule']) {
        const node = findEntry(map, key)?.value;
        const scalar = resolveAlias(node);
        if (scalar?.kind !== 'scalar' || typeof scalar.value !== 'string' || scalar.value === '' || scalar.tomlType)
          continue;
        const read = readCron(scalar.value);
        if (!isCronProblem(read)) continue;
        const base = node === scalar ? writtenStart(context, scalar) : undefined;
        context.report({
          code: this.id,
          message: `${objectLabel(pointer, context)} ${key} '${scalar.value}': ${read.message}`,
          path: `${pointer}/${key}`,
          start: base === undefined ? node!.start : base + read.start,
          end: base === undefined ? node!.end : base + read.end,
        });
      }
    });
  },
};

/** Where a scalar's value starts in the text when the text spells it character for character (plain, or quoted without escapes), else undefined. */
export function writtenStart(context: Pick<RuleContext, 'document'>, scalar: ScalarNode): number | undefined {
  const text = context.document.source.slice(scalar.start, scalar.end);
  if (scalar.style === 'plain' && text === scalar.value) return scalar.start;
  const open = text[0];
  if (
    scalar.style === 'quoted' &&
    (open === '"' || open === "'") &&
    text.slice(1, -1) === scalar.value &&
    text.length === String(scalar.value).length + 2
  )
    return scalar.start + 1;
  return undefined;
}
