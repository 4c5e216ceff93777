import { compareLocatedByPlace, sortedByPlace, type Diagnostic, type RawDiagnostic } from './diagnostic.js';
import { ManifestDocument, type DocumentOptions } from './document/manifest-document.js';
import {
  isArrayIndex,
  findEntry,
  resolveAlias,
  unescapePointerSegment,
  type MapEntry,
  type MapNode,
  type ValueNode,
} from './document/nodes.js';
import { appendAll, keptOf, mapSpliced, type KeptEnds } from './document/spliced-lists.js';
import { partsV2 } from './generated/validators-v2.js';
import { partsV1 } from './generated/validators-v1.js';
import { dereferencedV1, dereferencedV2 } from './generated/schemas.js';
import { ManifestLocator } from './locator.js';
import { isSupportedVersion, type SvcVersion } from './model/versions.js';
import { checkPaths, type ManifestFiles } from './paths.js';
import { applyManifestPolicy, atSeverity, type ManifestPolicy } from './policy/policy.js';
import type { SuppressionSearch } from './policy/suppressions.js';
import { CODE_RULES, SCHEMA_RULES_BY_ID, STRUCTURE_RULES_BY_KEYWORD, severityOf } from './rules/index.js';
import type { RuleContext } from './rules/rule.js';
import { explainSchemaErrors } from './schema-errors.js';
import { absoluteErrors, walkParts, type PartErrors, type SchemaPart } from './schema-parts.js';
import { locatedList, ResultCache, type ValidationWork } from './incremental.js';

export interface ValidationResult {
  /** True when no diagnostic is an error. */
  ok: boolean;
  /** The manifest's `svc_version`, when it is a supported one (1 or 2). */
  version: SvcVersion | null;
  /** The manifest's plain value, when the text could be read. */
  manifest?: unknown;
  /** Sorted by position. */
  diagnostics: Diagnostic[];
  /**
   * For a validation of a document made by `update()`: per diagnostic (the same index), the
   * located form of the last validation it was moved from by the edit (the same diagnostic, its
   * columns the same and every line shifted by as many), when it was moved rather than located
   * anew. A consumer that converted the earlier form can move what it made (the language server
   * reuses its LSP form when no line moved). Absent when none was moved.
   */
  movedFrom?: readonly (Diagnostic | undefined)[];
}

export interface ValidateOptions extends DocumentOptions {
  /**
   * The files around the manifest, for `path-not-found`; absent (the default), paths are not
   * checked. The CLI passes one for a file on disk, the language server for a workspace file.
   */
  files?: ManifestFiles;
  /**
   * The policy to validate under: the severities of our own rules (`off` leaves a rule out), and
   * whether the manifest's suppression comments apply (then their problems are diagnostics too).
   * Absent (the default), every rule has its own severity and comments are only comments. Read a
   * policy file's text with `parsePolicy`; the CLI and the language server find the nearest
   * `.svc-manifest.yaml` and pass `{ rules, inlineSuppressions: true }`.
   */
  policy?: ManifestPolicy;
}

/** The compiled validator of a version, as its tree of parts (the CLI's bundle loads version 1's on first use: scripts/lazy-parts-plugin.mjs). */
function partsFor(version: SvcVersion): SchemaPart {
  return (version === 1 ? partsV1 : partsV2) as SchemaPart;
}

/** The schemas the validators were compiled from, for reading annotations off error paths. */
function schemaFor(version: SvcVersion): Record<string, unknown> {
  return version === 1 ? dereferencedV1() : dereferencedV2();
}

const results = new WeakMap<ManifestDocument, ValidationResult>();

/**
 * Validates a manifest text (or UTF-8 bytes). Never throws for any text: any problem, including
 * with hostile input, comes back as a located diagnostic. (A `policy` option that a policy file
 * could not hold, such as a schema rule turned off, is the caller's mistake: `PolicyError`.)
 */
export function validateManifest(input: string | Uint8Array, options: ValidateOptions = {}): ValidationResult {
  // Nobody can edit this document: nothing of its validation is kept for a next one.
  const document = ManifestDocument.parse(input, options);
  const result = validated(document, false);
  const checked = options.files ? withPathChecks(document, result, options.files) : result;
  return options.policy ? withPolicy(document, checked, options.policy) : checked;
}

