/**
 * Who owns a document's units (YAML chunks and items, TOML blocks) and their parsed trees, and
 * the one rule of their hand-over: an update moves the units it keeps into the new document in
 * place (offsets shifted, not copied), so the document it updated from is consumed.
 *
 * A store has two marks, set only here:
 * - consumed: its units may not seed another update (the next update of that document reads its
 *   text afresh);
 * - taken over: its tree, value and diagnostics have moved to a newer document, so reading them
 *   fails loudly where checks are on (tests, development builds; see checks.ts).
 *
 * A YAML update takes the previous store's units over whole (both marks). A TOML update may only
 * consume (the blocks moved, their trees re-read), or take trees over from a document older than
 * the previous one (the last with a tree, lent on through documents without one: toml-reread.ts).
 */
import { CHECK_CONSUMED_READS } from './checks.js';

export class UnitStore<Units> {
  /** The reader's units of this document (see reader.ts); undefined when it keeps none. */
  units: Units | undefined;
  private usedUp = false;
  private takenOverBy: number | undefined;

  /** `owner` is the serial of the document this store belongs to. */
  constructor(readonly owner: number) {}

  /** Whether an update consumed this store's units (they are a newer document's now). */
  get consumed(): boolean {
    return this.usedUp;
  }

  /** Marks the units as consumed: no update may take them over again. */
  consume(): void {
    this.usedUp = true;
  }

  /**
   * Notes that `next` holds this store's trees now, moved in place: reading this document's tree,
   * value or diagnostics fails from now on (see {@link checkReadable}).
   */
  handTreesTo(next: UnitStore<unknown>): void {
    this.takenOverBy ??= next.owner;
  }

  /** Takes `previous`'s units over whole: they are consumed and its tree is this store's now. */
  takeOver(previous: UnitStore<unknown>): void {
    previous.consume();
    previous.handTreesTo(this);
  }

  /**
   * Throws, where checks are on (tests and development; bundles leave them out), when an update
   * took this store's trees over: what its document would read has moved to the new one.
   */
  checkReadable(what: string): void {
    if (CHECK_CONSUMED_READS && this.takenOverBy !== undefined)
      throw new Error(
        `ManifestDocument: '${what}' read after update() took this document over (read the document update() returned)`,
      );
  }
}
