import type { CodeRule } from './rule.js';
import { findEntry, resolveAlias } from '../document/nodes.js';

export const svcVersionFormat: CodeRule<'svc-version-format'> = {
  id: 'svc-version-format',
  kind: 'style',
  severity: 'warning',
  description: '`svc_version` is written as a whole number (`2`, not `2.0`).',
  spec: '"Top-level key `svc_version` (integer, 1 or 2) is required and selects the shape."',
  check(context) {
    const node = resolveAlias(findEntry(context.root, 'svc_version')?.value);
    if (node?.kind !== 'scalar' || typeof node.value !== 'number') return;
    const written = context.document.source.slice(node.start, node.end);
    if (/^[12]$/.test(written)) return;
    context.report({
      code: this.id,
      message: `write svc_version as the integer ${node.value}, not '${written}'`,
      path: '/svc_version',
      start: node.start,
      end: node.end,
      fixes: context.replaceValueFix('/svc_version', node.value, `Change to ${node.value}`),
    });
  },
};
