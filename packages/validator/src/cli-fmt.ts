/**
 * `svc-manifest fmt [paths…]` formats manifests in place; `fmt --check` writes nothing, lists the
 * files that would change and exits 1. The indent width comes from `.editorconfig` (the nearest
 * files up to `root = true`, or the repository's top); 2 otherwise. A folder stands for the
 * manifests directly in it; which inputs a folder or a glob means is the CLI's input discovery's
 * to say (`fmtInputs` is the one place that reads them).
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ManifestEditError } from './edit/changes.js';
import { editorConfigIndent, type EditorConfigFile } from './edit/editorconfig.js';
import { formatManifest } from './edit/format.js';
import { MANIFEST_FILE_NAMES } from './model/files.js';
import type { CliIo } from './cli.js';
import type { CliTools } from './cli-transform.js';

/** The files `fmt` formats for its positional arguments (relative to `cwd` as given). */
export function fmtInputs(positional: readonly string[], io: CliIo, tools: CliTools): string[] {
  const inputs = positional.length > 0 ? positional : ['.'];
  const files: string[] = [];
  for (const input of inputs) {
    let folder = false;
    try {
      folder = statSync(resolve(io.cwd, input)).isDirectory();
    } catch {
      folder = false;
    }
    if (!folder) {
      files.push(input);
      continue;
    }
    const found = MANIFEST_FILE_NAMES.filter((name) => existsSync(join(resolve(io.cwd, input), name)));
    if (found.length === 0 && positional.length === 0) tools.usage(`no ${MANIFEST_FILE_NAMES.join(', ')} in ${io.cwd}; name the files to format`);
    files.push(...found.map((name) => (input === '.' ? name : join(input, name))));
  }
  return files;
}

/** The `.editorconfig` files from `path`'s folder up to the filesystem's root, nearest first. */
export function editorConfigsFor(path: string): EditorConfigFile[] {
  const files: EditorConfigFile[] = [];
  for (let folder = dirname(path), depth = 0; depth < 64; depth++) {
    const candidate = join(folder, '.editorconfig');
    try {
      files.push({ folder: folder.replace(/\\/g, '/').replace(/\/$/, ''), text: readFileSync(candidate, 'utf8') });
    } catch {
      // None here.
    }
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  return files;
}

export async function fmtCommand(args: readonly string[], io: CliIo, tools: CliTools): Promise<number> {
  const { flags, positional } = tools.parseFlags(args, [], ['--check']);
  const check = flags.has('--check');
  let failed = false;
  const wouldChange: string[] = [];
  for (const file of fmtInputs(positional, io, tools)) {
    const absolutePath = resolve(io.cwd, file);
    const bytes = tools.read(file, io);
    if (!bytes) {
      failed = true;
      continue;
    }
    let result;
    try {
      result = formatManifest(bytes, { filename: file, indentWidth: editorConfigIndent(absolutePath.replace(/\\/g, '/'), editorConfigsFor(absolutePath)) });
    } catch (error) {
      if (!(error instanceof ManifestEditError)) throw error;
      io.stderr(`svc-manifest: ${file}: ${error.message}\n`);
      failed = true;
      continue;
    }
    if (!result.changed) continue;
    wouldChange.push(file);
    if (!check) writeFileSync(absolutePath, result.text, 'utf8');
  }
  if (check) {
    for (const file of wouldChange) io.stdout(`${file}\n`);
    if (wouldChange.length > 0)
      io.stderr(`svc-manifest: ${wouldChange.length} file${wouldChange.length === 1 ? '' : 's'} would be reformatted; run 'svc-manifest fmt'\n`);
  } else {
    for (const file of wouldChange) io.stdout(`formatted ${file}\n`);
  }
  if (failed) return 2;
  return check && wouldChange.length > 0 ? 1 : 0;
}
