import type { RawDiagnostic, RuleCode } from '../diagnostic.js';
import type { Reference } from '../model/declarations.js';
import type { DeclaredNames } from '../model/reference-helpers.js';
import { listAlternatives } from '../suggest.js';
import type { RuleContext } from './rule.js';

/** Reports a reference to a name that nothing declares, with a "did you mean" fix when one is close. */
export function reportUndeclared(
  context: RuleContext,
  code: RuleCode,
  reference: Reference,
  declared: DeclaredNames,
  what: { label: string; kind: string },
): void {
  // An empty name is the schema's to report; a declared one is fine.
  if (reference.name === '' || declared.has(reference.name)) return;
  const suggestion = declared.suggest(reference.name);
  const count = declared.size;
  const known =
    count === 0
      ? `no ${what.kind}s are declared`
      : count <= 8
        ? `declared ${what.kind}s: ${listAlternatives(declared.list(), 'and')}`
        : `${count} ${what.kind}s are declared`;
  const diagnostic: RawDiagnostic = {
    code,
    message: `${what.label} '${reference.name}' is not a declared ${what.kind}${suggestion ? `; did you mean '${suggestion}'?` : ` (${known})`}`,
    path: reference.path,
    start: reference.start,
    end: reference.end,
  };
  if (suggestion) diagnostic.fixes = context.replaceValueFix(reference.path, suggestion);
  context.report(diagnostic);
}
