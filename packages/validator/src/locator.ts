import type { OffsetEdit, RawDiagnostic, RuleCode } from './diagnostic.js';
import type { ManifestDocument } from './document/manifest-document.js';
import {
  isArrayIndex,
  findEntry,
  nodeAtPointer,
  pointerSegments,
  resolveAlias,
  toPointer,
  type MapEntry,
  type MapNode,
  type ValueNode,
} from './document/nodes.js';
import { planChange } from './edit/engine.js';
import type { ManifestChange, PathSegment } from './edit/changes.js';
import { formatScalar, insertEntry, removeEntry, renameKey, replaceValue } from './fixes.js';

/** A located diagnostic in the making: everything but the rule id. */
export interface Finding {
  message: string;
  path: string;
  start: number;
  end: number;
  related?: RawDiagnostic['related'];
  fixes?: RawDiagnostic['fixes'];
}

/**
 * Answers "where is this in the user's text?" for rules: ranges of keys, values and objects
 * named by JSON pointers, and the edits behind quick fixes.
 */
export class ManifestLocator {
  constructor(
    readonly document: ManifestDocument,
    readonly rootNode: ValueNode,
  ) {}

  get format(): 'yaml' | 'toml' {
    return this.document.format;
  }

  diagnostic(code: RuleCode, finding: Finding): RawDiagnostic {
    return { code, ...finding };
  }

  /** The node at a pointer, or the deepest existing node on the way. */
  target(pointer: string): { node: ValueNode; entry?: MapEntry; exact: boolean } {
    return nodeAtPointer(this.rootNode, pointer);
  }

  /** The entry for the last segment of `pointer`, with the map that holds it. */
  entryAt(pointer: string): { map: MapNode; entry: MapEntry } | undefined {
    const segments = pointerSegments(pointer);
    if (segments.length === 0) return undefined;
    const parent = resolveAlias(this.target(toPointer(segments.slice(0, -1))).node);
    if (parent?.kind !== 'map') return undefined;
    const key = segments[segments.length - 1]!;
    // The entry the value uses; for a key that was left out of it (a duplicate, an unsafe key), the first such entry.
    const entry = findEntry(parent, key) ?? parent.entries.find((e) => e.key === key);
    return entry ? { map: parent, entry } : undefined;
  }

  /** The key's characters for a map key; the value's for a sequence item. */
  keyRange(pointer: string): [number, number] {
    const found = this.entryAt(pointer);
    if (found) return [found.entry.keyStart, found.entry.keyEnd];
    return this.valueRange(pointer);
  }

  /** The value's characters; for an empty value (`key:`), the key's. */
  valueRange(pointer: string): [number, number] {
    const { node, entry, exact } = this.target(pointer);
    if (!exact) return this.headRange(node, entry);
    if (node.start === node.end && entry) return [entry.keyStart, entry.keyEnd];
    if (node.kind === 'map' || node.kind === 'seq') {
      if (!node.flow) return this.headRange(node, entry);
    }
    return [node.start, node.end];
  }

  /**
   * Where to point for something wrong with a whole object (a missing key): the key that
   * holds it, or for a sequence item or the root, the object's first line.
   */
  objectRange(pointer: string): [number, number] {
    const { node, entry } = this.target(pointer);
    return this.headRange(node, entry);
  }

  private headRange(node: ValueNode, entry: MapEntry | undefined): [number, number] {
    if (entry) return [entry.keyStart, entry.keyEnd];
    const lines = this.document.lines;
    let start = node.start;
    if (node.kind === 'map' && node.entries[0] && !node.flow) start = node.entries[0].keyStart;
    const end = Math.min(node.end, lines.lineEnd(lines.lineOf(start)));
    return [start, Math.max(start, end)];
  }

  /** The plain-JS value at a pointer in the located tree (scalars only; collections give undefined). */
  scalarAt(pointer: string): unknown {
    const { node, exact } = this.target(pointer);
    const resolved = resolveAlias(node);
    return exact && resolved?.kind === 'scalar' ? resolved.value : undefined;
  }

