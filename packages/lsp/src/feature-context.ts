/** What every feature function gets besides the document and the request's parameters. */
export interface FeatureContext {
  /** The request's cancellation, checked in long loops. */
  token?: { readonly isCancellationRequested: boolean };
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
