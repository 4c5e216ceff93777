import type { FileReport, FormatOptions } from './types.js';

const ANSI = { red: '\u001b[31m', yellow: '\u001b[33m', blue: '\u001b[34m', dim: '\u001b[2m', bold: '\u001b[1m', underline: '\u001b[4m', reset: '\u001b[0m' };

/** ESLint-like text: one block per file, each problem with its position, message, rule id and a code frame. */
export function formatStylish(reports: readonly FileReport[], options: FormatOptions): string {
  const paint = (code: string, text: string) => (options.color ? `${code}${text}${ANSI.reset}` : text);
  const out: string[] = [];
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  for (const report of reports) {
    if (report.diagnostics.length === 0) continue;
    out.push(paint(ANSI.underline, report.filePath));
    // Split like the positions count lines: LF, CRLF or a lone CR.
    const lines = report.text.split(/\r\n|\r|\n/);
    for (const d of report.diagnostics) {
      if (d.severity === 'error') errors++;
      else if (d.severity === 'warning') warnings++;
      else infos++;
      const color = d.severity === 'error' ? ANSI.red : d.severity === 'warning' ? ANSI.yellow : ANSI.blue;
      const position = `${d.range.start.line}:${d.range.start.column}`;
      out.push(`  ${paint(ANSI.dim, position.padEnd(7))} ${paint(color, d.severity.padEnd(7))} ${d.message}  ${paint(ANSI.dim, d.code)}`);
      out.push(...codeFrame(lines, d.range.start.line, d.range.start.column, d.range.end.line, d.range.end.column, paint));
    }
    out.push('');
  }
  const total = errors + warnings + infos;
  const unreadable = reports.filter((report) => report.readError !== undefined).length;
  if (total > 0) {
    const summary = `${total} ${total === 1 ? 'problem' : 'problems'} (${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}${infos ? `, ${infos} info` : ''})`;
    out.push(paint(errors ? ANSI.red + ANSI.bold : ANSI.yellow + ANSI.bold, `✖ ${summary}`));
  } else if (unreadable > 0) {
    // The reasons are on stderr; an all-clear here would contradict them.
    return '';
  } else {
    out.push(`✔ ${reports.length === 1 ? reports[0]!.filePath : `${reports.length} files`}: no problems`);
  }
  return out.join('\n') + '\n';
}

function codeFrame(lines: string[], line: number, column: number, endLine: number, endColumn: number, paint: (code: string, text: string) => string): string[] {
  const frame: string[] = [];
  const first = Math.max(1, line - 1);
  const width = String(line).length;
  for (let n = first; n <= line; n++) {
    const text = (lines[n - 1] ?? '').replace(/\t/g, ' ');
    const shown = text.length > 160 ? text.slice(0, 157) + '...' : text;
    frame.push(`    ${n === line ? '>' : ' '} ${String(n).padStart(width)} | ${shown}`);
  }
  const lineText = lines[line - 1] ?? '';
  const caretEnd = endLine === line ? Math.max(endColumn, column + 1) : lineText.length + 1;
  const carets = '^'.repeat(Math.max(1, Math.min(caretEnd - column, 160)));
  frame.push(`      ${' '.repeat(width)} | ${' '.repeat(Math.min(column - 1, 160))}${paint(ANSI.red, carets)}`);
  return frame;
}
