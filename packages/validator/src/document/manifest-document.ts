/**
 * A manifest text as a located document, and how an edit updates it.
 *
 * A façade over one reader per format (reader.ts: yaml-reader.ts, toml-reader.ts). It does what is
 * common to both: limits (size, characters), the byte-order mark, the line index, the plain value,
 * and the store of the units (unit-store.ts). `ManifestDocument.parse` reads a whole text;
 * `update(text, changes?)` has the reader re-read only the lines around an edit (text-change.ts
 * finds them) and is held to give exactly what `parse(text)` gives: tree, offsets, value,
 * diagnostics, line index.
 *
 * What an update keeps, and the same objects it keeps them as (the identity contract), is set
 * out where the readers' `update` is declared (reader.ts).
 */
import type { RawDiagnostic } from '../diagnostic.js';
import { LineIndex } from './line-index.js';
import { resolveLimits, type Limits } from './limits.js';
import type { MapEntry, ValueNode } from './nodes.js';
import { PieceText, type TextSource } from './piece-text.js';
import type { ManifestReader, PreviousRead, Reading, ReadWork } from './reader.js';
import { changedRegion, type ChangedRegion, type TextChange } from './text-change.js';
import {
  byteOrderMarkDiagnostic,
  checkRegion,
  checkWholeText,
  decodeInput,
  tooDeepDiagnostic,
  tooLargeDiagnostic,
} from './text-checks.js';
import { tomlReader, tomlTopLevelText } from './toml-reader.js';
import { UnitStore } from './unit-store.js';
import { buildValue, type ValueMemo } from './value.js';
import { valueOfChunks, yamlReader } from './yaml-reader.js';

export type ManifestFormat = 'yaml' | 'toml';

export interface DocumentOptions {
  /** `yaml` or `toml`; by default taken from `filename` (`.toml` is TOML, anything else YAML). */
  format?: ManifestFormat;
  filename?: string;
  limits?: Partial<Limits>;
}

/** The format a file name implies: `.toml` is TOML, everything else YAML. */
export function detectFormat(filename: string | undefined): ManifestFormat {
  return filename && /\.toml$/i.test(filename) ? 'toml' : 'yaml';
}

/** The reader of each format (reader.ts); a document hands its store only to its own format's reader. */
const READERS: Record<ManifestFormat, ManifestReader<unknown>> = { yaml: yamlReader, toml: tomlReader };

let lastSerial = 0;

/**
 * One manifest text, parsed into the located tree, with the problems found on the way. An edit
 * makes a new document with {@link ManifestDocument.update}, which re-parses only the YAML chunks
 * and TOML blocks whose text changed, and takes the rest over from this one.
 */
export class ManifestDocument {
  /** Set when the text could not be parsed at all (too large, too deep, an alias bomb). */
  fatal = false;
  private cachedLines?: LineIndex;
  private cachedValue?: { value: unknown; schemaValue: unknown };
  private readonly valueDiagnostics: RawDiagnostic[] = [];
  /** The UTF-8 length of the text, when it was counted. */
  private utf8Bytes?: number;
  /** Whether the text has characters no manifest may contain (then every edit re-reads it all). */
  private forbidden = false;
  /** The line index of the document this one was updated from, and the region that changed. */
  private linesBase?: { lines: LineIndex; region: ChangedRegion };
  /**
   * How many characters of text the parser read to make this document: all of it for a fresh
   * parse, only the changed chunks or blocks for an incremental {@link update}. A parse leaves
   * garbage in proportion: the language server collects once while idle after a large one.
   */
  parsedCharacters = 0;
  /**
   * How many characters the checks and scans before parsing read (characters, byte count,
   * nesting and chunk plan): each pass over the whole text for a fresh parse, the changed
   * lines and the chunks around them for an incremental {@link update}: what an edit cost before parsing.
   */
  scannedCharacters = 0;
  /**
   * The whole lines where this text differs from the text of the document it was {@link update}d
   * from (null for a parsed document, or when the texts are equal). Lets a consumer that searched
   * the earlier text search only these lines of this one.
   */
  editedRegion: ChangedRegion | null = null;
  /** A number no other document of this process has: what was worked out for a document can name it without keeping it. */
  readonly serial = ++lastSerial;
  /** The {@link serial} of the document this one was {@link update}d from; `editedRegion` says where their texts differ. */
  updatedFrom: number | undefined;
  /**
   * The reader's units (chunks, items, blocks and their trees). An {@link update} may take them
   * over, moving them in place: this document's tree, value and diagnostics are then no longer
   * its own, and reading them fails in tests and development builds (unit-store.ts).
   */
  private readonly store = new UnitStore<unknown>(this.serial);
  /** The located tree; read through {@link root}. */
  private tree: ValueNode | null = null;
  private readonly parseDiagnostics: RawDiagnostic[] = [];
  private hasAliases = false;
  private hasDateTimes = false;
  /** YAML: each top-level entry's value, from its chunk. */
  private entryValues?: Map<MapEntry, () => unknown>;
  /** TOML: plain values by tree node, shared along updates. */
  private valueMemo?: ValueMemo;

