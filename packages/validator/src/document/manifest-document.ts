import type { RawDiagnostic } from '../diagnostic.js';
import { LineIndex } from './line-index.js';
import {
  checkCharacters,
  decodeUtf8,
  findExcessiveNesting,
  hasForbiddenCharacter,
  offsetPastByteLimit,
  resolveLimits,
  utf8Length,
  type Limits,
} from './limits.js';
import { effectiveEntries, type MapEntry, type MapNode, type ValueNode } from './nodes.js';
import { tomlParser } from '../lazy-parts.js';
import type { TomlBlock, TomlPart } from './parse-toml.js';
import { parseYamlFragment, type ParsedFragment } from './parse-yaml.js';
import { changedRegion, type ChangedRegion, type TextChange } from './text-change.js';
import { buildValue, newObject } from './value.js';
import { planYamlChunks } from './yaml-chunks.js';
import { assembleYaml, commitReplan, replanYaml, shiftInPlace, topsOfPlan, type YamlChunkState, type YamlUnit } from './yaml-incremental.js';
import { scanYaml } from './yaml-scan.js';

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

/** The block signatures of the last TOML text of this file that parsed without a problem. */
interface TomlClean {
  signatures: string[];
  /** Every key named in a header (`a`, `b` of `[a.b]`); null when a header quotes one. Computed when needed. */
  headerKeys?: Set<string> | null;
}

/**
 * Whether a block whose signature changed from `before` to `after` can still be joined with the
 * others: its header is the same and every statement it gained starts with a bare key that no
 * header names. Such a key lives only in this block's table (a table takes keys from its own
 * block and from headers below it), so it cannot meet a key of another block; a statement
 * removed cannot make two blocks conflict.
 */
function onlyNewKeysAdded(after: string, before: string, hasHeader: boolean, clean: TomlClean): boolean {
  const added = after.split('\n');
  const removed = before.split('\n');
  if (hasHeader && added[0] !== removed[0]) return false;
  const counts = new Map<string, number>();
  for (const piece of removed) counts.set(piece, (counts.get(piece) ?? 0) + 1);
  for (const piece of added) {
    const count = counts.get(piece) ?? 0;
    if (count > 0) {
      counts.set(piece, count - 1);
      continue;
    }
    if (piece === '') continue;
    const equals = piece.lastIndexOf('=');
    const first = equals < 0 ? '' : piece.slice(0, equals).split('.')[0]!.trim();
    if (piece.startsWith('?') || !/^[A-Za-z0-9_-]+$/.test(first)) return false;
    const headerKeys = (clean.headerKeys ??= keysOfHeaders(clean.signatures));
    if (!headerKeys || headerKeys.has(first)) return false;
  }
  return true;
}

