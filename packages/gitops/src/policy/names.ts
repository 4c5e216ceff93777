/**
 * Names that end up in a commit message, a ref or a path are checked before they are
 * used: against the spec's pattern where it gives one (agent names, connector slugs,
 * item names), and never with a control character or line break anywhere (a name with a
 * newline could forge a commit trailer such as `Signed-off-by:`).
 */
import { RefusedError } from '../errors.js';

/** The spec's manifest name / slug pattern (agent names, connector and trigger slugs, item names). */
export const SLUG = /^[a-z0-9][a-z0-9_-]{0,127}$/;

/** Longest free-form name (secret names, versions) accepted in a message. */
export const MAX_NAME_LENGTH = 256;

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A pattern as people read it: without the ^…$ anchors. */
export function showPattern(pattern: RegExp): string {
  return pattern.source.replace(/^\^/, '').replace(/\$$/, '');
}

/** Why `value` cannot be used as a name, or undefined. `pattern`: the spec's pattern, when it gives one. */
export function nameProblem(value: unknown, pattern?: RegExp): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (value.trim() === '') return 'must not be empty';
  const control = CONTROL.exec(value);
  if (control)
    return `contains control character U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} (line breaks and control characters are never allowed in names)`;
  if (value.length > MAX_NAME_LENGTH) return `is longer than ${MAX_NAME_LENGTH} characters`;
  if (pattern && !pattern.test(value)) return `must match ${showPattern(pattern)}`;
  return undefined;
}

/** Refuses (`invalid-name`) unless `value` is an acceptable name; `what` says what it names (e.g. "agent name"). */
export function checkName(value: unknown, what: string, pattern?: RegExp): asserts value is string {
  const problem = nameProblem(value, pattern);
  if (problem) throw new RefusedError('invalid-name', `${what} ${JSON.stringify(value)} ${problem}`);
}

/** Refuses unless `text` (a commit message the applier composed) is one line of printable text. */
export function checkMessageLine(text: string, what: string): void {
  const control = CONTROL.exec(text);
  if (control) {
    throw new RefusedError(
      'invalid-name',
      `${what} ${JSON.stringify(text)} contains control character U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
    );
  }
}
