import type { RawDiagnostic } from '../diagnostic.js';
import type { SchemaRule } from './rule.js';
import { objectLabel } from '../messages.js';
import { forbiddenKeyDiagnostics, missingKeys, needsKeys } from './group-helpers.js';

export const triggerMonitorInterval: SchemaRule<'trigger-monitor-interval'> = {
  id: 'trigger-monitor-interval',
  kind: 'schema',
  severity: 'error',
  description: 'A polling monitor needs `interval`; a streaming monitor takes none.',
  spec: 'Trigger rules 5: "A monitor with `mode` `poll` requires `interval`; with `mode` `stream` it forbids `interval`."',
  explain(group, at) {
    const diagnostics: RawDiagnostic[] = [];
    if (missingKeys(group).includes('interval')) {
      diagnostics.push(
        needsKeys(group, at, {
          code: this.id,
          subject: `${objectLabel(group.objectPath, at)} (a monitor with mode 'poll')`,
          keys: ['interval'],
          all: true,
          where: `${group.objectPath}/mode`,
        }),
      );
    }
    diagnostics.push(...forbiddenKeyDiagnostics(group, at, this.id));
    return diagnostics;
  },
};
