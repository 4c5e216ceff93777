import { closestMatch } from '../suggest.js';
import type { Declaration } from './declarations.js';

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
