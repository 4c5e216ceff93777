import { parseTOML, type AST } from 'toml-eslint-parser';
import type { RawDiagnostic } from '../diagnostic.js';
import { escapePointerSegment, type MapEntry, type MapNode, type ScalarNode, type SeqNode, type TomlDateTimeType, type ValueNode } from './nodes.js';
import { checkMapKeys } from './tree-builder.js';
import type { ParsedFragment } from './parse-yaml.js';

/**
 * Parses TOML into the same located tree as YAML. Tables (`[a.b]`), arrays of tables
 * (`[[a]]`), dotted keys and inline tables all become maps and sequences whose keys point
 * at the key text in the file. TOML has no error recovery: a syntax error gives no tree.
 */
export function parseTomlFragment(text: string, base = 0): ParsedFragment {
  let program: AST.TOMLProgram;
  try {
    program = parseTOML(text);
  } catch (error) {
    const problem = error as { message?: string; index?: number };
    const index = typeof problem.index === 'number' ? problem.index : 0;
    const lineEnd = text.indexOf('\n', index);
    const atLineEnd = text[index] === '\n' || (text[index] === '\r' && text[index + 1] === '\n') || index >= text.length;
    const end = atLineEnd ? index : Math.min(index + 1, lineEnd === -1 ? text.length : lineEnd);
    const message = String(problem.message ?? error);
    return {
      root: null,
      aliasCount: 0,
      diagnostics: [
        {
          // The TOML parser stops at a redefined key or table; name it like the YAML duplicate.
          code: /multiple times|defined twice|already defined/i.test(message) ? 'duplicate-key' : 'toml-syntax',
          message: message.charAt(0).toLowerCase() + message.slice(1),
          path: '',
          start: base + index,
          end: base + end,
        },
      ],
    };
  }
  const builder = new TomlTreeBuilder(base);
  const root = builder.build(program, text.length);
  const diagnostics: RawDiagnostic[] = [];
  builder.checkKeys(root, '', diagnostics);
  return { root, diagnostics, aliasCount: 0, hasDateTimes: builder.hasDateTimes };
}

const TOML_DATE_TIME_TYPES: Record<'offset-date-time' | 'local-date-time' | 'local-date' | 'local-time', TomlDateTimeType> = {
  'offset-date-time': 'offset date-time',
  'local-date-time': 'local date-time',
  'local-date': 'local date',
  'local-time': 'local time',
};

class TomlTreeBuilder {
  /** Whether any value is a date or time. */
  hasDateTimes = false;
  /** Entries by key for each map being built: a file with thousands of tables stays linear. */
  private readonly keys = new Map<MapNode, Map<string, MapEntry>>();

  constructor(private readonly base: number) {}

  private lookup(map: MapNode, key: string): MapEntry | undefined {
    return this.keys.get(map)?.get(key);
  }

  /** Adds an entry; the first entry of a key stays the one found by lookup (TOML forbids redefinitions anyway). */
  private add(map: MapNode, entry: MapEntry): void {
    map.entries.push(entry);
    let byKey = this.keys.get(map);
    if (!byKey) this.keys.set(map, (byKey = new Map()));
    if (!byKey.has(entry.key)) byKey.set(entry.key, entry);
  }

  build(program: AST.TOMLProgram, length: number): MapNode {
    const root: MapNode = { kind: 'map', flow: false, entries: [], start: this.base, end: this.base + length };
    const top = program.body[0];
    if (!top) return root;
    for (const item of top.body) {
      if (item.type === 'TOMLKeyValue') this.assign(root, item);
      else this.table(root, item);
    }
    return root;
  }

  /** Reports repeated keys everywhere in the tree (TOML rejects most duplicates itself). */
  checkKeys(node: ValueNode, pointer: string, diagnostics: RawDiagnostic[]): void {
    if (node.kind === 'map') {
      checkMapKeys(node.entries, pointer, diagnostics);
      for (const entry of node.entries) this.checkKeys(entry.value, `${pointer}/${escapePointerSegment(entry.key)}`, diagnostics);
    } else if (node.kind === 'seq') {
      node.items.forEach((item, index) => this.checkKeys(item, `${pointer}/${index}`, diagnostics));
    }
  }

  private keyName(key: AST.TOMLBare | AST.TOMLQuoted): string {
    return key.type === 'TOMLBare' ? key.name : key.value;
  }

