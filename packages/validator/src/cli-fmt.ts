/**
 * `svc-manifest fmt [paths…]` formats manifests in place; `fmt --check` writes nothing, lists the
 * files that would change and exits 1. The policy file's `format` (`indent`, `sequences`,
 * `quotes`) decides first; else the indent width comes from `.editorconfig` (the nearest files up
 * to `root = true`, or the repository's top), 2 otherwise, sequences stay as the file has them and
 * quotes are made double. Paths are read by the CLI's input discovery (`inputs/`), as for `validate`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ManifestEditError } from './edit/changes.js';
import { editorConfigIndent, type EditorConfigFile } from './edit/editorconfig.js';
import { formatManifest } from './edit/format.js';
import { MANIFEST_FILE_NAMES } from './model/files.js';
import { findManifestFiles, manifestsInFolder, type ManifestFile } from './inputs/manifest-files.js';
import { escapeForTerminal } from './formatters/terminal-text.js';
import { PolicyFinder } from './policy/config.js';
import type { CliIo } from './cli-io.js';
import type { CliTools } from './cli-transform.js';

/**
 * The files `fmt` formats for its positional arguments, read as `validate` reads them (files,
 * folders walked with the ignore files honoured, quoted globs, less what a policy file's `ignore`
 * globs leave out of walks, as `policies` finds them); with none, the manifests in the current folder. An argument that selects nothing is reported on stderr and counted in `failed`.
 */
function fmtInputs(
  positional: readonly string[],
  io: CliIo,
  tools: CliTools,
  honourIgnoreFiles: boolean,
  policies: PolicyFinder,
): { files: ManifestFile[]; failed: boolean } {
  if (positional.length === 0) {
    const here = manifestsInFolder(io.cwd);
    if (here.length === 0)
      tools.usage(`no ${MANIFEST_FILE_NAMES.join(', ')} here; pass a folder, e.g. \`svc-manifest fmt .\``);
    return { files: here, failed: false };
  }
  const found = findManifestFiles(positional, { cwd: io.cwd, honourIgnoreFiles });
  if (found.stdin) tools.usage("fmt formats files in place; it does not take '-' (standard input)");
  for (const problem of found.problems)
    io.stderr(`svc-manifest: ${escapeForTerminal(problem.input)}: ${problem.reason}\n`);
  return { files: found.files.filter((file) => policies.keeps(file)), failed: found.problems.length > 0 };
}

/** The `.editorconfig` files from `path`'s folder up to the filesystem's root, nearest first. */
function editorConfigsFor(path: string): EditorConfigFile[] {
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
  const { flags, positional } = tools.parseFlags(args, [], ['--check', '--no-ignore']);
  const check = flags.has('--check');
  const policies = new PolicyFinder();
  const inputs = fmtInputs(positional, io, tools, !flags.has('--no-ignore'), policies);
  let failed = inputs.failed;
  const wouldChange: string[] = [];
  for (const { displayPath: file, absolutePath } of inputs.files) {
    const bytes = tools.read(file, io);
    if (!bytes) {
      failed = true;
      continue;
    }
    let result;
    try {
      const policy = policies.policyFor(absolutePath)?.format;
      result = formatManifest(bytes, {
        filename: file,
        indentWidth:
          policy?.indent ?? editorConfigIndent(absolutePath.replace(/\\/g, '/'), editorConfigsFor(absolutePath)),
        sequences: policy?.sequences,
        quotes: policy?.quotes,
      });
    } catch (error) {
      if (!(error instanceof ManifestEditError)) throw error;
      io.stderr(`svc-manifest: ${escapeForTerminal(file)}: ${escapeForTerminal(error.message)}\n`);
      failed = true;
      continue;
    }
    if (!result.changed) continue;
    wouldChange.push(file);
    if (!check) writeFileSync(absolutePath, result.text, 'utf8');
  }
  if (check) {
    for (const file of wouldChange) io.stdout(`${escapeForTerminal(file)}\n`);
    if (wouldChange.length > 0)
      io.stderr(
        `svc-manifest: ${wouldChange.length} file${wouldChange.length === 1 ? '' : 's'} would be reformatted; run 'svc-manifest fmt'\n`,
      );
  } else {
    for (const file of wouldChange) io.stdout(`formatted ${escapeForTerminal(file)}\n`);
  }
  if (failed) return 2;
  return check && wouldChange.length > 0 ? 1 : 0;
}
