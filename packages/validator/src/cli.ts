/**
 * `svc-manifest`: validate manifests from the command line, pre-commit and CI; print the
 * published schemas; and (through the `svc-manifest-git` command of @svc-manifest/gitops) apply
 * manifest operations to git.
 *
 * Exit codes: 0 no error, 1 at least one error, 2 usage error or unreadable file.
 */
import { accessSync, closeSync, constants, existsSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { publishedSchemas } from '@svc-manifest/schema';
import { MANIFEST_FILE_NAMES } from './model/files.js';
import { ManifestDocument } from './document/manifest-document.js';
import { DEFAULT_LIMITS } from './document/limits.js';
import { validateDocument } from './validate.js';
import { spawn } from 'node:child_process';
import { formatGithub } from './formatters/github.js';
import { formatJson } from './formatters/json.js';
import { formatSarif } from './formatters/sarif.js';
import { formatStylish } from './formatters/stylish.js';
import type { FileReport, FormatOptions } from './formatters/types.js';
import { convertCommand, fixFile, migrateCommand, type CliTools } from './cli-transform.js';
import type { CliIo } from './cli-io.js';

export type { CliIo };

export const VERSION = '0.1.0';

const USAGE = `usage: svc-manifest <command> [options]

commands:
  validate [files...]   check manifests (default: svc.yaml, svc.yml or svc.toml here)
      --format <name>   stylish (default), json (ESLint's shape), sarif (2.1.0), github (annotations)
      --max-bytes <n>   largest file to read (default ${DEFAULT_LIMITS.maxBytes})
      --no-warnings     report errors only
      --fix             apply the safe fixes in place, report what is left
      --fix-dry-run     print the safe fixes as a unified diff (the report goes to stderr)
  migrate [file] --to 2 [--default-agent NAME] [--write] [--format <name>]
                        turn a svc_version 1 manifest into version 2 (stdout, or in place)
  convert [svc.toml] [--write]
                        turn svc.toml into svc.yaml (stdout, or write svc.yaml and remove svc.toml)
  schema [--version 1|2]  print the published JSON Schema (combined, or one version's)
  git <operation> ...   apply setDefaultAgent, setAgentScope and marketplace operations as
                        git commits (runs svc-manifest-git from @svc-manifest/gitops;
                        see 'svc-manifest git help')
  --help, --version
`;

class UsageError extends Error {}

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const [command, ...rest] = argv;
    switch (command) {
      case 'validate':
        return await validateCommand(rest, io);
      case 'schema':
        return schemaCommand(rest, io);
      case 'migrate':
        return await migrateCommand(rest, io, CLI_TOOLS);
      case 'convert':
        return await convertCommand(rest, io, CLI_TOOLS);
      case 'git':
        return await gitCommand(rest, io);
      case '--version':
      case '-v':
        io.stdout(`${VERSION}\n`);
        return 0;
      case '--help':
      case '-h':
      case 'help':
        io.stdout(USAGE);
        return 0;
      case undefined:
        io.stderr(USAGE);
        return 2;
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`svc-manifest: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.stderr(`svc-manifest: ${(error as Error).message}\n`);
    return 2;
  }
}

function parseFlags(args: readonly string[], valued: readonly string[], booleans: readonly string[]): { flags: Map<string, string>; positional: string[] } {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (booleans.includes(name)) {
      flags.set(name, 'true');
    } else if (valued.includes(name)) {
      const value = inline ?? args[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value`);
      flags.set(name, value);
    } else {
      throw new UsageError(`unknown option '${name}'`);
    }
  }
  return { flags, positional };
}

const DEFAULT_FILES = MANIFEST_FILE_NAMES;

