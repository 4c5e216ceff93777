/**
 * The policy as the library takes it, without a file system (so it runs in a browser too): the
 * text of a policy file read into a value (`parsePolicy`), and a value applied to a manifest's
 * diagnostics (`applyManifestPolicy`: severities, `off`, inline suppressions and their problems).
 * Finding the file, the nearest `.svc-manifest.yaml` up from a manifest, is Node's part
 * (config.ts); a server that keeps its policies elsewhere parses their text here.
 *
 * ```yaml
 * rules:
 *   possible-typo: error      # error, warning, info or off
 *   deprecated-key: off
 * ignore:
 *   - "legacy/**"             # relative to the folder of this file
 * format:                    # `svc-manifest fmt` and editors' formatting, over .editorconfig
 *   indent: 4                 # spaces per level, 1 to 8 (default: .editorconfig's, else 2)
 *   sequences: flush          # `- ` items flush with their key, or indented (default: as the file has it)
 *   quotes: preserve          # keep single quotes (default: double where no escape is needed)
 * ```
 *
 * Rules that decide schema validity (structure, schema and parse rules) cannot be changed: a
 * manifest the published schema refuses is never reported valid.
 */
import { compareLocatedByPlace, type Diagnostic, type Severity } from '../diagnostic.js';
import { ManifestDocument } from '../document/manifest-document.js';
import { RULES, RULES_BY_ID, type RuleCode } from '../rules/index.js';
import { didYouMeanNote } from '../suggest.js';
import { applySuppressions, SuppressionSearch } from './suppressions.js';

export const POLICY_FILE_NAME = '.svc-manifest.yaml';

/** What a rule can be set to. */
export type RuleSetting = Severity | 'off';

/** Settings by rule id: a plain object (`{ 'possible-typo': 'off' }`), as a policy file's `rules` reads. */
export type PolicyRules = Readonly<Partial<Record<RuleCode, RuleSetting>>>;

/**
 * The policy a manifest is validated under (`ValidateOptions.policy`, `fixManifest`'s `policy`).
 * Without one, every rule has its own severity and comments suppress nothing.
 */
export interface ManifestPolicy {
  /** Severities of the rules a policy may set (`CONFIGURABLE_RULES`); `off` leaves a rule's problems out. */
  rules?: PolicyRules;
  /**
   * Whether the manifest's own suppression comments (`# svc-manifest-disable-next-line <rule>`,
   * `# svc-manifest-disable` … `# svc-manifest-enable`) apply, with their problems reported
   * (`unused-suppression`, `invalid-suppression`, `unsuppressible-rule`). The CLI and the
   * language server say yes; a server that judges manifests it did not write may say no, and
   * then the comments are only comments.
   */
  inlineSuppressions: boolean;
}

/** A policy file's `format`: the formatter's settings (`FormatOptions`) that a project fixes for its manifests. */
export interface PolicyFormat {
  /** Spaces per level of YAML indentation, 1 to 8; over `.editorconfig` and the editor's tab size. */
  indent?: number;
  /** Whether a YAML sequence under a key is indented or flush with the key; without it, as the file's first one is. */
  sequences?: 'indented' | 'flush';
  /** `double` (the default): single-quoted YAML scalars are written in double quotes where no escape is needed; `preserve`: quotes are kept. */
  quotes?: 'double' | 'preserve';
}

/**
 * A policy file's text, read: its `rules`, its `ignore` globs (relative to the file's folder; the
 * caller matches them), and its `format` settings when it has any.
 */
export interface ParsedPolicy {
  rules: PolicyRules;
  ignore: readonly string[];
  format?: PolicyFormat;
}

/**
 * The rules a policy may set: those that only warn or inform, so never one the schema's verdict
 * rests on (a manifest is valid when it has no error).
 */
export const CONFIGURABLE_RULES: readonly RuleCode[] = RULES.filter((rule) => rule.severity !== 'error').map(
  (rule) => rule.id,
);

/** The rules a comment may suppress: those a policy may set, but for the problems of comments themselves. */
export const SUPPRESSIBLE_RULES: readonly RuleCode[] = CONFIGURABLE_RULES.filter(
  (id) => RULES_BY_ID.get(id)!.kind !== 'suppression',
);

const SETTINGS: readonly RuleSetting[] = ['error', 'warning', 'info', 'off'];

/** Policy texts longer than this are refused rather than read. */
export const MAX_POLICY_BYTES = 64 * 1024;

/** A policy that cannot be used, and why: the CLI names the file and exits 2, `validateManifest` throws it for a bad `policy` option. */
export class PolicyError extends Error {}

