/**
 * The per-folder switches (resource-scoped settings `svc.validation.enable`, `svc.hover.enable`,
 * `svc.completion.enable`, `svc.format.enable`, `svc.pathChecks.enable`), applied in the
 * client's middleware for each document: in a multi-root workspace each folder (and each file)
 * can have its own, without the server knowing about folders.
 */
export type Switch = 'validation' | 'hover' | 'completion' | 'format' | 'pathChecks';

export const SWITCHES: readonly Switch[] = ['validation', 'hover', 'completion', 'format', 'pathChecks'];

/** The code of the path check, dropped where `svc.pathChecks.enable` is off. */
export const PATH_CHECK_CODE = 'path-not-found';

/** The diagnostics to show for a document given its switches (`read` answers `svc.<name>.enable` for it). */
export function filterBySwitches<D extends { code?: unknown }>(diagnostics: D[], read: (name: Switch) => boolean): D[] {
  if (!read('validation')) return [];
  if (read('pathChecks')) return diagnostics;
  return diagnostics.filter(
    (d) =>
      (typeof d.code === 'object' && d.code !== null ? (d.code as { value?: unknown }).value : d.code) !==
      PATH_CHECK_CODE,
  );
}
