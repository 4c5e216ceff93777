/**
 * A manifest text as a located document, and how an edit updates it.
 *
 * `ManifestDocument.parse` reads a whole text: limits (size, characters, nesting), then YAML chunk
 * by chunk (yaml-chunks.ts) or TOML block by block (toml-blocks.ts), falling back to one parse of
 * the whole text wherever the pieces might not give its result. `update(text, changes?)` reads only
 * the lines around an edit (text-change.ts, yaml-incremental.ts, `loadTomlIncrementally`) and is
 * held to give exactly what `parse(text)` gives: tree, offsets, value, diagnostics, line index.
 *
 * Identity contract (incremental validation builds on it): after `update`, every top-level YAML
 * chunk (the text of one top-level key), every item of a YAML block collection parsed item by
 * item, and every TOML block (a header to the next) whose text did not change keeps the SAME tree
 * node objects (their offsets moved in place by the edit's length) and the SAME plain-value
 * objects (its subtree of `document.value`). What holds them (the root, the collection, a table
 * that headers of several blocks make) is a new object whenever anything inside changed. TOML:
 * a block's table node is kept; the entry that names it in its parent is made by the join of
 * the blocks, and a table that a later block's header extends (`[a]`, then `[a.b]`) is joined
 * anew at every update (new node and value; the nodes and values inside it are kept).
 */
import type { RawDiagnostic } from '../diagnostic.js';
import { lastAtMost, LineIndex } from './line-index.js';
import { checkCharacters, decodeUtf8, scanTomlNesting, hasForbiddenCharacter, offsetPastByteLimit, resolveLimits, utf8Length, type Limits } from './limits.js';
import { effectiveEntries, groupAt, moveFramesFrom, type MapEntry, type ValueNode } from './nodes.js';
import * as tomlParser from './parse-toml.js';
import type { TomlBlock, TomlJoin, TomlPart } from './parse-toml.js';
import { parseYamlFragment } from './parse-yaml.js';
import type { ParsedFragment } from './tree-builder.js';
import { PieceText, type TextSource } from './piece-text.js';
import { withRunReplaced } from './spliced-lists.js';
import { changedRegion, type ChangedRegion, type TextChange } from './text-change.js';
import { buildValue, newObject, type ValueMemo } from './value.js';
import { CHECK_CONSUMED_READS } from './checks.js';
import { planYamlChunks } from './yaml-chunks.js';
import { assembleYaml, bodyRegion, commitReplan, replanYaml, topsOfPlan, type YamlChunkState } from './yaml-incremental.js';
import { scanYaml } from './yaml-scan.js';
import {
  alignedWithClean,
  blocksByPlace,
  blockStart,
  cachedPart,
  copyTomlPart,
  earlierPart,
  groupFrames,
  headerAsRead,
  headerLine,
  lenderOf,
  moveCachedPart,
  onlyNewKeysAdded,
  partStart,
  startsHeader,
  type CachedTomlPart as CachedTomlPartOf,
  type OldIndex,
  type TomlBlocksState as TomlBlocksStateOf,
  type TomlClean,
  type TomlOwner as TomlOwnerOf,
  type TomlSplice,
} from './toml-update-state.js';

