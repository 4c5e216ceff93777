import type { RawDiagnostic } from '../diagnostic.js';
import { closestMatch, listAlternatives } from '../suggest.js';
import type { Declaration, Reference } from './declarations.js';
import type { RuleContext } from './rule.js';

/** Reports a reference to a name that nothing declares, with a "did you mean" fix when one is close. */
export function reportUndeclared(
  context: RuleContext,
  code: string,
  reference: Reference,
  declarations: readonly Declaration[],
  what: { label: string; kind: string },
): void {
  // An empty name is the schema's to report; a declared one is fine.
  if (reference.name === '' || declarations.some((d) => d.name === reference.name)) return;
  const names = declarations.map((d) => d.name);
  const suggestion = closestMatch(reference.name, names);
  const known = names.length === 0 ? `no ${what.kind}s are declared` : names.length <= 8 ? `declared ${what.kind}s: ${listAlternatives(names, 'and')}` : `${names.length} ${what.kind}s are declared`;
  const diagnostic: RawDiagnostic = {
    code,
    severity: 'warning',
    message: `${what.label} '${reference.name}' is not a declared ${what.kind}${suggestion ? `; did you mean '${suggestion}'?` : ` (${known})`}`,
    path: reference.path,
    start: reference.start,
    end: reference.end,
  };
  if (suggestion) diagnostic.fixes = context.replaceValueFix(reference.path, suggestion);
  context.report(diagnostic);
}
