/**
 * The files around a document, for the server on Node (`command.ts` passes them to `startServer`):
 * a `file:` document's folder, read through the validator's `nodeManifestFiles` (inside the
 * repository, never through a link out of it), and the manifests of the workspace folders, for
 * workspace.ts. A browser build passes nothing: no path checks, no manifests but the open ones.
 */
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { findManifestFiles, nodeManifestFiles, type ManifestFiles } from '@svc-manifest/validator';

export function nodeWorkspaceFiles(uri: string): ManifestFiles | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return nodeManifestFiles(fileURLToPath(uri));
  } catch {
    return undefined;
  }
}

const MAX_ENTRIES = 20_000;
const MAX_MANIFESTS = 500;
const MAX_BYTES = 1024 * 1024;

/**
 * The manifests (`svc.yaml`, `svc.yml`, `svc.toml`) in the workspace folders, read from disk. Each
 * folder is walked as `svc-manifest validate <folder>` walks it (the validator's
 * `findManifestFiles`: git's ignore rules inside a repository, `.git` and `node_modules` skipped,
 * symbolic links never followed), bounded: at most 20,000 entries a folder, 500 manifests, 1 MiB
 * a file.
 */
export function nodeWorkspaceManifests(folderUris: readonly string[]): { uri: string; text: string }[] {
  const found: { uri: string; text: string }[] = [];
  for (const uri of folderUris) {
    if (!uri.startsWith('file:')) continue;
    let folder: string;
    try {
      folder = fileURLToPath(uri);
    } catch {
      continue;
    }
    for (const file of findManifestFiles([folder], { cwd: folder, maxEntries: MAX_ENTRIES }).files) {
      if (found.length >= MAX_MANIFESTS) return found;
      try {
        if (statSync(file.absolutePath).size > MAX_BYTES) continue;
        found.push({ uri: pathToFileURL(file.absolutePath).href, text: readFileSync(file.absolutePath, 'utf8') });
      } catch {
        // Unreadable: left out.
      }
    }
  }
  return found;
}