/**
 * A result as a policy has it (see `ValidateOptions.policy`): severities set, `off` rules and
 * suppressed problems left out, the suppression comments' problems added in place order, `ok`
 * read again, `movedFrom` lined up with the new list. The same result when the policy changes
 * nothing here. Apply it last, after `withPathChecks`: a comment may suppress a path warning.
 * `suppressions`, the document's search for suppression comments carried over edits
 * (`SuppressionSearch.after`), spares a search of the whole text; without it (or with another
 * document's), the text is searched.
 */
export function withPolicy(
  document: ManifestDocument,
  result: ValidationResult,
  policy: ManifestPolicy,
  suppressions?: SuppressionSearch,
): ValidationResult {
  const outcome = applyManifestPolicy(document, result.diagnostics, policy, suppressions);
  if (outcome === undefined) return result;
  const { diagnostics, from } = outcome;
  const out: ValidationResult = { ...result, ok: !diagnostics.some((d) => d.severity === 'error'), diagnostics };
  if (result.movedFrom) {
    const movedFrom = result.movedFrom;
    // A diagnostic whose severity the policy set is a copy: its earlier form is the earlier
    // diagnostic's copy at the same severity (the one the last validation under this policy gave).
    out.movedFrom = from.map((index, i) => {
      const former = index < 0 ? undefined : movedFrom[index];
      return former && atSeverity(former, diagnostics[i]!.severity);
    });
  } else delete out.movedFrom;
  return out;
}

/**
 * A result with the path check's diagnostics merged in by place, its `movedFrom` lined up with the
 * merged list (a new result: the cached one is left as it is).
 */
export function withPathChecks(
  document: ManifestDocument,
  result: ValidationResult,
  files: ManifestFiles,
): ValidationResult {
  if (!document.root || result.diagnostics.some((d) => d.code === 'yaml-syntax' || d.code === 'toml-syntax'))
    return result;
  const found = checkPaths(document, files);
  if (found.length === 0) return result;
  // Each of the validation's own diagnostics takes its moved-from form along (`movedFrom` is by index).
  const merged = [
    ...result.diagnostics.map((diagnostic, i) => ({ diagnostic, from: result.movedFrom?.[i] })),
    ...found.map((diagnostic) => ({ diagnostic, from: undefined })),
  ];
  merged.sort(({ diagnostic: a }, { diagnostic: b }) => compareLocatedByPlace(a, b));
  const diagnostics = merged.map((entry) => entry.diagnostic);
  return { ...result, diagnostics, ...(result.movedFrom ? { movedFrom: merged.map((entry) => entry.from) } : {}) };
}

/**
 * Validates a parsed document; the result is cached on the document. What it finds is kept for
 * the validation of the document `document.update()` makes next, which re-checks only what the
 * edit changed. A diagnostic the edit did not move is the same object in both results: treat
 * them as read-only.
 */
export function validateDocument(
  document: ManifestDocument,
  options: DocumentValidationOptions = {},
): ValidationResult {
  return validated(document, !options.once, options.probe);
}

/** How {@link validateDocument} runs. */
export interface DocumentValidationOptions {
  /**
   * Filled in with what this validation computed afresh rather than reused (the schema parts
   * validated, the items checked again), when the document was not validated before.
   */
  probe?: ValidationWork;
  /**
   * No one will update this document (the CLI's files, and the copies its fix preview makes):
   * compute everything and keep nothing for a next validation, which saves the bookkeeping.
   */
  once?: boolean;
}

function validated(document: ManifestDocument, keep: boolean, probe?: ValidationWork): ValidationResult {
  let result = results.get(document);
  if (!result) {
    try {
      result = runValidation(document, keep, probe);
    } catch (error) {
      // A bug of ours must not take the caller down: report it where the user can see it.
      result = {
        ok: false,
        version: null,
        diagnostics: [
          document.lines.locate(
            {
              code: 'internal-error',
              message: `the validator failed on this input (${(error as Error)?.message ?? String(error)}); please report this`,
              path: '',
              start: 0,
              end: 0,
            },
            severityOf('internal-error'),
          ),
        ],
      };
    }
    results.set(document, result);
  }
  return result;
}

/** Where a part's anchor was found: in which collection (by pointer), at which index of its items or entries. */
interface PlacedAnchor {
  parentPointer: string;
  index: number;
  anchor: MapEntry | ValueNode;
}

/**
 * Where the anchor of each part's errors was, by the part's error object: walkParts hands on the
 * same object for a member whose errors and pointer did not change (see schema-parts.ts).
 */
const placedAnchors = new WeakMap<PartErrors, PlacedAnchor>();

