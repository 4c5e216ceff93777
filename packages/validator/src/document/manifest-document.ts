import type { RawDiagnostic } from '../diagnostic.js';
import { LineIndex } from './line-index.js';
import { checkCharacters, decodeUtf8, findExcessiveNesting, offsetPastByteLimit, resolveLimits, type Limits } from './limits.js';
import { effectiveEntries, escapePointerSegment, type MapEntry, type MapNode, type SeqNode, type ValueNode } from './nodes.js';
import { tomlParser } from '../lazy-parts.js';
import type { TomlBlock, TomlPart } from './parse-toml.js';
import { parseYamlFragment, type ParsedFragment } from './parse-yaml.js';
import { checkMapKeys } from './tree-builder.js';
import { buildValue, newObject } from './value.js';
import { planYamlChunks, type TopChunk } from './yaml-chunks.js';
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

/**
 * A parsed chunk of YAML. Its tree carries absolute offsets for `base`; when the chunk's text
 * moves, the tree is shifted in place and handed to the next document (see `update`).
 */
interface CachedFragment {
  fragment: ParsedFragment;
  base: number;
  /** The document that placed the tree last. */
  owner: ManifestDocument;
  /** The chunk's plain value (offsets do not matter to it, so it survives moves). */
  value?: unknown;
}

