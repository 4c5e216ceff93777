/**
 * `ManifestFiles` over Node's file system, for the CLI and the language server on Node: paths are
 * looked up relative to the manifest's folder, inside its repository (the nearest folder upwards
 * with a `.git`, else the manifest's folder). Nothing outside is followed: a path that leaves the
 * repository lexically is `outside` before any file is touched, and one whose real path (through
 * symbolic links) leaves it is `outside` without its kind being read.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative as relativePath, resolve, sep } from 'node:path';
import type { ManifestFiles, PathKind } from './paths.js';

/** The nearest folder from `folder` upwards that holds `.git`, else `folder` itself. */
export function repositoryRootOf(folder: string): string {
  for (let at = folder, depth = 0; depth < 256; depth++) {
    if (existsSync(resolve(at, '.git'))) return at;
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  return folder;
}

function isInside(root: string, path: string): boolean {
  const rel = relativePath(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The files around the manifest at `manifestPath` (absolute), inside `root` (its repository by default). */
export function nodeManifestFiles(manifestPath: string, root?: string): ManifestFiles {
  const folder = dirname(resolve(manifestPath));
  // The repository is looked for on the first lookup: most manifests name no path, and a run over
  // a tree of them would otherwise pay a walk upwards and a realpath per file for nothing.
  let top: string | undefined;
  let realTop = '';
  return {
    stat(relative: string): PathKind {
      if (relative === '' || isAbsolute(relative) || relative.includes('\0') || relative.split(/[\\/]/).includes('..'))
        return 'outside';
      if (top === undefined) {
        top = resolve(root ?? repositoryRootOf(folder));
        try {
          realTop = realpathSync(top);
        } catch {
          // The root itself is gone: every lookup below finds nothing.
          realTop = top;
        }
      }
      const target = resolve(folder, relative.split('/').join(sep));
      if (!isInside(top, target)) return 'outside';
      // The deepest part of the path that exists, by its real path: a link out of the repository stops here.
      for (let probe = target; ;) {
        let real: string | undefined;
        try {
          real = realpathSync(probe);
        } catch {
          real = undefined;
        }
        if (real !== undefined) {
          if (!isInside(realTop, real)) return 'outside';
          if (probe !== target) return 'missing';
          try {
            return statSync(real).isDirectory() ? 'folder' : 'file';
          } catch {
            return 'missing';
          }
        }
        const parent = dirname(probe);
        if (parent === probe || !isInside(top, parent)) return 'missing';
        probe = parent;
      }
    },
  };
}
