import type { RawDiagnostic } from '../diagnostic.js';
import type { SchemaRule } from './rule.js';
import { objectLabel } from '../messages.js';
import { forbiddenKeyDiagnostics, missingKeys, needsKeys } from './group-helpers.js';

export const triggerMonitorFields: SchemaRule<'trigger-monitor-fields'> = {
  id: 'trigger-monitor-fields',
  kind: 'schema',
  severity: 'error',
  description: 'A `monitor` trigger needs `run` and `mode`, and takes no schedule or webhook keys.',
  spec: 'Trigger rules 4: "`type` `monitor` requires `run` and `mode` and forbids `cron`, `schedule`, `run_at`, `runAt`, `timezone`, `secret_env`, `secretEnv`."',
  explain(group, at) {
    const diagnostics: RawDiagnostic[] = [];
    const missing = missingKeys(group);
    if (missing.length) {
      diagnostics.push(
        needsKeys(group, at, {
          code: this.id,
          subject: `${objectLabel(group.objectPath, at)} (type 'monitor')`,
          keys: missing,
          all: true,
          where: `${group.objectPath}/type`,
        }),
      );
    }
    diagnostics.push(...forbiddenKeyDiagnostics(group, at, this.id));
    return diagnostics;
  },
};
