/**
 * What a language-server feature is: the capabilities it announces and the requests it answers.
 * Each file under features/ exports one {@link Feature}; features/index.ts lists them, and the
 * server registers every handler of every listed feature the same way (see server.ts).
 */
import type { ProtocolRequestType, ServerCapabilities } from 'vscode-languageserver';
import type { DocumentState } from './document-state.js';
import type { FeatureContext } from './feature-context.js';

export interface RequestHandler {
  /** The LSP method, e.g. `textDocument/hover`. */
  method: string;
  /** The answer when the file is not a manifest of ours, or the feature threw. */
  fallback: unknown;
  /**
   * Which state the feature reads: the parsed one brought up to date (default), or `typing`:
   * the newest text over the last parse, without parsing first (completion, while typing).
   */
  state?: 'parsed' | 'typing';
  run(state: DocumentState, params: unknown, context: FeatureContext): unknown;
}

export interface Feature {
  capabilities: ServerCapabilities;
  handlers: RequestHandler[];
}

/** A handler for one request type, typed by it: `run` gets the request's params and must return its result. */
export function handle<P, R>(
  type: ProtocolRequestType<P, R, unknown, unknown, unknown>,
  fallback: R,
  run: (state: DocumentState, params: P, context: FeatureContext) => R,
  options: { state?: RequestHandler['state'] } = {},
): RequestHandler {
  return { method: type.method, fallback, state: options.state, run: run };
}
