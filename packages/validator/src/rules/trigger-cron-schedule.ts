import type { SchemaRule } from './rule.js';
import { objectLabel } from '../messages.js';
import { needsKeys } from './group-helpers.js';

export const triggerCronSchedule: SchemaRule<'trigger-cron-schedule'> = {
  id: 'trigger-cron-schedule',
  kind: 'schema',
  severity: 'error',
  description: 'A `cron` trigger needs a schedule: `cron`, `schedule`, `run_at` or `runAt`.',
  spec: 'Trigger rules 2: "`type` `cron` requires at least one of `cron`, `schedule`, `run_at`, `runAt`."',
  explain(group, at) {
    return [
      needsKeys(group, at, {
        code: this.id,
        subject: `${objectLabel(group.objectPath, at)} (type 'cron')`,
        keys: ['cron', 'schedule', 'run_at', 'runAt'],
        all: false,
        where: `${group.objectPath}/type`,
      }),
    ];
  },
};
