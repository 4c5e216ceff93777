/**
 * Inline suppressions in a manifest's comments (YAML and TOML both write comments with `#`):
 *
 * ```yaml
 * # svc-manifest-disable-next-line possible-typo -- read by our deploy script
 * trigers_note: see the wiki
 * # svc-manifest-disable default-agent-declared, trigger-agent-declared -- agents come from the platform
 * ...
 * # svc-manifest-enable default-agent-declared, trigger-agent-declared
 * ```
 *
 * `disable-next-line` covers the next line; `disable` covers from its own line to the matching
 * `enable` (or the end of the file). The text after ` -- ` is the reason, for people. Only the
 * rules a policy may change (CONFIGURABLE_RULES) can be suppressed: a suppression naming a rule
 * the schema's verdict rests on, or no known rule, is a problem, and so is one that suppressed
 * nothing (it is stale, and would hide the next real problem there).
 */
import type { Diagnostic } from '../diagnostic.js';
import { RULES_BY_ID, type RuleCode } from '../rules/index.js';
import { CONFIGURABLE_RULES } from './config.js';

/** A problem with a suppression comment: where it is (1-based) and what is wrong. */
export interface SuppressionProblem {
  line: number;
  column: number;
  message: string;
}

interface Directive {
  kind: 'disable-next-line' | 'disable' | 'enable';
  line: number;
  column: number;
  rules: string[];
}

/** A comment (`#` at the start of a line or after a space or tab) holding a directive. */
const DIRECTIVE = /(^|[ \t])#[ \t]*svc-manifest-(disable-next-line|disable|enable)(?![\w-])(.*)$/;

/** The diagnostics the comments do not suppress, and the problems of the comments themselves. */
export function applySuppressions(text: string, diagnostics: readonly Diagnostic[]): { diagnostics: Diagnostic[]; problems: SuppressionProblem[] } {
  if (!text.includes('svc-manifest-')) return { diagnostics: [...diagnostics], problems: [] };
  const directives: Directive[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const match = DIRECTIVE.exec(lines[i]!);
    if (!match) continue;
    const [listed] = match[3]!.split(/[ \t]--(?:[ \t]|$)/, 1);
    const rules = listed!.split(/[\s,]+/).filter(Boolean);
    directives.push({ kind: match[2] as Directive['kind'], line: i + 1, column: match.index + match[1]!.length + 1, rules });
  }
  const problems: SuppressionProblem[] = [];
  /** Each suppression: the lines it covers, the rules, and which of them it used. */
  const ranges: { directive: Directive; from: number; to: number; rules: RuleCode[]; used: Set<RuleCode> }[] = [];
  const open = new Map<RuleCode, (typeof ranges)[number]>();
  for (const directive of directives) {
    const name = `svc-manifest-${directive.kind}`;
    if (directive.rules.length === 0) {
      problems.push({ ...at(directive), message: `${name} names no rule; write the rule ids it is for` });
      continue;
    }
    const rules: RuleCode[] = [];
    for (const id of directive.rules) {
      const rule = RULES_BY_ID.get(id as RuleCode);
      if (rule === undefined) problems.push({ ...at(directive), message: `${name} names '${id}', which is no rule` });
      else if (!CONFIGURABLE_RULES.includes(rule.id)) {
        problems.push({ ...at(directive), message: `${name} names '${id}', which cannot be suppressed: the published schema's verdict rests on it` });
      } else rules.push(rule.id);
    }
    if (directive.kind === 'disable-next-line') {
      if (rules.length) ranges.push({ directive, from: directive.line + 1, to: directive.line + 1, rules, used: new Set() });
    } else if (directive.kind === 'disable') {
      if (rules.length === 0) continue;
      const range = { directive, from: directive.line, to: Infinity, rules, used: new Set<RuleCode>() };
      ranges.push(range);
      for (const rule of rules) open.set(rule, range);
    } else {
      for (const rule of rules) {
        const disabled = open.get(rule);
        if (disabled === undefined) {
          problems.push({ ...at(directive), message: `${name} ${rule} has no svc-manifest-disable ${rule} above it` });
          continue;
        }
        // A range ends for all its rules at the first enable of any: simple, and the rules of one comment belong together.
        disabled.to = Math.min(disabled.to, directive.line);
        open.delete(rule);
      }
    }
  }
  const kept = diagnostics.filter((d) => {
    const line = d.range.start.line;
    const covering = ranges.find((range) => line >= range.from && line <= range.to && range.rules.includes(d.code));
    if (covering === undefined) return true;
    covering.used.add(d.code);
    return false;
  });
  for (const range of ranges) {
    const unused = range.rules.filter((rule) => !range.used.has(rule));
    if (unused.length === 0) continue;
    const what = range.directive.kind === 'disable-next-line' ? 'on the next line' : 'in its range';
    problems.push({ ...at(range.directive), message: `unused suppression: no ${unused.join(', ')} problem ${what}` });
  }
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return { diagnostics: kept, problems };
}

function at(directive: Directive): { line: number; column: number } {
  return { line: directive.line, column: directive.column };
}