/**
 * Reads a policy file's text (YAML). Throws {@link PolicyError}, saying what is wrong, for a text
 * that is not a policy: not YAML, an unknown key, an unknown rule (with a "did you mean"), a rule
 * the schema's verdict rests on, a setting other than error, warning, info or off. A text that is
 * empty or only comments is the empty policy.
 */
export function parsePolicy(input: string | Uint8Array): ParsedPolicy {
  if (input.length > MAX_POLICY_BYTES) throw new PolicyError(`larger than ${MAX_POLICY_BYTES} bytes`);
  const document = ManifestDocument.parse(input, { format: 'yaml' });
  const value = document.value;
  const problem = document.diagnostics.find((d) => d.code !== 'byte-order-mark');
  if (problem !== undefined || document.fatal)
    throw new PolicyError(`not readable YAML (${problem?.message ?? 'no value'})`);
  if (value === null || value === undefined) return { rules: {}, ignore: [] };
  if (typeof value !== 'object' || Array.isArray(value))
    throw new PolicyError("must be a mapping with 'rules', 'ignore' and/or 'format'");
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!POLICY_KEYS.includes(key))
      throw new PolicyError(
        `unknown key '${key}'${didYouMeanNote(key, POLICY_KEYS)}; it takes 'rules', 'ignore' and 'format'`,
      );
  }
  const parsed: ParsedPolicy = { rules: checkedRules(record.rules), ignore: checkedIgnore(record.ignore) };
  if (record.format !== undefined && record.format !== null) parsed.format = checkedFormat(record.format);
  return parsed;
}

const POLICY_KEYS = ['rules', 'ignore', 'format'];

const QUOTES: readonly string[] = ['double', 'preserve'];
const SEQUENCES: readonly string[] = ['indented', 'flush'];
const FORMAT_KEYS = ['indent', 'sequences', 'quotes'];
const FORMAT_TAKES = "takes 'indent', 'sequences' and 'quotes'";

function checkedFormat(format: unknown): PolicyFormat {
  if (typeof format !== 'object' || format === null || Array.isArray(format))
    throw new PolicyError(`'format' is a mapping; it ${FORMAT_TAKES}`);
  const out: PolicyFormat = {};
  for (const [key, setting] of Object.entries(format as Record<string, unknown>)) {
    const shown = JSON.stringify(setting) ?? String(setting);
    if (key === 'indent') {
      if (typeof setting !== 'number' || !Number.isInteger(setting) || setting < 1 || setting > 8)
        throw new PolicyError(`'format.indent' is set to ${shown}; use a whole number of spaces from 1 to 8`);
      out.indent = setting;
    } else if (key === 'sequences') {
      if (typeof setting !== 'string' || !SEQUENCES.includes(setting))
        throw new PolicyError(`'format.sequences' is set to ${shown}; use indented or flush`);
      out.sequences = setting as PolicyFormat['sequences'];
    } else if (key === 'quotes') {
      if (typeof setting !== 'string' || !QUOTES.includes(setting))
        throw new PolicyError(`'format.quotes' is set to ${shown}; use double or preserve`);
      out.quotes = setting as PolicyFormat['quotes'];
    } else
      throw new PolicyError(`unknown key 'format.${key}'${didYouMeanNote(key, FORMAT_KEYS)}; 'format' ${FORMAT_TAKES}`);
  }
  return out;
}

/** `rules` as a policy file or a `policy` option gives it, checked: a fresh object of known, configurable rules and valid settings. */
function checkedRules(rules: unknown): PolicyRules {
  const out: Partial<Record<RuleCode, RuleSetting>> = {};
  if (rules === undefined || rules === null) return out;
  if (typeof rules !== 'object' || Array.isArray(rules))
    throw new PolicyError("'rules' maps rule ids to error, warning, info or off");
  for (const [id, setting] of Object.entries(rules as Record<string, unknown>)) {
    const rule = RULES_BY_ID.get(id as RuleCode);
    if (rule === undefined) throw new PolicyError(`no rule '${id}'${didYouMeanNote(id, RULES_BY_ID.keys())}`);
    if (!CONFIGURABLE_RULES.includes(rule.id))
      throw new PolicyError(
        `'${id}' decides whether the published schema accepts a manifest; it cannot be changed or turned off`,
      );
    if (typeof setting !== 'string' || !SETTINGS.includes(setting as RuleSetting)) {
      throw new PolicyError(`rule '${id}' is set to ${JSON.stringify(setting)}; use error, warning, info or off`);
    }
    out[rule.id] = setting as RuleSetting;
  }
  return out;
}

