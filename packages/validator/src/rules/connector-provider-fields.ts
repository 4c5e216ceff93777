import type { SchemaRule } from './rule.js';
import { objectLabel } from '../messages.js';
import { missingKeys, needsKeys } from './group-helpers.js';

export const connectorProviderFields: SchemaRule<'connector-provider-fields'> = {
  id: 'connector-provider-fields',
  kind: 'schema',
  severity: 'error',
  description:
    'Each provider needs its address: `managed_a` an `app`, `mcp` a `url`, `graphql` an `endpoint`, `http` a `base_url`, `channel` a `platform`.',
  spec: 'Connector rules 2: "`provider` `managed_a` requires `app`; `mcp` requires `url`; `graphql` requires `endpoint`; `http` requires `base_url` or `baseUrl`; `channel` requires `platform`."',
  explain(group, at) {
    const provider = String(at.scalarAt(`${group.objectPath}/provider`));
    return [
      needsKeys(group, at, {
        code: this.id,
        subject: `${objectLabel(group.objectPath, at)} (provider '${provider}')`,
        keys: missingKeys(group),
        all: false,
        where: `${group.objectPath}/provider`,
      }),
    ];
  },
};
