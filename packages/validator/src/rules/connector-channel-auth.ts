import type { SchemaRule } from './rule.js';
import { objectLabel, showValue } from '../messages.js';

export const connectorChannelAuth: SchemaRule<'connector-channel-auth'> = {
  id: 'connector-channel-auth',
  kind: 'schema',
  severity: 'error',
  description: "A channel connector's `auth`, when present, has type `none`.",
  spec: 'Connector rules 3: "For `provider` `channel`, when `auth` is present its `type` must be `none`."',
  explain(group, at) {
    return group.failures
      .filter((f) => f.error.keyword === 'const')
      .map(({ error }) => {
        const [start, end] = at.valueRange(error.instancePath);
        return {
          code: this.id,
          message: `${objectLabel(group.objectPath, at)} is a channel connector: its auth type must be 'none', not ${showValue(at.scalarAt(error.instancePath))}`,
          path: error.instancePath,
          start,
          end,
          fixes: at.replaceValueFix(error.instancePath, 'none'),
        };
      });
  },
};
