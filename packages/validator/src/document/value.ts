import type { RawDiagnostic } from '../diagnostic.js';
import { effectiveEntries, type AliasNode, type TomlDateTimeType, type ValueNode } from './nodes.js';
import { mapSpliced } from './spliced-lists.js';

/**
 * A TOML offset date-time, local date-time, local date or local time in the plain value.
 * TOML 1.0 gives these types of their own: such a value is not a string, so where the schema
 * wants a string (or anything but "any value") it is a type error that names the TOML type.
 * Serialises (`JSON.stringify`) as its text, the way TOML-to-JSON converters write it.
 */
export class TomlDateTime {
  constructor(
    readonly type: TomlDateTimeType,
    readonly text: string,
  ) {
    Object.freeze(this);
  }

  /** `a TOML local time`. */
  get description(): string {
    return `a TOML ${this.type}`;
  }

  toJSON(): string {
    return this.text;
  }

  toString(): string {
    return this.text;
  }
}

/**
 * What the JSON Schema validator sees in place of a TOML date or time: a value of no JSON
 * type (not a string, number, boolean, null, array or object), so every `type`, `enum` and
 * `const` refuses it and only "any value" (`{}`) accepts it, as with Python's `tomllib`
 * values under python-jsonschema.
 */
export const OPAQUE_FOR_SCHEMA: () => void = Object.freeze(function tomlDateTime(): void {});

