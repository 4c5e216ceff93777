/**
 * Every rule, listed by hand in one place. The ids below are exactly the codes of `RuleCode`
 * (rule-codes.ts, a leaf module, so that the lowest layers can name a code): the type checker
 * holds the list and the union to each other. A diagnostic's severity is its rule's. A rule's id
 * is the name of its page in docs/rules/ and, for rules whose logic is here, of its file; rules
 * reported while reading the text (or by the language server) are listed in
 * ../reported-elsewhere.ts. A test checks this list, the folder and the docs agree.
 */
import { agentConnectorDeclared } from './agent-connector-declared.js';
import { aliasConflict } from './alias-conflict.js';
import { connectorChannelAuth } from './connector-channel-auth.js';
import { connectorProviderFields } from './connector-provider-fields.js';
import { connectorReservedSlug } from './connector-reserved-slug.js';
import { cronSyntax } from './cron-syntax.js';
import { defaultAgentDeclared } from './default-agent-declared.js';
import { deprecatedKey } from './deprecated-key.js';
import { duplicateSlug } from './duplicate-slug.js';
import { forbiddenKey } from './forbidden-key.js';
import { invalidFormat } from './invalid-format.js';
import { invalidKeyName } from './invalid-key-name.js';
import { invalidLength } from './invalid-length.js';
import { invalidValue } from './invalid-value.js';
import { missingKey } from './missing-key.js';
import { outOfRange } from './out-of-range.js';
import { possibleTypo } from './possible-typo.js';
import { sandboxTemplateDeclared } from './sandbox-template-declared.js';
import { secretNameCharacters } from './secret-name-characters.js';
import { svcVersionFormat } from './svc-version-format.js';
import { templateImageOrDockerfile } from './template-image-or-dockerfile.js';
import { triggerAgentDeclared } from './trigger-agent-declared.js';
import { triggerCronSchedule } from './trigger-cron-schedule.js';
import { triggerMonitorFields } from './trigger-monitor-fields.js';
import { triggerMonitorInterval } from './trigger-monitor-interval.js';
import { triggerPromptRequired } from './trigger-prompt-required.js';
import { triggerWebhookSecret } from './trigger-webhook-secret.js';
import { unknownKey } from './unknown-key.js';
import { unknownTimezone } from './unknown-timezone.js';
import { versionSpecificKey } from './version-specific-key.js';
import { wrongType } from './wrong-type.js';
import type { Severity } from '../diagnostic.js';
import type { RuleCode } from '../rule-codes.js';
import { REPORTED_ELSEWHERE } from '../reported-elsewhere.js';
import type { CodeRule, Rule, SchemaRule, StructureRule } from './rule.js';

const LISTED = [
  ...REPORTED_ELSEWHERE,
  agentConnectorDeclared,
  aliasConflict,
  connectorChannelAuth,
  connectorProviderFields,
  connectorReservedSlug,
  cronSyntax,
  defaultAgentDeclared,
  deprecatedKey,
  duplicateSlug,
  forbiddenKey,
  invalidFormat,
  invalidKeyName,
  invalidLength,
  invalidValue,
  missingKey,
  outOfRange,
  possibleTypo,
  sandboxTemplateDeclared,
  secretNameCharacters,
  svcVersionFormat,
  templateImageOrDockerfile,
  triggerAgentDeclared,
  triggerCronSchedule,
  triggerMonitorFields,
  triggerMonitorInterval,
  triggerPromptRequired,
  triggerWebhookSecret,
  unknownKey,
  unknownTimezone,
  versionSpecificKey,
  wrongType,
] as const satisfies readonly Rule<RuleCode>[];

/** A code of `RuleCode` that no listed rule has: `never` while the list and the union agree. */
type CodeWithoutRule = Exclude<RuleCode, (typeof LISTED)[number]['id']>;
// Fails to compile, naming the code, when a code of the union has no rule in the list.
const everyCodeHasARule: [CodeWithoutRule] extends [never] ? true : CodeWithoutRule = true;
void everyCodeHasARule;

/** Every rule, in the order of their file names (as docs/rules/README.md and SARIF list them). */
export const RULES: readonly Rule<RuleCode>[] = [...LISTED].sort((a, b) => (`${a.id}.ts` < `${b.id}.ts` ? -1 : 1));

export const RULES_BY_ID: ReadonlyMap<RuleCode, Rule<RuleCode>> = new Map(RULES.map((rule) => [rule.id, rule]));

/** Whether `value` is one of the codes (for codes read from data, such as the schema's `x-svc-code`). */
export function isRuleCode(value: unknown): value is RuleCode {
  return typeof value === 'string' && RULES_BY_ID.has(value as RuleCode);
}

/** The severity every diagnostic with this code has: its rule's. */
export function severityOf(code: RuleCode): Severity {
  return RULES_BY_ID.get(code)!.severity;
}

export const STRUCTURE_RULES_BY_KEYWORD: ReadonlyMap<string, StructureRule<RuleCode>> = new Map(
  RULES.filter((rule): rule is StructureRule<RuleCode> => rule.kind === 'structure').flatMap((rule) =>
    rule.keywords.map((keyword) => [keyword, rule] as const),
  ),
);

export const SCHEMA_RULES_BY_ID: ReadonlyMap<string, SchemaRule<RuleCode>> = new Map(
  RULES.filter((rule): rule is SchemaRule<RuleCode> => rule.kind === 'schema').map((rule) => [rule.id, rule]),
);

export const CODE_RULES: readonly CodeRule<RuleCode>[] = RULES.filter(
  (rule): rule is CodeRule<RuleCode> => rule.kind === 'reference' || rule.kind === 'style',
);

export type { Rule, RuleMeta } from './rule.js';
export type { RuleCode };
