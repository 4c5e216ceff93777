import { SVC_CLI_PERMISSIONS_V1_ONLY } from '@svc-manifest/schema';
import type { RuleCode } from '../diagnostic.js';
import type { StructureRule } from './rule.js';
import { keyLabel, showValue } from '../messages.js';
import { closestMatch, listAlternatives } from '../suggest.js';
import { valueAt } from './wrong-type.js';

export const invalidValue: StructureRule<'invalid-value'> = {
  id: 'invalid-value',
  kind: 'structure',
  severity: 'error',
  description:
    'A value outside the allowed set (an unknown trigger `type`, an unknown `svc_cli` permission, a reserved port).',
  keywords: ['enum', 'const', 'not'],
  explain({ error, schema }, at) {
    const pointer = error.instancePath;
    const value = valueAt(at, pointer);
    const [start, end] = at.valueRange(pointer);
    const base = { code: 'invalid-value' as const, path: pointer, start, end };
    if (error.keyword === 'enum') {
      const allowed = (error.params.allowedValues as unknown[]) ?? [];
      if (/\/svc_cli\/\d+$/.test(pointer) && typeof value === 'string')
        return [svcCliName(value, allowed, base, at, pointer)];
      const strings = allowed.filter((v): v is string => typeof v === 'string');
      const suggestion = typeof value === 'string' ? closestMatch(value, strings) : undefined;
      const list = allowed.length <= 12 ? `; expected ${listAlternatives(allowed)}` : '';
      const hint = suggestion ? `; did you mean '${suggestion}'?` : list;
      return [
        {
          ...base,
          message: `${showValue(value)} is not a valid value for ${keyLabel(pointer)}${hint}`,
          fixes: suggestion ? at.replaceValueFix(pointer, suggestion) : undefined,
        },
      ];
    }
    if (error.keyword === 'const') {
      const expected = error.params.allowedValue;
      return [
        {
          ...base,
          message: `${keyLabel(pointer)} must be ${showValue(expected)} here, not ${showValue(value)}`,
          fixes:
            typeof expected === 'string' || typeof expected === 'number'
              ? at.replaceValueFix(pointer, expected)
              : undefined,
        },
      ];
    }
    const reason =
      typeof schema['x-svc-message'] === 'string' ? schema['x-svc-message'] : 'this value is not allowed here';
    // The schema's codes are rule codes: the rule-docs test checks every `x-svc-code` in it.
    const code = typeof schema['x-svc-code'] === 'string' ? (schema['x-svc-code'] as RuleCode) : base.code;
    return [{ ...base, code, message: `${showValue(value)} is not allowed for ${keyLabel(pointer)}: ${reason}` }];
  },
};

/** An entry of an `svc_cli` list that is not a permission name of the manifest's version. */
function svcCliName(
  value: string,
  allowed: unknown[],
  base: { code: 'invalid-value'; path: string; start: number; end: number },
  at: Parameters<StructureRule['explain']>[1],
  pointer: string,
) {
  const names = allowed.filter((v): v is string => typeof v === 'string');
  if ((SVC_CLI_PERMISSIONS_V1_ONLY as readonly string[]).includes(value)) {
    return { ...base, message: `'${value}' is a svc_version 1 permission; svc_version 2 does not accept it` };
  }
  const suggestion = closestMatch(value, names);
  return {
    ...base,
    message: `'${value}' is not a svc_cli permission name${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
    fixes: suggestion ? at.replaceValueFix(pointer, suggestion) : undefined,
  };
}
