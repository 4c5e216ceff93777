/**
 * Minimal edits of TOML text, planned on the validator's located tree (the same tree the
 * rules read, from `toml-eslint-parser`). A value is replaced on its own characters, so the
 * key, the spacing and a trailing comment stay where they were; a new key goes on its own
 * line after the last key of its table; a new table (`[agents.x]`) or array-of-tables
 * element (`[[triggers]]`) is appended as a section at the end of the file, which TOML
 * allows and which leaves every existing line alone; a deleted key or section takes its
 * own comment lines with it. A change that needs several splices comes back as finer
 * changes, each planned on a fresh parse.
 */
import type { OffsetEdit } from '../diagnostic.js';
import type { ManifestDocument } from '../document/manifest-document.js';
import type { MapEntry, MapNode, SeqNode, ValueNode } from '../document/nodes.js';
import type { TextSource } from '../document/piece-text.js';
import { formatPath, ManifestEditError, valueAtPath, type ManifestChange, type PathSegment } from './changes.js';
import { deepEqual, isPlainObject, type Json } from './json.js';
import { ownEntry } from './own-entries.js';
import { applyEdit, TextLines, textEdits } from './text-lines.js';
import { mapDiff, seqDiff } from './diff.js';
import { splicedEdit, type Splice } from './yaml-edit.js';

/** How a collection is written. */
type Shape =
  | 'root'
  /** Defined by its own `[header]`, or an element of an array of tables (`[[header]]`). */
  | 'table'
  /** Exists only because a sub-table header names it (`[agents.main]` makes `agents`). */
  | 'implicit'
  /** Made by dotted keys (`a.b = 1`). */
  | 'dotted'
  /** `{ … }` */
  | 'inline'
  /** `[ … ]` */
  | 'array'
  /** `[[name]]` sections. */
  | 'aot';

interface Located {
  node: ValueNode;
  path: readonly PathSegment[];
  /** The entry holding the node, or the sequence and index; absent for the root. */
  entry?: MapEntry;
  /** The entry's position in its map. */
  index?: number;
  parent?: { node: MapNode | SeqNode; path: readonly PathSegment[] };
}

function unsupported(message: string): ManifestEditError {
  return new ManifestEditError('unsupported', message);
}

function invalid(message: string): ManifestEditError {
  return new ManifestEditError('invalid-change', message);
}

class TomlEdit {
  /** The document's text as it holds it, read by ranges (see YamlEdit). */
  readonly text: TextSource;
  readonly lines: TextLines;
  readonly root: MapNode;

  constructor(
    readonly document: ManifestDocument,
    /** The document whose habits new text follows: the original of a multi-step edit. */
    private readonly styleFrom: ManifestDocument = document,
  ) {
    this.text = document.source;
    this.lines = new TextLines(this.text);
    if (document.root?.kind !== 'map') throw unsupported('the TOML document has no root table');
    this.root = document.root;
  }

  value(path: readonly PathSegment[]): unknown {
    return valueAtPath(this.document.value, path);
  }

  locate(path: readonly PathSegment[]): Located | { node: undefined; parent: Located } {
    let current: Located = { node: this.root, path: [] };
    for (let i = 0; i < path.length; i++) {
      const segment = path[i]!;
      const node = current.node;
      let next: Located | undefined;
      if (node.kind === 'map' && typeof segment === 'string') {
        const own = ownEntry(node, segment);
        if (own)
          next = {
            node: own.entry.value,
            entry: own.entry,
            index: own.index,
            path: path.slice(0, i + 1),
            parent: { node, path: current.path },
          };
      } else if (node.kind === 'seq' && typeof segment === 'number' && segment < node.items.length) {
        next = { node: node.items[segment]!, path: path.slice(0, i + 1), parent: { node, path: current.path } };
      }
      if (!next) {
        if (i === path.length - 1) return { node: undefined, parent: current };
        throw invalid(`${formatPath(path.slice(0, i + 1))} does not exist`);
      }
      current = next;
    }
    return current;
  }