async function validateCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { flags, positional } = parseFlags(args, ['--format', '--max-bytes'], ['--no-warnings', '--fix', '--fix-dry-run']);
  const format = flags.get('--format') ?? 'stylish';
  checkFormat(format);
  if (flags.has('--fix') && flags.has('--fix-dry-run')) throw new UsageError('use --fix or --fix-dry-run, not both');
  const diffs: string[] = [];
  const maxBytes = flags.has('--max-bytes') ? Number(flags.get('--max-bytes')) : DEFAULT_LIMITS.maxBytes;
  if (!Number.isInteger(maxBytes) || maxBytes <= 0) throw new UsageError('--max-bytes takes a positive whole number');
  let files = positional;
  if (files.length === 0) {
    files = DEFAULT_FILES.filter((name) => existsSync(join(io.cwd, name)));
    if (files.length === 0) throw new UsageError(`no ${DEFAULT_FILES.join(', ')} in ${io.cwd}; name the files to check`);
  }
  const reports: FileReport[] = [];
  let unreadable = false;
  for (const file of files) {
    const absolutePath = resolve(io.cwd, file);
    let bytes: Uint8Array;
    try {
      // Read no more than the limit (plus one byte, to know it was exceeded): never load a huge file whole.
      if (statSync(absolutePath).isDirectory()) throw new Error('is a directory');
      bytes = readCapped(absolutePath, maxBytes + 1);
    } catch (error) {
      io.stderr(`svc-manifest: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
      unreadable = true;
      continue;
    }
    const document = ManifestDocument.parse(bytes, { filename: file, limits: { maxBytes } });
    const checked =
      flags.has('--fix') || flags.has('--fix-dry-run')
        ? fixFile(document, file, absolutePath, flags.has('--fix'), diffs)
        : { text: document.text, diagnostics: validateDocument(document).diagnostics };
    let diagnostics = checked.diagnostics;
    if (flags.has('--no-warnings')) diagnostics = diagnostics.filter((d) => d.severity === 'error');
    reports.push({ filePath: file, absolutePath, text: checked.text, diagnostics });
  }
  if (flags.has('--fix-dry-run')) io.stdout(diffs.join(''));
  await printReports(reports, format, io, flags.has('--fix-dry-run'));
  if (unreadable) return 2;
  return reports.some((r) => r.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
}

function checkFormat(format: string): void {
  if (!['stylish', 'json', 'sarif', 'github'].includes(format)) throw new UsageError(`unknown format '${format}' (stylish, json, sarif or github)`);
}

async function printReports(reports: FileReport[], format: string, io: CliIo, toStderr = false): Promise<void> {
  const options: FormatOptions = {
    color: io.isTty && !io.env.NO_COLOR && format === 'stylish' && !toStderr,
    repositoryRoot: findRepositoryRoot(io.cwd),
    toolVersion: VERSION,
  };
  (toStderr ? io.stderr : io.stdout)(formatReports(format, reports, options));
}

/** The report in a format; all but the default load only when asked for (in the CLI bundle: scripts/lazy-parts-plugin.mjs). */
function formatReports(format: string, reports: FileReport[], options: FormatOptions): string {
  switch (format) {
    case 'json':
      return formatJson(reports);
    case 'sarif':
      return formatSarif(reports, options);
    case 'github':
      return formatGithub(reports, options);
    default:
      return formatStylish(reports, options);
  }
}

/** What the commands in cli-transform.ts use of this file. */
const CLI_TOOLS: CliTools = {
  parseFlags,
  usage(message: string): never {
    throw new UsageError(message);
  },
  read(file: string, io: CliIo): Uint8Array | undefined {
    try {
      const path = resolve(io.cwd, file);
      if (statSync(path).isDirectory()) throw new Error('is a directory');
      return readCapped(path, DEFAULT_LIMITS.maxBytes + 1);
    } catch (error) {
      io.stderr(`svc-manifest: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
      return undefined;
    }
  },
  report: printReports,
  checkFormat,
};

function readCapped(path: string, limit: number): Uint8Array {
  if (statSync(path).size <= limit) return readFileSync(path);
  const buffer = Buffer.alloc(limit);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buffer, 0, limit, 0);
  } finally {
    closeSync(fd);
  }
  return buffer;
}

