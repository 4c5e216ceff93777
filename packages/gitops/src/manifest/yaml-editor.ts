/**
 * Minimal edits of YAML text. Each {@link ManifestChange} is located in a fresh parse of
 * the current text and carried onto it as a splice of the fewest lines possible: a
 * scalar is replaced in place (keeping its quotes), a new entry is inserted after its
 * last sibling with the sibling's indentation, a deleted entry takes its own comment
 * lines with it. Nothing else is re-serialized, so comments, anchors, merge keys, flow
 * collections and CRLF line ends elsewhere survive byte for byte.
 */
import { isAlias, isMap, isScalar, isSeq, type Node, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { EditError } from '../errors.js';
import { deepEqual, isPlainObject, type Json } from '../json.js';
import { formatPath, type ManifestChange, type PathSegment } from './changes.js';
import { dashBefore, flowStart, isMergeKey, ownPair, slotEnd, slotStart, YamlEdit, type Located } from './yaml-document.js';
import { isInline, renderEntryLines, renderFlow, renderKey, renderScalar, renderSeqItemLines, type QuoteStyle } from './yaml-render.js';

export { parseYaml, yamlValue, YAML_PARSE_OPTIONS } from './yaml-document.js';

/** Carries `changes` onto `text`, one at a time; see the module comment. */
export function editYaml(text: string, changes: readonly ManifestChange[]): string {
  let current = text;
  for (const change of changes) current = applyChange(current, change, 0);
  return current;
}

function applyChange(text: string, change: ManifestChange, depth: number): string {
  if (depth > 64) throw new EditError(`edit of ${formatPath(change.path)} does not converge`);
  const edit = new YamlEdit(text);
  const result = plan(edit, change);
  if (typeof result === 'string') return result;
  let current = text;
  for (const sub of result) current = applyChange(current, sub, depth + 1);
  return current;
}

/** Either the new text, or finer changes that achieve `change` (applied one by one on fresh parses). */
function plan(edit: YamlEdit, change: ManifestChange): string | ManifestChange[] {
  const { path } = change;
  const found = edit.locate(path);
  if (change.op === 'set') {
    if (found.node !== undefined) return replaceValue(edit, found as Located, change.value, path);
    return addToParent(edit, found.parent, path, change.value);
  }
  if (change.op === 'append') {
    if (found.node === undefined) return addToParent(edit, found.parent, path, [change.value]);
    const node = found.node;
    if (node === null || (isScalar(node) && node.value === null)) return [{ op: 'set', path, value: [change.value] }];
    if (!isSeq(node)) throw new EditError(`${formatPath(path)} is not a list`);
    return appendItem(edit, found as Located, node, change.value, path);
  }
  if (found.node === undefined) throw new EditError(`${formatPath(path)} does not exist`);
  return deleteSlot(edit, found as Located, path);
}

/** A key that is absent from its map (or an item past the end of a sequence). */
function addToParent(edit: YamlEdit, parent: Located, path: readonly PathSegment[], value: Json): string | ManifestChange[] {
  const key = path[path.length - 1]!;
  const parentPath = path.slice(0, -1);
  const container = parent.node;
  if (container === null || (isScalar(container) && container.value === null)) {
    if (typeof key !== 'string') throw new EditError(`${formatPath(path)} does not exist`);
    return [{ op: 'set', path: parentPath, value: { [key]: value } }];
  }
  if (!isMap(container) || typeof key !== 'string') throw new EditError(`cannot add ${formatPath(path)}: its parent is not a map`);
  const { lines, style } = edit;
  if (container.flow) {
    const last = container.items[container.items.length - 1];
    const entry = `${renderKey(key)}: ${renderFlow(value)}`;
    if (!last) {
      if (parent.slot.kind === 'pair' && !(parent.slot.container as YAMLMap).flow) {
        return rewriteSlot(edit, parent as Located, { [key]: value });
      }
      const open = container.range![0];
      return lines.splice(open + 1, open + 1, entry);
    }
    return lines.splice(slotEnd(last as Pair), slotEnd(last as Pair), `, ${entry}`);
  }
  const first = container.items[0];
  const last = container.items[container.items.length - 1];
  if (!first || !last) throw new EditError(`cannot add ${formatPath(path)} to an empty block map`);
  const indent = lines.column((first.key as Node).range![0]);
  const rendered = renderEntryLines(renderKey(key), value, indent, style);
  return lines.insertLinesAfter(slotEnd(last as Pair), rendered);
}

/** Appends to an existing sequence after its last item, in the sequence's own style. */
function appendItem(edit: YamlEdit, located: Located, seq: YAMLSeq, value: Json, path: readonly PathSegment[]): string | ManifestChange[] {
  const { lines, style } = edit;
  const last = seq.items[seq.items.length - 1] as Node | undefined;
  if (seq.flow) {
    if (!last) {
      if (located.slot.kind === 'pair' && !(located.slot.container as YAMLMap).flow && !isInline([value])) {
        return rewriteSlot(edit, located, [value]);
      }
      const open = seq.range![0];
      return lines.splice(open + 1, open + 1, renderFlow(value));
    }
    return lines.splice(last.range![1], last.range![1], `, ${renderFlow(value)}`);
  }
  if (!last) throw new EditError(`cannot append to the empty block list ${formatPath(path)}`);
  const dash = dashBefore(lines.text, last.range![0]);
  return lines.insertLinesAfter(last.range![1], renderSeqItemLines(value, lines.column(dash), style));
}

/** Sets the value of an existing slot: in place when possible, else by finer changes, else by rewriting its lines. */
function replaceValue(edit: YamlEdit, located: Located, value: Json, path: readonly PathSegment[]): string | ManifestChange[] {
  const { node } = located;
  const { lines } = edit;
  const current = edit.js(node);
  if (deepEqual(current, value)) return edit.text;
  if (node && !isAlias(node) && isMap(node) && isPlainObject(value)) return mapDiff(node, current, value, path);
  if (node && !isAlias(node) && isSeq(node) && Array.isArray(value) && value.length > 0) {
    const changes = seqDiff(node, current as unknown[], value, path);
    if (changes) return changes;
  }
  const inFlow = located.slot.kind !== 'root' && located.slot.container.flow === true;
  const empty = !node || node.range![0] === node.range![1];
  if (empty && located.slot.kind === 'pair') {
    if (!inFlow && !isInline(value)) return rewriteSlot(edit, located, value);
    const colon = lines.text.indexOf(':', (located.slot.pair.key as Node).range![1]);
    return lines.splice(colon + 1, colon + 1, ` ${renderFlow(value)}`);
  }
  const blockScalar = isScalar(node) && (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED');
  const blockCollection = (isMap(node) || isSeq(node)) && !node.flow;
  if (inFlow || (!blockScalar && !blockCollection && isInline(value))) {
    const hint: QuoteStyle = isScalar(node) ? (node.type as QuoteStyle) : undefined;
    const oldText = lines.text.slice(node!.range![0], node!.range![1]);
    const rendered = isInline(value) && !Array.isArray(value) ? renderScalar(value, hint) : keepBracketPadding(oldText, renderFlow(value));
    return lines.splice(node!.range![0], node!.range![1], rendered);
  }
  if (located.slot.kind === 'root') throw new EditError('cannot replace the whole document');
  return rewriteSlot(edit, located, value);
}

/** `[ a ]` stays padded when a padded flow collection is replaced by another one. */
function keepBracketPadding(oldText: string, rendered: string): string {
  const padded = /^[[{][ \t]+\S/.test(oldText) && /\S[ \t]+[\]}]$/.test(oldText);
  if (!padded || !/^[[{].+[\]}]$/s.test(rendered) || rendered.length === 2) return rendered;
  return `${rendered[0]} ${rendered.slice(1, -1)} ${rendered[rendered.length - 1]}`;
}

/** Changes to a map, key by key: keys to set first (so the map never becomes empty midway), then deletions. */
function mapDiff(map: YAMLMap, current: unknown, value: Record<string, Json>, path: readonly PathSegment[]): ManifestChange[] {
  const effective = (isPlainObject(current) ? current : {}) as Record<string, unknown>;
  const changes: ManifestChange[] = [];
  for (const [key, child] of Object.entries(value)) {
    if (ownPair(map, key)) {
      if (!deepEqual(effective[key], child)) changes.push({ op: 'set', path: [...path, key], value: child });
    } else if (!(key in effective) || !deepEqual(effective[key], child)) {
      changes.push({ op: 'set', path: [...path, key], value: child });
    }
  }
  for (const pair of map.items) {
    if (isMergeKey(pair as Pair) || !isScalar((pair as Pair).key)) continue;
    const key = String(((pair as Pair).key as { value: unknown }).value);
    if (!(key in value)) changes.push({ op: 'delete', path: [...path, key] });
  }
  return changes;
}

/**
 * Changes to a sequence: items kept in order stay untouched, others are deleted, new
 * ones appended; lists of maps of the same length are changed item by item. `undefined`
 * when the new list is not reachable that way (reordering): the caller rewrites it.
 */
function seqDiff(seq: YAMLSeq, current: unknown[], value: Json[], path: readonly PathSegment[]): ManifestChange[] | undefined {
  const scalarsOnly = [...current, ...value].every((item) => !Array.isArray(item) && !isPlainObject(item));
  if (scalarsOnly) {
    const deletions: number[] = [];
    let next = 0;
    current.forEach((item, index) => {
      if (next < value.length && deepEqual(item, value[next])) next++;
      else deletions.push(index);
    });
    if (deletions.length === current.length) return undefined;
    return [
      ...deletions.reverse().map((index): ManifestChange => ({ op: 'delete', path: [...path, index] })),
      ...value.slice(next).map((item): ManifestChange => ({ op: 'append', path: [...path], value: item })),
    ];
  }
  if (seq.items.length !== current.length) return undefined;
  const shared = Math.min(current.length, value.length);
  const changes: ManifestChange[] = [];
  for (let i = 0; i < shared; i++) {
    if (!deepEqual(current[i], value[i])) changes.push({ op: 'set', path: [...path, i], value: value[i]! });
  }
  for (let i = current.length - 1; i >= value.length; i--) changes.push({ op: 'delete', path: [...path, i] });
  for (const item of value.slice(current.length)) changes.push({ op: 'append', path: [...path], value: item });
  return changes;
}

/** Replaces the lines of a block entry or item with freshly rendered ones, keeping a comment on its first line. */
function rewriteSlot(edit: YamlEdit, located: Located, value: Json): string {
  const { lines, style } = edit;
  const slot = located.slot;
  if (slot.kind === 'root') throw new EditError('cannot replace the whole document');
  const start = slotStart(lines.text, slot);
  const end = slotEnd(slot.kind === 'pair' ? slot.pair : (located.node as Node));
  const startLine = lines.lineStartOf(start);
  const comment = lines.trailingComment(start, located.node && (isMap(located.node) || isSeq(located.node)) ? located.node.range![0] : end);
  let rendered: string[];
  if (slot.kind === 'pair') {
    const keyNode = slot.pair.key as Node;
    const keyText = lines.text.slice(keyNode.range![0], keyNode.range![1]);
    rendered = renderEntryLines(keyText, value, lines.column(start), style);
  } else {
    rendered = renderSeqItemLines(value, lines.column(start), style);
  }
  if (comment) rendered[0] = `${rendered[0]}  ${comment}`;
  const endOfLast = Math.max(lines.lineEndOf(start), lines.lastLineEnd(end));
  return lines.splice(startLine, endOfLast, rendered.join(style.eol));
}

/** Removes an entry or item; from a block collection its lines go, with the comment lines that belong to it. */
function deleteSlot(edit: YamlEdit, located: Located, path: readonly PathSegment[]): string | ManifestChange[] {
  const { lines } = edit;
  const slot = located.slot;
  if (slot.kind === 'root') throw new EditError('cannot delete the document');
  const container = slot.container;
  const parentPath = path.slice(0, -1);
  const siblings = container.items.length;
  // The last entry of a nested collection leaves `{}` / `[]` behind rather than an empty (null) value.
  if (siblings === 1 && parentPath.length > 0) return [{ op: 'set', path: parentPath, value: isMap(container) ? {} : [] }];
  const index = slot.kind === 'pair' ? container.items.indexOf(slot.pair as never) : slot.index;
  const own = slot.kind === 'pair' ? slot.pair : (located.node as Node);
  if (container.flow) {
    const next = container.items[index + 1] as Pair | Node | undefined;
    if (next) return lines.splice(flowStart(own), flowStart(next), '');
    const previous = container.items[index - 1] as Pair | Node;
    return lines.splice(slotEnd(previous), slotEnd(own), '');
  }
  const start = slotStart(lines.text, slot);
  return lines.removeBlock(start, slotEnd(own));
}

