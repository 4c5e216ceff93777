import type { RawDiagnostic } from '../diagnostic.js';
import type { SchemaRule } from './rule.js';
import { showValue } from '../messages.js';

export const connectorReservedSlug: SchemaRule<'connector-reserved-slug'> = {
  id: 'connector-reserved-slug',
  kind: 'schema',
  severity: 'error',
  description:
    'The reserved slugs `svc_slack`, `svc_teams`, `svc_email` are channel connectors; slug `computer` goes with provider `computer` and nothing else does.',
  spec: 'Connector rules 1: "Slugs `svc_slack`, `svc_teams`, `svc_email` require `provider` `channel`. Slug `computer` requires `provider` `computer`."',
  explain(group, at) {
    const diagnostics: RawDiagnostic[] = [];
    const slug = at.scalarAt(`${group.objectPath}/slug`);
    for (const { error } of group.failures) {
      if (error.keyword !== 'const') continue;
      const pointer = error.instancePath;
      const expected = error.params.allowedValue as string;
      const [start, end] = at.valueRange(pointer);
      const message = pointer.endsWith('/provider')
        ? `connector slug ${showValue(slug)} is reserved: its provider must be '${expected}'`
        : `provider 'computer' is reserved for the connector with slug 'computer', not ${showValue(slug)}`;
      diagnostics.push({
        code: this.id,
        message,
        path: pointer,
        start,
        end,
        fixes: pointer.endsWith('/provider') ? at.replaceValueFix(pointer, expected) : undefined,
      });
    }
    return diagnostics;
  },
};
