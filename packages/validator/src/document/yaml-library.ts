/**
 * The YAML reader of record: the `yaml` library's parse, turned into the located tree. It reads
 * every text the simple reader (simple-yaml.ts) declines. The CLI bundle loads this module, and
 * the library with it, only when a text needs it (scripts/lazy-parts-plugin.mjs).
 */
import {
  parseAllDocuments,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node as YamlNode,
  type Document,
  Scalar,
} from 'yaml';
import type { RawDiagnostic } from '../diagnostic.js';
import {
  aliasNode,
  escapePointerSegment,
  Frame,
  mapEntry,
  mapNode,
  scalarNode,
  seqNode,
  type AliasNode,
  type MapEntry,
  type MapNode,
  type ScalarNode,
  type SeqNode,
  type ValueNode,
} from './nodes.js';
import { checkMapKeys, type ParsedFragment } from './tree-builder.js';

const PARSE_OPTIONS = {
  prettyErrors: false,
  // Duplicates are reported by checkMapKeys, with the first definition as related location.
  uniqueKeys: false,
  strict: true,
  version: '1.2',
  // `<<` is kept as a plain key; the tree marks it as a merge (see MapEntry.merge).
  merge: false,
  keepSourceTokens: false,
} as const;

/** `parseYamlFragment` (parse-yaml.ts) by the `yaml` library alone; what simple-yaml.ts is tested against. */
export function parseYamlWithLibrary(
  text: string,
  base = 0,
  pointerPrefix = '',
  options: { skipRootKeyCheck?: boolean } = {},
): ParsedFragment & { frame: Frame } {
  const diagnostics: RawDiagnostic[] = [];
  const frame = new Frame(base);
  let documents: Document.Parsed[];
  try {
    documents = parseAllDocuments(text, PARSE_OPTIONS);
  } catch (error) {
    diagnostics.push({
      code: 'yaml-syntax',
      message: `the YAML parser failed: ${(error as Error).message}`,
      path: '',
      start: base,
      end: base,
    });
    return { root: null, diagnostics, aliasCount: 0, frame };
  }
  if (!Array.isArray(documents) || documents.length === 0) return { root: null, diagnostics, aliasCount: 0, frame };
  const [first, ...rest] = documents;
  // One fault, one error: at the first extra document, counting the others.
  const extra = rest[0];
  if (extra) {
    const start = extra.range?.[0] ?? text.length;
    const more = rest.length > 1 ? ` (the file has ${rest.length} documents after the first; remove them all)` : '';
    diagnostics.push({
      code: 'multiple-documents',
      message: `a manifest is one YAML document; remove this second document (and the \`---\` before it)${more}`,
      path: '',
      start: base + Math.max(0, lineStartBefore(text, start)),
      end: base + Math.min(text.length, lineEndAfter(text, start)),
    });
  }
  const doc = first!;
  const problems = [
    ...doc.errors.map((problem) => ({ code: 'yaml-syntax' as const, problem })),
    ...doc.warnings.map((problem) => ({ code: 'yaml-warning' as const, problem })),
  ];
  for (const { code, problem } of problems) {
    diagnostics.push({
      code,
      message: describeYamlProblem(problem.code, problem.message),
      path: '',
      // The library places a problem at the end of the text one character past it: kept inside the text.
      start: base + Math.min(problem.pos[0], text.length),
      end: base + Math.min(Math.max(problem.pos[0], problem.pos[1]), text.length),
    });
  }
  const builder = new YamlTreeBuilder(frame, diagnostics, options.skipRootKeyCheck === true);
  // A document with nothing in it (`---` alone) is an empty file, not a written null (`~`).
  const contents = doc.contents as YamlNode | null;
  const empty =
    contents !== null &&
    isScalar(contents) &&
    contents.value === null &&
    !contents.anchor &&
    !contents.tag &&
    contents.range?.[0] === contents.range?.[1];
  const root = contents && !empty ? builder.build(contents, pointerPrefix) : null;
  builder.linkAliases();
  return { root, diagnostics, aliasCount: builder.aliasCount, frame };
}

function lineStartBefore(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}
function lineEndAfter(text: string, offset: number): number {
  let end = text.indexOf('\n', offset);
  if (end === -1) end = text.length;
  // The CR of a CRLF line end is not part of the line.
  return end > offset && text[end - 1] === '\r' ? end - 1 : end;
}

function describeYamlProblem(code: string, message: string): string {
  if (code === 'TAB_AS_INDENT') return 'tabs are not allowed in YAML indentation; indent with spaces';
  const text = message.replace(/\s+at line \d+, column \d+:?[\s\S]*$/, '').trim();
  return text.charAt(0).toLowerCase() + text.slice(1);
}

