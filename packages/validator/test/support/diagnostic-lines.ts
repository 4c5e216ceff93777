import type { Diagnostic } from '@svc-manifest/validator/library';

/** One diagnostic as `line:col-endLine:endCol severity code | message`: what a test compares of a list, at a glance. */
export const diagnosticLine = (d: Diagnostic): string =>
  `${d.range.start.line}:${d.range.start.column}-${d.range.end.line}:${d.range.end.column} ${d.severity} ${d.code} | ${d.message}`;