function checkedIgnore(ignore: unknown): string[] {
  if (ignore === undefined || ignore === null) return [];
  if (!Array.isArray(ignore) || ignore.some((glob) => typeof glob !== 'string' || glob === '')) {
    throw new PolicyError("'ignore' is a list of globs, relative to the folder of the file");
  }
  return [...(ignore as string[])];
}

/** The settings of a policy, checked as a policy file's are (throws {@link PolicyError}). */
function settingsOf(policy: ManifestPolicy): Map<RuleCode, RuleSetting> {
  return new Map(Object.entries(checkedRules(policy.rules)) as [RuleCode, RuleSetting][]);
}

/**
 * Each diagnostic's copies at other severities, made once: a diagnostic the policy sets is the
 * same object on every validation that keeps it, as one it leaves alone is (the language server
 * reuses its converted form by identity, and `withPolicy` gives a moved one's earlier copy).
 */
const copies = new WeakMap<Diagnostic, Partial<Record<Severity, Diagnostic>>>();

/** `d` at `severity`: itself when it has it, else its one copy at that severity. */
export function atSeverity(d: Diagnostic, severity: Severity): Diagnostic {
  if (d.severity === severity) return d;
  let made = copies.get(d);
  if (!made) copies.set(d, (made = {}));
  return (made[severity] ??= { ...d, severity });
}

/** What a policy leaves of a list of diagnostics: each kept one (possibly a copy with its severity changed) and, by index, where it was in the list. */
export interface PolicyOutcome {
  diagnostics: Diagnostic[];
  /** For each diagnostic of the outcome, its index in the list given; -1 for a problem of a suppression comment. */
  from: number[];
}

/** `search` when it is `document`'s (carried over the edit that made it), else a search of the whole text. */
function ownSearch(document: ManifestDocument, search: SuppressionSearch | undefined): SuppressionSearch {
  return search?.document === document ? search : SuppressionSearch.of(document);
}

/**
 * The diagnostics of `document` as a policy has them: the severities it sets, `off` rules left
 * out, the problems the manifest's comments suppress left out (when it honours them) and the
 * comments' own problems added, in place order; the others keep the order they were given in.
 * Undefined when the policy can change nothing here: no settings, and no suppression comment to
 * read (a text without `svc-manifest-` costs one search, or the search of an edit's lines when
 * `search`, the document's {@link SuppressionSearch}, was carried over the edit). Throws
 * {@link PolicyError} for settings a policy file could not hold, whether or not they would change anything.
 */
export function applyManifestPolicy(
  document: ManifestDocument,
  diagnostics: readonly Diagnostic[],
  policy: ManifestPolicy,
  search?: SuppressionSearch,
): PolicyOutcome | undefined {
  const settings = settingsOf(policy);
  // One search answers both whether there is a comment to read and where (none when it finds no line).
  const comments = policy.inlineSuppressions === true ? ownSearch(document, search) : undefined;
  const suppressing = comments?.markedLines().length ? comments : undefined;
  if (settings.size === 0 && !suppressing) return undefined;
  const set = (d: Diagnostic): Diagnostic | undefined => {
    const setting = settings.get(d.code);
    return setting === undefined ? d : setting === 'off' ? undefined : atSeverity(d, setting);
  };
  let kept: Diagnostic[] = [];
  let from: number[] = [];
  diagnostics.forEach((d, index) => {
    const changed = set(d);
    if (changed === undefined) return;
    kept.push(changed);
    from.push(index);
  });
  if (!suppressing) return { diagnostics: kept, from };
  const suppressed = applySuppressions(suppressing, kept, SUPPRESSIBLE_RULES);
  if (suppressed.kept.length !== kept.length) {
    from = suppressed.kept.map((index) => from[index]!);
    kept = suppressed.kept.map((index) => kept[index]!);
  }
  const problems = suppressed.problems.flatMap((d) => set(d) ?? []);
  if (problems.length === 0) return { diagnostics: kept, from };
  // The comments' problems go in by place, before the first diagnostic that starts after them.
  const merged: Diagnostic[] = [];
  const mergedFrom: number[] = [];
  let next = 0;
  for (let i = 0; i < kept.length; i++) {
    const d = kept[i]!;
    while (next < problems.length && compareLocatedByPlace(problems[next]!, d) < 0) {
      merged.push(problems[next++]!);
      mergedFrom.push(-1);
    }
    merged.push(d);
    mergedFrom.push(from[i]!);
  }
  for (; next < problems.length; next++) {
    merged.push(problems[next]!);
    mergedFrom.push(-1);
  }
  return { diagnostics: merged, from: mergedFrom };
}
