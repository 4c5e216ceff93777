import type { FileReport } from './types.js';

/**
 * The shape of ESLint's `json` formatter, so tools that read ESLint reports read ours.
 * ESLint has no "info" level: info diagnostics are left out.
 */
export function formatJson(reports: readonly FileReport[]): string {
  return (
    JSON.stringify(
      reports.map((report) => {
        const messages = report.diagnostics
          .filter((d) => d.severity !== 'info')
          .map((d) => ({
            ruleId: d.code,
            severity: d.severity === 'error' ? 2 : 1,
            message: d.message,
            line: d.range.start.line,
            column: d.range.start.column,
            endLine: d.range.end.line,
            endColumn: d.range.end.column,
          }));
        const errorCount = messages.filter((m) => m.severity === 2).length;
        const fixable = (severity: string) => report.diagnostics.filter((d) => d.severity === severity && d.fixes?.length).length;
        return {
          filePath: report.absolutePath,
          messages,
          errorCount,
          fatalErrorCount: 0,
          warningCount: messages.length - errorCount,
          fixableErrorCount: fixable('error'),
          fixableWarningCount: fixable('warning'),
        };
      }),
    ) + '\n'
  );
}
