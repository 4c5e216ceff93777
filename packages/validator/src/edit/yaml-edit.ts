/**
 * Minimal edits of YAML text, planned on the validator's located tree. Each change is
 * located in the current parse and carried onto the text as a splice of the fewest
 * characters or lines possible: a scalar is replaced in place (keeping its quotes), a new
 * entry goes after its last sibling with the sibling's indentation, a deleted entry takes
 * its own comment lines with it. Nothing else is re-serialized, so comments, anchors, merge
 * keys, flow collections and CRLF line ends elsewhere survive byte for byte. A change that
 * needs several splices comes back as finer changes, each planned on a fresh parse.
 */
import type { OffsetEdit } from '../diagnostic.js';
import type { ManifestDocument } from '../document/manifest-document.js';
import { effectiveEntries, type MapEntry, type MapNode, type SeqNode, type ValueNode } from '../document/nodes.js';
import { formatPath, ManifestEditError, valueAtPath, type ManifestChange, type PathSegment } from './changes.js';
import { deepEqual, isPlainObject, type Json } from './json.js';
import { mapDiff, seqDiff } from './diff.js';
import { ownEntry } from './own-entries.js';
import { TextLines, textEdits } from './text-lines.js';
import {
  isInline,
  renderEntryLines,
  renderFlow,
  renderKey,
  renderScalar,
  renderSeqItemLines,
  type QuoteStyle,
  type YamlStyle,
} from './yaml-render.js';
import type { TextSource } from '../document/piece-text.js';

/** Where a node sits: the document root, the value of a map entry, or an item of a sequence. */
type Slot =
  | { kind: 'root' }
  | { kind: 'pair'; container: MapNode; entry: MapEntry; index: number }
  | { kind: 'item'; container: SeqNode; index: number };

interface Located {
  node: ValueNode | null;
  slot: Slot;
  path: readonly PathSegment[];
}

function unsupported(message: string): ManifestEditError {
  return new ManifestEditError('unsupported', message);
}

/** One parse of the text, with what planning needs. */
class YamlEdit {
  /** Read by ranges (a quick fix planned during validation must not make a large text whole). */
  readonly text: TextSource;
  readonly lines: TextLines;
  private cachedStyle?: YamlStyle;

  constructor(
    readonly document: ManifestDocument,
    /** The document whose habits new text follows: the original of a multi-step edit. */
    private readonly styleFrom: ManifestDocument = document,
  ) {
    this.text = document.source;
    this.lines = new TextLines(this.text);
  }

  get style(): YamlStyle {
    return (this.cachedStyle ??=
      this.styleFrom === this.document
        ? detectStyle(this.document.root, this.lines)
        : detectStyle(this.styleFrom.root, new TextLines(this.styleFrom.source)));
  }

  /** The plain value at a located path (own keys only, so the document's value has it). */
  js(located: Located): unknown {
    return located.node ? valueAtPath(this.document.value, located.path) : null;
  }

  /** The node at `path`, following own keys only; `undefined` node when the last key is absent. */
  locate(path: readonly PathSegment[]): Located | { node: undefined; parent: Located } {
    let current: Located = { node: this.document.root, slot: { kind: 'root' }, path: [] };
    for (let i = 0; i < path.length; i++) {
      const segment = path[i]!;
      const node = current.node;
      if (node?.kind === 'alias') {
        throw unsupported(
          `${formatPath(path.slice(0, i))} is the alias *${node.name}; editing through it would change every use of &${node.name}`,
        );
      }
      let next: Located | undefined;
      if (node?.kind === 'map' && typeof segment === 'string') {
        const own = ownEntry(node, segment);
        if (own)
          next = {
            node: own.entry.value,
            slot: { kind: 'pair', container: node, entry: own.entry, index: own.index },
            path: path.slice(0, i + 1),
          };
        else if (i < path.length - 1 && effectiveEntries(node).some((e) => e.key === segment)) {
          throw unsupported(
            `${formatPath(path.slice(0, i + 1))} comes from a merge key (<<); editing it would change the shared anchor`,
          );
        }
      } else if (node?.kind === 'seq' && typeof segment === 'number' && segment < node.items.length) {
        next = {
          node: node.items[segment]!,
          slot: { kind: 'item', container: node, index: segment },
          path: path.slice(0, i + 1),
        };
      }
      if (!next) {
        if (i === path.length - 1) return { node: undefined, parent: current };
        throw new ManifestEditError('invalid-change', `${formatPath(path.slice(0, i + 1))} does not exist`);
      }
      current = next;
    }
    return current;
  }
}