  /** Whether the line holding `offset` is a table header line. */
  isHeaderLine(offset: number): boolean {
    return /^[ \t]*\[/.test(this.text.slice(this.lines.lineStartOf(offset), this.lines.lineEndOf(offset)));
  }

  shape(node: ValueNode, path: readonly PathSegment[]): Shape | 'scalar' {
    if (node === this.root) return 'root';
    if (node.kind === 'scalar' || node.kind === 'alias') return 'scalar';
    if (node.kind === 'seq') return node.flow ? 'array' : 'aot';
    if (node.flow) return 'inline';
    if (!this.text.startsWith('[', node.start)) return 'dotted';
    const header = headerAt(this.text, node.start);
    const keys = path.filter((segment): segment is string => typeof segment === 'string');
    if (header && header.keys.length === keys.length && header.keys.every((key, i) => key === keys[i])) return 'table';
    return 'implicit';
  }

  /** Entries of a table written as `key = value` lines under its header (not sub-tables). */
  plainEntries(map: MapNode): MapEntry[] {
    return map.entries.filter((entry) => !this.isHeaderLine(entry.keyStart));
  }

  /** Just past the last value of a table's own lines (its header line when it has none). */
  tableContentEnd(map: MapNode, shape: Shape): number | undefined {
    const plain = this.plainEntries(map);
    let end = shape === 'table' ? this.lines.lineEndOf(map.start) : undefined;
    for (const entry of plain) end = Math.max(end ?? 0, entry.end);
    return end;
  }

  /** Arrays are written `[ "a" ]` when the file's first array is padded, `["a"]` when it is not (read from the document being edited). */
  get spacedArrays(): boolean {
    return spacedArraysOf(this.styleFrom);
  }
}

const spacedCache = new WeakMap<ManifestDocument, boolean>();

function spacedArraysOf(document: ManifestDocument): boolean {
  let spaced = spacedCache.get(document);
  if (spaced === undefined) {
    let first: SeqNode | undefined;
    const visit = (node: ValueNode, depth: number): void => {
      if (depth > 64) return;
      if (node.kind === 'seq') {
        if (node.flow && node.items.length > 0 && (!first || node.start < first.start)) first = node;
        for (const item of node.items) visit(item, depth + 1);
      } else if (node.kind === 'map') {
        for (const entry of node.entries) visit(entry.value, depth + 1);
      }
    };
    if (document.root) visit(document.root, 0);
    spaced = first ? /^\[[ \t]/.test(document.source.slice(first.start, first.end)) : true;
    spacedCache.set(document, spaced);
  }
  return spaced;
}

/** The keys of the `[a."b c"]` / `[[a]]` header starting at `offset`, and the offset just past its closing bracket(s). */
function headerAt(text: TextSource, offset: number): { keys: string[]; array: boolean; end: number } | undefined {
  const array = text.startsWith('[[', offset);
  let i = offset + (array ? 2 : 1);
  const keys: string[] = [];
  const skip = (): void => {
    while (text.startsWith(' ', i) || text.startsWith('\t', i)) i++;
  };
  for (;;) {
    skip();
    const rest = text.slice(i, i + 1024);
    let match: RegExpExecArray | null;
    if ((match = /^[A-Za-z0-9_-]+/.exec(rest))) {
      keys.push(match[0]);
    } else if ((match = /^"(?:[^"\\\n]|\\.)*"/.exec(rest))) {
      try {
        keys.push(JSON.parse(match[0]) as string);
      } catch {
        return undefined;
      }
    } else if ((match = /^'[^'\n]*'/.exec(rest))) {
      keys.push(match[0].slice(1, -1));
    } else {
      return undefined;
    }
    i += match[0].length;
    skip();
    if (text.startsWith('.', i)) {
      i++;
      continue;
    }
    if (!text.startsWith(array ? ']]' : ']', i)) return undefined;
    return { keys, array, end: i + (array ? 2 : 1) };
  }
}

// ---- rendering ------------------------------------------------------------------------

export function renderTomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : basicString(key);
}

