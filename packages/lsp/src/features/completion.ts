/**
 * Completion: keys valid where the cursor is (for the document's `svc_version`, minus keys
 * already written), enum values, `svc_cli` permission names, references to declared agents,
 * connectors and templates, and snippets for whole triggers and connectors. The cursor's place
 * comes from the text (see cursor-context), names from the last tree that parsed.
 */
import {
  CompletionItemKind,
  CompletionItemTag,
  InsertTextFormat,
  InsertTextMode,
  MarkupKind,
  type CompletionItem,
  type CompletionList,
  type Position,
} from 'vscode-languageserver';
import { cursorContext, type CursorContext } from '../cursor-context.js';
import { hasNewerText, textOf, valueAt, type DocumentState } from '../document-state.js';
import { throwIfCancelled, type FeatureContext } from '../feature-context.js';
import { nameIndex, referenceKindAt, type NameKind } from '../manifest-model.js';
import { lspLines, offsetAt, rangeAt } from '../positions.js';
import {
  aliasPairsAt,
  describe,
  enumValues,
  keysAt,
  schemasAt,
  valueSchemasAt,
  valueShape,
  type PathSegment,
  type SvcVersion,
} from '../schema-model.js';
import { effectiveVersion } from '../schema-pinning.js';
import { isPlainYamlString, renderSnippet, snippetSpecs } from '../snippets.js';
import { SCHEMA_URLS } from '@svc-manifest/schema';
import { ManifestDocument } from '@svc-manifest/validator/library';
import { CompletionRequest } from 'vscode-languageserver';
import { handle, type Feature } from '../feature.js';

export interface CompletionParamsLike {
  position: Position;
}

const EMPTY: CompletionList = { isIncomplete: false, items: [] };

/**
 * Completion at a position. `state` may carry a text newer than its parsed document
 * (`state.text`): the place and ranges come from that text, names and values from the tree.
 */
export function completion(
  state: DocumentState,
  params: CompletionParamsLike,
  context?: FeatureContext,
): CompletionList {
  const offset = offsetAt(state, params.position);
  const cursor = cursorContext(textOf(state), offset, state.format, lspLines(state));
  if (!cursor) return EMPTY;
  throwIfCancelled(context);
  const version = effectiveVersion(state);
  const names = namesDocument(state, offset);
  const items: CompletionItem[] = [];
  if (cursor.kind === 'key') {
    const arrayPath = cursor.freshItem ? cursor.path.slice(0, -1) : cursor.path;
    const keys = keysAt(version, cursor.path, valueAt(state, cursor.path));
    if (cursor.freshItem && keys.length === 0) {
      // `- x` in an array of names: an item, not a key.
      items.push(...valueItems(state, names, version, { ...cursor, kind: 'item', path: arrayPath }));
    } else if (cursor.header) {
      items.push(...headerItems(state, version, cursor));
    } else {
      items.push(...keyItems(state, version, cursor, keys));
    }
    items.push(...snippetItems(state, names, cursor, arrayPath));
  } else {
    items.push(...valueItems(state, names, version, cursor));
  }
  return { isIncomplete: false, items };
}

function keyItems(
  state: DocumentState,
  version: SvcVersion,
  cursor: CursorContext,
  keys: ReturnType<typeof keysAt>,
): CompletionItem[] {
  const present = new Set(cursor.present);
  for (const [a, b] of aliasPairsAt(version, cursor.path)) {
    if (present.has(a)) present.add(b);
    if (present.has(b)) present.add(a);
  }
  const range = rangeAt(state, cursor.replaceStart, cursor.replaceEnd);
  const items: CompletionItem[] = [];
  keys.forEach((key, index) => {
    if (present.has(key.name)) return;
    const shape = valueShape(key.schema);
    let newText: string;
    if (cursor.flow) {
      newText = state.format === 'toml' ? `${key.name} = ` : `${key.name}: `;
    } else if (state.format === 'toml') {
      // At the top a table or an array of tables starts a section; deeper, a plain `key = `.
      const top = cursor.path.length === 0;
      if (top && shape === 'object') newText = `[${key.name}]\n`;
      else if (top && shape === 'array' && isArrayOfObjects(version, [key.name])) newText = `[[${key.name}]]\n`;
      else newText = `${key.name} = `;
    } else if (shape === 'object') {
      newText = `${key.name}:\n${' '.repeat(cursor.column + 2)}`;
    } else if (shape === 'array' && isArrayOfObjects(version, [...cursor.path, key.name])) {
      newText = `${key.name}:\n${' '.repeat(cursor.column + 2)}- `;
    } else {
      newText = `${key.name}: `;
    }
    const documentation = describe(key.schema);
    const item: CompletionItem = {
      label: key.name,
      kind: CompletionItemKind.Property,
      sortText: String(index).padStart(3, '0'),
      filterText: key.name,
      textEdit: { range, newText },
      insertTextFormat: InsertTextFormat.PlainText,
      insertTextMode: InsertTextMode.asIs,
    };
    if (documentation) item.documentation = { kind: MarkupKind.Markdown, value: documentation };
    if (key.deprecatedBy) {
      item.tags = [CompletionItemTag.Deprecated];
      item.detail = `deprecated: use ${key.deprecatedBy}`;
    }
    items.push(item);
  });
  return items;
}