  private at(node: { range: [number, number] }): [number, number] {
    return [this.base + node.range[0], this.base + node.range[1]];
  }

  /** The map at `segments` below `map`, creating implicit tables on the way; `around` sizes new ones. */
  private descend(map: MapNode, keys: (AST.TOMLBare | AST.TOMLQuoted)[], around: [number, number]): MapNode {
    let current = map;
    for (const key of keys) {
      const name = this.keyName(key);
      let entry = this.lookup(current, name);
      if (!entry) {
        const [keyStart, keyEnd] = this.at(key);
        const child: MapNode = { kind: 'map', flow: false, entries: [], start: around[0], end: around[1] };
        entry = { key: name, keyStart, keyEnd, value: child, start: keyStart, end: around[1] };
        this.add(current, entry);
      }
      let value = entry.value;
      // Descending into an array of tables continues in its last table.
      if (value.kind === 'seq') value = value.items[value.items.length - 1] ?? value;
      if (value.kind !== 'map') return current;
      extend(value, around);
      entry.end = Math.max(entry.end, around[1]);
      current = value;
    }
    return current;
  }

  private table(root: MapNode, table: AST.TOMLTable): void {
    const keys = table.key.keys;
    const range = this.at(table);
    const parent = this.descend(root, keys.slice(0, -1), range);
    const last = keys[keys.length - 1]!;
    const name = this.keyName(last);
    const [keyStart, keyEnd] = this.at(last);
    const node: MapNode = { kind: 'map', flow: false, entries: [], start: range[0], end: range[1] };
    const existing = this.lookup(parent, name);
    if (table.kind === 'array') {
      if (existing?.value.kind === 'seq') {
        existing.value.items.push(node);
        existing.value.end = Math.max(existing.value.end, range[1]);
        existing.end = Math.max(existing.end, range[1]);
      } else {
        const seq: SeqNode = { kind: 'seq', flow: false, items: [node], start: range[0], end: range[1] };
        this.add(parent, { key: name, keyStart, keyEnd, value: seq, start: keyStart, end: range[1] });
      }
    } else if (existing?.value.kind === 'map') {
      // A table first created implicitly by a sub-table header (`[a.b]` before `[a]`).
      extend(existing.value, range);
      for (const kv of table.body) this.assign(existing.value, kv);
      return;
    } else {
      this.add(parent, { key: name, keyStart, keyEnd, value: node, start: keyStart, end: range[1] });
    }
    for (const kv of table.body) this.assign(node, kv);
  }

  private assign(table: MapNode, kv: AST.TOMLKeyValue): void {
    const keys = kv.key.keys;
    const range = this.at(kv);
    const parent = this.descend(table, keys.slice(0, -1), range);
    const last = keys[keys.length - 1]!;
    const [keyStart, keyEnd] = this.at(last);
    const value = this.value(kv.value);
    this.add(parent, { key: this.keyName(last), keyStart, keyEnd, value, start: keyStart, end: range[1] });
  }

  private value(node: AST.TOMLContentNode): ValueNode {
    const [start, end] = this.at(node);
    if (node.type === 'TOMLArray') {
      return { kind: 'seq', flow: true, items: node.elements.map((element) => this.value(element)), start, end };
    }
    if (node.type === 'TOMLInlineTable') {
      const map: MapNode = { kind: 'map', flow: true, entries: [], start, end };
      for (const kv of node.body) this.assign(map, kv);
      return map;
    }
    let value: ScalarNode['value'];
    let style: ScalarNode['style'] = 'plain';
    switch (node.kind) {
      case 'string':
        value = node.value;
        style = 'quoted';
        break;
      case 'integer':
      case 'float':
        value = Number(node.value);
        break;
      case 'boolean':
        value = node.value;
        break;
      default: {
        // TOML dates and times are types of their own, not strings: the node keeps their text
        // as written and says which type it is, and the plain value gets a TomlDateTime.
        this.hasDateTimes = true;
        const text = (node as { datetime?: string }).datetime ?? String(node.value);
        return { kind: 'scalar', value: text, style, start, end, tomlType: TOML_DATE_TIME_TYPES[node.kind] };
      }
    }
    return { kind: 'scalar', value, style, start, end };
  }
}

function extend(node: MapNode, range: [number, number]): void {
  node.start = Math.min(node.start, range[0]);
  node.end = Math.max(node.end, range[1]);
}

export type { MapEntry };