class YamlTreeBuilder {
  aliasCount = 0;
  private readonly converted = new Map<YamlNode, ValueNode>();
  /** Each alias with the node its anchor was on when the alias was met (or none). */
  private readonly aliases: { node: AliasNode; target: YamlNode | undefined }[] = [];
  /** The node each of the library's aliases refers to, as found where the alias was met (for merge keys). */
  private readonly aliasTargets = new Map<import('yaml').Alias, YamlNode | undefined>();
  /**
   * The latest node carrying each anchor name, in document order: an alias refers to the
   * nearest preceding anchor of its name (YAML 1.2, 7.1). Looked up once per alias, so
   * thousands of aliases cost no more than thousands of scalars.
   */
  private readonly anchors = new Map<string, YamlNode>();

  constructor(
    private readonly frame: Frame,
    private readonly diagnostics: RawDiagnostic[],
    /** Chunks leave the root map's keys to the assembler, which sees every chunk's keys. */
    private readonly skipRootKeyCheck: boolean,
  ) {}

  build(node: YamlNode, pointer: string): ValueNode {
    const converted = this.convert(node, pointer);
    this.converted.set(node, converted);
    return converted;
  }

  /** Points every alias at the converted form of its anchor (an alias inside its own anchor is linked once that is built). */
  linkAliases(): void {
    for (const { node, target } of this.aliases) node.target = target ? (this.converted.get(target) ?? null) : null;
  }

  /** Records the anchor a node carries, before its children are converted (so `&a [*a]` is seen as a cycle). */
  private noteAnchor(node: YamlNode): void {
    const anchor = (node as { anchor?: string | null }).anchor;
    if (anchor) this.anchors.set(anchor, node);
  }

  /** The anchored node an alias refers to; reports an alias with no anchor before it. */
  private aliasTarget(node: import('yaml').Alias): YamlNode | undefined {
    const target = this.anchors.get(node.source);
    if (!target) {
      const [start, end] = this.range(node);
      this.diagnostics.push({
        code: 'yaml-syntax',
        message: `alias '*${node.source}' refers to no anchor: an alias must follow an '&${node.source}' in the file`,
        path: '',
        start,
        end,
      });
    }
    return target;
  }

  private range(node: { range?: [number, number, number] | null }): [number, number] {
    const range = node.range ?? [0, 0, 0];
    const base = this.frame.base;
    return [base + range[0], base + range[1]];
  }

  private convert(node: YamlNode, pointer: string): ValueNode {
    this.noteAnchor(node);
    if (isScalar(node)) return this.scalar(node);
    if (isMap(node)) return this.map(node, pointer);
    if (isSeq(node)) return this.seq(node, pointer);
    if (isAlias(node)) {
      this.aliasCount += 1;
      const [start, end] = this.range(node);
      const alias: AliasNode = aliasNode(this.frame, start, end, node.source);
      const target = this.aliasTarget(node);
      this.aliasTargets.set(node, target);
      this.aliases.push({ node: alias, target });
      return alias;
    }
    const [start, end] = this.range(node);
    return scalarNode(this.frame, start, end, null, 'plain');
  }

  private scalar(node: Scalar): ScalarNode {
    const [start, end] = this.range(node);
    let value = node.value;
    if (typeof value === 'bigint') value = Number(value);
    if (value !== null && typeof value === 'object') value = String(value);
    const type = node.type;
    const style =
      type === 'QUOTE_DOUBLE' || type === 'QUOTE_SINGLE'
        ? 'quoted'
        : type === 'BLOCK_FOLDED' || type === 'BLOCK_LITERAL'
          ? 'block'
          : 'plain';
    return scalarNode(this.frame, start, end, value as ScalarNode['value'], style);
  }

  private seq(node: import('yaml').YAMLSeq, pointer: string): SeqNode {
    const [start, end] = this.range(node);
    const items: ValueNode[] = [];
    node.items.forEach((item, index) => {
      const itemPointer = `${pointer}/${index}`;
      if (isPair(item)) {
        // `[a: b]`: a flow sequence entry that is a single-pair mapping.
        const entries = this.entries([item], itemPointer);
        const first = entries[0];
        items.push(mapNode(this.frame, first?.start ?? start, first?.end ?? start, entries, true));
      } else if (item) {
        items.push(this.build(item as YamlNode, itemPointer));
      } else {
        items.push(scalarNode(this.frame, end, end, null, 'plain'));
      }
    });
    return seqNode(this.frame, start, end, items, Boolean(node.flow));
  }

  private map(node: import('yaml').YAMLMap, pointer: string): MapNode {
    const [start, end] = this.range(node);
    const entries = this.entries(node.items, pointer);
    return mapNode(this.frame, start, end, entries, Boolean(node.flow));
  }

