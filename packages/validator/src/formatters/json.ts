import type { Diagnostic, SuggestedFix } from '../diagnostic.js';
import type { FileReport } from './types.js';

/** ESLint's fix: replace the characters in `range` (start inclusive, end exclusive) with `text`. */
export interface EslintFix {
  range: [number, number];
  text: string;
}

export interface EslintMessage {
  ruleId: string;
  severity: 1 | 2;
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** What `svc-manifest validate --fix` applies for this problem (ESLint's meaning of `fix`). */
  fix?: EslintFix;
  /** Changes for a person to choose from or check (ESLint's suggestions): the quick fixes `--fix` does not apply. */
  suggestions?: { desc: string; fix: EslintFix }[];
}

/**
 * The shape of ESLint's `json` formatter, so tools that read ESLint reports read ours.
 * ESLint has no "info" level: info diagnostics are left out.
 *
 * Fixes: `fix` is what `--fix` applies for the problem (`report.fixable`, from fix-preview.ts),
 * never a quick fix that needs a choice or invents a value (a secret's name): those are
 * `suggestions`, which ESLint never applies on its own. A suggestion of several edits becomes
 * one replacement of the span they cover, the way ESLint merges a rule's fixes. Ranges are UTF-16
 * offsets into the text without its byte-order mark, as ESLint counts them. The fixable counts
 * count the messages that have a `fix`, so they count what `--fix` fixes.
 */
export function formatJson(reports: readonly FileReport[]): string {
  return (
    JSON.stringify(
      reports.map((report) => {
        if (report.readError !== undefined) return unreadableFile(report.absolutePath, report.readError);
        const messages = report.diagnostics
          .filter((d) => d.severity !== 'info')
          .map((d) => toMessage(d, report.text, report.fixable?.get(d)));
        const errorCount = messages.filter((m) => m.severity === 2).length;
        const fixable = (severity: 1 | 2) =>
          messages.filter((m) => m.severity === severity && m.fix !== undefined).length;
        return {
          filePath: report.absolutePath,
          messages,
          errorCount,
          fatalErrorCount: 0,
          warningCount: messages.length - errorCount,
          fixableErrorCount: fixable(2),
          fixableWarningCount: fixable(1),
        };
      }),
    ) + '\n'
  );
}

/** A file that could not be read, as ESLint reports a file it cannot parse: one fatal message without a rule. */
function unreadableFile(filePath: string, reason: string) {
  return {
    filePath,
    messages: [
      { ruleId: null, fatal: true, severity: 2, message: `cannot read the file: ${reason}`, line: 0, column: 0 },
    ],
    errorCount: 1,
    fatalErrorCount: 1,
    warningCount: 0,
    fixableErrorCount: 0,
    fixableWarningCount: 0,
  };
}

function toMessage(d: Diagnostic, text: string, applied: EslintFix | undefined): EslintMessage {
  const message: EslintMessage = {
    ruleId: d.code,
    severity: d.severity === 'error' ? 2 : 1,
    message: d.message,
    line: d.range.start.line,
    column: d.range.start.column,
    endLine: d.range.end.line,
    endColumn: d.range.end.column,
  };
  if (applied !== undefined) message.fix = { range: [...applied.range], text: applied.text };
  const suggestions = (d.fixes ?? [])
    .map((fix) => ({ desc: fix.title, fix: toEslintFix(fix, text) }))
    .filter((s): s is { desc: string; fix: EslintFix } => s.fix !== undefined && !sameFix(s.fix, applied));
  if (suggestions.length > 0) message.suggestions = suggestions;
  return message;
}

function sameFix(a: EslintFix, b: EslintFix | undefined): boolean {
  return b !== undefined && a.range[0] === b.range[0] && a.range[1] === b.range[1] && a.text === b.text;
}

/** One replacement covering all of the fix's edits, or undefined when its edits overlap or are out of the text. */
export function toEslintFix(fix: SuggestedFix, text: string): EslintFix | undefined {
  const edits = [...fix.edits].sort(
    (a, b) => a.range.start.offset - b.range.start.offset || a.range.end.offset - b.range.end.offset,
  );
  if (edits.length === 0) return undefined;
  let cursor = edits[0]!.range.start.offset;
  const start = cursor;
  let replacement = '';
  for (const edit of edits) {
    const { offset: from } = edit.range.start;
    const { offset: to } = edit.range.end;
    if (from < cursor || to < from || to > text.length) return undefined;
    replacement += text.slice(cursor, from) + edit.newText;
    cursor = to;
  }
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (start < bom) return undefined;
  return { range: [start - bom, cursor - bom], text: replacement };
}
