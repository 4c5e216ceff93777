import type { ManifestFiles } from '@svc-manifest/validator/library';
import type { Settings } from './settings.js';

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
}

/** Thrown by a feature when its request was cancelled; the server answers `RequestCancelled`. */
export class RequestCancelled extends Error {
  constructor() {
    super('request cancelled');
  }
}

/** Thrown by a feature that refuses a request; the server answers `RequestFailed` with the message, shown to the user. */
export class FeatureRefusal extends Error {}

export function throwIfCancelled(context: FeatureContext | undefined): void {
  if (context?.token?.isCancellationRequested) throw new RequestCancelled();
}
