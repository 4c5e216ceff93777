/**
 * What every rule declares, apart from how it finds problems: the part of a rule that modules
 * below the rules (the editing engine, which refuses a text the document layer reports errors in)
 * may read, which is why it lives here and not in rules/. It imports nothing but the diagnostic
 * types.
 */
import type { Severity } from './diagnostic.js';

/** What every rule declares. `id` is stable: it is the diagnostic `code` and the doc page name. */
export interface RuleMeta<Id extends string = string> {
  id: Id;
  /** One line: what the rule checks. */
  description: string;
  severity: Severity;
  /**
   * parse: found while reading the text; structure: a JSON Schema keyword failed;
   * schema: a cross-field rule that the published schema expresses (`x-svc-rule`);
   * reference: a cross-reference check in code; style: advice in code;
   * editor: reported by the language server only, about how the file is opened there;
   * internal: a bug of ours, reported instead of throwing;
   * migrate: a refusal of `migrateManifest` (`svc-manifest migrate --to 2`), located in the version 1 file;
   * files: checked against the files around the manifest, when the caller passes a file system (`ManifestFiles`);
   * suppression: a problem of an inline suppression comment (`# svc-manifest-disable…`), reported when the policy honours them.
   */
  kind:
    | 'parse'
    | 'structure'
    | 'schema'
    | 'reference'
    | 'style'
    | 'editor'
    | 'internal'
    | 'migrate'
    | 'files'
    | 'suppression';
  /** The spec sentence the rule enforces, when there is one. */
  spec?: string;
}

/**
 * Rules whose diagnostics are produced outside rules/: by the document layer (parsing and
 * limits), by the language server, by `migrateManifest`, by the policy (suppression comments), or
 * by the validator's own safety net. Their logic is where the
 * text is read; the rule entry only names it, and `reportedBy` says which module reports it.
 */
export interface ReportedElsewhereRule<Id extends string = string> extends RuleMeta<Id> {
  kind: 'parse' | 'editor' | 'internal' | 'migrate' | 'files' | 'suppression';
  /** The module that reports the code, relative to packages/ (a test checks it does). */
  reportedBy: string;
}