/**
 * The located node (a map entry for a key) that a schema part's diagnostics are kept with, as
 * `locator.target` finds it, with each parent looked up once per validation (the parts with
 * errors are often many items of one collection). A part's anchor found by the last validation is
 * taken again when it is still at the same index of the same collection: hundreds of kept parts
 * with errors then cost an array read each, not a pointer split, two string lookups and a key search.
 */
export function anchorFinder(locator: ManifestLocator): (found: PartErrors) => MapEntry | ValueNode | undefined {
  const parents = new Map<string, ValueNode | null>();
  const containerAt = (parentPointer: string) => {
    let parent = parents.get(parentPointer);
    if (parent === undefined) {
      const found = locator.target(parentPointer);
      parents.set(parentPointer, (parent = found.exact ? found.node : null));
    }
    return resolveAlias(parent);
  };
  return (found) => {
    const placed = placedAnchors.get(found);
    if (placed) {
      const container = containerAt(placed.parentPointer);
      const atIndex =
        container?.kind === 'seq'
          ? container.items[placed.index]
          : container?.kind === 'map'
            ? container.entries[placed.index]
            : undefined;
      if (atIndex === placed.anchor) return atIndex;
    }
    const pointer = found.pointer;
    if (pointer === '') return undefined;
    const cut = pointer.lastIndexOf('/');
    const parentPointer = pointer.slice(0, cut);
    const container = containerAt(parentPointer);
    const segment = unescapePointerSegment(pointer.slice(cut + 1));
    let anchor: MapEntry | ValueNode | undefined;
    let index = -1;
    if (container?.kind === 'map') {
      anchor = findEntry(container, segment);
      // An entry found through a merge key (`<<`) is in another map: not placed, looked up each time.
      if (anchor) index = container.entries.indexOf(anchor);
    } else if (container?.kind === 'seq' && isArrayIndex(segment)) {
      index = Number(segment);
      anchor = container.items[index];
    }
    if (anchor && index >= 0) placedAnchors.set(found, { parentPointer, index, anchor });
    return anchor;
  };
}

/** An identity for a part's error list, stable while it is the same array. */
const errorIds = new WeakMap<object, string>();
let nextErrorId = 0;
function errorsKey(found: PartErrors): string {
  let id = errorIds.get(found.errors);
  if (id === undefined) errorIds.set(found.errors, (id = String(++nextErrorId)));
  return id;
}

/** The anchors of a list of items, made once per list (the declarations index gives the same list while its collection is unchanged). */
const anchorLists = new WeakMap<(item: never) => unknown, WeakMap<readonly unknown[], (MapEntry | ValueNode)[]>>();
function anchorsOf<T>(
  items: readonly T[],
  anchor: (item: T) => MapEntry | ValueNode,
  kept?: KeptEnds,
): (MapEntry | ValueNode)[] {
  let byList = anchorLists.get(anchor);
  if (!byList) anchorLists.set(anchor, (byList = new WeakMap()));
  let anchors = byList.get(items);
  // A list spliced from one mapped before (an edit of a few items) maps only those items.
  if (!anchors) byList.set(items, (anchors = mapSpliced(items, anchor, (old) => byList.get(old), kept)));
  return anchors;
}

const NOTHING = Object.freeze([]) as unknown as RawDiagnostic[];

export type { ValidationWork };

function runValidation(document: ManifestDocument, keep: boolean, work: ValidationWork | undefined): ValidationResult {
  const raw: RawDiagnostic[] = [...document.diagnostics];
  const value = document.value;
  const root = document.root;
  let version: SvcVersion | null = null;
  if (!document.fatal && root && value !== undefined) {
    const mapRoot = resolveAlias(root);
    if (mapRoot?.kind !== 'map') {
      if (!raw.some((d) => severityOf(d.code) === 'error')) {
        raw.push({
          code: 'not-a-mapping',
          message: 'a manifest is a mapping of keys to values, starting with svc_version',
          path: '',
          start: root.start,
          end: Math.min(root.end, document.lines.lineEnd(document.lines.lineOf(root.start))),
        });
      }
    } else {
      const locator = new ManifestLocator(document, mapRoot);
      // Text that is not YAML gets only its syntax errors: the tree the parser recovered is a
      // guess, and checking it would report the one fault again as missing or mistyped keys.
      const unparsed = raw.some((d) => d.code === 'yaml-syntax');
      version = checkVersion(document, mapRoot, unparsed ? [] : raw);
      if (version && !unparsed) {
        // A one-shot validation keeps nothing for an update that never comes: no cache at all.
        const cache = keep ? new ResultCache(document, work) : undefined;
        checkSchema(document, version, locator, cache, raw, keep ? { validated: work?.schemaParts } : undefined);
        runCodeRules({ version, locator, root: mapRoot, value: value as Record<string, unknown> }, cache, raw);
      }
    }
  } else if (!document.fatal && !root && !raw.some((d) => severityOf(d.code) === 'error')) {
    raw.push(emptyManifest(document));
  }
  const sorted = sortedOnce(raw);
  const located = keep ? locatedList(document, sorted, severityOf) : undefined;
  const diagnostics = located ? located.diagnostics : sorted.map((d) => document.lines.locate(d, severityOf(d.code)));
  const result: ValidationResult = { ok: !diagnostics.some((d) => d.severity === 'error'), version, diagnostics };
  if (located?.movedFrom) result.movedFrom = located.movedFrom;
  if (value !== undefined && !document.fatal) result.manifest = value;
  return result;
}