/** An empty value (`key:`) or an explicit null (`key: null`, `key: ~`). */
function isNullish(node: ValueNode | null): boolean {
  return node === null || (node.kind === 'scalar' && node.value === null);
}

function isEmptyText(node: ValueNode | null): boolean {
  return node === null || node.start === node.end;
}

/** Where an entry of a flow collection starts (its key, or the item). */
function flowStart(item: MapEntry | ValueNode): number {
  return 'keyStart' in item ? item.keyStart : item.start;
}

/** Where an entry's text starts: its key, or the `-` of a block sequence item. */
function slotStart(text: TextSource, slot: Exclude<Slot, { kind: 'root' }>): number {
  if (slot.kind === 'pair') return slot.entry.keyStart;
  const node = slot.container.items[slot.index]!;
  return slot.container.flow ? node.start : dashBefore(text, node.start);
}

/** Just past the last character of an entry's value (before its trailing comment). */
function slotEnd(item: MapEntry | ValueNode): number {
  if ('keyStart' in item) return item.value.end > item.value.start ? item.value.end : item.keyEnd;
  return item.end;
}

/**
 * The `-` that introduces a block sequence item whose content starts at `offset`: on the
 * same line before it (possibly behind an anchor or tag), or alone on an earlier line.
 */
function dashBefore(text: TextSource, offset: number): number {
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
  throw unsupported('cannot find the dash of a list item');
}

/** Indentation habits of the document, so new blocks match old ones. */
export function detectStyle(root: ValueNode | null, lines: TextLines): YamlStyle {
  let indent: number | undefined;
  let seqIndent: number | undefined;
  const visit = (node: ValueNode, depth: number): void => {
    if (depth > 32 || (indent !== undefined && seqIndent !== undefined)) return;
    if (node.kind === 'map' && !node.flow) {
      for (const entry of node.entries) {
        const value = entry.value;
        if (value.kind === 'map' && !value.flow && value.entries[0] && indent === undefined) {
          const childKey = value.entries[0].keyStart;
          if (lines.lineStartOf(childKey) !== lines.lineStartOf(entry.keyStart))
            indent = lines.column(childKey) - lines.column(entry.keyStart);
        }
        if (value.kind === 'seq' && !value.flow && value.items[0] && seqIndent === undefined) {
          try {
            seqIndent = lines.column(dashBefore(lines.text, value.items[0].start)) - lines.column(entry.keyStart);
          } catch {
            // An item whose dash cannot be found tells nothing about the style.
          }
        }
        visit(value, depth + 1);
      }
    } else if (node.kind === 'seq' && !node.flow) {
      for (const item of node.items) visit(item, depth + 1);
    }
  };
  if (root) visit(root, 0);
  const unit = indent && indent > 0 ? indent : 2;
  return { indent: unit, seqIndent: seqIndent ?? unit, eol: lines.eol };
}

