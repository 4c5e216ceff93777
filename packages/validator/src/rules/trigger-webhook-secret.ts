import type { SchemaRule } from './rule.js';
import { objectLabel } from '../messages.js';
import { needsKeys } from './group-helpers.js';

export const triggerWebhookSecret: SchemaRule<'trigger-webhook-secret'> = {
  id: 'trigger-webhook-secret',
  kind: 'schema',
  severity: 'error',
  description: 'A `webhook` trigger names the environment variable that holds its HMAC secret.',
  spec: 'Trigger rules 3: "`type` `webhook` requires `secret_env` or `secretEnv`."',
  explain(group, at) {
    return [
      needsKeys(group, at, {
        code: this.id,
        subject: `${objectLabel(group.objectPath, at)} (type 'webhook')`,
        keys: ['secret_env', 'secretEnv'],
        all: false,
        where: `${group.objectPath}/type`,
        why: '(the environment variable holding its HMAC secret)',
      }),
    ];
  },
};
