import { escapeCharacter, escapeForTerminal, isUnsafeCharacter } from './terminal-text.js';
import type { FileReport, FormatOptions } from './types.js';

const ANSI = {
  red: '\u001b[31m',
  yellow: '\u001b[33m',
  blue: '\u001b[34m',
  dim: '\u001b[2m',
  bold: '\u001b[1m',
  underline: '\u001b[4m',
  reset: '\u001b[0m',
};

/**
 * ESLint-like text: one block per file, each problem with its position, message, rule id and a
 * code frame. Text from the manifest or its name (file names, messages quoting values, the code
 * frame's lines) has its control characters and bidirectional overrides escaped
 * (terminal-text.ts), with the carets under the escaped form.
 */
export function formatStylish(reports: readonly FileReport[], options: FormatOptions): string {
  const paint = (code: string, text: string) => (options.color ? `${code}${text}${ANSI.reset}` : text);
  const out: string[] = [];
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  let fixable = 0;
  for (const report of reports) {
    for (const d of report.diagnostics) if (report.fixable?.has(d)) fixable++;
    if (report.diagnostics.length === 0) continue;
    out.push(paint(ANSI.underline, escapeForTerminal(report.filePath)));
    // Split like the positions count lines: LF, CRLF or a lone CR.
    const lines = report.text.split(/\r\n|\r|\n/);
    for (const d of report.diagnostics) {
      if (d.severity === 'error') errors++;
      else if (d.severity === 'warning') warnings++;
      else infos++;
      const color = d.severity === 'error' ? ANSI.red : d.severity === 'warning' ? ANSI.yellow : ANSI.blue;
      const position = `${d.range.start.line}:${d.range.start.column}`;
      out.push(
        `  ${paint(ANSI.dim, position.padEnd(7))} ${paint(color, d.severity.padEnd(7))} ${escapeForTerminal(d.message)}  ${paint(ANSI.dim, d.code)}`,
      );
      out.push(
        ...codeFrame(lines, d.range.start.line, d.range.start.column, d.range.end.line, d.range.end.column, paint),
      );
    }
    out.push('');
  }
  const total = errors + warnings + infos;
  const unreadable = reports.filter((report) => report.readError !== undefined).length;
  if (total > 0) {
    const summary = `${total} ${total === 1 ? 'problem' : 'problems'} (${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}${infos ? `, ${infos} info` : ''})`;
    out.push(paint(errors ? ANSI.red + ANSI.bold : ANSI.yellow + ANSI.bold, `✖ ${summary}`));
    if (fixable > 0) out.push(`  ${fixable} of them fixable with --fix (--fix-dry-run shows the changes)`);
  } else if (unreadable > 0) {
    // The reasons are on stderr; an all-clear here would contradict them.
    return '';
  } else {
    out.push(
      `✔ ${reports.length === 1 ? escapeForTerminal(reports[0]!.filePath) : `${reports.length} files`}: no problems`,
    );
  }
  return out.join('\n') + '\n';
}

/** The longest line a code frame shows, in shown characters; longer lines end in `...`. */
const FRAME_WIDTH = 160;

function codeFrame(
  lines: string[],
  line: number,
  column: number,
  endLine: number,
  endColumn: number,
  paint: (code: string, text: string) => string,
): string[] {
  const frame: string[] = [];
  const first = Math.max(1, line - 1);
  const width = String(line).length;
  for (let n = first; n <= line; n++) {
    const { shown } = shownLine(lines[n - 1] ?? '');
    frame.push(
      `    ${n === line ? '>' : ' '} ${String(n).padStart(width)} | ${shown.length > FRAME_WIDTH ? shown.slice(0, FRAME_WIDTH - 3) + '...' : shown}`,
    );
  }
  const lineText = lines[line - 1] ?? '';
  const { columnOf } = shownLine(lineText);
  const caretEnd = endLine === line ? Math.max(endColumn, column + 1) : lineText.length + 1;
  const start = columnOf(column - 1);
  const carets = '^'.repeat(Math.max(1, Math.min(columnOf(caretEnd - 1) - start, FRAME_WIDTH)));
  frame.push(`      ${' '.repeat(width)} | ${' '.repeat(Math.min(start, FRAME_WIDTH))}${paint(ANSI.red, carets)}`);
  return frame;
}

/**
 * A line as the frame shows it: a tab as one space, unsafe characters escaped; and where each
 * character of the line (by UTF-16 index, the columns' unit) starts in the shown text.
 */
function shownLine(text: string): { shown: string; columnOf: (index: number) => number } {
  let shown = '';
  const starts: number[] = [];
  for (let i = 0; i < text.length; i++) {
    starts.push(shown.length);
    const character = text[i]!;
    shown += character === '\t' ? ' ' : isUnsafeCharacter(character) ? escapeCharacter(character) : character;
  }
  starts.push(shown.length);
  return {
    shown,
    columnOf: (index) => (index <= text.length ? starts[Math.max(0, index)]! : shown.length + index - text.length),
  };
}
