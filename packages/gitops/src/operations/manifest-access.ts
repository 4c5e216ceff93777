/** Finding, reading and editing the manifest inside an edit, with refusals a person can act on. */
import type { FileWrite } from '../applier.js';
import { EditError, RefusedError } from '../errors.js';
import type { Snapshot } from '../git/snapshot.js';
import type { ManifestChange } from '../manifest/changes.js';
import { MANIFEST_CANDIDATES, ManifestFile, UnreadableManifestError } from '../manifest/manifest-file.js';

export { manifestVersion } from '@svc-manifest/validator';

/**
 * The repository's manifest at the snapshot; refuses when there is none, or more than one,
 * or when the validator's document layer refuses its text (syntax, size, depth, an alias
 * bomb, invalid UTF-8) — before anything else reads it.
 */
export async function readManifest(snapshot: Snapshot): Promise<ManifestFile> {
  const entries = await snapshot.entries(MANIFEST_CANDIDATES.map((candidate) => candidate.path));
  const present = MANIFEST_CANDIDATES.filter((candidate) => entries.get(candidate.path)?.type === 'blob');
  if (present.length === 0) throw new RefusedError('no-manifest', 'the repository has no svc.yaml or svc.toml at its root');
  if (present.length > 1) {
    throw new RefusedError('ambiguous-manifest', `the repository has ${present.map((c) => c.path).join(' and ')}; keep only one`);
  }
  const { path, format } = present[0]!;
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

/** The manifest after `changes`, as a file write; refuses when the edit cannot be made minimally. */
export function editManifest(manifest: ManifestFile, changes: readonly ManifestChange[]): FileWrite[] {
  if (changes.length === 0) return [];
  try {
    const document = manifest.editDocument(changes);
    return [{ path: manifest.path, content: Buffer.from(document.text, 'utf8'), document }];
  } catch (error) {
    if (error instanceof EditError) throw new RefusedError('uneditable', `cannot edit ${manifest.path}: ${error.message}`, { file: manifest.path });
    throw error;
  }
}