  private entries(pairs: import('yaml').Pair[], pointer: string): MapEntry[] {
    const entries: MapEntry[] = [];
    for (const pair of pairs) {
      const keyNode = pair.key as YamlNode | null;
      let key: string;
      let keyStart: number;
      let keyEnd: number;
      /** The key is no string: reported here, and left out of the value. */
      let refused = false;
      if (keyNode && isScalar(keyNode)) {
        this.noteAnchor(keyNode);
        // An anchored key (`&k name: …`) may be used as a value elsewhere (`x: *k`).
        if (keyNode.anchor) this.converted.set(keyNode, this.scalar(keyNode));
        [keyStart, keyEnd] = this.range(keyNode);
        key = keyNode.value === null ? '' : String(keyNode.value);
        if (keyNode.value === null || typeof keyNode.value === 'object') {
          refused = this.invalidKey(keyStart, keyEnd, pointer, 'a mapping key must be a plain string');
        }
      } else if (keyNode && isAlias(keyNode)) {
        // `*name : value`: the key is the anchored scalar, checked like any key written out.
        [keyStart, keyEnd] = this.range(keyNode);
        const target = this.aliasTarget(keyNode);
        if (target && isScalar(target) && target.value !== null && typeof target.value !== 'object') {
          key = String(target.value);
        } else {
          key = '';
          // An alias with no anchor is a yaml-syntax error already.
          refused = true;
          if (target)
            this.invalidKey(
              keyStart,
              keyEnd,
              pointer,
              `a mapping key must be a string; '*${keyNode.source}' refers to ${isScalar(target) ? 'an empty value' : 'a collection'}`,
            );
        }
      } else if (keyNode) {
        [keyStart, keyEnd] = this.range(keyNode);
        // Not a key of the value, but read: an anchor inside it may be aliased after it.
        this.build(keyNode, pointer);
        key = '';
        refused = this.invalidKey(keyStart, keyEnd, pointer, 'a mapping key must be a string, not a collection');
      } else {
        const valueRange = pair.value ? this.range(pair.value) : [this.frame.base, this.frame.base];
        keyStart = keyEnd = valueRange[0]!;
        key = '';
        refused = this.invalidKey(keyStart, keyEnd, pointer, 'this mapping entry has no key');
      }
      const childPointer = `${pointer}/${escapePointerSegment(key)}`;
      const value: ValueNode = pair.value
        ? this.build(pair.value as YamlNode, childPointer)
        : scalarNode(this.frame, keyEnd, keyEnd, null, 'plain');
      const entry: MapEntry = mapEntry(this.frame, key, keyStart, keyEnd, value, Math.max(keyEnd, value.end));
      if (keyNode && isAlias(keyNode)) entry.keyAlias = keyNode.source;
      if (refused) entry.keyRefused = true;
      if (key === '<<' && keyNode && isScalar(keyNode) && keyNode.type === 'PLAIN') {
        entry.merge = true;
        this.checkMergeSource(pair.value as YamlNode | null, value, pointer);
      }
      entries.push(entry);
    }
    if (!(this.skipRootKeyCheck && pointer === '')) checkMapKeys(entries, pointer, this.diagnostics);
    return entries;
  }

  /**
   * A merge key's value must be a mapping, an alias of one, or a sequence of those (or an alias of
   * such a sequence), as the `yaml` library with merge keys on requires (it refuses the text
   * otherwise; decision "(#11) Merge keys"). Anything else would be dropped from the value without
   * a word, so it is a `yaml-syntax` error on the value, or on the item of the list that is not one.
   */
  private checkMergeSource(source: YamlNode | null, converted: ValueNode, pointer: string): void {
    const resolved = (node: YamlNode | null): YamlNode | null | undefined =>
      node && isAlias(node) ? this.aliasTargets.get(node) : node;
    const target = resolved(source);
    // An alias with no anchor is reported already.
    if (target === undefined) return;
    const items = target && isSeq(target) ? (target.items as (YamlNode | null)[]) : [source];
    for (let index = 0; index < items.length; index++) {
      const item = items[index] ?? null;
      const map = resolved(item);
      if (map === undefined || (map && isMap(map))) continue;
      // The item that is not a mapping, when the list is written here; else the merge key's value.
      const at = target === source && converted.kind === 'seq' ? (converted.items[index] ?? converted) : converted;
      const [start, end] = [at.start, at.end];
      this.diagnostics.push({
        code: 'yaml-syntax',
        message: `a merge key ('<<') takes a mapping, an alias of one, or a list of those; ${describeMergeSource(map)} cannot be merged (quote the key, "<<", for an ordinary key)`,
        path: pointer,
        start,
        end,
      });
      return;
    }
  }

  /** Reports a key that is no string; true, for the entry to say so. */
  private invalidKey(start: number, end: number, pointer: string, message: string): true {
    this.diagnostics.push({ code: 'invalid-key', message, path: pointer, start, end });
    return true;
  }
}

/** What a merge source that is not a mapping is, for the message. */
function describeMergeSource(node: YamlNode | null): string {
  if (!node || (isScalar(node) && node.value === null)) return 'an empty value';
  if (isSeq(node)) return 'a list';
  if (isPair(node)) return 'a single-pair entry of a list';
  return 'a scalar';
}
