/**
 * The files around a document, for the server on Node (`command.ts` passes them to `startServer`):
 * a `file:` document's folder, read through the validator's `nodeManifestFiles` (inside the
 * repository, never through a link out of it); its policy file, the nearest `.svc-manifest.yaml`
 * up to the repository root, as the CLI finds it; and the manifests of the workspace folders, for
 * workspace.ts. A browser build passes nothing: no path checks, no policy file (the documents'
 * own suppression comments still apply), no manifests but the open ones.
 */
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  findManifestFiles,
  findPolicyFile,
  nodeManifestFiles,
  PolicyError,
  PolicyFinder,
  readPolicyFile,
  type ManifestFiles,
} from '@svc-manifest/validator';
import type { DocumentPolicy } from './feature-context.js';

export function nodeWorkspaceFiles(uri: string): ManifestFiles | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return nodeManifestFiles(fileURLToPath(uri));
  } catch {
    return undefined;
  }
}

/** Each policy file read, with what its reading depended on: read again only when its size or times change. */
const policyFiles = new Map<string, { stamp: string; policy: DocumentPolicy }>();

/**
 * The policy file of a `file:` document: the nearest `.svc-manifest.yaml` from its folder up to
 * the repository root, looked for again on every call and read again when it changed (its size,
 * modification or change time). The server calls it on each validation for a client that does not
 * watch files, and once until the next announced change for one that does (file-lookups.ts). A file
 * that cannot be used comes back with `error`, the reason the CLI gives when it refuses it.
 */
export function nodeWorkspacePolicy(uri: string): DocumentPolicy | undefined {
  if (!uri.startsWith('file:')) return undefined;
  let file: string | undefined;
  try {
    file = findPolicyFile(fileURLToPath(uri));
  } catch {
    return undefined;
  }
  if (file === undefined) return undefined;
  let stamp: string;
  try {
    const stats = statSync(file);
    stamp = `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}`;
  } catch {
    return undefined;
  }
  const known = policyFiles.get(file);
  if (known?.stamp === stamp) return known.policy;
  const policy = readPolicy(file);
  policyFiles.set(file, { stamp, policy });
  return policy;
}

/** The file read and checked as the CLI reads it (`readPolicyFile`); its refusal is `error`, without the file's name. */
function readPolicy(file: string): DocumentPolicy {
  try {
    const read = readPolicyFile(file);
    return read.format ? { file, rules: read.rules, format: read.format } : { file, rules: read.rules };
  } catch (error) {
    if (!(error instanceof PolicyError)) return { file, error: `cannot be read (${(error as Error).message})` };
    const named = `${file}: `;
    return { file, error: error.message.startsWith(named) ? error.message.slice(named.length) : error.message };
  }
}

const MAX_ENTRIES = 20_000;
const MAX_MANIFESTS = 500;
const MAX_BYTES = 1024 * 1024;

/**
 * The manifests (`svc.yaml`, `svc.yml`, `svc.toml`) in the workspace folders, read from disk. Each
 * folder is walked as `svc-manifest validate <folder>` walks it (the validator's
 * `findManifestFiles`: git's ignore rules inside a repository, `.git` and `node_modules` skipped,
 * symbolic links never followed, and what a policy file's `ignore` globs leave out), bounded: at
 * most 20,000 entries a folder, 500 manifests, 1 MiB a file.
 */
export function nodeWorkspaceManifests(folderUris: readonly string[]): { uri: string; text: string }[] {
  const found: { uri: string; text: string }[] = [];
  // Policy files read for this listing only: one that cannot be used leaves nothing out (its error is said on validation).
  const policies = new PolicyFinder();
  const kept = (absolutePath: string): boolean => {
    try {
      return policies.keeps({ absolutePath });
    } catch {
      return true;
    }
  };
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
      if (!kept(file.absolutePath)) continue;
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
