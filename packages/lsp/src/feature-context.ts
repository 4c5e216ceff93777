import type { ManifestFiles, ManifestPolicy, PolicyFormat, PolicyRules } from '@svc-manifest/validator/library';
import type { Settings } from './settings.js';

/** The policy file that applies to a document, as the injected reader found it (command.ts: on Node, the nearest `.svc-manifest.yaml` up from a `file:` document). */
export interface DocumentPolicy {
  /** The policy file (its path), for messages. */
  file: string;
  /** Its rules; absent when the file cannot be used, and then `error` says why (its rules do not apply, and the server says so). */
  rules?: PolicyRules;
  /** Its `format` settings (formatting's quotes), when it has any and can be used. */
  format?: PolicyFormat;
  error?: string;
}

/** What every feature function gets besides the document and the request's parameters. */
export interface FeatureContext {
  /** The request's cancellation, checked in long loops. */
  token?: { readonly isCancellationRequested: boolean };
  /** The settings in effect (absent in unit tests that don't care: defaults apply). */
  settings?: Settings;
  /** What the client can do, from its `initialize` capabilities. */
  client?: {
    /** It applies `create` and `delete` resource operations in workspace edits. */
    resourceOperations: boolean;
  };
  /** The files around a document, when the server can read them (on Node, for a `file:` URI); absent in a browser. */
  files?: (uri: string) => ManifestFiles | undefined;
  /**
   * The policy file of a document, when the server can read one (on Node, for a `file:` URI);
   * absent in a browser. Without one, every rule keeps its severity; the document's own
   * suppression comments apply either way.
   */
  policy?: (uri: string) => DocumentPolicy | undefined;
}

/** Thrown by a feature when its request was cancelled; the server answers `RequestCancelled`. */
export class RequestCancelled extends Error {
  constructor() {
    super('request cancelled');
  }
}

/** Thrown by a feature that refuses a request; the server answers `RequestFailed` with the message, shown to the user. */
export class FeatureRefusal extends Error {}

/**
 * The policy a document is validated under, in every feature that reads its diagnostics or fixes
 * them: its policy file's rules (when the server reads one and it can be used), and its own
 * suppression comments, which apply in every editor (a browser's too), as they do in the CLI.
 */
export function documentPolicy(uri: string, context: FeatureContext | undefined): ManifestPolicy {
  const rules = context?.policy?.(uri)?.rules;
  return rules ? { rules, inlineSuppressions: true } : { inlineSuppressions: true };
}

export function throwIfCancelled(context: FeatureContext | undefined): void {
  if (context?.token?.isCancellationRequested) throw new RequestCancelled();
}
