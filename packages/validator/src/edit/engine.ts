/**
 * The one editing engine for manifests. Semantic changes ({@link ManifestChange}) become
 * minimal, comment-preserving splices of the user's text, planned on the validator's
 * located tree:
 *
 * 1. the input is read as a {@link ManifestDocument} with the validator's limits, and any
 *    error the document layer finds (syntax, size, depth, alias bomb, invalid UTF-8,
 *    duplicate keys) refuses the edit before anything else looks at the text;
 * 2. each change is planned on a fresh parse of the current text, as a splice or as finer
 *    changes (see `yaml-edit.ts`, `toml-edit.ts`);
 * 3. the result is parsed again and its value compared with {@link applyChanges} of the
 *    original value; anything else — a parse error, one key more or less — refuses.
 *
 * The applier's operations, the quick fixes and the `fix`/`migrate`/`convert` commands are
 * built on {@link editManifest}.
 */
import type { OffsetEdit } from '../diagnostic.js';
import { detectFormat, ManifestDocument, type ManifestFormat } from '../document/manifest-document.js';
import type { Limits } from '../document/limits.js';
import { severityOfReported } from '../reported-elsewhere.js';
import { applyChanges, formatPath, ManifestEditError, type ManifestChange } from './changes.js';
import { canonicalJson, deepEqual } from './json.js';
import { planToml } from './toml-edit.js';
import { planYaml } from './yaml-edit.js';
import { applyEdit, textEdits } from './text-lines.js';

export { textEdits };

export interface EditOptions {
  /** `yaml` or `toml`; by default the source document's, else taken from `filename`. */
  format?: ManifestFormat;
  filename?: string;
  /** The validator's limits (size, depth, aliases, alias expansion); its defaults when absent. */
  limits?: Partial<Limits>;
}

export interface ManifestEdit {
  /** The edited text; the input text itself when the changes change nothing. */
  text: string;
  /**
   * The splice from the original text to `text` as one offset edit (the changed region),
   * or none: what an editor applies as a workspace edit or a quick fix.
   */
  edits: OffsetEdit[];
  /** The edited text, parsed. */
  document: ManifestDocument;
  /** Its plain value: exactly `applyChanges(original value, changes)`. */
  value: unknown;
}

/** Changes planned per edit at most (a change that splits into finer ones counts each). */
const MAX_STEPS = 10_000;

/**
 * Reads a manifest for editing with the validator's limits. Throws {@link ManifestEditError}
 * `unreadable`, carrying the validator's diagnostics, when the document layer finds an error.
 */
export function openForEdit(
  source: string | Uint8Array | ManifestDocument,
  options: EditOptions = {},
): ManifestDocument {
  const document =
    source instanceof ManifestDocument
      ? source
      : ManifestDocument.parse(source, {
          format: options.format ?? detectFormat(options.filename),
          filename: options.filename,
          limits: options.limits,
        });
  const errors = document.diagnostics.filter((diagnostic) => severityOfReported(diagnostic.code) === 'error');
  if (errors.length > 0) {
    const first = errors[0]!;
    const name = options.filename ?? document.filename ?? 'the manifest';
    throw new ManifestEditError(
      'unreadable',
      `${name} cannot be read for editing: ${first.code}: ${first.message}`,
      errors.map((error) => document.lines.locate(error, 'error')),
    );
  }
  return document;
}

/**
 * The manifest after `changes`. Throws {@link ManifestEditError}: `unreadable` (the input is
 * refused by the validator's document layer), `invalid-change` (a change does not apply to
 * the value), `unsupported` (no minimal splice exists for it in this text), `mismatch` (the
 * edited text would not mean exactly the intended value). Nothing is returned half-done.
 */
export function editManifest(
  source: string | Uint8Array | ManifestDocument,
  changes: readonly ManifestChange[],
  options: EditOptions = {},
): ManifestEdit {
  const original = openForEdit(source, options);
  const format = original.format;
  const reparse = (text: string): ManifestDocument =>
    ManifestDocument.parse(text, { format, filename: original.filename, limits: { ...original.limits } });
  // An empty YAML document (no text, or only comments) means an empty map to build on.
  const base = original.root === null && original.value === undefined ? {} : original.value;
  const intended = applyChanges(base, changes);
  if (changes.length === 0) return { text: original.text, edits: [], document: original, value: original.value };

  let current = original;
  let steps = 0;
  const apply = (change: ManifestChange, depth: number): void => {
    if (depth > 64 || ++steps > MAX_STEPS)
      throw new ManifestEditError('unsupported', `the edit of ${formatPath(change.path)} does not converge`);
    const planned = planChange(current, change, original);
    if (!Array.isArray(planned)) {
      if (planned.start === planned.end && planned.newText === '') return;
      const next = reparse(applyEdit(current.text, planned));
      const error = next.diagnostics.find((d) => severityOfReported(d.code) === 'error');
      if (error) {
        throw new ManifestEditError(
          'mismatch',
          `editing ${formatPath(change.path)} in place would break the file (${error.code}: ${error.message}); nothing was changed`,
        );
      }
      current = next;
      return;
    }
    for (const finer of planned) apply(finer, depth + 1);
  };
  for (const change of changes) apply(change, 0);

  if (!deepEqual(current.value, intended)) {
    throw new ManifestEditError(
      'mismatch',
      `editing the file in place would change more than intended (got ${canonicalJson(current.value).slice(0, 200)}); nothing was changed`,
    );
  }
  return { text: current.text, edits: textEdits(original.text, current.text), document: current, value: current.value };
}

/**
 * The splice that carries one change onto a document, or the finer changes that do, planned
 * on `document` as it is: no gate, no re-parse, no check. New text follows the habits
 * (indentation, line ends, array padding) of `styleFrom`. {@link editManifest} is the safe
 * way to edit; this is for callers that hand the edit to a person to review (quick fixes).
 */
export function planChange(
  document: ManifestDocument,
  change: ManifestChange,
  styleFrom: ManifestDocument = document,
): OffsetEdit | ManifestChange[] {
  return document.format === 'yaml' ? planYaml(document, change, styleFrom) : planToml(document, change, styleFrom);
}