/** A TOML table header being typed (`[tri|`): keys that hold a table or an array of tables. */
function headerItems(state: DocumentState, version: SvcVersion, cursor: CursorContext): CompletionItem[] {
  const range = rangeAt(state, cursor.replaceStart, cursor.replaceEnd);
  return keysAt(version, cursor.path)
    .filter((key) => valueShape(key.schema) !== 'scalar')
    .map((key) => ({
      label: key.name,
      kind: CompletionItemKind.Module,
      textEdit: { range, newText: key.name },
      documentation: describe(key.schema) ? { kind: MarkupKind.Markdown, value: describe(key.schema)! } : undefined,
    }));
}

function isArrayOfObjects(version: SvcVersion, path: PathSegment[]): boolean {
  return schemasAt(version, [...path, 0]).some((schema) => valueShape(schema) === 'object');
}

const repaired = new WeakMap<object, ManifestDocument | null>();

/**
 * The tree names are read from: this text's, or (when the line being typed breaks the
 * parse, as an open TOML string does) the text with that line blanked, or the last tree.
 */
function namesDocument(state: DocumentState, offset: number): ManifestDocument {
  if (state.doc.root) return state.doc;
  // The tree lags the text (an unparsed edit): the cursor's offset is not in its text.
  if (hasNewerText(state)) return state.lastGood ?? state.doc;
  let doc = repaired.get(state.doc);
  if (doc === undefined) {
    const text = state.doc.text;
    const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
    const lineEnd = text.indexOf('\n', offset);
    const blanked =
      text.slice(0, lineStart) +
      text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd).replace(/[^\r]/g, ' ') +
      (lineEnd === -1 ? '' : text.slice(lineEnd));
    const candidate = ManifestDocument.parse(blanked, { format: state.format, limits: state.doc.limits });
    doc = candidate.root ? candidate : null;
    repaired.set(state.doc, doc);
  }
  return doc ?? state.lastGood ?? state.doc;
}

function declaredNames(names: ManifestDocument, kind: NameKind): string[] {
  return [...nameIndex(names).definitions[kind].keys()];
}

const REFERENCE_DETAIL: Record<NameKind, string> = {
  agent: 'declared agent',
  connector: 'declared connector',
  template: 'sandbox template',
};

/** Values for a `value` or array `item` position: references first, then the schema's enum. */
function valueItems(
  state: DocumentState,
  names: ManifestDocument,
  version: SvcVersion,
  cursor: CursorContext,
): CompletionItem[] {
  const valuePath = cursor.kind === 'item' ? [...cursor.path, 0] : cursor.path;
  const range = rangeAt(state, cursor.replaceStart, cursor.replaceEnd);
  const items: CompletionItem[] = [];
  const seen = new Set<string>();
  // An item already in the list is not offered again (the one being typed aside).
  const listed = cursor.kind === 'item' ? valueAt(state, cursor.path) : undefined;
  if (Array.isArray(listed))
    for (const item of listed) if (typeof item === 'string' && item !== cursor.prefix) seen.add(item);
  const add = (
    value: string | number | boolean,
    kind: CompletionItemKind,
    detail?: string,
    documentation?: string,
  ): void => {
    const label = String(value);
    if (seen.has(label)) return;
    seen.add(label);
    const newText = (cursor.spaceBefore ? ' ' : '') + formatValue(value, state.format, cursor.quote);
    const item: CompletionItem = {
      label,
      kind,
      filterText: cursor.quote ? newText : label,
      textEdit: { range, newText },
      sortText: String(items.length).padStart(3, '0'),
    };
    if (detail) item.detail = detail;
    if (documentation) item.documentation = { kind: MarkupKind.Markdown, value: documentation };
    items.push(item);
  };
  // `$schema` pins a schema: offer ours.
  if (valuePath.length === 1 && valuePath[0] === '$schema') {
    for (const url of [SCHEMA_URLS.v2, SCHEMA_URLS.v1, SCHEMA_URLS.combined])
      add(url, CompletionItemKind.File, 'svc manifest schema');
  }
  const referenceKind = referenceKindAt(valuePath);
  if (referenceKind)
    for (const name of declaredNames(names, referenceKind))
      add(name, CompletionItemKind.Reference, REFERENCE_DETAIL[referenceKind]);
  // `svc_version` picks the shape: both values are offered, whatever the document is now.
  const schemas = valueSchemasAt(version, valuePath);
  for (const value of enumValues(schemas))
    add(value, typeof value === 'string' ? CompletionItemKind.EnumMember : CompletionItemKind.Value, undefined);
  return items;
}

