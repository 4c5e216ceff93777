/**
 * The commands that change manifests: `validate --fix` / `--fix-dry-run`, `migrate` and
 * `convert`. Each reads the file, plans the whole result through the editing engine, and
 * writes only when the result is complete and checked; a refusal writes nothing.
 * `cli.ts` hands in its flag parser and report printer.
 */
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { Diagnostic } from './diagnostic.js';
import { ManifestDocument } from './document/manifest-document.js';
import { ManifestEditError } from './edit/changes.js';
import { tomlToYaml } from './edit/toml-to-yaml.js';
import { fixManifest, type AppliedFix } from './fix.js';
import type { ManifestPolicy } from './policy/policy.js';
import type { FileReport } from './formatters/types.js';
import { migrateManifest } from './migrate.js';
import { MANIFEST_FILE_NAMES } from './model/files.js';
import type { CliIo } from './cli-io.js';

export interface CliTools {
  parseFlags(
    args: readonly string[],
    valued: readonly string[],
    booleans: readonly string[],
  ): { flags: Map<string, string>; positional: string[] };
  /** Throws the CLI's usage error (exit 2). */
  usage(message: string): never;
  /** Reads a file within the size limit; undefined (and a message on stderr) when it cannot. */
  read(file: string, io: CliIo): Uint8Array | undefined;
  /** Prints reports in the chosen format on stdout (or stderr). */
  report(reports: FileReport[], format: string, io: CliIo, toStderr?: boolean): Promise<void>;
  checkFormat(format: string): void;
}

/** Writes a text as UTF-8 (a byte-order mark at its start is kept as written). */
function writeText(path: string, text: string, exclusive = false): void {
  writeFileSync(path, text, { encoding: 'utf8', flag: exclusive ? 'wx' : 'w' });
}

/** A unified diff of one file, `a/` and `b/` prefixed like git's. */
export function unifiedDiff(file: string, before: string, after: string): string {
  if (before === after) return '';
  const name = file.replace(/\\/g, '/');
  return createTwoFilesPatch(`a/${name}`, `b/${name}`, before, after, undefined, undefined, { context: 3 }).replace(
    /^=+\r?\n/,
    '',
  );
}

/**
 * `validate --fix` / `--fix-dry-run` for one parsed file: the diagnostics that are left (as the
 * file's policy has them; it fixes nothing the policy turns off or a comment suppresses).
 * With `write`, the fixed text replaces the file; otherwise the diff goes to `diffs`.
 */
export function fixFile(
  document: ManifestDocument,
  file: string,
  absolutePath: string,
  write: boolean,
  diffs: string[],
  policy?: ManifestPolicy,
): { text: string; diagnostics: Diagnostic[]; fixes: AppliedFix[]; document: ManifestDocument } {
  const result = fixManifest(document, { policy });
  if (result.changed) {
    if (write) writeText(absolutePath, result.text);
    else diffs.push(unifiedDiff(file, document.text, result.text));
  }
  return { text: result.text, diagnostics: result.diagnostics, fixes: result.fixes, document: result.document };
}

const MANIFESTS = MANIFEST_FILE_NAMES;

export async function migrateCommand(args: readonly string[], io: CliIo, tools: CliTools): Promise<number> {
  const { flags, positional } = tools.parseFlags(args, ['--to', '--default-agent', '--format'], ['--write']);
  const format = flags.get('--format') ?? 'stylish';
  tools.checkFormat(format);
  const to = flags.get('--to');
  if (to === undefined) tools.usage('migrate needs --to 2');
  if (to !== '2') tools.usage(`--to is 2 (the only version to migrate to), not '${to}'`);
  if (positional.length > 1) tools.usage('migrate takes one file');
  let file = positional[0];
  if (file === undefined) {
    const found = MANIFESTS.filter((name) => existsSync(join(io.cwd, name)));
    if (found.length === 0) tools.usage(`no ${MANIFESTS.join(', ')} in ${io.cwd}; name the file to migrate`);
    if (found.length > 1) tools.usage(`${found.join(' and ')} are both here; name the file to migrate`);
    file = found[0]!;
  }
  const absolutePath = resolve(io.cwd, file);
  const bytes = tools.read(file, io);
  if (!bytes) return 2;
  const defaultAgent = flags.get('--default-agent');
  if (defaultAgent !== undefined && defaultAgent.length === 0) tools.usage('--default-agent needs a name');
  const document = ManifestDocument.parse(bytes, { filename: file });
  const result = migrateManifest(document, { to: 2, defaultAgent });
  if (!result.ok) {
    await tools.report(
      [{ filePath: file, absolutePath, text: document.text, diagnostics: result.diagnostics }],
      format,
      io,
    );
    return 1;
  }
  if (flags.has('--write')) {
    if (result.changed) writeText(absolutePath, result.text);
    io.stderr(
      result.changed
        ? `svc-manifest: migrated ${file} to svc_version 2\n`
        : `svc-manifest: ${file} is already svc_version 2; nothing to do\n`,
    );
  } else {
    if (!result.changed) io.stderr(`svc-manifest: ${file} is already svc_version 2\n`);
    io.stdout(result.text);
  }
  return 0;
}

export async function convertCommand(args: readonly string[], io: CliIo, tools: CliTools): Promise<number> {
  const { flags, positional } = tools.parseFlags(args, ['--format'], ['--write']);
  const format = flags.get('--format') ?? 'stylish';
  tools.checkFormat(format);
  if (positional.length > 1) tools.usage('convert takes one file');
  const file = positional[0] ?? 'svc.toml';
  if (extname(file).toLowerCase() !== '.toml') tools.usage(`convert reads a .toml manifest, not '${file}'`);
  const absolutePath = resolve(io.cwd, file);
  const bytes = tools.read(file, io);
  if (!bytes) return 2;
  const document = ManifestDocument.parse(bytes, { filename: file, format: 'toml' });
  let yaml: string;
  try {
    yaml = tomlToYaml(document).text;
  } catch (error) {
    if (!(error instanceof ManifestEditError)) throw error;
    if (error.reason === 'unreadable') {
      await tools.report(
        [{ filePath: file, absolutePath, text: document.text, diagnostics: [...error.diagnostics] }],
        format,
        io,
      );
      return 1;
    }
    io.stderr(`svc-manifest: cannot convert ${file}: ${error.message}\n`);
    return 1;
  }
  if (!flags.has('--write')) {
    io.stdout(yaml);
    return 0;
  }
  const stem = basename(file, extname(file));
  const folder = dirname(absolutePath);
  const target = join(folder, `${stem}.yaml`);
  const taken = [`${stem}.yaml`, `${stem}.yml`].filter((name) => existsSync(join(folder, name)));
  if (taken.length > 0) {
    io.stderr(
      `svc-manifest: ${taken.join(' and ')} already exist${taken.length === 1 ? 's' : ''} beside ${file}; nothing was changed\n`,
    );
    return 1;
  }
  try {
    // Exclusive create: a file that appears meanwhile is never overwritten.
    writeText(target, yaml, true);
  } catch (error) {
    io.stderr(
      `svc-manifest: cannot write ${target}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; nothing was changed\n`,
    );
    return 1;
  }
  // The YAML on disk must read back as written before the TOML goes.
  if (readFileSync(target, 'utf8') !== yaml) {
    unlinkSync(target);
    io.stderr(`svc-manifest: ${target} did not read back as written; nothing was changed\n`);
    return 1;
  }
  unlinkSync(absolutePath);
  io.stderr(`svc-manifest: wrote ${join(dirname(file), `${stem}.yaml`)} and removed ${file}\n`);
  return 0;
}
