/** The names `setAgentScope` writes into the manifest and its commit message, checked before anything else. */
import { checkName, SLUG } from './names.js';

/**
 * Agent names and connector names follow the spec's slug pattern; secret names have no
 * pattern in the spec, so they are checked for what can never be right in a name:
 * control characters and line breaks (and emptiness, and an absurd length).
 */
export function checkScopeNames(agent: string, scope: { secrets?: unknown; connectors?: unknown }): void {
  checkName(agent, 'agent name', SLUG);
  if (Array.isArray(scope.secrets)) for (const secret of scope.secrets) checkName(secret, 'secret name');
  if (Array.isArray(scope.connectors))
    for (const connector of scope.connectors) checkName(connector, 'connector name', SLUG);
}