/** A map's plain value: no prototype, so every key (`__proto__`, `constructor`) is plain data. */
export function newObject(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

export interface BuiltValue {
  value: unknown;
  /** The value to hand to the schema validator: `value` itself unless it holds TOML dates or times. */
  schemaValue: unknown;
  diagnostics: RawDiagnostic[];
}

/**
 * Builds the plain JSON-like value of a located tree: what ajv and the rules check. Anchored
 * values are built once and shared by their aliases; before building, the size the value
 * would have with aliases expanded is measured, so an alias bomb is refused, not expanded.
 * Maps become null-prototype objects: no key can reach `Object.prototype`.
 */
/**
 * Plain values of collections by tree node, kept along a document's updates: a node that moved
 * (offsets shifted in place) but did not change gets the same value object again. Only for
 * trees whose nodes never change their content (TOML block trees, joined by copying).
 */
export interface ValueMemo {
  /** By node, and for a sequence also by its items list (a list spliced from it then builds only its new items). */
  value: WeakMap<ValueNode | readonly ValueNode[], unknown>;
  schema: WeakMap<ValueNode | readonly ValueNode[], unknown>;
}

export function buildValue(
  root: ValueNode,
  options: { maxExpandedNodes: number; hasAliases: boolean; hasDateTimes?: boolean; memo?: ValueMemo },
): BuiltValue {
  const diagnostics: RawDiagnostic[] = [];
  if (options.hasAliases) {
    const problem = checkAliasExpansion(root, options.maxExpandedNodes);
    if (problem) return { value: undefined, schemaValue: undefined, diagnostics: [problem] };
  }
  const value = toValue(root, new Map(), false, options.memo?.value);
  const schemaValue = options.hasDateTimes ? toValue(root, new Map(), true, options.memo?.schema) : value;
  return { value, schemaValue, diagnostics };
}

function toValue(
  node: ValueNode,
  memo: Map<ValueNode, unknown>,
  forSchema: boolean,
  shared?: WeakMap<ValueNode | readonly ValueNode[], unknown>,
): unknown {
  switch (node.kind) {
    case 'scalar':
      if (node.tomlType) return forSchema ? OPAQUE_FOR_SCHEMA : new TomlDateTime(node.tomlType, String(node.value));
      return node.value;
    case 'alias':
      return node.target ? aliasValue(node.target, memo, forSchema) : null;
    case 'seq': {
      const known = shared?.get(node);
      if (known !== undefined) return known;
      // Items spliced from a list whose value is kept (an edited array of tables): only the new items are built.
      const list = shared
        ? mapSpliced(
            node.items,
            (item) => toValue(item, memo, forSchema, shared),
            (old) => shared.get(old) as unknown[] | undefined,
            node.kept,
          )
        : node.items.map((item) => toValue(item, memo, forSchema, shared));
      shared?.set(node, list);
      shared?.set(node.items, list);
      return list;
    }
    case 'map': {
      const known = shared?.get(node);
      if (known !== undefined) return known;
      const object = newObject();
      for (const entry of effectiveEntries(node)) object[entry.key] = toValue(entry.value, memo, forSchema, shared);
      shared?.set(node, object);
      return object;
    }
  }
}

function aliasValue(target: ValueNode, memo: Map<ValueNode, unknown>, forSchema: boolean): unknown {
  if (memo.has(target)) return memo.get(target);
  const value = toValue(target, memo, forSchema);
  memo.set(target, value);
  return value;
}

/**
 * Measures the expanded size of the value (nodes counted once per path that reaches them)
 * and detects alias cycles. Returns a diagnostic at the alias that crosses the limit.
 */
function checkAliasExpansion(root: ValueNode, maxExpandedNodes: number): RawDiagnostic | null {
  const sizes = new Map<ValueNode, number>();
  const active = new Set<ValueNode>();
  let problem: RawDiagnostic | null = null;

  /** Reports the crossing at the alias that brought it in: `node` itself, or the alias a map merges. */
  const tooLarge = (node: ValueNode): void => {
    if (problem) return;
    const alias = blamedAlias(node);
    problem = {
      code: 'alias-expansion',
      message: `${alias ? `alias '*${alias.name}'` : 'aliases'} expand${alias ? 's' : ''} the manifest past ${maxExpandedNodes} values; aliases may not multiply the document (an "alias bomb")`,
      path: '',
      start: (alias ?? node).start,
      end: (alias ?? node).end,
    };
  };

  const size = (node: ValueNode): number => {
    if (problem) return 0;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (active.has(node)) {
      const alias = node as AliasNode;
      problem = {
        code: 'alias-cycle',
        message: `alias '*${alias.kind === 'alias' ? alias.name : ''}' refers to a value that contains itself`,
        path: '',
        start: node.start,
        end: node.end,
      };
      return 0;
    }
    active.add(node);
    let total = 1;
    if (node.kind === 'alias') {
      if (node.target) {
        if (active.has(node.target)) {
          problem = {
            code: 'alias-cycle',
            message: `alias '*${node.name}' refers to a value that contains itself`,
            path: '',
            start: node.start,
            end: node.end,
          };
        } else total = size(node.target);
      }
      if (!problem && total > maxExpandedNodes) {
        problem = {
          code: 'alias-expansion',
          message: `alias '*${node.name}' expands the manifest past ${maxExpandedNodes} values; aliases may not multiply the document (an "alias bomb")`,
          path: '',
          start: node.start,
          end: node.end,
        };
      }
    } else if (node.kind === 'seq') {
      for (const item of node.items) {
        total += size(item);
        if (total > maxExpandedNodes) {
          tooLarge(item);
          break;
        }
      }
    } else if (node.kind === 'map') {
      // Stop as soon as the bound is crossed: maps that each merge a large map cost their
      // merged entries to list, so the work stays bounded by the limit, not the file.
      for (const entry of effectiveEntries(node)) {
        total += 1 + size(entry.value);
        if (total > maxExpandedNodes) {
          tooLarge(entry.value);
          break;
        }
      }
    }
    active.delete(node);
    sizes.set(node, total);
    return total;
  };

  const total = size(root);
  if (!problem && total > maxExpandedNodes) {
    problem = {
      code: 'alias-expansion',
      message: `aliases expand the manifest past ${maxExpandedNodes} values; aliases may not multiply the document (an "alias bomb")`,
      path: '',
      start: root.start,
      end: root.start,
    };
  }
  return problem;
}

/** The alias responsible for a node's size: the node, or the first alias a map merges (`<<: *big`). */
function blamedAlias(node: ValueNode): AliasNode | undefined {
  if (node.kind === 'alias') return node;
  if (node.kind !== 'map') return undefined;
  for (const entry of node.entries) {
    if (!entry.merge) continue;
    if (entry.value.kind === 'alias') return entry.value;
    if (entry.value.kind === 'seq') return entry.value.items.find((item): item is AliasNode => item.kind === 'alias');
  }
  return undefined;
}
