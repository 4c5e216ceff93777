/** Finding, reading and editing the manifest inside an edit, with refusals a person can act on. */
import type { FileWrite } from '../applier.js';
import { EditError, RefusedError } from '../errors.js';
import type { Snapshot } from '../git/snapshot.js';
import type { ManifestChange } from '../manifest/changes.js';
import {
  MANIFEST_CANDIDATES,
  ManifestFile,
  UnreadableManifestError,
  type ManifestFormat,
} from '../manifest/manifest-file.js';

export { manifestVersion } from '@svc-manifest/validator';

/**
 * Which manifest an operation edits, for repositories that keep it elsewhere than at the root
 * (a monorepo's `services/api/svc.yaml`). Paths are repository-relative, `/`-separated.
 */
export interface ManifestLocation {
  /** The manifest file itself (`.yaml`, `.yml` or `.toml`). */
  manifest?: string;
  /**
   * A folder to look in, then each folder above it up to the root, as git looks for its
   * repository; the first that holds `svc.yaml`, `svc.yml` or `svc.toml` is the one. Default: the root only.
   */
  searchFrom?: string;
}

const NAMES = MANIFEST_CANDIDATES.map((candidate) => candidate.path)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

/**
 * The repository's manifest at the snapshot (at the root, or where `location` says); refuses
 * when there is none, or more than one in the folder, or when the validator's document layer
 * refuses its text (syntax, size, depth, an alias bomb, invalid UTF-8) — before anything else
 * reads it.
 */
export async function readManifest(snapshot: Snapshot, location: ManifestLocation = {}): Promise<ManifestFile> {
  const found =
    location.manifest !== undefined
      ? await namedManifest(snapshot, location.manifest)
      : await nearestManifest(snapshot, location.searchFrom ?? '');
  const { path, format } = found;
  try {
    const manifest = ManifestFile.fromBytes(path, format, (await snapshot.read(path))!);
    void manifest.value;
    return manifest;
  } catch (error) {
    if (error instanceof UnreadableManifestError) {
      throw new RefusedError('manifest-unparsable', error.message, { file: path, diagnostics: [...error.diagnostics] });
    }
    throw error;
  }
}

async function namedManifest(snapshot: Snapshot, path: string): Promise<{ path: string; format: ManifestFormat }> {
  const clean = checkRepositoryPath(path, '--manifest');
  const format = /\.toml$/i.test(clean) ? 'toml' : /\.ya?ml$/i.test(clean) ? 'yaml' : undefined;
  if (format === undefined)
    throw new RefusedError(
      'no-manifest',
      `${JSON.stringify(clean)} is not a manifest: its name must end in .yaml, .yml or .toml`,
    );
  const entry = (await snapshot.entries([clean])).get(clean);
  if (entry?.type !== 'blob')
    throw new RefusedError('no-manifest', `the repository has no file ${JSON.stringify(clean)} at this commit`, {
      file: clean,
    });
  return { path: clean, format };
}

async function nearestManifest(snapshot: Snapshot, from: string): Promise<{ path: string; format: ManifestFormat }> {
  const start = from === '' ? '' : checkRepositoryPath(from, 'the folder');
  for (let folder = start; ; folder = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '') {
    const candidates = MANIFEST_CANDIDATES.map((candidate) => ({
      path: folder === '' ? candidate.path : `${folder}/${candidate.path}`,
      format: candidate.format,
    }));
    const entries = await snapshot.entries(candidates.map((candidate) => candidate.path));
    const present = candidates.filter((candidate) => entries.get(candidate.path)?.type === 'blob');
    if (present.length > 1) {
      throw new RefusedError(
        'ambiguous-manifest',
        `the repository has ${present.map((c) => c.path).join(' and ')}; keep only one`,
      );
    }
    if (present.length === 1) return present[0]!;
    if (folder === '') break;
  }
  throw new RefusedError(
    'no-manifest',
    start === ''
      ? `the repository has no ${NAMES} at its root`
      : `the repository has no ${NAMES} in ${start} or any folder above it`,
  );
}

/** A repository-relative path as git names it: no leading `/`, no `.` or `..` segments, no empty ones. */
function checkRepositoryPath(path: string, what: string): string {
  const clean = path
    .replace(/\\/g, '/')
    .replace(/^\.\/+/, '')
    .replace(/\/+$/, '');
  const segments = clean.split('/');
  if (
    clean === '' ||
    clean.startsWith('/') ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..') ||
    /[\u0000-\u001f\u007f]/.test(clean)
  ) {
    throw new RefusedError('no-manifest', `${what} ${JSON.stringify(path)} is not a path inside the repository`);
  }
  return clean;
}

/** The manifest after `changes`, as a file write; refuses when the edit cannot be made minimally. */
export function editManifest(manifest: ManifestFile, changes: readonly ManifestChange[]): FileWrite[] {
  if (changes.length === 0) return [];
  try {
    const document = manifest.editDocument(changes);
    return [
      { path: manifest.path, content: Buffer.from(document.text, 'utf8'), document, manifestFormat: manifest.format },
    ];
  } catch (error) {
    if (error instanceof EditError)
      throw new RefusedError('uneditable', `cannot edit ${manifest.path}: ${error.message}`, { file: manifest.path });
    throw error;
  }
}