function formatValue(value: string | number | boolean, format: 'yaml' | 'toml', quote: '"' | "'" | undefined): string {
  if (typeof value !== 'string') return String(value);
  if (quote === "'") return `'${value.replace(/'/g, format === 'yaml' ? "''" : "'")}'`;
  if (quote === '"' || format === 'toml' || !isPlainYamlString(value)) return JSON.stringify(value);
  return value;
}

/** Whole-trigger and whole-connector snippets where a new item of `triggers`/`connectors` starts. */
function snippetItems(
  state: DocumentState,
  names: ManifestDocument,
  cursor: CursorContext,
  arrayPath: PathSegment[],
): CompletionItem[] {
  let collection: 'triggers' | 'connectors' | undefined;
  if (state.format === 'toml') {
    // Only where a line starts: not after a dotted key's parent, in a header or an inline table.
    const text = textOf(state);
    const lineStart = text.lastIndexOf('\n', cursor.replaceStart - 1) + 1;
    if (cursor.header || cursor.flow || text.slice(lineStart, cursor.replaceStart).trim() !== '') return [];
    // An `[[array]]` table can start on any line: offer both.
    return [...snippetsFor(state, names, cursor, 'triggers'), ...snippetsFor(state, names, cursor, 'connectors')];
  }
  if (arrayPath.length === 1 && (arrayPath[0] === 'triggers' || arrayPath[0] === 'connectors'))
    collection = arrayPath[0];
  if (!collection || cursor.flow) return [];
  // Only at the start of an item: a fresh `- ` line, or a line under `triggers:` with no dash yet.
  if (cursor.freshItem ? cursor.present.length > 0 : cursor.path.length !== 1) return [];
  return snippetsFor(state, names, cursor, collection);
}

function snippetsFor(
  state: DocumentState,
  names: ManifestDocument,
  cursor: CursorContext,
  collection: 'triggers' | 'connectors',
): CompletionItem[] {
  const value =
    names.value && typeof names.value === 'object' ? (names.value as Record<string, unknown>)[collection] : undefined;
  const usedSlugs = new Set<string>();
  if (Array.isArray(value))
    for (const item of value)
      if (item && typeof (item as { slug?: unknown }).slug === 'string') usedSlugs.add((item as { slug: string }).slug);
  const specs = snippetSpecs(collection, { agents: declaredNames(names, 'agent'), usedSlugs });
  const range = rangeAt(state, cursor.replaceStart, cursor.replaceEnd);
  return specs.map((spec, index) => ({
    label: spec.label,
    kind: CompletionItemKind.Snippet,
    detail: spec.detail,
    filterText: state.format === 'toml' ? `${collection} ${spec.label}` : spec.label,
    sortText: `zz${String(index).padStart(2, '0')}`,
    insertTextFormat: InsertTextFormat.Snippet,
    insertTextMode: InsertTextMode.asIs,
    textEdit: {
      range,
      newText: renderSnippet(spec, state.format, { column: cursor.column, freshItem: cursor.freshItem }),
    },
  }));
}

export const completionFeature: Feature = {
  capabilities: {
    completionProvider: { triggerCharacters: ['"', "'", ':', '[', ',', ' ', '-', '='], resolveProvider: false },
  },
  handlers: [
    handle(
      CompletionRequest.type,
      { isIncomplete: false, items: [] },
      (state, params, context) =>
        context.settings?.completion === false
          ? { isIncomplete: false, items: [] }
          : completion(state, params, context),
      { state: 'typing' },
    ),
  ],
};
