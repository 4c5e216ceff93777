/**
 * One open manifest as the features see it: the text at a version and its located tree.
 * States are immutable; an edit makes a new state with {@link updateState}, which reuses the
 * previous parse through `ManifestDocument.update` (only changed YAML chunks are re-parsed).
 */
import {
  ManifestDocument,
  SuppressionSearch,
  type ManifestFormat,
  type TextChange,
  type TextSource,
} from '@svc-manifest/validator/library';
import { DirectiveSearch } from './directive-search.js';
import type { SvcVersion } from './schema-model.js';

export interface DocumentState {
  readonly uri: string;
  readonly version: number;
  readonly format: ManifestFormat;
  readonly doc: ManifestDocument;
  /** The latest document of this file that parsed into a tree (names for completion while the text is broken). */
  readonly lastGood?: ManifestDocument;
  /**
   * The current text, when it is newer than `doc` (an edit not parsed yet). Only completion
   * accepts such a state: it reads the cursor's place from this text and names and values
   * from the last tree, so a keystroke's completion does not wait for a parse. Read by ranges,
   * like the document's source: the pending text of a large file is never made one string.
   */
  readonly text?: TextSource;
  /** The search for a schema directive line in `doc`'s text, carried over edits (directive-search.ts). */
  readonly directives: DirectiveSearch;
  /** The search for suppression comments in `doc`'s text, carried over edits (the validator's `SuppressionSearch`, for `withPolicy`). */
  readonly suppressions: SuppressionSearch;
}

/** Whether the state carries a text newer than its parsed document (an edit not parsed yet). */
export function hasNewerText(state: DocumentState): boolean {
  return state.text !== undefined && state.text !== state.doc.source;
}

/** The text positions refer to: the unparsed newer text if there is one, else the document's source (read it by ranges). */
export function textOf(state: DocumentState): TextSource {
  return state.text ?? state.doc.source;
}

export interface StateOptions {
  /** The size limit in UTF-8 bytes (setting `svc.validation.maxFileSizeBytes`). */
  maxFileSizeBytes?: number;
  /** The client's language id, when it says `toml`/`yaml`. */
  languageId?: string;
}

/** `yaml` or `toml`, from the language id or else the file name. */
export function formatOf(uri: string, languageId?: string): ManifestFormat {
  if (languageId === 'toml') return 'toml';
  if (languageId === 'yaml') return 'yaml';
  return /\.toml$/i.test(uri) ? 'toml' : 'yaml';
}

export function createState(uri: string, version: number, text: string, options: StateOptions = {}): DocumentState {
  const format = formatOf(uri, options.languageId);
  const limits = options.maxFileSizeBytes ? { maxBytes: options.maxFileSizeBytes } : undefined;
  const doc = ManifestDocument.parse(text, { format, filename: fileNameOf(uri), limits });
  return {
    uri,
    version,
    format,
    doc,
    lastGood: doc.root ? doc : undefined,
    directives: new DirectiveSearch(doc),
    suppressions: SuppressionSearch.of(doc),
  };
}

/**
 * The state after an edit: the same file at a new version, parsed incrementally. `changes` are
 * the client's replacements that made `text` from the state's text, in offsets (see
 * `ManifestDocument.update`); without them the changed lines are found by comparing the texts.
 */
export function updateState(
  state: DocumentState,
  version: number,
  text: TextSource,
  changes?: readonly TextChange[],
): DocumentState {
  if (state.doc.hasText(text)) return { ...state, version };
  const doc = state.doc.update(text, changes);
  const lastGood = doc.root ? doc : state.lastGood;
  return {
    uri: state.uri,
    version,
    format: state.format,
    doc,
    lastGood,
    directives: state.directives.after(doc),
    suppressions: state.suppressions.after(doc),
  };
}

export function fileNameOf(uri: string): string {
  const path = uri.replace(/[?#].*$/, '');
  const name = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

const versionCache = new WeakMap<ManifestDocument, SvcVersion | null>();

/** The document's `svc_version` (1 or 2) when it says one, read from the tree or, in a broken file, the text. */
export function declaredVersion(state: DocumentState): SvcVersion | null {
  const doc = state.doc;
  const cached = versionCache.get(doc);
  if (cached !== undefined) return cached;
  let version: SvcVersion | null = null;
  const root = doc.root;
  // The text is read only when the tree cannot say: no tree, or an `svc_version` whose value is not
  // the number 1 or 2 (`"2"`). A tree without the key has none at the top level to find.
  let readText = root?.kind !== 'map';
  if (root?.kind === 'map') {
    const entry = root.entries.find((e) => e.key === 'svc_version');
    if (entry?.value.kind === 'scalar' && (entry.value.value === 1 || entry.value.value === 2))
      version = entry.value.value;
    else readText = entry !== undefined;
  }
  if (version === null && readText) {
    const match = /^svc_version\s*[:=]\s*["']?([12])["']?\s*(?:#.*)?$/m.exec(doc.topLevelText());
    if (match) version = Number(match[1]) as SvcVersion;
  }
  versionCache.set(doc, version);
  return version;
}

/** The plain value at a path, when the tree has one. */
export function valueAt(state: DocumentState, segments: readonly (string | number)[]): unknown {
  let value: unknown = state.doc.value;
  for (const segment of segments) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}
