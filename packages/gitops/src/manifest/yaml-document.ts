/**
 * A YAML manifest parsed for editing: the located `yaml` nodes of one version of the
 * text, how to walk them by path (own keys only, never through an alias), where an
 * entry's text starts and ends, and the document's indentation habits.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument, type Document, type Node, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { EditError } from '../errors.js';
import { isPlainObject } from '../json.js';
import { formatPath, type PathSegment } from './changes.js';
import { TextLines } from './text-lines.js';
import type { YamlStyle } from './yaml-render.js';

/** Parse options shared by editing and verification: YAML 1.2 with `<<` merge keys, as the validator reads it. */
export const YAML_PARSE_OPTIONS = { merge: true, prettyErrors: false } as const;

/** Parses YAML, throwing on any syntax error (an edit is never attempted on a broken file). */
export function parseYaml(text: string): Document.Parsed {
  const doc = parseDocument(text, YAML_PARSE_OPTIONS);
  if (doc.errors.length > 0) throw new EditError(`YAML does not parse: ${doc.errors[0]!.message}`);
  return doc;
}

/** The plain value of a YAML text (merge keys applied). */
export function yamlValue(text: string): unknown {
  return parseYaml(text).toJS({ maxAliasCount: -1 });
}

/** Where a node sits: the document root, the value of a map entry, or an item of a sequence. */
export type Slot =
  | { kind: 'root' }
  | { kind: 'pair'; container: YAMLMap; pair: Pair }
  | { kind: 'item'; container: YAMLSeq; index: number };

/** A node (null for an empty value) and its slot. */
export interface Located {
  node: Node | null;
  slot: Slot;
}

/** A change, located in one parse of the text. */
export class YamlEdit {
  readonly doc: Document.Parsed;
  readonly lines: TextLines;
  readonly style: YamlStyle;

  constructor(readonly text: string) {
    this.doc = parseYaml(text);
    this.lines = new TextLines(text);
    this.style = detectStyle(this.doc, this.lines);
  }

  js(node: Node | null | undefined): unknown {
    if (!node) return null;
    return node.toJS(this.doc, { maxAliasCount: -1 });
  }

  /** The node at `path`, following own keys only; `undefined` node when the last key is absent. */
  locate(path: readonly PathSegment[]): Located | { node: undefined; parent: Located } {
    let current: Located = { node: (this.doc.contents as Node | null) ?? null, slot: { kind: 'root' } };
    for (let i = 0; i < path.length; i++) {
      const segment = path[i]!;
      const node = current.node;
      if (isAlias(node)) {
        throw new EditError(`${formatPath(path.slice(0, i))} is the alias *${node.source}; editing through it would change every use of &${node.source}`);
      }
      let next: Located | undefined;
      if (isMap(node) && typeof segment === 'string') {
        const pair = ownPair(node, segment);
        if (pair) next = { node: (pair.value as Node | null) ?? null, slot: { kind: 'pair', container: node, pair } };
        else if (i < path.length - 1 && hasMergedKey(this.js(node), segment)) {
          throw new EditError(`${formatPath(path.slice(0, i + 1))} comes from a merge key (<<); editing it would change the shared anchor`);
        }
      } else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
        next = { node: (node.items[segment] as Node | null) ?? null, slot: { kind: 'item', container: node, index: segment } };
      }
      if (!next) {
        if (i === path.length - 1) return { node: undefined, parent: current };
        throw new EditError(`${formatPath(path.slice(0, i + 1))} does not exist`);
      }
      current = next;
    }
    return current;
  }
}

/** The map's own entry for `key` (merge keys not followed). */
export function ownPair(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((pair) => isScalar(pair.key) && !isMergeKey(pair) && String(pair.key.value) === key);
}

/** A `<<` merge key entry. */
export function isMergeKey(pair: Pair): boolean {
  return isScalar(pair.key) && (typeof pair.key.value === 'symbol' || pair.key.source === '<<');
}

function hasMergedKey(value: unknown, key: string): boolean {
  return isPlainObject(value) && Object.prototype.hasOwnProperty.call(value, key);
}

/** Where an entry of a flow collection starts (its key, or the item). */
export function flowStart(item: Pair | Node): number {
  if (isPair(item)) return (item.key as Node).range![0];
  return item.range![0];
}

/** Where an entry's text starts: its key, or the `-` of a sequence item. */
export function slotStart(text: string, slot: Exclude<Slot, { kind: 'root' }>): number {
  if (slot.kind === 'pair') return (slot.pair.key as Node).range![0];
  const node = slot.container.items[slot.index] as Node;
  return slot.container.flow ? node.range![0] : dashBefore(text, node.range![0]);
}

/** Just past the last character of an entry's value (before its trailing comment). */
export function slotEnd(item: Pair | Node): number {
  if (isPair(item)) {
    const value = item.value as Node | null;
    if (value && value.range && value.range[1] > value.range[0]) return value.range[1];
    return (item.key as Node).range![1];
  }
  return item.range![1];
}

/**
 * The `-` that introduces a block sequence item whose content starts at `offset`: on
 * the same line before it (possibly behind an anchor or tag), or alone on an earlier
 * line (`-` followed by the item on the next line).
 */
export function dashBefore(text: string, offset: number): number {
  let lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const sameLine = /^([ \t]*(?:-[ \t]+)*)-(?=[ \t]|$)/.exec(text.slice(lineStart, offset));
  if (sameLine) return lineStart + sameLine[1]!.length;
  while (lineStart > 0) {
    const previousStart = text.lastIndexOf('\n', lineStart - 2) + 1;
    const line = text.slice(previousStart, lineStart).replace(/\r?\n$/, '');
    const alone = /^([ \t]*)-(?:[ \t]+[&!]\S*)*[ \t]*(?:#.*)?$/.exec(line);
    if (alone) return previousStart + alone[1]!.length;
    if (!/^[ \t]*(#.*)?$/.test(line)) break;
    lineStart = previousStart;
  }
  throw new EditError('cannot find the dash of a list item');
}

/** Indentation habits of the document, so new blocks match old ones. */
function detectStyle(doc: Document.Parsed, lines: TextLines): YamlStyle {
  let indent: number | undefined;
  let seqIndent: number | undefined;
  const visit = (node: unknown, depth: number): void => {
    if (depth > 32 || (indent !== undefined && seqIndent !== undefined)) return;
    if (isMap(node) && !node.flow) {
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        const value = pair.value as Node | null;
        if (!key?.range || !value?.range) continue;
        if (isMap(value) && !value.flow && value.items[0]) {
          const childKey = value.items[0].key as Node;
          if (indent === undefined && lines.lineStartOf(childKey.range![0]) !== lines.lineStartOf(key.range[0])) {
            indent = lines.column(childKey.range![0]) - lines.column(key.range[0]);
          }
        }
        if (isSeq(value) && !value.flow && value.items[0] && seqIndent === undefined) {
          seqIndent = lines.column(dashBefore(lines.text, (value.items[0] as Node).range![0])) - lines.column(key.range[0]);
        }
        visit(value, depth + 1);
      }
    } else if (isSeq(node) && !node.flow) {
      for (const item of node.items) visit(item, depth + 1);
    }
  };
  visit(doc.contents, 0);
  const unit = indent && indent > 0 ? indent : 2;
  return { indent: unit, seqIndent: seqIndent ?? unit, eol: lines.eol };
}