/** Either the new text, or finer changes that achieve `change` (each planned on a fresh parse). */
export function planYaml(
  document: ManifestDocument,
  change: ManifestChange,
  styleFrom: ManifestDocument = document,
): OffsetEdit | ManifestChange[] {
  const edit = new YamlEdit(document, styleFrom);
  const { path } = change;
  const found = edit.locate(path);
  switch (change.op) {
    case 'set':
      if (found.node !== undefined) return replaceValue(edit, found, change.value);
      return addToParent(edit, found.parent, path, change.value, change.after);
    case 'append': {
      if (found.node === undefined) return addToParent(edit, found.parent, path, [change.value]);
      const node = found.node;
      if (isNullish(node)) return [{ op: 'set', path, value: [change.value] }];
      if (node?.kind !== 'seq') throw new ManifestEditError('invalid-change', `${formatPath(path)} is not a list`);
      return appendItem(edit, found, node, change.value, path);
    }
    case 'insert': {
      const seq =
        found.node === undefined
          ? found.parent.node
          : found.slot.kind === 'item'
            ? (found.slot as { container: SeqNode }).container
            : undefined;
      const index = path[path.length - 1];
      if (seq?.kind !== 'seq' || typeof index !== 'number')
        throw new ManifestEditError('invalid-change', `cannot insert at ${formatPath(path)}`);
      if (index >= seq.items.length) return [{ op: 'append', path: path.slice(0, -1), value: change.value }];
      const before = seq.items[index]!;
      if (seq.flow) return edit.lines.splice(before.start, before.start, `${renderFlow(change.value)}, `);
      const dash = dashBefore(edit.text, before.start);
      return edit.lines.insertLinesBefore(dash, renderSeqItemLines(change.value, edit.lines.column(dash), edit.style));
    }
    case 'rename': {
      if (found.node === undefined || found.slot.kind !== 'pair')
        throw new ManifestEditError('invalid-change', `${formatPath(path)} does not exist`);
      const entry = (found.slot as { entry: MapEntry }).entry;
      return edit.lines.splice(
        entry.keyStart,
        entry.keyEnd,
        renameText(edit.text.slice(entry.keyStart, entry.keyEnd), change.to),
      );
    }
    case 'delete':
      if (found.node === undefined) throw new ManifestEditError('invalid-change', `${formatPath(path)} does not exist`);
      return deleteSlot(edit, found, path);
    case 'rewrite': {
      const node = found.node;
      if (node === undefined) throw new ManifestEditError('invalid-change', `${formatPath(path)} does not exist`);
      if (node?.kind !== 'scalar' || node.style === 'block' || node.start === node.end)
        throw unsupported(`${formatPath(path)} is not a scalar written on one line`);
      const rendered = renderScalar(node.value, quoteOf(edit.text, node));
      return rendered === edit.text.slice(node.start, node.end)
        ? []
        : edit.lines.splice(node.start, node.end, rendered);
    }
    case 'keyBy':
      if (found.node === undefined) throw new ManifestEditError('invalid-change', `${formatPath(path)} does not exist`);
      return keyByYaml(edit, found, change.key);
  }
}

/** A splice of the original text; several are applied together by {@link applySplices}. */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

/**
 * Applies non-overlapping splices of `text` at once. An insertion (empty range) at the
 * offset where a replacement starts lands before the replacement's text.
 */