  private constructor(
    /**
     * The text as given: a string, or an editor's {@link PieceText}. What runs on every edit
     * reads this by ranges; {@link text} is the whole string.
     */
    readonly source: TextSource,
    readonly format: ManifestFormat,
    readonly limits: Limits,
    readonly filename: string | undefined,
  ) {}

  /**
   * The whole text as one string. For a document made by {@link update} from a
   * {@link PieceText}, the string is made on the first read: the edit path (update, validate,
   * locate diagnostics) reads only ranges, so a keystroke in a large file does not copy it all.
   */
  get text(): string {
    return this.source.toString();
  }

  /** Whether `text` is this document's text (read by ranges: pieces it shares with it compare by identity). */
  hasText(text: TextSource): boolean {
    return text.length === this.source.length && PieceText.rangesEqual(this.source, 0, text, 0, text.length);
  }

  /** Parses a manifest. Never throws. Bytes are decoded as UTF-8; invalid sequences are reported. */
  static parse(input: string | Uint8Array, options: DocumentOptions = {}): ManifestDocument {
    const limits = resolveLimits(options.limits);
    const decoded = typeof input === 'string' ? undefined : decodeInput(input, limits.maxBytes);
    const text = decoded ? decoded.text : (input as string);
    const document = new ManifestDocument(
      text,
      options.format ?? detectFormat(options.filename),
      limits,
      options.filename,
    );
    if (decoded?.cut) document.refuse(tooLargeDiagnostic(limits, text.length));
    else {
      if (decoded) document.parseDiagnostics.push(...decoded.diagnostics);
      document.load(undefined);
    }
    return document;
  }

  /**
   * The document for a new text of the same file, reusing every unchanged chunk's parse.
   *
   * The returned document takes over the parsed chunks: their trees are moved (offsets
   * shifted in place) rather than copied, so the document `update` was called on must not be
   * used afterwards. Keep the returned one. (This keeps a keystroke in a large file from
   * copying the whole tree.)
   *
   * `changes`, when given, are the replacements that made `text` from this document's text, in
   * order (as LSP's incremental content changes): the document then re-reads only the lines
   * around them. Without them (or when they do not make `text`), the changed lines are found by
   * comparing the texts.
   *
   * What the returned document keeps as the same objects: the identity contract (reader.ts).
   */
  update(text: TextSource, changes?: readonly TextChange[]): ManifestDocument {
    const next = new ManifestDocument(text, this.format, this.limits, this.filename);
    const region = changedRegion(this.source, text, changes);
    next.editedRegion = region;
    next.updatedFrom = this.serial;
    const lines = this.cachedLines ?? (this.linesBase ? this.lines : undefined);
    if (lines && region) next.linesBase = { lines, region };
    else if (lines) next.cachedLines = lines;
    next.load(this, region);
    return next;
  }

  /**
   * The text from its start to where a top-level key can no longer stand, for reading one where
   * the tree does not say (a file that does not parse). YAML: the whole text. TOML: the lines
   * before the first table header outside any value, as the block planner finds it, read by
   * ranges (a keystroke in a large broken file does not make its whole text one string).
   */
  topLevelText(): string {
    return this.format === 'toml' ? tomlTopLevelText(this.source) : this.text;
  }

  get lines(): LineIndex {
    if (!this.cachedLines) {
      const base = this.linesBase;
      this.linesBase = undefined;
      this.cachedLines = base ? LineIndex.spliced(base.lines, this.source, base.region) : new LineIndex(this.source);
    }
    return this.cachedLines;
  }

  /** The located tree; null when the text has none (a TOML syntax error, a refused text). */
  get root(): ValueNode | null {
    this.store.checkReadable('root');
    return this.tree;
  }

  /** Problems found while reading the text: limits, syntax, duplicate keys, aliases. */
  get diagnostics(): readonly RawDiagnostic[] {
    this.store.checkReadable('diagnostics');
    void this.value;
    return [...this.parseDiagnostics, ...this.valueDiagnostics];
  }

  /**
   * The plain value (what the rules check); `undefined` when there is none. Maps are
   * null-prototype objects; a TOML date or time is a {@link TomlDateTime}.
   */
  get value(): unknown {
    this.store.checkReadable('value');
    return this.built().value;
  }