type FragmentCache = Map<string, CachedFragment>;

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
  private fragments: FragmentCache = new Map();
  /** TOML: the parsed blocks by text, and their signatures when the text parsed without a problem. */
  private tomlParts: Map<string, CachedTomlPart> = new Map();
  private tomlClean?: TomlClean;
  /**
   * How many characters of text the parser read to make this document: all of it for a fresh
   * parse, only the changed chunks or blocks for an incremental {@link update}. For tests.
   */
  reparsedBytes = 0;
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
   */
  update(text: string): ManifestDocument {
    const next = new ManifestDocument(text, this.format, this.limits, this.filename);
    next.load(this);
    return next;
  }

  get lines(): LineIndex {
    return (this.cachedLines ??= new LineIndex(this.text));
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

  private load(previousDocument: ManifestDocument | undefined): void {
    const previous = previousDocument?.fragments;
    const limits = this.limits;
    const past = offsetPastByteLimit(this.text, limits.maxBytes);
    if (past >= 0) {
      this.refuseAsTooLarge(past);
      return;
    }
    const checked = checkCharacters(this.text);
    this.parseDiagnostics.push(...checked.diagnostics);
    const bom = checked.text.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (bom) {
      this.parseDiagnostics.push({
        code: 'byte-order-mark',
        message: 'the file starts with a byte-order mark; it is ignored (UTF-8 needs none)',
        path: '',
        start: 0,
        end: 1,
      });
    }
    const body = bom ? checked.text.slice(1) : checked.text;
    // YAML: one scan gives the nesting depth and the line table chunk planning needs.
    const yamlScan = this.format === 'yaml' ? scanYaml(body, limits.maxDepth) : undefined;
    const deep = yamlScan ? yamlScan.tooDeepAt : findExcessiveNesting(body, 'toml', limits.maxDepth);
    if (deep >= 0) {
      this.fatal = true;
      this.parseDiagnostics.push({
        code: 'too-deep',
        message: `collections are nested more than ${limits.maxDepth} levels deep here; a manifest is never this deep, so the file was not parsed`,
        path: '',
        start: bom + deep,
        end: bom + deep + 1,
      });
      return;
    }
    let fragment: ParsedFragment;
    if (this.format === 'toml') {
      fragment = this.parseToml(body, bom, previousDocument);
    } else {
      const plan = planYamlChunks(body, yamlScan!);
      if (plan) {
        fragment = this.parseChunked(body, bom, plan, previous ?? new Map());
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

  /** Parses a chunk, or takes it from the previous document and moves it to `base`. */
  private fragment(text: string, base: number, previous: FragmentCache): { root: ValueNode | null; diagnostics: RawDiagnostic[]; cached: CachedFragment } {
    let cached = this.fragments.get(text);
    if (cached) {
      // The same text twice in this document: the second copy needs its own tree.
      const delta = base - cached.base;
      const fragment = {
        ...cached.fragment,
        root: cached.fragment.root ? shiftTree(cached.fragment.root, delta) : null,
        diagnostics: cached.fragment.diagnostics.map((d) => shiftDiagnostic(d, delta)),
      };
      return { root: fragment.root, diagnostics: fragment.diagnostics, cached: { fragment, base, owner: this, value: cached.value } };
    }
    cached = previous.get(text);
    if (cached && cached.owner !== this) {
      const delta = base - cached.base;
      if (delta !== 0) {
        if (cached.fragment.root) shiftInPlace(cached.fragment.root, delta);
        for (const d of cached.fragment.diagnostics) shiftDiagnosticInPlace(d, delta);
        cached.base = base;
      }
      cached.owner = this;
    } else {
      this.reparsedBytes += text.length;
      cached = { fragment: parseYamlFragment(text, base, '', { skipRootKeyCheck: true }), base, owner: this };
    }
    this.fragments.set(text, cached);
    return { root: cached.fragment.root, diagnostics: cached.fragment.diagnostics, cached };
  }

  private parseChunked(body: string, base: number, plan: TopChunk[], previous: FragmentCache): ParsedFragment {
    const diagnostics: RawDiagnostic[] = [];
    const entries: MapEntry[] = [];
    const values = new Map<MapEntry, () => unknown>();
    for (const chunk of plan) {
      if (!chunk.items) {
        const part = this.fragment(body.slice(chunk.start, chunk.end), base + chunk.start, previous);
        diagnostics.push(...part.diagnostics);
        if (!part.root) continue;
        if (part.root.kind !== 'map') return this.parseWholeYaml(body, base);
        const rootMap = part.root;
        for (const entry of part.root.entries) {
          // Root keys are checked below, across chunks; clear what an earlier document decided.
          entry.ignored = undefined;
          entries.push(entry);
          values.set(entry, () => this.chunkEntryValue(part.cached, rootMap, entry.key));
        }
        continue;
      }
      // A top-level key whose block collection is parsed item by item.
      const items = chunk.items;
      const header = this.fragment(body.slice(chunk.start, items.itemsStart), base + chunk.start, previous);
      diagnostics.push(...header.diagnostics);
      const headerEntry = header.root?.kind === 'map' && header.root.entries.length === 1 ? header.root.entries[0] : undefined;
      if (!headerEntry) return this.parseWholeYaml(body, base);
      const pointer = `/${escapePointerSegment(headerEntry.key)}`;
      const parts = items.itemStarts.map((itemStart, index) => {
        const itemEnd = items.itemStarts[index + 1] ?? chunk.end;
        return this.fragment(body.slice(itemStart, itemEnd), base + itemStart, previous);
      });
      let collection: ValueNode;
      const partValues: (() => unknown)[] = [];
      if (items.kind === 'seq') {
        const seqItems: ValueNode[] = [];
        for (const part of parts) {
          if (part.root?.kind !== 'seq') return this.parseWholeYaml(body, base);
          const offset = seqItems.length;
          diagnostics.push(...part.diagnostics.map((d) => ({ ...d, path: rebaseSeqPath(d.path, pointer, offset) })));
          seqItems.push(...part.root.items);
          const seqRoot = part.root;
          const cached = part.cached;
          partValues.push(() => (cached.value ??= buildPlainValue(seqRoot)));
        }
        const node: SeqNode = { kind: 'seq', flow: false, items: seqItems, start: seqItems[0]!.start, end: seqItems[seqItems.length - 1]!.end };
        collection = node;
      } else {
        const mapEntries: MapEntry[] = [];
        for (const part of parts) {
          if (part.root?.kind !== 'map') return this.parseWholeYaml(body, base);
          diagnostics.push(...part.diagnostics.map((d) => ({ ...d, path: d.path ? pointer + d.path : d.path })));
          for (const entry of part.root.entries) {
            entry.ignored = undefined;
            mapEntries.push(entry);
          }
        }
        checkMapKeys(mapEntries, pointer, diagnostics);
        const node: MapNode = { kind: 'map', flow: false, entries: mapEntries, start: mapEntries[0]!.start, end: mapEntries[mapEntries.length - 1]!.end };
        collection = node;
        for (const part of parts) {
          const mapRoot = part.root as MapNode;
          const cached = part.cached;
          partValues.push(() => (cached.value ??= buildPlainValue(mapRoot)));
        }
      }
      const entry: MapEntry = { ...headerEntry, value: collection, end: collection.end, ignored: undefined };
      entries.push(entry);
      values.set(entry, () => {
        if (items.kind === 'seq') return partValues.flatMap((get) => get() as unknown[]);
        const object = newObject();
        for (const get of partValues) {
          for (const [key, value] of Object.entries(get() as Record<string, unknown>)) if (!(key in object)) object[key] = value;
        }
        return object;
      });
    }
    checkMapKeys(entries, '', diagnostics);
    const root: MapNode = { kind: 'map', flow: false, entries, start: base, end: base + body.length };
    this.entryValues = values;
    return { root, diagnostics, aliasCount: 0 };
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

  private chunkEntryValue(cached: CachedFragment, chunkRoot: MapNode, key: string): unknown {
    const value = (cached.value ??= buildPlainValue(chunkRoot)) as Record<string, unknown>;
    return value[key];
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

/** The value of an alias-free tree (chunks never contain aliases). */
function buildPlainValue(node: ValueNode): unknown {
  return buildValue(node, { maxExpandedNodes: Number.POSITIVE_INFINITY, hasAliases: false }).value;
}

function rebaseSeqPath(path: string, pointer: string, offset: number): string {
  const match = /^\/(\d+)(.*)$/.exec(path);
  if (!match) return path ? pointer + path : path;
  return `${pointer}/${Number(match[1]) + offset}${match[2]}`;
}

function shiftDiagnostic(diagnostic: RawDiagnostic, delta: number): RawDiagnostic {
  if (delta === 0) return diagnostic;
  return {
    ...diagnostic,
    start: diagnostic.start + delta,
    end: diagnostic.end + delta,
    related: diagnostic.related?.map((r) => ({ ...r, start: r.start + delta, end: r.end + delta })),
    fixes: diagnostic.fixes?.map((fix) => ({ ...fix, edits: fix.edits.map((e) => ({ ...e, start: e.start + delta, end: e.end + delta })) })),
  };
}

function shiftDiagnosticInPlace(diagnostic: RawDiagnostic, delta: number): void {
  diagnostic.start += delta;
  diagnostic.end += delta;
  for (const r of diagnostic.related ?? []) {
    r.start += delta;
    r.end += delta;
  }
  for (const fix of diagnostic.fixes ?? []) {
    for (const e of fix.edits) {
      e.start += delta;
      e.end += delta;
    }
  }
}

/** Moves every offset of an alias-free tree by `delta`, without allocating. */
function shiftInPlace(node: ValueNode, delta: number): void {
  node.start += delta;
  node.end += delta;
  if (node.kind === 'seq') {
    for (const item of node.items) shiftInPlace(item, delta);
  } else if (node.kind === 'map') {
    for (const entry of node.entries) {
      entry.keyStart += delta;
      entry.keyEnd += delta;
      entry.start += delta;
      entry.end += delta;
      shiftInPlace(entry.value, delta);
    }
  }
}

/** The tree with every offset moved by `delta`: a moved copy, or the tree itself when nothing moves. */
function shiftTree(node: ValueNode, delta: number): ValueNode {
  return delta === 0 ? node : copyTree(node, delta);
}
