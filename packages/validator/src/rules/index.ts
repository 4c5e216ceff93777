/**
 * Every rule, listed by hand in one place. A rule's id is its diagnostic code and the name of
 * its file and of its page in docs/rules/. A test checks this list, the folder and the docs agree.
 */
import { agentConnectorDeclared } from './agent-connector-declared.js';
import { aliasConflict } from './alias-conflict.js';
import { aliasCycle } from './alias-cycle.js';
import { aliasExpansion } from './alias-expansion.js';
import { byteOrderMark } from './byte-order-mark.js';
import { connectorChannelAuth } from './connector-channel-auth.js';
import { connectorProviderFields } from './connector-provider-fields.js';
import { connectorReservedSlug } from './connector-reserved-slug.js';
import { defaultAgentDeclared } from './default-agent-declared.js';
import { deprecatedKey } from './deprecated-key.js';
import { duplicateKey } from './duplicate-key.js';
import { duplicateSlug } from './duplicate-slug.js';
import { forbiddenCharacter } from './forbidden-character.js';
import { forbiddenKey } from './forbidden-key.js';
import { invalidFormat } from './invalid-format.js';
import { invalidKeyName } from './invalid-key-name.js';
import { invalidKey } from './invalid-key.js';
import { invalidLength } from './invalid-length.js';
import { invalidUtf8 } from './invalid-utf8.js';
import { invalidValue } from './invalid-value.js';
import { missingKey } from './missing-key.js';
import { multipleDocuments } from './multiple-documents.js';
import { notAMapping } from './not-a-mapping.js';
import { outOfRange } from './out-of-range.js';
import { possibleTypo } from './possible-typo.js';
import { sandboxTemplateDeclared } from './sandbox-template-declared.js';
import { secretNameCharacters } from './secret-name-characters.js';
import { svcVersionFormat } from './svc-version-format.js';
import { svcVersion } from './svc-version.js';
import { templateImageOrDockerfile } from './template-image-or-dockerfile.js';
import { tomlSyntax } from './toml-syntax.js';
import { tooDeep } from './too-deep.js';
import { tooLarge } from './too-large.js';
import { tooManyAliases } from './too-many-aliases.js';
import { triggerAgentDeclared } from './trigger-agent-declared.js';
import { triggerCronSchedule } from './trigger-cron-schedule.js';
import { triggerMonitorFields } from './trigger-monitor-fields.js';
import { triggerMonitorInterval } from './trigger-monitor-interval.js';
import { triggerPromptRequired } from './trigger-prompt-required.js';
import { triggerWebhookSecret } from './trigger-webhook-secret.js';
import { unknownKey } from './unknown-key.js';
import { unsafeKey } from './unsafe-key.js';
import { versionSpecificKey } from './version-specific-key.js';
import { wrongType } from './wrong-type.js';
import { yamlSyntax } from './yaml-syntax.js';
import { yamlWarning } from './yaml-warning.js';
import type { CodeRule, Rule, SchemaRule, StructureRule } from './rule.js';

export const RULES: readonly Rule[] = [
  agentConnectorDeclared,
  aliasConflict,
  aliasCycle,
  aliasExpansion,
  byteOrderMark,
  connectorChannelAuth,
  connectorProviderFields,
  connectorReservedSlug,
  defaultAgentDeclared,
  deprecatedKey,
  duplicateKey,
  duplicateSlug,
  forbiddenCharacter,
  forbiddenKey,
  invalidFormat,
  invalidKeyName,
  invalidKey,
  invalidLength,
  invalidUtf8,
  invalidValue,
  missingKey,
  multipleDocuments,
  notAMapping,
  outOfRange,
  possibleTypo,
  sandboxTemplateDeclared,
  secretNameCharacters,
  svcVersionFormat,
  svcVersion,
  templateImageOrDockerfile,
  tomlSyntax,
  tooDeep,
  tooLarge,
  tooManyAliases,
  triggerAgentDeclared,
  triggerCronSchedule,
  triggerMonitorFields,
  triggerMonitorInterval,
  triggerPromptRequired,
  triggerWebhookSecret,
  unknownKey,
  unsafeKey,
  versionSpecificKey,
  wrongType,
  yamlSyntax,
  yamlWarning,
];

export const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((rule) => [rule.id, rule]));

export const STRUCTURE_RULES_BY_KEYWORD: ReadonlyMap<string, StructureRule> = new Map(
  RULES.filter((rule): rule is StructureRule => rule.kind === 'structure').flatMap((rule) => rule.keywords.map((keyword) => [keyword, rule] as const)),
);

export const SCHEMA_RULES_BY_ID: ReadonlyMap<string, SchemaRule> = new Map(
  RULES.filter((rule): rule is SchemaRule => rule.kind === 'schema').map((rule) => [rule.id, rule]),
);

export const CODE_RULES: readonly CodeRule[] = RULES.filter((rule): rule is CodeRule => rule.kind === 'reference' || rule.kind === 'style');

export type { Rule, RuleMeta } from './rule.js';