/**
 * The schema's errors, part by part (schema-parts.ts), explained into `raw`. A part's
 * explanation is reused through `cache` while its errors are the same array (the part's value
 * object is the same); a one-shot validation has no cache and explains every part.
 */
function checkSchema(
  document: ManifestDocument,
  version: SvcVersion,
  locator: ManifestLocator,
  cache: ResultCache | undefined,
  raw: RawDiagnostic[],
  walk: Parameters<typeof walkParts>[4],
): void {
  const schema = schemaFor(version);
  const rules = { structure: STRUCTURE_RULES_BY_KEYWORD, schema: SCHEMA_RULES_BY_ID };
  const anchorAt = anchorFinder(locator);
  // A TOML date or time is no JSON type for the schema (see ManifestDocument.schemaValue).
  walkParts(
    partsFor(version),
    document.schemaValue,
    '',
    (found: PartErrors) => {
      const explain = () => explainSchemaErrors(absoluteErrors(found), schema, locator, rules);
      // Nothing is kept for a one-shot validation: no anchor to keep the explanation with.
      if (!cache) {
        appendAll(raw, explain());
        return;
      }
      const anchor = anchorAt(found);
      appendAll(raw, anchor ? cache.get(anchor, 'explain', found.pointer, explain, errorsKey(found)) : explain());
    },
    walk,
  );
}

/**
 * Every code rule over the tree, reporting into `raw`. What a rule's `forEachItem` check reports
 * about an item is reused through `cache` for the same node at the same place (incremental.ts); a
 * one-shot validation has no cache and checks every item.
 */
function runCodeRules(
  tree: { version: SvcVersion; locator: ManifestLocator; root: MapNode; value: Record<string, unknown> },
  cache: ResultCache | undefined,
  raw: RawDiagnostic[],
): void {
  const context = new CodeRuleContext(tree.locator, tree.root, tree.version, tree.value, raw, cache);
  for (const rule of CODE_RULES) {
    context.rule = rule;
    rule.check(context);
  }
}

/**
 * What the code rules of one validation are handed: one object, of one shape in every
 * validation, the rule being run set on it in turn. (A context made per file and per rule as
 * objects whose prototype was the locator made each file's contexts a shape of their own, so
 * every read of a context's property in every rule missed V8's inline caches.)
 */
class CodeRuleContext extends ManifestLocator implements RuleContext {
  /** The rule being run: what its `forEachItem` checks report is kept under its id. */
  rule: (typeof CODE_RULES)[number] = CODE_RULES[0]!;
  readonly schema: Record<string, unknown>;
  /** Where reports go: `raw`, or the list of the item a kept check is checking. */
  private sink: RawDiagnostic[];
  /** Most items report nothing: they share one spare list (taken while in use, as checks nest). */
  private spare: RawDiagnostic[] | undefined;

  constructor(
    locator: ManifestLocator,
    readonly root: MapNode,
    readonly version: SvcVersion,
    readonly value: Record<string, unknown>,
    raw: RawDiagnostic[],
    private readonly cache: ResultCache | undefined,
  ) {
    super(locator.document, locator.rootNode);
    this.schema = schemaFor(version);
    this.sink = raw;
  }

  readonly report = (diagnostic: RawDiagnostic): void => {
    this.sink.push(diagnostic);
  };