/** The nearest folder up from `start` that holds `.git`, else `start`. */
function findRepositoryRoot(start: string): string {
  let current = resolve(start);
  for (;;) {
    if (existsSync(join(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) return resolve(start);
    current = parent;
  }
}

function schemaCommand(args: readonly string[], io: CliIo): number {
  const { flags, positional } = parseFlags(args, ['--version'], []);
  if (positional.length) throw new UsageError(`schema takes no file names`);
  const version = flags.get('--version');
  const schemas = publishedSchemas();
  if (version === undefined) io.stdout(JSON.stringify(schemas.combined, null, 2) + '\n');
  else if (version === '1') io.stdout(JSON.stringify(schemas.v1, null, 2) + '\n');
  else if (version === '2') io.stdout(JSON.stringify(schemas.v2, null, 2) + '\n');
  else throw new UsageError(`--version is 1 or 2, not '${version}'`);
  return 0;
}

/**
 * `svc-manifest git …` runs the `svc-manifest-git` command of @svc-manifest/gitops, the way
 * `git foo` runs `git-foo`: the applier depends on the validator, never the other way round, so
 * this package does not load it. The command is looked up in the `node_modules/.bin` folders
 * above this program (where npm links it when both packages are installed in one project), then
 * on PATH.
 */
async function gitCommand(args: readonly string[], io: CliIo): Promise<number> {
  const command = findGitCommand(io.env);
  if (command === undefined) {
    io.stderr(
      `svc-manifest: 'svc-manifest git' needs the ${GIT_COMMAND} command of @svc-manifest/gitops, which is not installed.\n` +
        `Install it beside @svc-manifest/validator: npm install @svc-manifest/gitops\n`,
    );
    return 2;
  }
  // child_process (with Node's stream and socket modules behind it) loads only here: a
  // `validate` run never uses it (in the bundle: scripts/lazy-parts-plugin.mjs).
  // Node scripts found in node_modules/.bin run with this Node, whatever PATH's `node` is.
  const env = { ...io.env, PATH: [dirname(process.execPath), io.env.PATH].filter(Boolean).join(delimiter) };
  return new Promise<number>((resolvePromise) => {
    const child = spawn(command, [...args], { cwd: io.cwd, env, stdio: ['inherit', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    child.stdout.setEncoding('utf8').on('data', (text: string) => io.stdout(text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => io.stderr(text));
    child.on('error', (error) => {
      io.stderr(`svc-manifest: cannot run ${command}: ${error.message}\n`);
      resolvePromise(2);
    });
    child.on('close', (code, signal) => {
      if (signal) io.stderr(`svc-manifest: ${GIT_COMMAND} was stopped by ${signal}\n`);
      resolvePromise(code ?? 1);
    });
  });
}

const GIT_COMMAND = 'svc-manifest-git';

/** Where `svc-manifest-git` is: a `node_modules/.bin` above this program, else a PATH folder. */
function findGitCommand(env: Record<string, string | undefined>): string | undefined {
  const names = process.platform === 'win32' ? [`${GIT_COMMAND}.cmd`, `${GIT_COMMAND}.exe`] : [GIT_COMMAND];
  const folders: string[] = [];
  const program = process.argv[1];
  if (program) {
    // Both the path the program was started by (e.g. node_modules/.bin/svc-manifest) and the
    // file it is (node_modules/@svc-manifest/validator/launcher/…).
    const starts = [dirname(resolve(program))];
    try {
      starts.push(dirname(realpathSync(program)));
    } catch {
      // A program path that does not resolve only loses that start.
    }
    for (const start of starts) {
      for (let folder = start; ; folder = dirname(folder)) {
        if (basename(folder) === '.bin') folders.push(folder);
        folders.push(join(folder, 'node_modules', '.bin'));
        if (dirname(folder) === folder) break;
      }
    }
  }
  folders.push(...(env.PATH ?? '').split(delimiter).filter((folder) => isAbsolute(folder)));
  for (const folder of folders) {
    for (const name of names) {
      const candidate = join(folder, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