  /**
   * The value the JSON Schema validator checks: {@link value}, except that a TOML date or
   * time is a value of no JSON type (`OPAQUE_FOR_SCHEMA`), so no `type` accepts it.
   */
  get schemaValue(): unknown {
    this.store.checkReadable('schemaValue');
    return this.built().schemaValue;
  }

  private built(): { value: unknown; schemaValue: unknown } {
    if (!this.cachedValue) {
      if (!this.tree || this.fatal) {
        this.cachedValue = { value: undefined, schemaValue: undefined };
      } else if (this.entryValues) {
        const value = valueOfChunks(this.tree, this.entryValues, this.limits.maxExpandedNodes);
        this.cachedValue = { value, schemaValue: value };
      } else {
        const built = buildValue(this.tree, {
          maxExpandedNodes: this.limits.maxExpandedNodes,
          hasAliases: this.hasAliases,
          hasDateTimes: this.hasDateTimes,
          memo: this.valueMemo,
        });
        this.valueDiagnostics.push(...built.diagnostics);
        if (built.value === undefined) this.fatal = true;
        this.cachedValue = { value: built.value, schemaValue: built.schemaValue };
      }
    }
    return this.cachedValue;
  }

  /** Marks the text as not readable, with the diagnostic that says why. */
  private refuse(diagnostic: RawDiagnostic): void {
    this.fatal = true;
    this.parseDiagnostics.push(diagnostic);
  }

  private load(previous: ManifestDocument | undefined, region: ChangedRegion | null = null): void {
    const reader = READERS[this.format];
    const work: ReadWork = { parsed: 0, scanned: 0 };
    const before = previous && this.previousRead(previous);
    let reading: Reading | undefined;
    if (before && region) {
      const bom = this.source.charCodeAt(0) === 0xfeff ? 1 : 0;
      // Not forbidden: a reader updates only from a text without such characters, and only when `plain()` holds.
      const input = {
        body: bom ? this.text.slice(bom) : this.source,
        bom,
        limits: this.limits,
        forbidden: false,
        store: this.store,
        work,
      };
      reading = reader.update(input, before, region, () => this.regionIsPlain(previous, region));
      if (reading && bom) this.parseDiagnostics.push(byteOrderMarkDiagnostic());
    }
    if (!reading) reading = this.readWhole(reader, before, region, work);
    this.parsedCharacters += work.parsed;
    this.scannedCharacters += work.scanned;
    if (!reading) return;
    const fragment = reading.fragment;
    this.tree = fragment.root;
    this.parseDiagnostics.push(...fragment.diagnostics);
    this.hasAliases = fragment.aliasCount > 0;
    this.hasDateTimes = fragment.hasDateTimes === true;
    this.entryValues = reading.entryValues;
    this.valueMemo = reading.valueMemo;
  }

  /** Reads the whole text: its checks here (text-checks.ts), the rest by the reader. Undefined when the text is refused. */
  private readWhole(
    reader: ManifestReader<unknown>,
    previous: PreviousRead<unknown> | undefined,
    region: ChangedRegion | null,
    work: ReadWork,
  ): Reading | undefined {
    const checked = checkWholeText(this.text, this.format, this.limits);
    this.scannedCharacters += checked.scanned;
    if (checked.refused) return void this.refuse(checked.refused);
    const { body, bom, forbidden } = checked;
    this.utf8Bytes = checked.utf8Bytes;
    this.forbidden = forbidden;
    this.parseDiagnostics.push(...checked.diagnostics);
    // The reader's first pass (YAML: one scan for nesting and the line table; TOML: the blocks).
    this.scannedCharacters += body.length;
    const read = reader.parse({ body, bom, limits: this.limits, forbidden, store: this.store, work }, previous, region);
    if ('tooDeepAt' in read) return void this.refuse(tooDeepDiagnostic(this.limits, bom + read.tooDeepAt));
    return read;
  }

  /** `previous` as the readers see it, read at the time of this update. */
  private previousRead(previous: ManifestDocument): PreviousRead<unknown> {
    return {
      store: previous.store,
      fatal: previous.fatal,
      forbidden: previous.forbidden,
      body: (bom) => (bom ? previous.text.slice(bom) : previous.source),
      wholeBody: (bom) => (bom ? previous.text.slice(bom) : previous.text),
    };
  }

  /** Whether the changed region can be checked alone (text-checks.ts); counts this text's bytes when it is. */
  private regionIsPlain(previous: ManifestDocument, region: ChangedRegion): boolean {
    const before = { source: previous.source, utf8Bytes: previous.utf8Bytes };
    const checked = checkRegion(before, this.source, region, this.format, this.limits);
    this.scannedCharacters += checked.scanned;
    if (checked.plain && checked.utf8Bytes !== undefined) this.utf8Bytes = checked.utf8Bytes;
    return checked.plain;
  }
}
