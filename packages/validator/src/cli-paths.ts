/**
 * The CLI's path check: `path-not-found` for a manifest read from disk, unless `--no-path-checks`.
 */
import type { Diagnostic } from './diagnostic.js';
import type { ManifestDocument } from './document/manifest-document.js';
import { nodeManifestFiles } from './node-files.js';
import { checkPaths } from './paths.js';

/** `diagnostics` with the path check's merged in by place. */
export function withPathDiagnostics(
  document: ManifestDocument,
  absolutePath: string,
  diagnostics: Diagnostic[],
): Diagnostic[] {
  if (!document.root || diagnostics.some((d) => d.code === 'yaml-syntax' || d.code === 'toml-syntax'))
    return diagnostics;
  const found = checkPaths(document, nodeManifestFiles(absolutePath));
  if (found.length === 0) return diagnostics;
  return [...diagnostics, ...found].sort(
    (a, b) =>
      a.range.start.offset - b.range.start.offset ||
      a.range.end.offset - b.range.end.offset ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}
