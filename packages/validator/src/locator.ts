import type { OffsetEdit, RawDiagnostic, RuleCode } from './diagnostic.js';
import type { ManifestDocument } from './document/manifest-document.js';
import { findEntry, nodeAtPointer, pointerSegments, resolveAlias, toPointer, type MapEntry, type MapNode, type ValueNode } from './document/nodes.js';
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

  removeKeyFix(pointer: string, title?: string): RawDiagnostic['fixes'] {
    const found = this.entryAt(pointer);
    if (!found) return undefined;
    return [{ title: title ?? `Remove '${found.entry.key}'`, edits: [removeEntry(this.document, found.map, found.entry)] }];
  }

  renameKeyFix(pointer: string, newKey: string): RawDiagnostic['fixes'] {
    const found = this.entryAt(pointer);
    if (!found) return undefined;
    return [{ title: `Change '${found.entry.key}' to '${newKey}'`, edits: [renameKey(found.entry, newKey, this.format)] }];
  }

  replaceValueFix(pointer: string, value: string | number | boolean, title?: string): RawDiagnostic['fixes'] {
    const { node, exact } = this.target(pointer);
    if (!exact || node.kind === 'map' || node.kind === 'seq' || node.start === node.end) return undefined;
    return [{ title: title ?? `Change to '${String(value)}'`, edits: [replaceValue(node, value, this.format)] }];
  }

  insertKeyFix(objectPointer: string, key: string, value: string | number | boolean, title?: string): RawDiagnostic['fixes'] {
    const { node, exact } = this.target(objectPointer);
    const map = resolveAlias(node);
    if (!exact || map?.kind !== 'map') return undefined;
    const edit: OffsetEdit | undefined = insertEntry(this.document, map, key, formatScalar(value, this.format));
    return edit ? [{ title: title ?? `Add '${key}'`, edits: [edit] }] : undefined;
  }
}