/** The keys the header lines of a text's blocks name; null if one is quoted. */
function keysOfHeaders(signatures: string[]): Set<string> | null {
  const keys = new Set<string>();
  for (let i = 1; i < signatures.length; i++) {
    const line = headerLine(signatures[i]!);
    if (/["']/.test(line)) return null;
    const inner = line.replace(/^\[\[?/, '');
    const close = inner.indexOf(']');
    for (const key of (close < 0 ? inner : inner.slice(0, close)).split('.')) keys.add(key.trim());
  }
  return keys;
}

/** A parsed TOML block (see toml-blocks.ts), kept like a YAML chunk. */
interface CachedTomlPart {
  part: TomlPart;
  base: number;
  owner: ManifestDocument;
}

/**
 * One manifest text, parsed into the located tree, with the problems found on the way.
 * Immutable: an edit makes a new document with {@link ManifestDocument.update}, which
 * re-parses only the YAML chunks whose text changed.
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
  /** TOML: the parsed blocks by text, and their signatures when the text parsed without a problem. */
  private tomlParts: Map<string, CachedTomlPart> = new Map();
  private tomlClean?: TomlClean;
  /**
   * How many characters of text the parser read to make this document: all of it for a fresh
   * parse, only the changed chunks or blocks for an incremental {@link update}. For tests.
   */
  reparsedBytes = 0;
  /**
   * How many characters the checks and scans before parsing read (characters, byte count,
   * nesting and chunk plan): each pass over the whole text for a fresh parse, the changed
   * lines and the chunks around them for an incremental {@link update}. For tests.
   */
  scannedBytes = 0;
  /** Whether the last {@link update} took the changed region from the changes it was given. For tests. */
  regionFromChanges = false;
  root: ValueNode | null = null;
  private readonly parseDiagnostics: RawDiagnostic[] = [];
  private hasAliases = false;
  private hasDateTimes = false;

  private constructor(
    readonly text: string,
    readonly format: ManifestFormat,
    readonly limits: Limits,
    readonly filename: string | undefined,
  ) {}

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
  update(text: string, changes?: readonly TextChange[]): ManifestDocument {
    const next = new ManifestDocument(text, this.format, this.limits, this.filename);
    const region = changedRegion(this.text, text, changes);
    next.regionFromChanges = region?.fromChanges === true;
    const lines = this.cachedLines ?? (this.linesBase ? this.lines : undefined);
    if (lines && region) next.linesBase = { lines, region };
    else if (lines) next.cachedLines = lines;
    next.load(this, region);
    return next;
  }

  get lines(): LineIndex {
    if (!this.cachedLines) {
      const base = this.linesBase;
      this.linesBase = undefined;
      this.cachedLines = base ? LineIndex.spliced(base.lines, this.text, base.region) : new LineIndex(this.text);
    }
    return this.cachedLines;
  }

  /** Problems found while reading the text: limits, syntax, duplicate keys, aliases. */
  get diagnostics(): readonly RawDiagnostic[] {
    void this.value;
    return [...this.parseDiagnostics, ...this.valueDiagnostics];
  }

  /**
   * The plain value (what the rules check); `undefined` when there is none. Maps are
   * null-prototype objects; a TOML date or time is a {@link TomlDateTime}.
   */
  get value(): unknown {
    return this.built().value;
  }

  /**
   * The value the JSON Schema validator checks: {@link value}, except that a TOML date or
   * time is a value of no JSON type (`OPAQUE_FOR_SCHEMA`), so no `type` accepts it.
   */
  get schemaValue(): unknown {
    return this.built().schemaValue;
  }

  private built(): { value: unknown; schemaValue: unknown } {
    if (!this.cachedValue) {
      if (!this.root || this.fatal) {
        this.cachedValue = { value: undefined, schemaValue: undefined };
      } else if (this.entryValues) {
        const value = this.assembleValue(this.root);
        this.cachedValue = { value, schemaValue: value };
      } else {
        const built = buildValue(this.root, { maxExpandedNodes: this.limits.maxExpandedNodes, hasAliases: this.hasAliases, hasDateTimes: this.hasDateTimes });
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
    const limits = this.limits;
    this.scannedBytes += this.text.length;
    const past = offsetPastByteLimit(this.text, limits.maxBytes);
    if (past >= 0) {
      this.refuseAsTooLarge(past);
      return;
    }
    if (this.text.length * 3 > limits.maxBytes) this.utf8Bytes = utf8Length(this.text);
    this.scannedBytes += this.text.length;
    const checked = checkCharacters(this.text);
    this.forbidden = checked.diagnostics.length > 0;
    this.parseDiagnostics.push(...checked.diagnostics);
    const bom = checked.text.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (bom) this.parseDiagnostics.push(byteOrderMarkDiagnostic());
    const body = bom ? checked.text.slice(1) : checked.text;
    // YAML: one scan gives the nesting depth and the line table chunk planning needs.
    this.scannedBytes += body.length;
    const yamlScan = this.format === 'yaml' ? scanYaml(body, limits.maxDepth) : undefined;
    const deep = yamlScan ? yamlScan.tooDeepAt : findExcessiveNesting(body, 'toml', limits.maxDepth);
    if (deep >= 0) {
      this.refuseAsTooDeep(bom + deep);
      return;
    }
    let fragment: ParsedFragment;
    if (this.format === 'toml') {
      fragment = this.parseToml(body, bom, previousDocument);
    } else {
      const plan = planYamlChunks(body, yamlScan!);
      if (plan) {
        const work = { reparsed: 0 };
        const previous =
          previousDocument && !previousDocument.fatal && !previousDocument.forbidden && !this.forbidden ? previousDocument.yamlChunks : undefined;
        this.yamlChunks = { bom, tops: topsOfPlan(body, bom, plan, previous, region, work) };
        this.reparsedBytes += work.reparsed;
        fragment = this.assembleChunks(body, bom);
      } else {
        this.reparsedBytes = body.length;
        fragment = parseYamlFragment(body, bom);
      }
    }
    this.root = fragment.root;
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
    if (!state || previous.fatal || previous.forbidden) return false;
    const text = this.text;
    const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (bom !== state.bom) return false;
    const added = text.slice(region.start, region.newEnd);
    this.scannedBytes += added.length;
    if (hasForbiddenCharacter(added)) return false;
    const limits = this.limits;
    if (text.length * 3 > limits.maxBytes) {
      const removed = previous.text.slice(region.start, region.oldEnd);
      this.scannedBytes += removed.length;
      const bytes = previous.utf8Bytes !== undefined ? previous.utf8Bytes - utf8Length(removed) + utf8Length(added) : utf8Length(text);
      if (bytes > limits.maxBytes) return false;
      this.utf8Bytes = bytes;
    }
    const body = bom ? text.slice(1) : text;
    const oldBody = bom ? previous.text.slice(1) : previous.text;
    const work = { scanned: 0, reparsed: 0 };
    const replan = replanYaml(state, oldBody, body, region, limits.maxDepth, work);
    this.scannedBytes += work.scanned;
    if (!replan) return false;
    if (bom) this.parseDiagnostics.push(byteOrderMarkDiagnostic());
    this.yamlChunks = { bom, tops: commitReplan(state, body, region, replan, work) };
    previous.yamlChunks = undefined;
    this.reparsedBytes += work.reparsed;
    const fragment = this.assembleChunks(body, bom);
    this.root = fragment.root;
    this.parseDiagnostics.push(...fragment.diagnostics);
    this.hasAliases = fragment.aliasCount > 0;
    return true;
  }

  /** The tree of the chunked text, or of the whole text when its chunks do not fit together. */
  private assembleChunks(body: string, bom: number): ParsedFragment {
    const assembled = assembleYaml(this.yamlChunks!.tops, bom, body.length);
    if (!assembled) return this.parseWholeYaml(body, bom);
    this.entryValues = assembled.values;
    return { root: assembled.root, diagnostics: assembled.diagnostics, aliasCount: 0 };
  }

  /** The parsed YAML units by where they start (for tests and bench/profile.ts). */
  private get fragments(): Map<number, YamlUnit> {
    const units = new Map<number, YamlUnit>();
    for (const top of this.yamlChunks?.tops ?? []) for (const unit of top.units) units.set(unit.base, unit);
    return units;
  }

  private entryValues?: Map<MapEntry, () => unknown>;

  private parseWholeYaml(body: string, base: number): ParsedFragment {
    this.reparsedBytes += body.length;
    return parseYamlFragment(body, base);
  }

  /**
   * TOML: re-parses only the blocks whose text changed, when that cannot change the result.
   * The blocks' trees are joined when every block's signature is that of the last text that
   * parsed without a problem (then no block can change how the others combine; see
   * toml-blocks.ts). A block that does not parse on its own is the whole text's error when
   * the blocks before it parse and the headers up to it are those of that text (the parser
   * reports the first syntax error, and before it only redefined headers). Otherwise the whole
   * text is parsed.
   */
  private parseToml(body: string, base: number, previous: ManifestDocument | undefined): ParsedFragment {
    const toml = tomlParser();
    const blocks = toml.planTomlBlocks(body);
    const clean = previous?.tomlClean;
    if (blocks && clean && previous) {
      const result = this.parseTomlBlockwise(body, base, blocks, clean, previous);
      if (result) return result;
    }
    this.tomlParts = new Map();
    this.reparsedBytes = body.length;
    // A file opened afresh: block by block when that gives the whole text's result (less memory).
    const byBlocks = blocks && !previous ? toml.parseTomlByBlocks(body, base, blocks) : null;
    const whole: ParsedFragment & { parts?: TomlPart[] } = byBlocks
      ? { ...byBlocks, diagnostics: [], aliasCount: 0 }
      : toml.parseTomlDocument(body, base, blocks);
    if (whole.parts && blocks) {
      whole.parts.forEach((part, i) => {
        const text = body.slice(blocks[i]!.start, blocks[i]!.end);
        if (!this.tomlParts.has(text)) this.tomlParts.set(text, { part, base: base + blocks[i]!.start, owner: this });
      });
      this.tomlClean = { signatures: blocks.map((block) => block.signature) };
    } else {
      // Keep what the last clean text allows for the edits that will fix this one.
      this.tomlClean = clean;
      if (blocks && previous) this.keepTomlParts(body, blocks, 0, previous.tomlParts);
    }
    return whole;
  }

  /**
   * The blockwise parse, or null for a whole one. Nothing of an earlier document changes unless
   * the result has a tree: a caller may keep the last document with a tree while the text has an
   * error (the language server does), so only then are the previous document's block trees moved;
   * trees that came through a document with an error (owned by an older one) are copied.
   */
  private parseTomlBlockwise(body: string, base: number, blocks: TomlBlock[], clean: TomlClean, previousDocument: ManifestDocument): ParsedFragment | null {
    const previous = previousDocument.tomlParts;
    const parsed = new Map<string, CachedTomlPart>();
    const texts: string[] = [];
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i]!;
      const text = body.slice(block.start, block.end);
      texts.push(text);
      if (previous.has(text) || parsed.has(text)) continue;
      const at = base + block.start;
      this.reparsedBytes += text.length;
      const result = tomlParser().parseTomlBlock(text, at, i === 0);
      if (!result) return null;
      if ('error' in result) {
        // The error stands for the whole text's only when nothing before it can differ.
        if (!result.syntax || (result.index >= text.length - 1 && i < blocks.length - 1) || i >= clean.signatures.length) return null;
        for (let j = 1; j <= i; j++) if (headerLine(blocks[j]!.signature) !== headerLine(clean.signatures[j]!)) return null;
        this.tomlClean = clean;
        this.keepTomlParts(body, blocks, 0, parsed, previous);
        return result.error;
      }
      parsed.set(text, { part: result.part, base: at, owner: this });
    }
    if (blocks.length !== clean.signatures.length) return null;
    let same = true;
    for (let i = 0; i < blocks.length; i++) {
      if (blocks[i]!.signature === clean.signatures[i]) continue;
      if (!onlyNewKeysAdded(blocks[i]!.signature, clean.signatures[i]!, i > 0, clean)) return null;
      same = false;
    }
    // The result has a tree: take the block trees over.
    const parts: TomlPart[] = [];
    for (let i = 0; i < blocks.length; i++) {
      const text = texts[i]!;
      const at = base + blocks[i]!.start;
      let cached = this.tomlParts.get(text);
      if (cached) {
        // The same text twice in this document: the second copy needs its own tree.
        parts.push(copyTomlPart(cached.part, at - cached.base));
        continue;
      }
      cached = parsed.get(text);
      if (!cached) {
        cached = previous.get(text)!;
        const delta = at - cached.base;
        if (cached.owner === previousDocument) {
          if (delta !== 0) {
            shiftInPlace(cached.part.table, delta);
            for (const key of cached.part.header?.keys ?? []) {
              key.keyStart += delta;
              key.keyEnd += delta;
            }
            cached.base = at;
          }
          cached.owner = this;
        } else {
          cached = { part: copyTomlPart(cached.part, delta), base: at, owner: this };
        }
      }
      this.tomlParts.set(text, cached);
      parts.push(cached.part);
    }
    this.tomlClean = same ? clean : { signatures: blocks.map((block) => block.signature), headerKeys: clean.headerKeys };
    return {
      root: tomlParser().mergeTomlParts(parts, base, body.length),
      diagnostics: [],
      aliasCount: 0,
      hasDateTimes: parts.some((part) => part.hasDateTimes),
    };
  }

  /** Keeps, for the blocks from `from` on, the parsed trees of earlier documents (where they are now). */
  private keepTomlParts(body: string, blocks: TomlBlock[], from: number, ...sources: Map<string, CachedTomlPart>[]): void {
    const kept = from === 0 ? new Map<string, CachedTomlPart>() : this.tomlParts;
    for (let i = from; i < blocks.length; i++) {
      const text = body.slice(blocks[i]!.start, blocks[i]!.end);
      if (kept.has(text)) continue;
      for (const source of sources) {
        const cached = source.get(text);
        if (cached) {
          kept.set(text, cached);
          break;
        }
      }
    }
    this.tomlParts = kept;
  }

  private assembleValue(root: ValueNode): unknown {
    if (root.kind !== 'map') return undefined;
    const object = newObject();
    for (const entry of effectiveEntries(root)) {
      const get = this.entryValues?.get(entry);
      object[entry.key] = get ? get() : undefined;
    }
    return object;
  }
}

/** The header line of a block's signature (block 0 has none). */
function headerLine(signature: string): string {
  const end = signature.indexOf('\n');
  return end === -1 ? signature : signature.slice(0, end);
}

/** A copy of a TOML block's tree (new nodes even when it does not move) moved by `delta`. */
function copyTomlPart(part: TomlPart, delta: number): TomlPart {
  const header = part.header && {
    array: part.header.array,
    keys: part.header.keys.map((key) => ({ ...key, keyStart: key.keyStart + delta, keyEnd: key.keyEnd + delta })),
  };
  const table = copyTree(part.table, delta) as MapNode;
  return header ? { header, table, hasDateTimes: part.hasDateTimes } : { table, hasDateTimes: part.hasDateTimes };
}

/** A copy of an alias-free tree with every offset moved by `delta` (a copy even for 0). */
function copyTree(node: ValueNode, delta: number): ValueNode {
  switch (node.kind) {
    case 'seq':
      return { ...node, start: node.start + delta, end: node.end + delta, items: node.items.map((item) => copyTree(item, delta)) };
    case 'map':
      return {
        ...node,
        start: node.start + delta,
        end: node.end + delta,
        entries: node.entries.map((entry) => ({
          ...entry,
          keyStart: entry.keyStart + delta,
          keyEnd: entry.keyEnd + delta,
          start: entry.start + delta,
          end: entry.end + delta,
          value: copyTree(entry.value, delta),
        })),
      };
    default:
      return { ...node, start: node.start + delta, end: node.end + delta };
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
