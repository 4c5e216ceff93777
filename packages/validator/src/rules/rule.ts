import type { RawDiagnostic } from '../diagnostic.js';
import type { ReportedElsewhereRule, RuleMeta } from '../rule-meta.js';

export type { ReportedElsewhereRule, RuleMeta };
import type { ManifestLocator } from '../locator.js';
import type { MapEntry, MapNode, ValueNode } from '../document/nodes.js';
import type { KeptEnds } from '../document/spliced-lists.js';

/** An error as ajv reports it. */
export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A schema keyword failure, with the subschema it came from. */
export interface KeywordFailure {
  error: SchemaError;
  /** The subschema holding the failed keyword. */
  schema: Record<string, unknown>;
  /** Subschemas from the root down to `schema`. */
  chain: Record<string, unknown>[];
}

/** Structural rules explain one failed keyword. */
export interface StructureRule<Id extends string = string> extends RuleMeta<Id> {
  kind: 'structure';
  keywords: readonly string[];
  explain(failure: KeywordFailure, context: ManifestLocator): RawDiagnostic[];
}

/** The errors ajv reported for one object under one `x-svc-rule` subschema. */
export interface RuleErrorGroup {
  /** Pointer to the object the rule applies to, e.g. `/triggers/0`. */
  objectPath: string;
  /** The subschema that carries the `x-svc-rule` annotation. */
  anchor: Record<string, unknown>;
  failures: KeywordFailure[];
}

export interface SchemaRule<Id extends string = string> extends RuleMeta<Id> {
  kind: 'schema';
  explain(group: RuleErrorGroup, context: ManifestLocator): RawDiagnostic[];
}

export interface RuleContext extends ManifestLocator {
  version: 1 | 2;
  root: MapNode;
  /** The manifest's plain value (an object: the root is a map). */
  value: Record<string, unknown>;
  /** The version's published schema with every `$ref` inlined. */
  schema: Record<string, unknown>;
  report(diagnostic: RawDiagnostic): void;
  /**
   * Runs `check` for each item of a collection (the top-level entries, the triggers, the
   * agents), where what `check` reports about an item belongs to it: ranges, related places
   * and fixes inside the item's text (`anchor`: its node, or its map entry), nothing read from
   * outside it but what `depends` names (say, the declared names it refers to), and `pointer`
   * is where it is. When the last validation checked the same node at the same place with the
   * same `depends`, its reports are repeated (moved with the node) and `check` does not run:
   * after an edit, a rule checks again only the items the edit changed. `name` tells a rule's
   * collections apart. Pass an `anchor` made once (a constant such as `NODE_ITEM`): a list's
   * anchors are kept per anchor function, so a function made per call maps every item again.
   * `items`: a list, or a sequence node, whose `kept` ends (what an edit kept of its items) let
   * only the items between them be mapped to anchors; pass a sequence's node, not its `items`. A
   * list from the declarations index carries its own kept ends (`keptOf`), so pass it as it is.
   */
  forEachItem<T>(
    name: string,
    items: ItemsOf<T>,
    item: { anchor: (item: T) => MapEntry | ValueNode; pointer: (item: T, index: number) => string },
    check: (item: T, index: number) => void,
    depends?: string,
  ): void;
}

/** The items `forEachItem` goes through: a list (which may carry its kept ends itself), or a collection that carries them (a `SeqNode`). */
export type ItemsOf<T> = readonly T[] | { readonly items: readonly T[]; readonly kept?: KeptEnds };

/** Cross-reference and advice rules run as code over the whole manifest. */
export interface CodeRule<Id extends string = string> extends RuleMeta<Id> {
  kind: 'reference' | 'style';
  check(context: RuleContext): void;
}

export type Rule<Id extends string = string> =
  ReportedElsewhereRule<Id> | StructureRule<Id> | SchemaRule<Id> | CodeRule<Id>;