/** A TOML basic string: quotes, backslashes and control characters escaped. */
function basicString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** A value on one line: strings as basic strings, tables inline. `literal` keeps a `'…'` string's style. */
export function renderTomlValue(value: unknown, spaced: boolean, literal = false): string {
  if (value === null || value === undefined) throw unsupported('TOML has no null value');
  if (typeof value === 'string') {
    return literal && !/['\u0000-\u001f\u007f]/.test(value) ? `'${value}'` : basicString(value);
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw unsupported(`cannot write ${value} in TOML`);
    return String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item) => renderTomlValue(item, spaced)).join(', ');
    return spaced ? `[ ${items} ]` : `[${items}]`;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).map(
      ([key, child]) => `${renderTomlKey(key)} = ${renderTomlValue(child, spaced)}`,
    );
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  throw unsupported(`cannot write a ${typeof value} in TOML`);
}

function isTableValue(value: unknown): value is Record<string, Json> {
  return isPlainObject(value) && Object.keys(value).length > 0;
}

function isTableArray(value: unknown): value is Record<string, Json>[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => isPlainObject(item));
}

// ---- planning -------------------------------------------------------------------------

export function planToml(
  document: ManifestDocument,
  change: ManifestChange,
  styleFrom: ManifestDocument = document,
): OffsetEdit | ManifestChange[] {
  const edit = new TomlEdit(document, styleFrom);
  const found = edit.locate(change.path);
  switch (change.op) {
    case 'set':
      if (found.node === undefined) return addKey(edit, found.parent, change.path, change.value, change.after);
      return replaceValue(edit, found, change.value);
    case 'append': {
      if (found.node === undefined) return addKey(edit, found.parent, change.path, [change.value]);
      return appendItem(edit, found, change.value);
    }
    case 'insert': {
      const parent =
        found.node === undefined ? found.parent : found.parent && { node: found.parent.node, path: found.parent.path };
      const index = change.path[change.path.length - 1];
      const seq = parent?.node;
      if (seq?.kind !== 'seq' || typeof index !== 'number')
        throw invalid(`cannot insert at ${formatPath(change.path)}`);
      if (index >= seq.items.length) return [{ op: 'append', path: change.path.slice(0, -1), value: change.value }];
      const before = seq.items[index]!;
      if (seq.flow)
        return edit.lines.splice(before.start, before.start, `${renderTomlValue(change.value, edit.spacedArrays)}, `);
      // An array of tables: the new element's section goes before the element's (and its comments), a blank line between.
      const holder = edit.locate(parent!.path.slice(0, -1));
      if (
        !isPlainObject(change.value) ||
        holder.node === undefined ||
        !sectionPathable(edit, holder) ||
        parent!.path.some((segment) => typeof segment !== 'string')
      ) {
        throw unsupported(`cannot insert this item into the array of tables ${formatPath(change.path.slice(0, -1))}`);
      }
      const sections = tableSections(parent!.path as string[], change.value, edit.spacedArrays, true);
      const eol = edit.lines.eol;
      return edit.lines.insertLinesBefore(before.start, [
        ...sections
          .map((section) => section.join(eol))
          .join(eol + eol)
          .split(eol),
        '',
      ]);
    }
    case 'rename': {
      const located = found as Located;
      if (found.node === undefined || !located.entry) throw invalid(`${formatPath(change.path)} does not exist`);
      return edit.lines.splice(located.entry.keyStart, located.entry.keyEnd, renderTomlKey(change.to));
    }
    case 'delete':
      if (found.node === undefined) throw invalid(`${formatPath(change.path)} does not exist`);
      return deleteValue(edit, found);
    case 'rewrite': {
      const node = found.node;
      if (node === undefined) throw invalid(`${formatPath(change.path)} does not exist`);
      if (node.kind !== 'scalar' || typeof node.value !== 'number') {
        // TOML strings, booleans and dates have one reading per spelling worth keeping.
        if (node.kind === 'scalar') return [];
        throw invalid(`${formatPath(change.path)} is not a scalar`);
      }
      const written = edit.text.slice(node.start, node.end);
      const rendered = renderTomlValue(node.value, edit.spacedArrays);
      return rendered === written ? [] : edit.lines.splice(node.start, node.end, rendered);
    }
    case 'keyBy':
      if (found.node === undefined) throw invalid(`${formatPath(change.path)} does not exist`);
      return keyByToml(edit, found, change.key);
  }
}

