/**
 * What git would leave out: the `.gitignore` files of a folder and its parents up to the
 * repository root, and the repository's `.git/info/exclude`, read with the `ignore` library (the
 * matcher ESLint and typescript-eslint use, which follows git's pattern rules). Folders named
 * `node_modules` and `.git` are always left out. Each ignore file is read once per run.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Folders no one means to check, skipped wherever they are (`--no-ignore` walks them). */
export const ALWAYS_SKIPPED_FOLDERS: readonly string[] = ['node_modules', '.git'];

/** An ignore file larger than this is not read (a hostile tree must not make us read a huge file). */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

export class IgnoreRules {
  /** The ignore rules each folder adds (undefined: it has none), by absolute path. */
  private readonly rulesOfFolder = new Map<string, Ignore | undefined>();
  /** Whether a folder is ignored, by absolute path. */
  private readonly folderIgnored = new Map<string, boolean>();
  private readonly repositoryRoots = new Map<string, string | undefined>();

  /**
   * Whether git would ignore this file (or folder, with `isFolder`): by the ignore files of its
   * repository, including when a folder it is in is ignored. Outside a repository nothing is
   * ignored, as with git (and ripgrep).
   */
  isIgnored(absolutePath: string, isFolder: boolean): boolean {
    const known = isFolder ? this.folderIgnored.get(absolutePath) : undefined;
    if (known !== undefined) return known;
    const parent = dirname(absolutePath);
    const root = parent === absolutePath ? undefined : this.repositoryRootOf(parent);
    let ignored = false;
    if (root !== undefined) {
      const insideIgnoredFolder = parent !== root && parent.startsWith(root) && this.isIgnored(parent, true);
      ignored = insideIgnoredFolder || this.decide(absolutePath, isFolder, parent, root);
    }
    if (isFolder) this.folderIgnored.set(absolutePath, ignored);
    return ignored;
  }

  /** The deepest ignore file with an opinion on the path decides, as in git. */
  private decide(absolutePath: string, isFolder: boolean, parent: string, root: string): boolean {
    for (let folder = parent; ; folder = dirname(folder)) {
      const rules = this.rulesOf(folder, folder === root);
      if (rules !== undefined) {
        const path = relative(folder, absolutePath).split(sep).join('/') + (isFolder ? '/' : '');
        const verdict = rules.test(path);
        if (verdict.ignored) return true;
        if (verdict.unignored) return false;
      }
      if (folder === root || dirname(folder) === folder) return false;
    }
  }

  private rulesOf(folder: string, isRepositoryRoot: boolean): Ignore | undefined {
    if (this.rulesOfFolder.has(folder)) return this.rulesOfFolder.get(folder);
    const sources = [readIgnoreFile(join(folder, '.gitignore'))];
    if (isRepositoryRoot) sources.unshift(readIgnoreFile(join(folder, '.git', 'info', 'exclude')));
    const text = sources.filter((source) => source !== undefined).join('\n');
    const rules = text.trim() === '' ? undefined : ignore({ allowRelativePaths: true }).add(text);
    this.rulesOfFolder.set(folder, rules);
    return rules;
  }

  /** The nearest folder up from `folder` that holds `.git` (a folder, or a worktree's file). */
  private repositoryRootOf(folder: string): string | undefined {
    if (this.repositoryRoots.has(folder)) return this.repositoryRoots.get(folder);
    let root: string | undefined;
    try {
      statSync(join(folder, '.git'));
      root = folder;
    } catch {
      const parent = dirname(folder);
      root = parent === folder ? undefined : this.repositoryRootOf(parent);
    }
    this.repositoryRoots.set(folder, root);
    return root;
  }
}

function readIgnoreFile(path: string): string | undefined {
  try {
    if (statSync(path).size > MAX_IGNORE_FILE_BYTES) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