  // ---- quick fixes -------------------------------------------------------------------
  // Planned by the editing engine (`edit/`), the one that makes the applier's edits; where it
  // has no single splice for the change (through an alias, a duplicate key, the last key of
  // a block map), the builders in `fixes.ts` make the edit.

  /** The path segments of a pointer in this tree (sequence indexes as numbers); undefined when it leaves the tree. */
  private pathOf(pointer: string): PathSegment[] | undefined {
    const path: PathSegment[] = [];
    let node: ValueNode | null = this.rootNode;
    for (const segment of pointerSegments(pointer)) {
      const container = resolveAlias(node);
      if (container?.kind === 'map') {
        path.push(segment);
        node = findEntry(container, segment)?.value ?? null;
      } else if (container?.kind === 'seq' && isArrayIndex(segment)) {
        path.push(Number(segment));
        node = container.items[Number(segment)] ?? null;
      } else {
        return undefined;
      }
    }
    return path;
  }

  /** The engine's single splice for `change`, when it has one. */
  private planned(change: ManifestChange | undefined): OffsetEdit | undefined {
    if (!change) return undefined;
    try {
      const plan = planChange(this.document, change);
      if (Array.isArray(plan) || (plan.start === plan.end && plan.newText === '')) return undefined;
      return plan;
    } catch {
      return undefined;
    }
  }

  private change(pointer: string, make: (path: PathSegment[]) => ManifestChange): ManifestChange | undefined {
    const path = this.pathOf(pointer);
    return path ? make(path) : undefined;
  }

  removeKeyFix(pointer: string, title?: string): RawDiagnostic['fixes'] {
    const found = this.entryAt(pointer);
    // A key a merge key brings in (`<<: *base`) is not the map's to remove: taking it out of the
    // merged map changes every map that merges it, and may leave an empty value no merge takes.
    if (!found || !found.map.entries.includes(found.entry)) return undefined;
    const planned =
      found.entry.ignored || found.entry.merge
        ? undefined
        : this.planned(this.change(pointer, (path) => ({ op: 'delete', path })));
    return [
      {
        title: title ?? `Remove '${found.entry.key}'`,
        edits: [planned ?? removeEntry(this.document, found.map, found.entry)],
      },
    ];
  }

  renameKeyFix(pointer: string, newKey: string): RawDiagnostic['fixes'] {
    const found = this.entryAt(pointer);
    if (!found) return undefined;
    const planned =
      found.entry.ignored || found.entry.merge
        ? undefined
        : this.planned(this.change(pointer, (path) => ({ op: 'rename', path, to: newKey })));
    return [
      {
        title: `Change '${found.entry.key}' to '${newKey}'`,
        edits: [planned ?? renameKey(found.entry, newKey, this.format)],
      },
    ];
  }

  replaceValueFix(pointer: string, value: string | number | boolean, title?: string): RawDiagnostic['fixes'] {
    const { node, exact } = this.target(pointer);
    if (!exact || node.kind === 'map' || node.kind === 'seq' || node.start === node.end) return undefined;
    const planned = this.planned(this.change(pointer, (path) => ({ op: 'set', path, value })));
    return [
      { title: title ?? `Change to '${String(value)}'`, edits: [planned ?? replaceValue(node, value, this.format)] },
    ];
  }

  insertKeyFix(
    objectPointer: string,
    key: string,
    value: string | number | boolean,
    title?: string,
  ): RawDiagnostic['fixes'] {
    const { node, exact } = this.target(objectPointer);
    const map = resolveAlias(node);
    if (!exact || map?.kind !== 'map') return undefined;
    const planned = this.planned(this.change(objectPointer, (path) => ({ op: 'set', path: [...path, key], value })));
    const edit: OffsetEdit | undefined =
      planned ?? insertEntry(this.document, map, key, formatScalar(value, this.format));
    return edit ? [{ title: title ?? `Add '${key}'`, edits: [edit] }] : undefined;
  }
}