/** The TOML update state of this module's documents (toml-update-state.ts is generic in the document type). */
type TomlBlocksState = TomlBlocksStateOf<ManifestDocument>;
type TomlOwner = TomlOwnerOf<ManifestDocument>;
type CachedTomlPart = CachedTomlPartOf<ManifestDocument>;

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
  /** YAML: the chunks of a text parsed chunk by chunk (see yaml-incremental.ts). */
  private yamlChunks?: YamlChunkState;
  /** The UTF-8 length of the text, when it was counted. */
  private utf8Bytes?: number;
  /** Whether the text has characters no manifest may contain (then every edit re-reads it all). */
  private forbidden = false;
  /** The line index of the document this one was updated from, and the region that changed. */
  private linesBase?: { lines: LineIndex; region: ChangedRegion };
  /**
   * TOML: the text's blocks (body offsets) with the parsed tree of each where one is known (a
   * text with an error keeps those of earlier texts, for the edits that fix it); `fresh` when
   * the nesting check's state is clean at every block start (then an edit re-checks only the
   * blocks around it).
   */
  private tomlBlocks?: TomlBlocksState;
  /** The block signatures of the last TOML text of this file that parsed without a problem. */
  private tomlClean?: TomlClean;
  /** TOML: plain values by tree node, shared along updates so unchanged blocks keep their values. */
  private valueMemo?: ValueMemo;
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
  /** Whether {@link update} took the changed region from the changes it was given (else it compared the texts). */
  regionFromChanges = false;
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
  /** The located tree; read through {@link root}. */
  private tree: ValueNode | null = null;
  /**
   * The {@link serial} of the document whose {@link update} took this one's units (chunks,
   * items, blocks and their trees) over, moving them in place: this document's tree, value and
   * diagnostics are then no longer its own, and reading them fails in tests and development builds.
   */
  private takenOverBy: number | undefined;
  private readonly parseDiagnostics: RawDiagnostic[] = [];
  private hasAliases = false;
  private hasDateTimes = false;

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
    const early: RawDiagnostic[] = [];
    let text: string;
    if (typeof input === 'string') {
      text = input;
    } else {
      const maxBytes = resolveLimits(options.limits).maxBytes;
      if (input.length > maxBytes) {
        // Too large: decode only what fits (a character cut at the limit is dropped, not "invalid").
        text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(input.subarray(0, maxBytes), { stream: true });
        const document = new ManifestDocument(text, options.format ?? detectFormat(options.filename), resolveLimits(options.limits), options.filename);
        document.refuseAsTooLarge(text.length);
        return document;
      }
      const decoded = decodeUtf8(input);
      text = decoded.text;
      if (decoded.invalidAt >= 0) {
        early.push({
          code: 'invalid-utf8',
          message: 'the file is not valid UTF-8 here; save it as UTF-8',
          path: '',
          start: decoded.invalidAt,
          end: decoded.invalidAt + 1,
        });
      }
    }
    const format = options.format ?? detectFormat(options.filename);
    const document = new ManifestDocument(text, format, resolveLimits(options.limits), options.filename);
    document.parseDiagnostics.push(...early);
    document.load(undefined);
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
   * Identity (what incremental validation builds on): every top-level YAML chunk (a top-level
   * key's text), every item of a block collection parsed item by item, and every TOML block
   * whose text did not change keeps its tree's node objects (offsets moved in place) and its
   * plain value's objects, in `root` and `value` of the returned document.
   */
  update(text: TextSource, changes?: readonly TextChange[]): ManifestDocument {
    const next = new ManifestDocument(text, this.format, this.limits, this.filename);
    const region = changedRegion(this.source, text, changes);
    next.regionFromChanges = region?.fromChanges === true;
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
    if (this.format !== 'toml') return this.text;
    const source = this.source;
    if (startsHeader(source, 0)) return '';
    const plan = tomlParser.planTomlPart(source, 0, (offset) => startsHeader(source, offset), 1);
    return plan?.stopped ? source.slice(0, plan.end) : this.text;
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
    this.checkNotTakenOver('root');
    return this.tree;
  }

  /**
   * Throws, where checks are on (tests and development; bundles leave them out), when an update
   * took this document's units over: what this document would read has moved to the new one.
   */
  private checkNotTakenOver(what: string): void {
    if (CHECK_CONSUMED_READS && this.takenOverBy !== undefined)
      throw new Error(`ManifestDocument: '${what}' read after update() took this document over (read the document update() returned)`);
  }

  /** Notes that `next`'s update took this document's units over (see {@link takenOverBy}). */
  private takenOver(next: ManifestDocument): void {
    this.takenOverBy ??= next.serial;
  }

  /** Problems found while reading the text: limits, syntax, duplicate keys, aliases. */
  get diagnostics(): readonly RawDiagnostic[] {
    this.checkNotTakenOver('diagnostics');
    void this.value;
    return [...this.parseDiagnostics, ...this.valueDiagnostics];
  }

  /**
   * The plain value (what the rules check); `undefined` when there is none. Maps are
   * null-prototype objects; a TOML date or time is a {@link TomlDateTime}.
   */
  get value(): unknown {
    this.checkNotTakenOver('value');
    return this.built().value;
  }

  /**
   * The value the JSON Schema validator checks: {@link value}, except that a TOML date or
   * time is a value of no JSON type (`OPAQUE_FOR_SCHEMA`), so no `type` accepts it.
   */
  get schemaValue(): unknown {
    this.checkNotTakenOver('schemaValue');
    return this.built().schemaValue;
  }

  private built(): { value: unknown; schemaValue: unknown } {
    if (!this.cachedValue) {
      if (!this.tree || this.fatal) {
        this.cachedValue = { value: undefined, schemaValue: undefined };
      } else if (this.entryValues) {
        const value = this.assembleValue(this.tree);
        this.cachedValue = { value, schemaValue: value };
      } else {
        const memo = this.format === 'toml' ? (this.valueMemo ??= { value: new WeakMap(), schema: new WeakMap() }) : undefined;
        const built = buildValue(this.tree, {
          maxExpandedNodes: this.limits.maxExpandedNodes,
          hasAliases: this.hasAliases,
          hasDateTimes: this.hasDateTimes,
          memo,
        });
        this.valueDiagnostics.push(...built.diagnostics);
        if (built.value === undefined) this.fatal = true;
        this.cachedValue = { value: built.value, schemaValue: built.schemaValue };
      }
    }
    return this.cachedValue;
  }

  /** Marks the text as too large to read, with the diagnostic at `offset` (nothing after it was read). */
  private refuseAsTooLarge(offset: number): void {
    this.fatal = true;
    this.parseDiagnostics.push({
      code: 'too-large',
      message: `the file is larger than ${this.limits.maxBytes} bytes, the most a manifest may have; it was not read past this point`,
      path: '',
      start: offset,
      end: offset,
    });
  }

  private load(previousDocument: ManifestDocument | undefined, region: ChangedRegion | null = null): void {
    if (previousDocument && region && this.format === 'yaml' && this.loadYamlIncrementally(previousDocument, region)) return;
    if (previousDocument && region && this.format === 'toml' && this.loadTomlIncrementally(previousDocument, region)) return;
    const limits = this.limits;
    this.scannedCharacters += this.text.length;
    const past = offsetPastByteLimit(this.text, limits.maxBytes);
    if (past >= 0) {
      this.refuseAsTooLarge(past);
      return;
    }
    if (this.text.length * 3 > limits.maxBytes) this.utf8Bytes = utf8Length(this.text);
    this.scannedCharacters += this.text.length;
    const checked = checkCharacters(this.text, this.format);
    this.forbidden = checked.diagnostics.length > 0;
    this.parseDiagnostics.push(...checked.diagnostics);
    const bom = checked.text.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (bom) this.parseDiagnostics.push(byteOrderMarkDiagnostic());
    const body = bom ? checked.text.slice(1) : checked.text;
    // YAML: one scan gives the nesting depth and the line table chunk planning needs.
    this.scannedCharacters += body.length;
    const yamlScan = this.format === 'yaml' ? scanYaml(body, limits.maxDepth) : undefined;
    // TOML: the blocks first (a linear scan), so the nesting check can tell whether it is clean at each.
    const tomlBlocks = this.format === 'toml' ? tomlParser.planTomlBlocks(body) : null;
    if (tomlBlocks) this.scannedCharacters += body.length;
    const tomlNesting = yamlScan
      ? undefined
      : scanTomlNesting(
          body,
          limits.maxDepth,
          0,
          body.length,
          tomlBlocks?.map((block) => block.start),
        );
    const deep = yamlScan ? yamlScan.tooDeepAt : tomlNesting!.tooDeepAt;
    if (deep >= 0) {
      this.refuseAsTooDeep(bom + deep);
      return;
    }
    let fragment: ParsedFragment;
    if (this.format === 'toml') {
      const state = previousDocument?.tomlBlocks;
      const previous = previousDocument && !previousDocument.fatal && state?.bom === bom && !state.consumed ? previousDocument : undefined;
      fragment = this.parseToml(
        body,
        bom,
        previous,
        tomlBlocks,
        previous && region
          ? blocksByPlace(previous.tomlBlocks!.blocks, bodyRegion(region, bom), bom ? previousDocument!.text.slice(1) : previousDocument!.text, body)
          : () => -1,
      );
      if (this.tomlBlocks) this.tomlBlocks.fresh = tomlNesting!.fresh && !this.forbidden;
    } else {
      const plan = planYamlChunks(body, yamlScan!);
      if (plan) {
        const work = { reparsed: 0 };
        const earlier = previousDocument && !previousDocument.fatal && !previousDocument.forbidden && !this.forbidden ? previousDocument.yamlChunks : undefined;
        const state = earlier && !earlier.consumed ? earlier : undefined;
        const previous = state && { state, body: state.bom ? previousDocument!.text.slice(1) : previousDocument!.text };
        this.yamlChunks = { bom, tops: topsOfPlan(body, bom, plan, previous, region, work) };
        if (state) {
          state.consumed = true;
          previousDocument!.takenOver(this);
        }
        this.parsedCharacters += work.reparsed;
        fragment = this.assembleChunks(body, bom);
      } else {
        this.parsedCharacters = body.length;
        fragment = parseYamlFragment(body, bom);
      }
    }
    this.tree = fragment.root;
    this.parseDiagnostics.push(...fragment.diagnostics);
    this.hasAliases = fragment.aliasCount > 0;
    this.hasDateTimes = fragment.hasDateTimes === true;
  }

  private refuseAsTooDeep(offset: number): void {
    this.fatal = true;
    this.parseDiagnostics.push({
      code: 'too-deep',
      message: `collections are nested more than ${this.limits.maxDepth} levels deep here; a manifest is never this deep, so the file was not parsed`,
      path: '',
      start: offset,
      end: offset + 1,
    });
  }

  /**
   * YAML after an edit, reading only the changed lines and the chunks around them (see
   * yaml-incremental.ts). False, with nothing changed, when that cannot be sure to give what
   * reading the whole text gives: a fatal or unchunked previous text, forbidden characters, a
   * byte-order mark added or removed, a text now too large, or a plan the local scan cannot
   * settle.
   */
  private loadYamlIncrementally(previous: ManifestDocument, region: ChangedRegion): boolean {
    const state = previous.yamlChunks;
    if (!state || state.consumed || previous.fatal || previous.forbidden) return false;
    const bom = this.source.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (bom !== state.bom) return false;
    if (!this.regionIsPlain(previous, region)) return false;
    const limits = this.limits;
    const body = this.body(bom);
    const oldBody = previous.body(bom);
    const work = { scanned: 0, reparsed: 0 };
    const replan = replanYaml(state, oldBody, body, region, limits.maxDepth, work);
    this.scannedCharacters += work.scanned;
    if (!replan) return false;
    if (bom) this.parseDiagnostics.push(byteOrderMarkDiagnostic());
    this.yamlChunks = { bom, tops: commitReplan(state, oldBody, body, region, replan, work) };
    // Its units are this document's now: another update of the previous document reads its text afresh.
    state.consumed = true;
    previous.takenOver(this);
    this.parsedCharacters += work.reparsed;
    const fragment = this.assembleChunks(body, bom);
    this.tree = fragment.root;
    this.parseDiagnostics.push(...fragment.diagnostics);
    this.hasAliases = fragment.aliasCount > 0;
    return true;
  }

  /**
   * The text after a byte-order mark of `bom` characters, for reading by ranges: the source
   * itself when there is none (a file with a mark is read as one string).
   */
  private body(bom: number): TextSource {
    return bom ? this.text.slice(bom) : this.source;
  }

  /** The tree of the chunked text, or of the whole text when its chunks do not fit together. */
  private assembleChunks(body: TextSource, bom: number): ParsedFragment {
    const assembled = assembleYaml(this.yamlChunks!.tops, bom, body.length);
    if (!assembled) return this.parseWholeYaml(body.toString(), bom);
    this.entryValues = assembled.values;
    return { root: assembled.root, diagnostics: assembled.diagnostics, aliasCount: 0 };
  }

  private entryValues?: Map<MapEntry, () => unknown>;

  private parseWholeYaml(body: string, base: number): ParsedFragment {
    this.parsedCharacters += body.length;
    return parseYamlFragment(body, base);
  }

  /**
   * TOML after an edit: plans and checks only the blocks around the changed lines (from the
   * block before them to the first block start after them where the scan is back outside any
   * value, and clean for the nesting check), then {@link parseToml} with that plan. False, with
   * nothing changed, when that cannot be sure to give what reading the whole text gives.
   */
  private loadTomlIncrementally(previous: ManifestDocument, region: ChangedRegion): boolean {
    const state = previous.tomlBlocks;
    if (!state?.fresh || state.consumed || previous.fatal || previous.forbidden) return false;
    const bom = this.source.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (bom !== state.bom || !this.regionIsPlain(previous, region)) return false;
    const body = this.body(bom);
    const r = bodyRegion(region, bom);
    const old = state.blocks;
    const t = lastAtMost(old, Math.max(0, r.start - 1), blockStart);
    const from = old[t]!.start;
    let stop = old.length;
    const plan = tomlParser.planTomlPart(
      body,
      from,
      (offset) => {
        const j = lastAtMost(old, offset - r.delta, blockStart);
        if (j <= t || old[j]!.start !== offset - r.delta) return false;
        stop = j;
        return true;
      },
      r.newEnd,
    );
    if (!plan) return false;
    this.scannedCharacters += plan.end - from;
    // The planned lines only, as one string: the scan reads them character by character.
    const planned = body.slice(from, plan.end);
    const nesting = scanTomlNesting(
      planned,
      this.limits.maxDepth,
      0,
      planned.length,
      plan.blocks.map((block) => block.start - from),
    );
    this.scannedCharacters += plan.end - from;
    if (nesting.tooDeepAt >= 0 || !nesting.fresh) return false;
    const count = plan.blocks.length;
    const replaced = blocksByPlace(old.slice(t, stop), r, previous.body(bom), body, t);
    let blocks: TomlBlock[];
    if (state.whole?.doc === previous) {
      // This document takes the previous one's trees over (see parseTomlSpliced): its blocks
      // after the edit move in place too, and the previous document cannot be updated from again.
      state.consumed = true;
      if (r.delta !== 0)
        for (let i = stop; i < old.length; i++) {
          old[i]!.start += r.delta;
          old[i]!.end += r.delta;
        }
      blocks = withRunReplaced(old, t, stop, plan.blocks);
    } else {
      const moved = old.slice(stop).map((block) => ({ start: block.start + r.delta, end: block.end + r.delta, signature: block.signature }));
      blocks = old.slice(0, t).concat(plan.blocks, moved);
    }
    const oldIndex: OldIndex = (i, block) => (i < t ? i : i >= t + count ? i - t - count + stop : replaced(i, block));
    if (bom) this.parseDiagnostics.push(byteOrderMarkDiagnostic());
    const fragment = this.parseToml(body, bom, previous, blocks, oldIndex, { from: t, count, stop, delta: r.delta });
    if (this.tomlBlocks) this.tomlBlocks.fresh = true;
    this.tree = fragment.root;
    this.parseDiagnostics.push(...fragment.diagnostics);
    this.hasDateTimes = fragment.hasDateTimes === true;
    return true;
  }

  /**
   * Whether the changed region can be checked alone: the previous text had no forbidden
   * character and the region adds none, and the text is not now too large (its UTF-8 length
   * follows from the previous one and the region's).
   */
  private regionIsPlain(previous: ManifestDocument, region: ChangedRegion): boolean {
    const text = this.source;
    const added = text.slice(region.start, region.newEnd);
    this.scannedCharacters += added.length;
    if (hasForbiddenCharacter(added, this.format)) return false;
    const limits = this.limits;
    if (text.length * 3 > limits.maxBytes) {
      const removed = previous.source.slice(region.start, region.oldEnd);
      this.scannedCharacters += removed.length;
      const bytes = previous.utf8Bytes !== undefined ? previous.utf8Bytes - utf8Length(removed) + utf8Length(added) : utf8Length(this.text);
      if (bytes > limits.maxBytes) return false;
      this.utf8Bytes = bytes;
    }
    return true;
  }

  /**
   * TOML: re-parses only the blocks whose text changed, when that cannot change the result.
   * The blocks' trees are joined when every block's signature is that of the last text that
   * parsed without a problem (then no block can change how the others combine; see
   * toml-blocks.ts). A block that does not parse on its own is the whole text's error when
   * the blocks before it parse and the headers up to it are those of that text (the parser
   * reports the first syntax error, and before it only redefined headers). Otherwise the whole
   * text is parsed. `oldIndex` names, for a block, the previous document's block with the same
   * text (by place: the block lies wholly outside the changed region), or -1.
   */
  private parseToml(
    body: TextSource,
    base: number,
    previous: ManifestDocument | undefined,
    blocks: TomlBlock[] | null,
    oldIndex: OldIndex,
    splice?: TomlSplice,
  ): ParsedFragment {
    const clean = previous?.tomlClean;
    this.valueMemo = previous?.valueMemo;
    // Once per block: a lookup by text hands each earlier block out once. With a splice, only
    // the new blocks are looked up; the others are where the splice puts them.
    if (blocks && previous?.tomlBlocks) {
      if (splice) {
        const { from, count, stop } = splice;
        const middle: number[] = [];
        for (let i = from; i < from + count; i++) middle.push(oldIndex(i, blocks[i]!));
        oldIndex = (i) => (i < from ? i : i >= from + count ? i - from - count + stop : middle[i - from]!);
      } else {
        const olds = blocks.map((block, i) => oldIndex(i, block));
        oldIndex = (i) => olds[i] ?? -1;
      }
    } else oldIndex = () => -1;
    if (blocks && clean && previous?.tomlBlocks) {
      const spliced = splice ? this.parseTomlSpliced(body, base, blocks, clean, previous, splice, oldIndex) : undefined;
      const result = spliced === undefined ? this.parseTomlBlockwise(body, base, blocks, clean, previous, oldIndex) : spliced;
      if (result) return result;
    }
    this.tomlBlocks = undefined;
    this.parsedCharacters = body.length;
    // A file opened afresh: block by block when that gives the whole text's result (less memory).
    // Read whole: made into one string here, if it is not one already.
    const text = body.toString();
    const byBlocks = blocks && !previous ? tomlParser.parseTomlByBlocks(text, base, blocks) : null;
    const whole: ParsedFragment & { parts?: TomlPart[]; join?: TomlJoin } = byBlocks
      ? { ...byBlocks, diagnostics: [], aliasCount: 0 }
      : tomlParser.parseTomlDocument(text, base, blocks);
    if (whole.parts && blocks) {
      const parts = whole.parts;
      const owner: TomlOwner = { doc: this, groups: [] };
      const cachedParts = parts.map((part, i) => cachedPart(part, base + blocks[i]!.start, owner));
      owner.groups = groupFrames(cachedParts);
      this.tomlBlocks = {
        bom: base,
        blocks,
        parts: cachedParts,
        fresh: false,
        join: whole.join,
        whole: owner,
      };
      this.tomlClean = { signatures: blocks.map((block) => block.signature) };
    } else {
      // Keep what the last clean text allows for the edits that will fix this one.
      this.tomlClean = clean;
      const earlier = previous?.tomlBlocks;
      if (blocks && earlier)
        this.tomlBlocks = {
          bom: base,
          blocks,
          parts: blocks.map((_, i) => earlierPart(earlier, oldIndex(i, blocks[i]!))),
          fresh: false,
          lender: whole.root ? undefined : lenderOf(earlier),
        };
    }
    return whole;
  }

  /**
   * {@link parseTomlBlockwise} for an edit that replaced blocks of a text that parsed whole by as
   * many blocks: only those are read, and the previous document's trees are taken over all at
   * once (its owner token now names this document): those after the edit move in place, and the
   * join is patched around the new blocks. Undefined when this is not such an edit or a new block
   * does not parse alone (the general way then decides); null when the whole text must be parsed.
   */
  private parseTomlSpliced(
    body: TextSource,
    base: number,
    blocks: TomlBlock[],
    clean: TomlClean,
    previousDocument: ManifestDocument,
    splice: TomlSplice,
    oldIndex: OldIndex,
  ): ParsedFragment | null | undefined {
    const previous = previousDocument.tomlBlocks!;
    const owner = previous.whole;
    const join = previous.join;
    const { from, count, stop } = splice;
    if (!owner || owner.doc !== previousDocument || !join || count !== stop - from || blocks.length !== clean.signatures.length) return undefined;
    const middle: CachedTomlPart[] = [];
    let read = 0;
    for (let i = from; i < stop; i++) {
      const kept = earlierPart(previous, oldIndex(i, blocks[i]!));
      if (kept) {
        middle.push(kept);
        continue;
      }
      const block = blocks[i]!;
      const text = body.slice(block.start, block.end);
      read += text.length;
      const result = tomlParser.parseTomlBlock(text, base + block.start, i === 0);
      if (!result || 'error' in result) return undefined;
      middle.push(cachedPart(result.part, base + block.start, owner));
    }
    // The other blocks kept their signatures, which are the clean ones (the previous text parsed whole).
    let same = true;
    for (let i = from; i < stop; i++) {
      if (blocks[i]!.signature === clean.signatures[i]) continue;
      if (!onlyNewKeysAdded(blocks[i]!.signature, clean.signatures[i]!, i > 0, clean)) return null;
      same = false;
    }
    // The trees are this document's now, moved in place: the previous document's tree is no longer its own.
    previousDocument.takenOver(this);
    owner.doc = this;
    this.parsedCharacters += read;
    const parts = previous.parts as CachedTomlPart[];
    // The new trees take the places (and so the groups) of those they replace.
    for (let k = 0; k < middle.length; k++) {
      middle[k]!.frame.joinGroup(groupAt(owner.groups, from + k));
      moveCachedPart(middle[k]!, base + blocks[from + k]!.start);
    }
    // The blocks after the edit are the previous document's moved by the edit's delta (see
    // loadTomlIncrementally), so their trees move by it too.
    if (splice.delta !== 0) moveFramesFrom(parts.length, (i) => parts[i]!.frame, owner.groups, stop, splice.delta);
    const trees = withRunReplaced(
      join.parts,
      from,
      stop,
      middle.map((cached) => cached.part),
    );
    const joined = tomlParser.joinTomlParts(trees, base, body.length, join, { from, stop, delta: splice.delta });
    previous.join = undefined;
    this.tomlBlocks = { bom: base, blocks, parts: withRunReplaced(parts, from, stop, middle), fresh: false, join: joined.join, whole: owner };
    if (same) this.tomlClean = clean;
    else {
      const signatures = clean.signatures.slice();
      for (let i = from; i < stop; i++) signatures[i] = blocks[i]!.signature;
      this.tomlClean = { signatures, headerKeys: clean.headerKeys };
    }
    return { root: joined.root, diagnostics: [], aliasCount: 0, hasDateTimes: joined.hasDateTimes };
  }

  /**
   * The blockwise parse, or null for a whole one. Nothing of an earlier document changes unless
   * the result has a tree: a caller may keep the last document with a tree while the text has an
   * error (the language server does), so only then are the previous document's block trees moved;
   * trees that came through a document with an error (owned by an older one) are copied.
   */
  private parseTomlBlockwise(
    body: TextSource,
    base: number,
    blocks: TomlBlock[],
    clean: TomlClean,
    previousDocument: ManifestDocument,
    oldIndex: OldIndex,
  ): ParsedFragment | null {
    const previous = previousDocument.tomlBlocks!;
    const owner: TomlOwner = { doc: this, groups: [] };
    const parsed = new Map<number, CachedTomlPart>();
    for (let i = 0; i < blocks.length; i++) {
      if (earlierPart(previous, oldIndex(i, blocks[i]!))) continue;
      const block = blocks[i]!;
      const text = body.slice(block.start, block.end);
      const at = base + block.start;
      this.parsedCharacters += text.length;
      const result = tomlParser.parseTomlBlock(text, at, i === 0);
      if (!result) return null;
      if ('error' in result) {
        if (!result.syntax || i >= clean.signatures.length) return null;
        const error = this.blockErrorInContext(body, base, blocks, i, result);
        if (!error) return null;
        // The error stands for the whole text's only when nothing before it can differ: the parser
        // reports a header that redefines an earlier one where it reads it, so every header it
        // read before the error must be the clean text's. A header the error cuts short was not read.
        for (let j = 1; j < i; j++) {
          const signature = blocks[j]!.signature;
          // Unchanged blocks share the clean text's signature: no slicing of thousands of headers per keystroke.
          if (signature !== clean.signatures[j] && headerLine(signature) !== headerLine(clean.signatures[j]!)) return null;
        }
        if (i > 0) {
          const read = headerAsRead(text, error.index);
          const cleanHeader = headerLine(clean.signatures[i]!);
          if (read !== null && read !== cleanHeader && headerLine(blocks[i]!.signature) !== cleanHeader) return null;
        }
        this.tomlClean = clean;
        this.tomlBlocks = {
          bom: base,
          blocks,
          parts: blocks.map((_, k) => parsed.get(k) ?? earlierPart(previous, oldIndex(k, blocks[k]!))),
          fresh: false,
          lender: lenderOf(previous),
        };
        return error.error;
      }
      parsed.set(i, cachedPart(result.part, at, owner));
    }
    const signatures = blocks.length === clean.signatures.length ? clean.signatures : alignedWithClean(blocks, clean);
    if (!signatures) return null;
    let same = signatures === clean.signatures;
    for (let i = 0; i < blocks.length; i++) {
      if (blocks[i]!.signature === signatures[i]) continue;
      if (!onlyNewKeysAdded(blocks[i]!.signature, signatures[i]!, i > 0, clean)) return null;
      same = false;
    }
    // The result has a tree: take the block trees over, those of the last document with a tree too
    // when the previous text had none (that document is not to be used again, and is marked so).
    const lender = previous.lender && !previous.lender.lent ? previous.lender : undefined;
    const cachedParts: CachedTomlPart[] = [];
    const parts: TomlPart[] = [];
    for (let i = 0; i < blocks.length; i++) {
      const at = base + blocks[i]!.start;
      let cached = parsed.get(i);
      if (!cached) {
        cached = earlierPart(previous, oldIndex(i, blocks[i]!))!;
        if (cached.owner.doc === previousDocument || (lender !== undefined && cached.owner === lender.whole)) {
          cached.owner.doc.takenOver(this);
          moveCachedPart(cached, at);
          cached.owner = owner;
        } else {
          cached = cachedPart(copyTomlPart(cached.part, at - partStart(cached)), at, owner);
        }
      }
      cachedParts.push(cached);
      parts.push(cached.part);
    }
    // The indexes changed: the trees are grouped anew (this document owns them all now).
    owner.groups = groupFrames(cachedParts);
    const joined = tomlParser.joinTomlParts(parts, base, body.length, previous.join ?? lender?.join);
    // The joined nodes are this document's now (moved in place): never join from them twice.
    if (previous.join) previousDocument.takenOver(this);
    previous.join = undefined;
    if (lender) {
      lender.lent = true;
      lender.consumed = true;
      lender.join = undefined;
    }
    this.tomlBlocks = { bom: base, blocks, parts: cachedParts, fresh: false, join: joined.join, whole: owner };
    this.tomlClean = same ? clean : { signatures: blocks.map((block) => block.signature), headerKeys: clean.headerKeys };
    return {
      root: joined.root,
      diagnostics: [],
      aliasCount: 0,
      hasDateTimes: joined.hasDateTimes,
    };
  }

  /**
   * The syntax error block `i` has in the whole text, from its error read alone (`alone`), or null
   * when that cannot be told from the block. The parser may look past where it reports an error
   * (over blank lines, after a key's dot or an `=`), so a block that is not the last is read
   * again with the next block's header line after it: an error before that line's last
   * character is what the whole text gives there too. An error on that line's last character
   * may depend on what follows it.
   */
  private blockErrorInContext(
    body: TextSource,
    base: number,
    blocks: TomlBlock[],
    i: number,
    alone: { error: ParsedFragment; syntax: boolean; index: number },
  ): { error: ParsedFragment; index: number } | null {
    if (i === blocks.length - 1) return alone;
    const block = blocks[i]!;
    const next = blocks[i + 1]!;
    let lineEnd = body.indexOf('\n', next.start);
    if (lineEnd === -1) lineEnd = body.length;
    const extended = body.slice(block.start, lineEnd);
    let last = extended.length - 1;
    while (last >= 0 && /\s/.test(extended.charAt(last))) last--;
    if (last < next.start - block.start) return null;
    this.parsedCharacters += extended.length - (next.start - block.start);
    const again = tomlParser.parseTomlBlock(extended, base + block.start, i === 0);
    if (!again || !('error' in again) || !again.syntax || again.index >= last) return null;
    return again;
  }

  private assembleValue(root: ValueNode): unknown {
    if (root.kind !== 'map') return undefined;
    const object = newObject();
    for (const entry of effectiveEntries(root)) {
      const get = this.entryValues?.get(entry);
      // An entry a top-level merge key brings in (`<<: {a: 1}`) is no chunk's: its value is built
      // here (alias-free, as every chunked text is).
      object[entry.key] = get ? get() : buildValue(entry.value, { maxExpandedNodes: this.limits.maxExpandedNodes, hasAliases: false }).value;
    }
    return object;
  }
}

function byteOrderMarkDiagnostic(): RawDiagnostic {
  return {
    code: 'byte-order-mark',
    message: 'the file starts with a byte-order mark; it is ignored (UTF-8 needs none)',
    path: '',
    start: 0,
    end: 1,
  };
}
