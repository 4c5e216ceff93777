/**
 * The files around a document, for the server on Node (`command.ts` passes them to `startServer`):
 * a `file:` document's folder, read through the validator's `nodeManifestFiles` (inside the
 * repository, never through a link out of it). A browser build passes nothing: no path checks.
 */
import { readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { manifestFileNamed, nodeManifestFiles, type ManifestFiles } from '@svc-manifest/validator';

export function nodeWorkspaceFiles(uri: string): ManifestFiles | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return nodeManifestFiles(fileURLToPath(uri));
  } catch {
    return undefined;
  }
}

const SKIPPED = new Set(['.git', 'node_modules', '.hg', '.svn']);
const MAX_ENTRIES = 20_000;
const MAX_MANIFESTS = 500;
const MAX_BYTES = 1024 * 1024;

/** One `.gitignore` rule: a pattern relative to the folder of its file. */
interface IgnoreRule {
  base: string;
  regex: RegExp;
  folderOnly: boolean;
  negated: boolean;
}

function ignoreRules(folder: string, text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    if (negated) line = line.slice(1);
    const folderOnly = line.endsWith('/');
    if (folderOnly) line = line.slice(0, -1);
    // A pattern with a `/` (other than at the end) is anchored to the file's folder; one without matches at any depth.
    const anchored = line.includes('/');
    line = line.replace(/^\//, '');
    let source = '';
    for (let i = 0; i < line.length; i++) {
      const char = line[i]!;
      if (char === '*' && line[i + 1] === '*') {
        source += '.*';
        i += line[i + 2] === '/' ? 2 : 1;
      } else if (char === '*') source += '[^/]*';
      else if (char === '?') source += '[^/]';
      else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    try {
      rules.push({ base: folder, regex: new RegExp(anchored ? `^${source}$` : `(^|/)${source}$`), folderOnly, negated });
    } catch {
      // A pattern we cannot read matches nothing.
    }
  }
  return rules;
}

function ignored(rules: readonly IgnoreRule[], path: string, isFolder: boolean): boolean {
  let result = false;
  for (const rule of rules) {
    if (rule.folderOnly && !isFolder) continue;
    const rel = relative(rule.base, path).split(sep).join('/');
    if (rel.startsWith('..')) continue;
    if (rule.regex.test(rel)) result = !rule.negated;
  }
  return result;
}

/**
 * The manifests (`svc.yaml`, `svc.yml`, `svc.toml`) in the workspace folders, read from disk:
 * folders named in a `.gitignore` (at any level, as git reads them) or `.git`/`node_modules`
 * are skipped, symbolic links are never followed, and the walk is bounded (entries, files, size).
 */
export function nodeWorkspaceManifests(folderUris: readonly string[]): { uri: string; text: string }[] {
  const found: { uri: string; text: string }[] = [];
  let entries = 0;
  const walk = (folder: string, rules: IgnoreRule[], depth: number): void => {
    if (depth > 12 || found.length >= MAX_MANIFESTS) return;
    let names: Dirent[];
    try {
      names = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    let here = rules;
    try {
      here = [...rules, ...ignoreRules(folder, readFileSync(join(folder, '.gitignore'), 'utf8'))];
    } catch {
      // No .gitignore here.
    }
    for (const entry of names.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (++entries > MAX_ENTRIES || found.length >= MAX_MANIFESTS) return;
      const path = join(folder, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name) && !ignored(here, path, true)) walk(path, here, depth + 1);
      } else if (entry.isFile() && manifestFileNamed(entry.name) && !ignored(here, path, false)) {
        try {
          if (statSync(path).size > MAX_BYTES) continue;
          found.push({ uri: pathToFileURL(path).href, text: readFileSync(path, 'utf8') });
        } catch {
          // Unreadable: left out.
        }
      }
    }
  };
  for (const uri of folderUris) {
    if (!uri.startsWith('file:')) continue;
    try {
      walk(fileURLToPath(uri), [], 0);
    } catch {
      // A folder we cannot read: nothing from it.
    }
  }
  return found;
}
