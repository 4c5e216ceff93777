/**
 * The path check (`path-not-found`): a source path the manifest names (see
 * `model/source-paths.ts`) that does not exist relative to the manifest's folder. It needs a file
 * system, which the caller passes as `ManifestFiles` (the CLI and the language server do, for a
 * manifest in a folder on disk); `validateManifest` without one skips it. Browser-safe: this
 * module only asks the interface.
 */
import type { Diagnostic, RawDiagnostic } from './diagnostic.js';
import type { ManifestDocument } from './document/manifest-document.js';
import { sourcePaths } from './model/source-paths.js';
import { severityOf } from './rules/index.js';

/** What is at a path, as the caller's file system answers. */
export type PathKind = 'file' | 'folder' | 'missing' | 'outside';

/**
 * The file system around a manifest, as the path check sees it. `stat(relative)` says what is at
 * a path relative to the manifest's folder (`/` separators): `outside` when it leaves the
 * repository, lexically (`..`, an absolute path) or through a symbolic link; an implementation
 * never follows such a path, so nothing about the host's files outside comes back.
 */
export interface ManifestFiles {
  stat(relative: string): PathKind;
}

/** `path-not-found` diagnostics of a document, located. Paths the schema refuses (absolute, `..`) are its to report. */
export function checkPaths(document: ManifestDocument, files: ManifestFiles): Diagnostic[] {
  const raw: RawDiagnostic[] = [];
  for (const path of sourcePaths(document.root, document.source)) {
    if (path.output) continue;
    if (path.value.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path.value) || path.value.split(/[\\/]/).includes('..'))
      continue;
    let kind: PathKind;
    try {
      kind = files.stat(path.value.replace(/\\/g, '/'));
    } catch {
      continue;
    }
    if (kind !== 'missing') continue;
    raw.push({
      code: 'path-not-found',
      message: `${path.key} '${path.value}' does not exist relative to the manifest's folder`,
      path: path.pointer,
      start: path.nameStart,
      end: path.nameEnd,
    });
  }
  return raw.map((diagnostic) => document.lines.locate(diagnostic, severityOf(diagnostic.code)));
}