/**
 * `keyBy` on TOML. An array of tables becomes one table per item: each `[[path]]` header
 * turns into `[path.NAME]` (sub-table headers of the item follow), the key's line goes and
 * its trailing comment moves to the header. A one-line array of inline tables becomes an
 * inline table of inline tables.
 */
function keyByToml(edit: TomlEdit, located: Located, key: string): OffsetEdit {
  const { text, lines } = edit;
  const { node, path } = located;
  if (node.kind !== 'seq') throw invalid(`${formatPath(path)} is not a list`);
  const shape = edit.shape(node, path);
  const seen = new Set<string>();
  const items = node.items.map((item, index) => {
    const where = formatPath([...path, index]);
    if (item.kind !== 'map') throw invalid(`${where} is not a table`);
    const entry = item.entries.find((e) => e.key === key && !e.ignored);
    if (!entry || entry.value.kind !== 'scalar' || typeof entry.value.value !== 'string')
      throw invalid(`${where} has no string '${key}'`);
    const name = entry.value.value;
    if (seen.has(name)) throw invalid(`${where}: '${key}' ${JSON.stringify(name)} is used twice`);
    seen.add(name);
    return { item, entry, name };
  });
  const splices: Splice[] = [];
  if (shape === 'array') {
    if (lines.lineStartOf(node.start) !== lines.lineStartOf(node.end))
      throw unsupported(`${formatPath(path)} spans several lines; an inline table cannot`);
    splices.push(
      { start: node.start, end: node.start + 1, text: '{' },
      { start: node.end - 1, end: node.end, text: '}' },
    );
    for (const { item, entry, name } of items) {
      if (!item.flow) throw unsupported(`${formatPath(path)} holds an item that is not an inline table`);
      splices.push({ start: item.start, end: item.start, text: `${renderTomlKey(name)} = ` });
      const entries = item.entries;
      const index = entries.indexOf(entry);
      if (entries.length === 1) splices.push({ start: item.start, end: item.end, text: '{}' });
      else if (entries[index + 1]) splices.push({ start: entry.keyStart, end: entries[index + 1]!.keyStart, text: '' });
      else splices.push({ start: entries[index - 1]!.end, end: entry.end, text: '' });
    }
    return splicedEdit(text, splices);
  }
  if (shape !== 'aot' || path.some((segment) => typeof segment !== 'string'))
    throw unsupported(`cannot key ${formatPath(path)} by '${key}' in place`);
  const prefix = path as readonly string[];
  for (const { item, entry, name } of items) {
    const header = headerAt(text, item.start);
    if (!header?.array) throw unsupported(`cannot find the [[${headerOf(path)}]] header of an item`);
    if (edit.isHeaderLine(entry.keyStart) || lines.lineStartOf(entry.keyStart) !== lines.lineStartOf(entry.end)) {
      throw unsupported(`'${key}' of an item of ${formatPath(path)} is not a plain key line`);
    }
    const comment = lines.trailingComment(entry.keyStart, entry.end);
    const lineStart = lines.lineStartOf(entry.keyStart);
    splices.push({ start: lineStart, end: lines.nextLineStart(entry.keyStart), text: '' });
    const headerComment = lines.trailingComment(item.start, header.end);
    const headerText = `[${headerOf([...prefix, name])}]`;
    if (comment && !headerComment) {
      splices.push({ start: item.start, end: header.end, text: `${headerText}  ${comment}` });
      const lineEnd = lines.lineEndOf(item.start);
      if (!/^[ \t]*$/.test(text.slice(header.end, lineEnd))) throw unsupported('unexpected text after a table header');
      splices.push({ start: header.end, end: lineEnd, text: '' });
    } else {
      splices.push({ start: item.start, end: header.end, text: headerText });
      // The header keeps its own comment; the key line's joins it.
      if (comment)
        splices.push({ start: lines.lineEndOf(item.start), end: lines.lineEndOf(item.start), text: ` ${comment}` });
    }
    // Sub-tables of the item (`[path.x]`, `[[path.x]]`) now live under the item's name.
    for (let at = lines.nextLineStart(item.start); at < item.end; at = lines.nextLineStart(at)) {
      const start = at + /^[ \t]*/.exec(text.slice(at, at + 256))![0].length;
      if (!text.startsWith('[', start)) continue;
      const sub = headerAt(text, start);
      if (!sub || sub.keys.length <= prefix.length || !prefix.every((k, i) => sub.keys[i] === k)) continue;
      const keys = [...prefix, name, ...sub.keys.slice(prefix.length)];
      splices.push({ start, end: sub.end, text: sub.array ? `[[${headerOf(keys)}]]` : `[${headerOf(keys)}]` });
    }
  }
  return splicedEdit(text, splices);
}

