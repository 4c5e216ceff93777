/**
 * The policy file, `.svc-manifest.yaml`: per-rule severities for the rules that are ours (the
 * warnings the validator adds over the published schema) and globs of manifests to leave out of
 * folder and glob walks. A manifest's policy is the nearest file up from its folder, stopping at
 * the repository root (the folder that holds `.git`), as Prettier and Ruff find theirs; the
 * nearest file wins whole (no merging), so what applies is always one file a person can read.
 *
 * ```yaml
 * rules:
 *   possible-typo: error      # error, warning, info or off
 *   deprecated-key: off
 * ignore:
 *   - "legacy/**"             # relative to the folder of this file
 * ```
 *
 * Rules that decide schema validity (structure, schema and parse rules) cannot be changed: a
 * manifest the published schema refuses is never reported valid.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { Diagnostic, Severity } from '../diagnostic.js';
import { ManifestDocument } from '../document/manifest-document.js';
import { globMatcher } from '../inputs/walk.js';
import { RULES, RULES_BY_ID, type RuleCode } from '../rules/index.js';
import { closestMatch } from '../suggest.js';

export const POLICY_FILE_NAME = '.svc-manifest.yaml';

/** What a rule can be set to. */
export type RuleSetting = Severity | 'off';

/** The rules a policy may set: ours, which only warn or inform; never one the schema's verdict rests on. */
export const CONFIGURABLE_RULES: readonly RuleCode[] = RULES.filter(
  (rule) => rule.kind === 'reference' || rule.kind === 'style' || (rule.kind === 'parse' && rule.severity !== 'error'),
).map((rule) => rule.id);

const SETTINGS: readonly RuleSetting[] = ['error', 'warning', 'info', 'off'];

/** Policy files larger than this are refused rather than read. */
const MAX_POLICY_BYTES = 64 * 1024;

export interface Policy {
  /** The policy file's absolute path. */
  file: string;
  rules: ReadonlyMap<RuleCode, RuleSetting>;
  /** Whether a file (absolute path) is one the `ignore` globs leave out of walks. */
  ignores(absolutePath: string): boolean;
}

/** A policy file that cannot be used: the CLI reports it, naming the file, and exits 2. */
export class PolicyError extends Error {}

/** The diagnostics as a policy sets them: severities changed, `off` rules left out. */
export function applyPolicy(diagnostics: readonly Diagnostic[], policy: Policy | undefined): Diagnostic[] {
  if (policy === undefined || policy.rules.size === 0) return [...diagnostics];
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const setting = policy.rules.get(d.code);
    if (setting === 'off') continue;
    out.push(setting === undefined || setting === d.severity ? d : { ...d, severity: setting });
  }
  return out;
}

/** Finds and reads policy files, each folder and file once per run. */
export class PolicyFinder {
  private readonly byFolder = new Map<string, Policy | undefined>();
  private readonly byFile = new Map<string, Policy>();

  /** The policy of a manifest (absolute path), or undefined when no folder up to the repository root has one. */
  policyFor(absolutePath: string): Policy | undefined {
    return this.policyOfFolder(dirname(absolutePath));
  }

  /**
   * Whether a file a command was given stays in: a policy's ignore globs leave out what folder
   * walks and globs found, never a file named as an argument (`validate` and `fmt` alike).
   */
  keeps(file: { absolutePath: string; named?: boolean }): boolean {
    return file.named === true || !this.policyFor(file.absolutePath)?.ignores(file.absolutePath);
  }

  private policyOfFolder(folder: string): Policy | undefined {
    if (this.byFolder.has(folder)) return this.byFolder.get(folder);
    let policy: Policy | undefined;
    const file = join(folder, POLICY_FILE_NAME);
    if (isFile(file)) policy = this.read(file);
    else if (!exists(join(folder, '.git')) && dirname(folder) !== folder) policy = this.policyOfFolder(dirname(folder));
    this.byFolder.set(folder, policy);
    return policy;
  }

  private read(file: string): Policy {
    const known = this.byFile.get(file);
    if (known) return known;
    const policy = readPolicy(file);
    this.byFile.set(file, policy);
    return policy;
  }
}

function readPolicy(file: string): Policy {
  let bytes: Uint8Array;
  try {
    if (statSync(file).size > MAX_POLICY_BYTES) throw new PolicyError(`${file}: larger than ${MAX_POLICY_BYTES} bytes`);
    bytes = readFileSync(file);
  } catch (error) {
    if (error instanceof PolicyError) throw error;
    throw new PolicyError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const document = ManifestDocument.parse(bytes, { filename: file, format: 'yaml' });
  const value = document.value;
  const problem = document.diagnostics.find((d) => d.code !== 'byte-order-mark');
  if (problem !== undefined || document.fatal) throw new PolicyError(`${file}: not readable YAML (${problem?.message ?? 'no value'})`);
  if (value === null || value === undefined) return { file, rules: new Map(), ignores: () => false };
  if (typeof value !== 'object' || Array.isArray(value)) throw new PolicyError(`${file}: must be a mapping with 'rules' and/or 'ignore'`);
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key !== 'rules' && key !== 'ignore')
      throw new PolicyError(`${file}: unknown key '${key}'${hint(key, ['rules', 'ignore'])}; it takes 'rules' and 'ignore'`);
  }
  return { file, rules: readRules(file, record.rules), ignores: readIgnore(file, record.ignore) };
}

function readRules(file: string, rules: unknown): Map<RuleCode, RuleSetting> {
  const out = new Map<RuleCode, RuleSetting>();
  if (rules === undefined || rules === null) return out;
  if (typeof rules !== 'object' || Array.isArray(rules)) throw new PolicyError(`${file}: 'rules' maps rule ids to error, warning, info or off`);
  for (const [id, setting] of Object.entries(rules as Record<string, unknown>)) {
    const rule = RULES_BY_ID.get(id as RuleCode);
    if (rule === undefined)
      throw new PolicyError(
        `${file}: no rule '${id}'${hint(
          id,
          RULES.map((r) => r.id),
        )}`,
      );
    if (!CONFIGURABLE_RULES.includes(rule.id)) {
      throw new PolicyError(`${file}: '${id}' decides whether the published schema accepts a manifest; it cannot be changed or turned off`);
    }
    if (typeof setting !== 'string' || !SETTINGS.includes(setting as RuleSetting)) {
      throw new PolicyError(`${file}: rule '${id}' is set to ${JSON.stringify(setting)}; use error, warning, info or off`);
    }
    out.set(rule.id, setting as RuleSetting);
  }
  return out;
}

function readIgnore(file: string, ignore: unknown): (absolutePath: string) => boolean {
  if (ignore === undefined || ignore === null) return () => false;
  if (!Array.isArray(ignore) || ignore.some((glob) => typeof glob !== 'string' || glob === '')) {
    throw new PolicyError(`${file}: 'ignore' is a list of globs, relative to the folder of the file`);
  }
  const folder = dirname(file);
  const matches = globMatcher(ignore as string[]);
  return (absolutePath) => {
    const path = relative(folder, absolutePath).split(sep).join('/');
    return !path.startsWith('../') && matches(path);
  };
}

function hint(typed: string, candidates: readonly string[]): string {
  const match = closestMatch(typed, candidates);
  return match === undefined ? '' : ` (did you mean '${match}'?)`;
}

// Most folders have neither file: `throwIfNoEntry: false` answers a missing one without building
// an exception (two per manifest on a tree where each has its own folder).
function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
