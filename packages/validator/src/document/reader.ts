/**
 * The one interface a format's reader gives `ManifestDocument` (manifest-document.ts): `parse`
 * reads a whole text, `update` reads only the units an edit reached and takes the others over
 * from the previous document's store (unit-store.ts). A reader keeps what it needs for the next
 * edit as its store's units; the façade picks the reader by format and does what is common to
 * both (limits, characters, the byte-order mark, the line index, the plain value).
 *
 * Readers: yaml-reader.ts (chunks and list items, yaml-incremental.ts) and toml-reader.ts
 * (blocks, toml-reread.ts, toml-update-state.ts).
 *
 * Identity contract (incremental validation builds on it): after an update, every top-level YAML
 * chunk (the text of one top-level key), every item of a YAML block collection parsed item by
 * item, and every TOML block (a header to the next) whose text did not change keeps the SAME tree
 * node objects (their offsets moved in place by the edit's length) and the SAME plain-value
 * objects (its subtree of `document.value`). What holds them (the root, the collection, a table
 * that headers of several blocks make) is a new object whenever anything inside changed. TOML:
 * a block's table node is kept; the entry that names it in its parent is made by the join of
 * the blocks, and a table that a later block's header extends (`[a]`, then `[a.b]`) is joined
 * anew at every update (new node and value; the nodes and values inside it are kept). Moving in
 * place is why an update consumes the document it starts from (unit-store.ts).
 */
import type { Limits } from './limits.js';
import type { MapEntry } from './nodes.js';
import type { TextSource } from './piece-text.js';
import type { ChangedRegion } from './text-change.js';
import type { ParsedFragment } from './tree-builder.js';
import type { UnitStore } from './unit-store.js';
import type { ValueMemo } from './value.js';

/** What a read may count towards the document's `parsedCharacters` and `scannedCharacters`. */
export interface ReadWork {
  parsed: number;
  scanned: number;
}

/** The text to read, and the store the units read go into. */
export interface ReadInput<Units> {
  /** The text after a byte-order mark of `bom` characters (the whole text when there is none). */
  body: TextSource;
  bom: number;
  limits: Limits;
  /** Whether the text has characters no manifest may contain. */
  forbidden: boolean;
  /** The new document's store: the units read or taken over are put here. */
  store: UnitStore<Units>;
  work: ReadWork;
}

/** The document an update starts from, as a reader sees it. */
export interface PreviousRead<Units> {
  store: UnitStore<Units>;
  fatal: boolean;
  forbidden: boolean;
  /** Its text after a byte-order mark of `bom` characters, read by ranges. */
  body(bom: number): TextSource;
  /** The same as one string (made on the first read of a text given in pieces). */
  wholeBody(bom: number): string;
}

/** What a reader read: the tree and problems, and how the façade builds the plain value. */
export interface Reading {
  fragment: ParsedFragment;
  /** YAML: each top-level entry's value, built from its chunk (kept chunks keep their values). */
  entryValues?: Map<MapEntry, () => unknown>;
  /** TOML: plain values by tree node, shared along updates so unchanged blocks keep their values. */
  valueMemo?: ValueMemo;
}

/** A text nested past the depth limit at `tooDeepAt` (body offset): not parsed. */
export interface TooDeep {
  tooDeepAt: number;
}

export interface ManifestReader<Units> {
  /**
   * Reads the whole body (its characters checked, the mark taken off). `previous`, when given,
   * is the document an update starts from whose units may still be taken over where they fit
   * (an edit the reader's `update` could not settle locally); `region` is where the texts differ.
   */
  parse(
    input: ReadInput<Units>,
    previous: PreviousRead<Units> | undefined,
    region: ChangedRegion | null,
  ): Reading | TooDeep;
  /**
   * Reads only the lines around `region` and takes the rest over from `previous`'s store; held
   * to give exactly what {@link parse} gives. Undefined, with nothing changed, when that cannot
   * be settled locally. `plain()` says whether the region can be checked alone (no forbidden
   * character, not now too large); it is asked only once the reader's own state allows an update.
   */
  update(
    input: ReadInput<Units>,
    previous: PreviousRead<Units>,
    region: ChangedRegion,
    plain: () => boolean,
  ): Reading | undefined;
}
