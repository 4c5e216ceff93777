import type { FileReport, FormatOptions } from './types.js';
import { relative } from 'node:path';
import { escapeForTerminal } from './terminal-text.js';

/** GitHub Actions workflow commands: one annotation per diagnostic. */
export function formatGithub(reports: readonly FileReport[], options: FormatOptions): string {
  const lines: string[] = [];
  for (const report of reports) {
    const file = relative(options.repositoryRoot, report.absolutePath).split('\\').join('/');
    if (report.readError !== undefined) {
      const title = escapeProperty('svc-manifest (unreadable)');
      lines.push(`::error title=${title}::${escapeData(`cannot read ${report.filePath}: ${report.readError}`)}`);
      continue;
    }
    for (const d of report.diagnostics) {
      const command = d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'notice';
      const properties = [
        `file=${escapeProperty(file)}`,
        `line=${d.range.start.line}`,
        `col=${d.range.start.column}`,
        `endLine=${d.range.end.line}`,
        `endColumn=${d.range.end.column}`,
        `title=${escapeProperty(`svc-manifest (${d.code})`)}`,
      ];
      lines.push(`::${command} ${properties.join(',')}::${escapeData(d.message)}`);
    }
  }
  return lines.length ? lines.join('\n') + '\n' : '';
}

/**
 * Message text: `%`, CR and LF are escaped as the runner reads them; every other control
 * character and bidirectional override is shown escaped (`\x1b`, `\u202e`), since the log
 * would obey it.
 */
export function escapeData(text: string): string {
  return escapeForTerminal(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/** Property values: also `:` and `,`, which separate properties. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