  readonly forEachItem: RuleContext['forEachItem'] = (name, collection, item, check, depends) => {
    const items = 'items' in collection ? collection.items : collection;
    const cache = this.cache;
    // A one-shot validation keeps no item's result: each check reports straight into the sink,
    // in item order as the kept path appends them, without the anchors and slots that keep them.
    if (!cache) {
      for (let index = 0; index < items.length; index++) check(items[index]!, index);
      return;
    }
    // What a rule reports about an item also depends on the version (say, the schema it reads).
    const found = cache.each(
      `${this.rule.id}@${this.version}:${name}`,
      anchorsOf(items, item.anchor, 'items' in collection ? collection.kept : keptOf(collection)),
      (index) => item.pointer(items[index]!, index),
      (index) => {
        const outer = this.sink;
        const collected: RawDiagnostic[] = (this.sink = this.spare ?? []);
        this.spare = undefined;
        try {
          check(items[index]!, index);
        } finally {
          this.sink = outer;
        }
        if (collected.length > 0) return collected;
        this.spare = collected;
        return NOTHING;
      },
      depends,
    );
    appendAll(this.sink, found);
  };
}

/** What a text without a tree and without an error gets: it is empty; the fix adds `svc_version`. */
function emptyManifest(document: ManifestDocument): RawDiagnostic {
  return {
    code: 'not-a-mapping',
    message: 'the manifest is empty; it needs at least svc_version',
    path: '',
    start: 0,
    end: 0,
    // At the end: after any comments and a lone `---`, so the file stays one document.
    fixes: [
      {
        title: 'Add svc_version: 2',
        edits: [
          {
            start: document.text.length,
            end: document.text.length,
            newText:
              (document.text.length > 0 && !document.text.endsWith('\n') ? '\n' : '') +
              (document.format === 'toml' ? 'svc_version = 2\n' : 'svc_version: 2\n'),
          },
        ],
      },
    ],
  };
}

/** Reads `svc_version`, reporting a missing or unsupported one. */
function checkVersion(document: ManifestDocument, root: MapNode, raw: RawDiagnostic[]): SvcVersion | null {
  const entry = findEntry(root, 'svc_version');
  const toml = document.format === 'toml';
  if (!entry) {
    const first = root.entries[0];
    const at = first ? first.keyStart : root.start;
    const lineStart = document.lines.lineStart(document.lines.lineOf(at));
    raw.push({
      code: 'svc-version',
      message: "missing 'svc_version': add svc_version: 2 (or 1 for the legacy shape) so the manifest can be checked",
      path: '',
      start: first ? first.keyStart : root.start,
      end: first ? first.keyEnd : root.start,
      fixes: [
        {
          title: 'Add svc_version: 2',
          edits: [{ start: lineStart, end: lineStart, newText: toml ? 'svc_version = 2\n' : 'svc_version: 2\n' }],
        },
      ],
    });
    return null;
  }
  const node = resolveAlias(entry.value);
  const value = node?.kind === 'scalar' ? node.value : undefined;
  if (isSupportedVersion(value)) return value;
  const shown =
    node?.kind === 'scalar'
      ? value === null
        ? 'nothing'
        : typeof value === 'string'
          ? `the string '${value}'`
          : String(value)
      : 'a collection';
  const fixable = typeof value === 'string' && /^\s*[12](\.0*)?\s*$/.test(value);
  raw.push({
    code: 'svc-version',
    message: `svc_version must be the number 1 or 2, not ${shown}`,
    path: '/svc_version',
    start: node && node.start !== node.end ? node.start : entry.keyStart,
    end: node && node.start !== node.end ? node.end : entry.keyEnd,
    fixes:
      fixable && node
        ? [
            {
              title: `Change to ${parseInt(String(value), 10)}`,
              edits: [{ start: node.start, end: node.end, newText: String(parseInt(String(value), 10)) }],
            },
          ]
        : undefined,
  });
  return null;
}

/**
 * Sorted by position (then code), each diagnostic once: of those with the same code, range and
 * message, the first reported. The sort is stable, so the first reported of such a group is the
 * first of its run of equal positions and code, where it is looked for.
 */
function sortedOnce(diagnostics: RawDiagnostic[]): RawDiagnostic[] {
  const sorted = sortedByPlace(diagnostics);
  const once: RawDiagnostic[] = [];
  let messages = new Set<string>();
  for (let i = 0; i < sorted.length; i++) {
    const d = sorted[i]!;
    const previous = sorted[i - 1];
    if (!previous || previous.start !== d.start || previous.end !== d.end || previous.code !== d.code) {
      if (messages.size) messages = new Set();
    } else if (messages.size === 0) {
      messages.add(previous.message);
    }
    // A run of one (the usual case) needs no set.
    if (messages.has(d.message)) continue;
    if (messages.size) messages.add(d.message);
    once.push(d);
  }
  return once;
}