/** Whether `[path]` / `[[path]]` appended at the end of the file names exactly `path`: every step is a key of a plain table. */
function sectionPathable(edit: TomlEdit, parent: Located): boolean {
  if (parent.path.some((segment) => typeof segment !== 'string')) return false;
  let current: Located = { node: edit.root, path: [] };
  for (const segment of parent.path) {
    const shape = edit.shape(current.node, current.path);
    if (shape !== 'root' && shape !== 'table' && shape !== 'implicit') return false;
    const next = edit.locate([...current.path, segment]);
    if (next.node === undefined) return false;
    current = next;
  }
  const shape = edit.shape(current.node, current.path);
  return shape === 'root' || shape === 'table' || shape === 'implicit';
}

/** New sections at the end of the file, after one blank line. */
function appendSections(edit: TomlEdit, sections: string[][]): OffsetEdit {
  const { text, lines } = edit;
  const eol = lines.eol;
  const separator = text.length === 0 ? '' : text.startsWith('\n', text.length - 1) ? eol : eol + eol;
  return {
    start: text.length,
    end: text.length,
    newText: separator + sections.map((section) => section.join(eol)).join(eol + eol) + eol,
  };
}

/**
 * The sections of a new table (`array`: an element of an array of tables) at `path`: its own
 * keys under `[path]`, then each sub-table as its own `[path.key]` section and each list of
 * tables as `[[path.key]]` sections. A table with only sub-tables gets no header of its own.
 */
function tableSections(
  path: readonly string[],
  body: Record<string, Json>,
  spaced: boolean,
  array = false,
): string[][] {
  const header = path.map(renderTomlKey).join('.');
  const own: string[] = [];
  const nested: string[][] = [];
  for (const [key, value] of Object.entries(body)) {
    if (!array && isTableValue(value) && path.length < 16) nested.push(...tableSections([...path, key], value, spaced));
    else if (!array && isTableArray(value) && path.length < 16)
      for (const item of value) nested.push(...tableSections([...path, key], item, spaced, true));
    else own.push(`${renderTomlKey(key)} = ${renderTomlValue(value, spaced)}`);
  }
  if (own.length === 0 && nested.length > 0 && !array) return nested;
  return [[array ? `[[${header}]]` : `[${header}]`, ...own], ...nested];
}

function headerOf(path: readonly PathSegment[]): string {
  return path.map((segment) => renderTomlKey(String(segment))).join('.');
}

/** A key absent from its table. */
function addKey(
  edit: TomlEdit,
  parent: Located,
  path: readonly PathSegment[],
  value: Json,
  after?: string,
): OffsetEdit | ManifestChange[] {
  const key = path[path.length - 1]!;
  const container = parent.node;
  if (container.kind !== 'map' || typeof key !== 'string')
    throw invalid(`cannot add ${formatPath(path)}: its parent is not a table`);
  // Scalars need no look at the file's arrays (quick fixes insert many of them).
  const spaced = typeof value === 'object' && value !== null ? edit.spacedArrays : true;
  const shape = edit.shape(container, parent.path);
  const line = `${renderTomlKey(key)} = ${renderTomlValue(value, spaced)}`;
  if (shape === 'inline') {
    const last = container.entries[container.entries.length - 1];
    if (last) return edit.lines.splice(last.end, last.end, `, ${line}`);
    return edit.lines.splice(container.start, container.end, `{ ${line} }`);
  }
  if ((isTableValue(value) || isTableArray(value)) && sectionPathable(edit, parent)) {
    const keys = path as string[];
    if (isTableValue(value)) return appendSections(edit, tableSections(keys, value, spaced));
    return appendSections(
      edit,
      value.flatMap((item) => tableSections(keys, item, spaced, true)),
    );
  }
  // A table first named by a sub-table's header and given its own `[header]` later has its own key lines.
  const ownLines = shape === 'implicit' && edit.plainEntries(container).length > 0;
  if (shape === 'root' || shape === 'table' || ownLines) {
    const sibling =
      after === undefined ? undefined : edit.plainEntries(container).find((e) => e.key === after && !e.ignored);
    if (sibling && /^[ \t]*$/.test(edit.text.slice(edit.lines.lineStartOf(sibling.keyStart), sibling.keyStart))) {
      // `after = …` written as one key (not dotted, not inline): the new line goes right below it.
      const at = edit.lines.lineEndOf(sibling.end);
      return edit.lines.splice(at, at, edit.lines.eol + line);
    }
    const end = edit.tableContentEnd(container, shape);
    if (end === undefined) return edit.lines.splice(container.start, container.start, line + edit.lines.eol);
    const at = edit.lines.lineEndOf(end);
    return edit.lines.splice(at, at, edit.lines.eol + line);
  }
  if (shape === 'implicit' && sectionPathable(edit, parent))
    return appendSections(edit, [[`[${headerOf(parent.path)}]`, line]]);
  throw unsupported(`cannot add ${formatPath(path)} to a table written with dotted keys`);
}