export function applySplices(text: string, splices: readonly Splice[]): string {
  // Ascending by start; at one offset, insertions before the replacement that starts there.
  const ordered = [...splices].sort((a, b) => a.start - b.start || a.end - a.start - (b.end - b.start));
  const parts: string[] = [];
  let at = 0;
  for (const splice of ordered) {
    if (splice.start < at || splice.end < splice.start) throw unsupported('overlapping edits');
    parts.push(text.slice(at, splice.start), splice.text);
    at = splice.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/**
 * The splices as one offset edit of `text`, found in the span they cover: the rest of the text
 * is unchanged, so a fix planned in a large file reads only its own lines.
 */
export function splicedEdit(text: TextSource, splices: readonly Splice[]): OffsetEdit {
  if (splices.length === 0) return { start: 0, end: 0, newText: '' };
  const from = Math.min(...splices.map((splice) => splice.start));
  const to = Math.max(...splices.map((splice) => splice.end));
  const before = text.slice(from, to);
  const after = applySplices(
    before,
    splices.map((splice) => ({ ...splice, start: splice.start - from, end: splice.end - from })),
  );
  const edit = textEdits(before, after)[0];
  return edit
    ? { start: edit.start + from, end: edit.end + from, newText: edit.newText }
    : { start: 0, end: 0, newText: '' };
}

/**
 * `keyBy` on YAML: each item of a list of maps becomes `NAME:` (or `NAME: {…}` in flow
 * style) in the item's place, the key field taken out; a block list keeps its items' lines
 * and is shifted right only when it sits at its parent key's column (`agents:\n- name: a`).
 */
function keyByYaml(edit: YamlEdit, located: Located, key: string): OffsetEdit {
  const { text, lines, style } = edit;
  const { node, path } = located;
  if (node?.kind === 'alias')
    throw unsupported(
      `${formatPath(path)} is the alias *${node.name}; rewriting it would change every use of &${node.name}`,
    );
  if (node?.kind !== 'seq') throw new ManifestEditError('invalid-change', `${formatPath(path)} is not a list`);
  const splices: Splice[] = [];
  const seen = new Set<string>();
  const itemParts = node.items.map((item, index) => {
    const where = formatPath([...path, index]);
    if (item.kind !== 'map') throw unsupported(`${where} is not a map written in place`);
    const entry = ownEntry(item, key)?.entry;
    if (!entry || entry.value.kind !== 'scalar' || typeof entry.value.value !== 'string') {
      throw new ManifestEditError('invalid-change', `${where} has no string '${key}'`);
    }
    const name = entry.value.value;
    if (seen.has(name))
      throw new ManifestEditError('invalid-change', `${where}: '${key}' ${JSON.stringify(name)} is used twice`);
    seen.add(name);
    return { item, entry, name };
  });
  if (node.flow) {
    if (text.charCodeAt(node.start) !== 91 || text.charCodeAt(node.end - 1) !== 93)
      throw unsupported(`cannot find the brackets of ${formatPath(path)}`);
    splices.push(
      { start: node.start, end: node.start + 1, text: '{' },
      { start: node.end - 1, end: node.end, text: '}' },
    );
    for (const { item, entry, name } of itemParts) {
      if (!item.flow || text.charCodeAt(item.start) !== 123)
        throw unsupported(`${formatPath(path)} holds an item that is not a {…} map`);
      splices.push(
        { start: item.start, end: item.start, text: `${renderKey(name)}: ` },
        ...removeFlowEntry(item, entry),
      );
    }
    return splicedEdit(text, splices);
  }
  // Block list: which column the new keys go to, and how far everything must move right.
  const parentColumn =
    located.slot.kind === 'pair' && !located.slot.container.flow ? lines.column(located.slot.entry.keyStart) : -1;
  const firstDash = node.items[0] ? dashBefore(text, node.items[0].start) : undefined;
  const shift =
    firstDash !== undefined && lines.column(firstDash) <= parentColumn
      ? parentColumn + style.indent - lines.column(firstDash)
      : 0;
  const removedLines = new Set<number>();
  for (const { item, entry, name } of itemParts) {
    const dash = dashBefore(text, item.start);
    const keyText = renderKey(name);
    if (item.flow) {
      if (!/^-[ \t]+$/.test(text.slice(dash, item.start)))
        throw unsupported(`an item of ${formatPath(path)} has an anchor or tag`);
      splices.push({ start: dash, end: item.start, text: `${keyText}: ` }, ...removeFlowEntry(item, entry));
      continue;
    }
    const first = item.entries[0]!;
    const between = text.slice(dash + 1, first.keyStart);
    if (!/^[ \t]*(?:\r?\n[ \t]*)?$/.test(between))
      throw unsupported(`an item of ${formatPath(path)} has an anchor, a tag or a comment before its first key`);
    const ownEntries = item.entries.filter((e) => !e.ignored);
    if (entry === first) {
      const rest = ownEntries.length > 1 ? '' : ' {}';
      splices.push({ start: dash, end: slotEnd(entry), text: `${keyText}:${rest}` });
      continue;
    }
    if (
      lines.lineStartOf(entry.keyStart) === lines.lineStartOf(slotEnd(entry)) &&
      /^[ \t]*$/.test(text.slice(lines.lineStartOf(entry.keyStart), entry.keyStart))
    ) {
      const comment = lines.trailingComment(entry.keyStart, slotEnd(entry));
      const lineStart = lines.lineStartOf(entry.keyStart);
      removedLines.add(lineStart);
      splices.push({ start: lineStart, end: lines.nextLineStart(entry.keyStart), text: '' });
      const column = lines.column(first.keyStart) + shift;
      splices.push({
        start: dash,
        end: first.keyStart,
        text: `${keyText}:${comment ? `  ${comment}` : ''}${style.eol}${' '.repeat(column)}`,
      });
    } else {
      throw unsupported(`'${key}' of an item of ${formatPath(path)} does not stand on its own line`);
    }
  }
  if (shift > 0 && firstDash !== undefined) {
    const pad = ' '.repeat(shift);
    const last = lines.lastLineEnd(node.end);
    for (let at = lines.lineStartOf(firstDash); at <= last && at < text.length; at = lines.nextLineStart(at)) {
      if (removedLines.has(at) || /^[ \t]*\r?$/.test(text.slice(at, lines.lineEndOf(at)))) continue;
      splices.push({ start: at, end: at, text: pad });
    }
  }
  return splicedEdit(text, splices);
}

/** Removes one entry of a `{…}` map; the last one leaves `{}`. */
function removeFlowEntry(map: MapNode, entry: MapEntry): Splice[] {
  const entries = map.entries;
  const index = entries.indexOf(entry);
  if (entries.length === 1) return [{ start: map.start, end: map.end, text: '{}' }];
  const next = entries[index + 1];
  if (next) return [{ start: flowStart(entry), end: flowStart(next), text: '' }];
  return [{ start: slotEnd(entries[index - 1]!), end: slotEnd(entry), text: '' }];
}

/** A key's new text, in the old key's quoting when it had one. */
function renameText(oldKey: string, to: string): string {
  if (oldKey.startsWith("'") && !/[\n\r]/.test(to)) return `'${to.replace(/'/g, "''")}'`;
  if (oldKey.startsWith('"')) return JSON.stringify(to);
  return renderKey(to);
}

/** A key that is absent from its map. */
function addToParent(
  edit: YamlEdit,
  parent: Located,
  path: readonly PathSegment[],
  value: Json,
  after?: string,
): OffsetEdit | ManifestChange[] {
  const key = path[path.length - 1]!;
  const parentPath = path.slice(0, -1);
  const container = parent.node;
  if (isNullish(container)) {
    if (typeof key !== 'string') throw new ManifestEditError('invalid-change', `${formatPath(path)} does not exist`);
    if (parent.slot.kind === 'root') {
      if (!isEmptyText(container)) throw unsupported('cannot add a key to a document that is null');
      // An empty document: the new entries are the whole text.
      const lead = edit.text.length === 0 || edit.text.charCodeAt(edit.text.length - 1) === 10 ? '' : edit.style.eol;
      return edit.lines.splice(
        edit.text.length,
        edit.text.length,
        lead + renderEntryLines(renderKey(key), value, 0, edit.style).join(edit.style.eol) + edit.style.eol,
      );
    }
    return [{ op: 'set', path: parentPath, value: { [key]: value } }];
  }
  if (container?.kind !== 'map' || typeof key !== 'string')
    throw new ManifestEditError('invalid-change', `cannot add ${formatPath(path)}: its parent is not a map`);
  const { lines, style } = edit;
  if (container.flow) {
    const last = container.entries[container.entries.length - 1];
    const entry = `${renderKey(key)}: ${renderFlow(value)}`;
    if (!last) {
      if (parent.slot.kind === 'pair' && !parent.slot.container.flow)
        return rewriteSlot(edit, parent, { [key]: value });
      const open = container.start;
      return lines.splice(open + 1, open + 1, entry);
    }
    return lines.splice(slotEnd(last), slotEnd(last), `, ${entry}`);
  }
  const first = container.entries[0];
  const last = container.entries[container.entries.length - 1];
  if (!first || !last) throw unsupported(`cannot add ${formatPath(path)} to an empty block map`);
  const indent = lines.column(first.keyStart);
  const sibling = after === undefined ? undefined : ownEntry(container, after)?.entry;
  const anchor = sibling && lines.lineStartOf(sibling.keyStart) + indent === sibling.keyStart ? sibling : last;
  return lines.insertLinesAfter(slotEnd(anchor), renderEntryLines(renderKey(key), value, indent, style));
}

/** Appends to an existing sequence after its last item, in the sequence's own style. */
function appendItem(
  edit: YamlEdit,
  located: Located,
  seq: SeqNode,
  value: Json,
  path: readonly PathSegment[],
): OffsetEdit | ManifestChange[] {
  const { lines, style } = edit;
  const last = seq.items[seq.items.length - 1];
  if (seq.flow) {
    if (!last) {
      if (located.slot.kind === 'pair' && !located.slot.container.flow && !isInline([value]))
        return rewriteSlot(edit, located, [value]);
      const open = seq.start;
      return lines.splice(open + 1, open + 1, renderFlow(value));
    }
    return lines.splice(last.end, last.end, `, ${renderFlow(value)}`);
  }
  if (!last) throw unsupported(`cannot append to the empty block list ${formatPath(path)}`);
  const dash = dashBefore(lines.text, last.start);
  return lines.insertLinesAfter(last.end, renderSeqItemLines(value, lines.column(dash), style));
}

/** The quoting of a scalar as written. */
function quoteOf(text: TextSource, node: ValueNode | null): QuoteStyle {
  if (node?.kind !== 'scalar') return undefined;
  if (node.style === 'quoted') return text.charCodeAt(node.start) === 39 ? 'QUOTE_SINGLE' : 'QUOTE_DOUBLE';
  return node.style === 'plain' ? 'PLAIN' : undefined;
}

/** Sets the value of an existing slot: in place when possible, else by finer changes, else by rewriting its lines. */
function replaceValue(edit: YamlEdit, located: Located, value: Json): OffsetEdit | ManifestChange[] {
  const { node, path } = located;
  const { lines } = edit;
  const current = edit.js(located);
  if (deepEqual(current, value)) return [];
  // Emptied collections are rewritten (`{}`, `[]`): key-by-key deletion would leave a null behind.
  if (node?.kind === 'map' && isPlainObject(value) && Object.keys(value).length > 0)
    return mapDiff(node, current, value, path);
  if (node?.kind === 'seq' && Array.isArray(value) && value.length > 0) {
    const changes = seqDiff(node, current as unknown[], value, path);
    if (changes) return changes;
  }
  const inFlow = located.slot.kind !== 'root' && located.slot.container.flow;
  if (isEmptyText(node) && located.slot.kind === 'pair') {
    if (!inFlow && !isInline(value)) return rewriteSlot(edit, located, value);
    const colon = lines.text.indexOf(':', located.slot.entry.keyEnd);
    return lines.splice(colon + 1, colon + 1, ` ${renderFlow(value)}`);
  }
  const target = node!;
  const blockScalar = target.kind === 'scalar' && target.style === 'block';
  const blockCollection = (target.kind === 'map' || target.kind === 'seq') && !target.flow;
  if (inFlow || (!blockScalar && !blockCollection && isInline(value))) {
    const oldText = lines.text.slice(target.start, target.end);
    const rendered =
      value === null || typeof value !== 'object'
        ? renderScalar(value, quoteOf(edit.text, target))
        : keepBracketPadding(oldText, renderFlow(value));
    return lines.splice(target.start, target.end, rendered);
  }
  if (located.slot.kind === 'root') throw unsupported('cannot replace the whole document');
  return rewriteSlot(edit, located, value);
}

/** `[ a ]` stays padded when a padded flow collection is replaced by another one. */
function keepBracketPadding(oldText: string, rendered: string): string {
  const padded = /^[[{][ \t]+\S/.test(oldText) && /\S[ \t]+[\]}]$/.test(oldText);
  if (!padded || !/^[[{].+[\]}]$/s.test(rendered) || rendered.length === 2) return rendered;
  return `${rendered[0]} ${rendered.slice(1, -1)} ${rendered[rendered.length - 1]}`;
}

/** Replaces the lines of a block entry or item with freshly rendered ones, keeping a comment on its first line. */
function rewriteSlot(edit: YamlEdit, located: Located, value: Json): OffsetEdit {
  const { lines, style } = edit;
  const slot = located.slot;
  if (slot.kind === 'root') throw unsupported('cannot replace the whole document');
  const start = slotStart(lines.text, slot);
  const node = located.node;
  const end = slotEnd(slot.kind === 'pair' ? slot.entry : node!);
  const startLine = lines.lineStartOf(start);
  const collection = node && (node.kind === 'map' || node.kind === 'seq');
  const comment = lines.trailingComment(start, collection ? node.start : end);
  let rendered: string[];
  if (slot.kind === 'pair') {
    const keyText = lines.text.slice(slot.entry.keyStart, slot.entry.keyEnd);
    rendered = renderEntryLines(keyText, value, lines.column(start), style);
  } else {
    rendered = renderSeqItemLines(value, lines.column(start), style);
  }
  if (comment) rendered[0] = `${rendered[0]}  ${comment}`;
  const endOfLast = Math.max(lines.lineEndOf(start), lines.lastLineEnd(end));
  // The first key of a list item shares its line with the `- `: keep what precedes it.
  const from = /^[ \t]*$/.test(lines.text.slice(startLine, start)) ? startLine : start;
  if (from === start) rendered[0] = rendered[0]!.slice(lines.column(start));
  return lines.splice(from, endOfLast, rendered.join(style.eol));
}

/** Removes an entry or item; from a block collection its lines go, with the comment lines that belong to it. */
function deleteSlot(edit: YamlEdit, located: Located, path: readonly PathSegment[]): OffsetEdit | ManifestChange[] {
  const { lines } = edit;
  const slot = located.slot;
  if (slot.kind === 'root') throw unsupported('cannot delete the document');
  const parentPath = path.slice(0, -1);
  const items: (MapEntry | ValueNode)[] = slot.kind === 'pair' ? slot.container.entries : slot.container.items;
  // The last entry of a nested collection leaves `{}` / `[]` behind rather than an empty (null) value.
  if (items.length === 1 && parentPath.length > 0)
    return [{ op: 'set', path: parentPath, value: slot.kind === 'pair' ? {} : [] }];
  const index = slot.index;
  const own = items[index]!;
  if (slot.container.flow) {
    const next = items[index + 1];
    if (next) return lines.splice(flowStart(own), flowStart(next), '');
    const previous = items[index - 1]!;
    return lines.splice(slotEnd(previous), slotEnd(own), '');
  }
  const start = slotStart(lines.text, slot);
  if (slot.kind === 'pair' && !/^[ \t]*$/.test(lines.text.slice(lines.lineStartOf(start), start))) {
    // The first key of a list item shares its line with the `- `: the next key moves up to it.
    const next = items[index + 1] as MapEntry | undefined;
    if (next) return lines.splice(start, next.keyStart, '');
  }
  return lines.removeBlock(start, slotEnd(own));
}
