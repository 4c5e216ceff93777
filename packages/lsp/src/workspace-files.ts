/**
 * The files around a document, for the server on Node (`command.ts` passes them to `startServer`):
 * a `file:` document's folder, read through the validator's `nodeManifestFiles` (inside the
 * repository, never through a link out of it). A browser build passes nothing: no path checks.
 */
import { fileURLToPath } from 'node:url';
import { nodeManifestFiles, type ManifestFiles } from '@svc-manifest/validator';

export function nodeWorkspaceFiles(uri: string): ManifestFiles | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return nodeManifestFiles(fileURLToPath(uri));
  } catch {
    return undefined;
  }
}
