import type { RawDiagnostic, RuleCode } from '../diagnostic.js';
import { closestMatch, listAlternatives } from '../suggest.js';
import type { Declaration, Reference } from './declarations.js';
import type { RuleContext } from '../rules/rule.js';

/** The names a manifest declares of one kind, for fast "is it declared?" and "did you mean?". */
export class DeclaredNames {
  private readonly names: Set<string>;
  private readonly suggestions = new Map<string, string | undefined>();
  private cachedToken?: string;

  constructor(readonly declarations: readonly Declaration[]) {
    this.names = new Set(declarations.map((d) => d.name));
  }

  /**
   * A short string that is the same exactly when the names, in order, are: what a rule's result
   * about a reference depends on (whether it is declared, the "did you mean", the list of
   * declared names). Items compare it once each, so it is an id, not the names themselves.
   */
  get token(): string {
    // JSON of the list, not the names joined: joined, [] and [''] (or ['a', 'b'] and a name holding the separator) collide.
    return (this.cachedToken ??= internNames(JSON.stringify([...this.names])));
  }

  has(name: string): boolean {
    return this.names.has(name);
  }

  get size(): number {
    return this.names.size;
  }

  /** The closest declared name, remembered per misspelling (the same typo is often repeated). */
  suggest(name: string): string | undefined {
    if (!this.suggestions.has(name)) this.suggestions.set(name, closestMatch(name, this.names));
    return this.suggestions.get(name);
  }

  list(): string[] {
    return [...this.names];
  }
}

/** The last few name lists seen, with their ids (a few: one per kind of declaration, and the one before an edit). */
const recentNames: { names: string; id: string }[] = [];
let nextNamesId = 0;

function internNames(names: string): string {
  const known = recentNames.find((entry) => entry.names === names);
  if (known) return known.id;
  const id = `names#${++nextNamesId}`;
  recentNames.unshift({ names, id });
  recentNames.length = Math.min(recentNames.length, 8);
  return id;
}

const shared = new WeakMap<readonly Declaration[], DeclaredNames>();

/** The names of a list of declarations, made once per list (the rules of one validation share it). */
export function declaredNames(declarations: readonly Declaration[]): DeclaredNames {
  let names = shared.get(declarations);
  if (!names) shared.set(declarations, (names = new DeclaredNames(declarations)));
  return names;
}

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