function replaceValue(edit: TomlEdit, located: Located, value: Json): OffsetEdit | ManifestChange[] {
  const { node, path } = located;
  const current = edit.value(path);
  if (deepEqual(current, value)) return [];
  const shape = edit.shape(node, path);
  if (shape === 'root') {
    if (!isPlainObject(value)) throw unsupported('the root of a TOML document is a table');
    return mapDiff(node as MapNode, current, value, path);
  }
  if ((shape === 'table' || shape === 'implicit' || shape === 'dotted') && isPlainObject(value))
    return mapDiff(node as MapNode, current, value, path);
  if (
    shape === 'aot' ||
    (shape === 'array' && edit.lines.lineStartOf(node.start) !== edit.lines.lineStartOf(node.end))
  ) {
    // Arrays of tables, and arrays over several lines (comments between items), change item by item.
    if (Array.isArray(value) && value.length > 0) {
      const changes = seqDiff(node as SeqNode, current as unknown[], value, path);
      if (changes) return changes;
    }
  }
  if (shape === 'scalar' || shape === 'array' || shape === 'inline') {
    const oldText = edit.text.slice(node.start, node.end);
    // A replaced array keeps its own bracket padding; other values take the file's.
    const spaced =
      shape === 'array' && oldText !== '[]'
        ? /^\[[ \t]/.test(oldText)
        : typeof value === 'object' && value !== null
          ? edit.spacedArrays
          : true;
    const rendered = renderTomlValue(value, spaced, oldText.startsWith("'") && !oldText.startsWith("'''"));
    return edit.lines.splice(node.start, node.end, rendered);
  }
  // A table or array of tables becomes something else: take it out, then write the new value.
  return [
    { op: 'delete', path: [...path] },
    { op: 'set', path: [...path], value },
  ];
}

function appendItem(edit: TomlEdit, located: Located, value: Json): OffsetEdit | ManifestChange[] {
  const { node, path } = located;
  const shape = edit.shape(node, path);
  if (shape === 'array') {
    const seq = node as SeqNode;
    const rendered = renderTomlValue(value, edit.spacedArrays);
    const last = seq.items[seq.items.length - 1];
    if (last) return edit.lines.splice(last.end, last.end, `, ${rendered}`);
    return edit.lines.splice(seq.start, seq.end, `[${rendered}]`);
  }
  if (shape === 'aot') {
    if (
      !isPlainObject(value) ||
      !located.parent ||
      !sectionPathable(edit, { node: located.parent.node, path: located.parent.path })
    ) {
      throw unsupported(`cannot append this item to the array of tables ${formatPath(path)}`);
    }
    return appendSections(edit, tableSections(path as string[], value, edit.spacedArrays, true));
  }
  throw invalid(`${formatPath(path)} is not a list`);
}

/** The header-defined sections inside a node (itself included), in text order. */
function sectionsWithin(
  edit: TomlEdit,
  node: ValueNode,
  path: readonly PathSegment[],
): { start: number; end: number }[] {
  const sections: { start: number; end: number }[] = [];
  const visit = (current: ValueNode, at: readonly PathSegment[], depth: number): void => {
    if (depth > 64) return;
    if (current.kind === 'seq' && !current.flow) {
      current.items.forEach((item, index) => visit(item, [...at, index], depth + 1));
    } else if (current.kind === 'map' && !current.flow) {
      const shape = edit.shape(current, at);
      if (shape === 'table') sections.push({ start: current.start, end: edit.tableContentEnd(current, shape)! });
      for (const entry of current.entries) visit(entry.value, [...at, entry.key], depth + 1);
    }
  };
  visit(node, path, 0);
  return sections.sort((a, b) => a.start - b.start);
}

function deleteValue(edit: TomlEdit, located: Located): OffsetEdit | ManifestChange[] {
  const { node, path, entry, parent } = located;
  if (!parent) throw unsupported('cannot delete the document');
  const parentShape = edit.shape(parent.node, parent.path);
  if (parentShape === 'inline' || parentShape === 'array') {
    const items: (MapEntry | ValueNode)[] = parent.node.kind === 'map' ? parent.node.entries : parent.node.items;
    if (items.length === 1) return [{ op: 'set', path: [...parent.path], value: parent.node.kind === 'map' ? {} : [] }];
    const index = entry ? located.index! : (path[path.length - 1] as number);
    const own = items[index]!;
    const startOf = (item: MapEntry | ValueNode): number => ('keyStart' in item ? item.keyStart : item.start);
    const ownEnd = own.end;
    const lineStart = edit.lines.lineStartOf(startOf(own));
    const after = edit.text.slice(ownEnd, edit.lines.lineEndOf(ownEnd));
    if (
      /^[ \t]*$/.test(edit.text.slice(lineStart, startOf(own))) &&
      /^[ \t]*,?[ \t]*(#.*)?$/.test(after) &&
      parent.node.kind === 'seq'
    ) {
      // An item on its own line of a multi-line array: the line goes, with its comment.
      return edit.lines.splice(lineStart, edit.lines.nextLineStart(ownEnd), '');
    }
    const next = items[index + 1];
    if (next) return edit.lines.splice(startOf(own), startOf(next), '');
    return edit.lines.splice(items[index - 1]!.end, own.end, '');
  }
  // The last element of an array of tables: what stays is an empty array.
  if (parentShape === 'aot' && parent.node.kind === 'seq' && parent.node.items.length === 1)
    return [{ op: 'set', path: [...parent.path], value: [] }];
  const shape = edit.shape(node, path);
  if (shape === 'table' || shape === 'implicit' || shape === 'aot') {
    if (entry && !edit.isHeaderLine(entry.keyStart)) {
      // A key of a table that has sections below it, written in its parent's lines: not a section.
      throw unsupported(`cannot delete ${formatPath(path)}: it is written both as a key and as sections`);
    }
    const sections = sectionsWithin(edit, node, path);
    if (sections.length === 0) throw unsupported(`cannot find the sections of ${formatPath(path)}`);
    // Removing sections reads the whole text (an action asked for, not the path of a keystroke).
    const before = edit.text.toString();
    let text = before;
    for (const section of sections.reverse())
      text = applyEdit(text, new TextLines(text).removeBlock(section.start, section.end));
    const removed = textEdits(before, text)[0];
    if (!removed) return [];
    if (parentShape === 'implicit' && parent.node.kind === 'map' && parent.node.entries.length === 1) {
      // The parent existed only through this table's header: it stays, as an empty table of its own.
      const at =
        edit.lines.lineStartOf(removed.start) === removed.start
          ? removed.start
          : edit.lines.nextLineStart(removed.start);
      const header = `[${headerOf(parent.path)}]${edit.lines.eol}`;
      return {
        start: removed.start,
        end: removed.end,
        newText: at === removed.start ? header + removed.newText : removed.newText + header,
      };
    }
    return removed;
  }
  if (!entry) throw unsupported(`cannot delete ${formatPath(path)}`);
  // A `key = value` line (or dotted keys), with the comment lines directly above it.
  return edit.lines.removeBlock(entry.keyStart, entry.end);
}
