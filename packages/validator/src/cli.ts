/**
 * `svc-manifest`: validate manifests from the command line, pre-commit and CI; print the
 * published schemas; and (through @svc-manifest/gitops) apply manifest operations to git.
 *
 * Exit codes: 0 no error, 1 at least one error, 2 usage error or unreadable file.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { publishedSchemas } from '@svc-manifest/schema';
import { ManifestDocument } from './document/manifest-document.js';
import { DEFAULT_LIMITS } from './document/limits.js';
import { validateDocument } from './validate.js';
import { formatStylish } from './formatters/stylish.js';
import type { FileReport, FormatOptions } from './formatters/types.js';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Whether stdout is a terminal (colours are only used then). */
  isTty: boolean;
}

export const VERSION = '0.1.0';

const USAGE = `usage: svc-manifest <command> [options]

commands:
  validate [files...]   check manifests (default: svc.yaml, svc.yml or svc.toml here)
      --format <name>   stylish (default), json (ESLint's shape), sarif (2.1.0), github (annotations)
      --max-bytes <n>   largest file to read (default ${DEFAULT_LIMITS.maxBytes})
      --no-warnings     report errors only
  schema [--version 1|2]  print the published JSON Schema (combined, or one version's)
  git <operation> ...   apply setDefaultAgent, setAgentScope and marketplace operations as
                        git commits (see 'svc-manifest git --help')
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

const DEFAULT_FILES = ['svc.yaml', 'svc.yml', 'svc.toml'];

async function validateCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { flags, positional } = parseFlags(args, ['--format', '--max-bytes'], ['--no-warnings']);
  const format = flags.get('--format') ?? 'stylish';
  if (!['stylish', 'json', 'sarif', 'github'].includes(format)) throw new UsageError(`unknown format '${format}' (stylish, json, sarif or github)`);
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
    let diagnostics = validateDocument(document).diagnostics;
    if (flags.has('--no-warnings')) diagnostics = diagnostics.filter((d) => d.severity === 'error');
    reports.push({ filePath: file, absolutePath, text: document.text, diagnostics });
  }
  const options: FormatOptions = {
    color: io.isTty && !io.env.NO_COLOR && format === 'stylish',
    repositoryRoot: findRepositoryRoot(io.cwd),
    toolVersion: VERSION,
  };
  io.stdout(await formatReports(format, reports, options));
  if (unreadable) return 2;
  return reports.some((r) => r.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
}

/** The report in a format; all but the default load only when asked for (the CLI bundle runs their module code then). */
async function formatReports(format: string, reports: FileReport[], options: FormatOptions): Promise<string> {
  switch (format) {
    case 'json':
      return (await import('./formatters/json.js')).formatJson(reports);
    case 'sarif':
      return (await import('./formatters/sarif.js')).formatSarif(reports, options);
    case 'github':
      return (await import('./formatters/github.js')).formatGithub(reports, options);
    default:
      return formatStylish(reports, options);
  }
}

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

async function gitCommand(args: readonly string[], io: CliIo): Promise<number> {
  // The applier depends on the validator, so the validator loads it only when asked (no cycle at build time).
  const specifier = '@svc-manifest/gitops';
  let gitops: { runGitCli?: (argv: string[], io: { stdout: (s: string) => void; stderr: (s: string) => void; cwd: string }) => Promise<number> };
  try {
    gitops = (await import(specifier)) as typeof gitops;
  } catch (error) {
    io.stderr(`svc-manifest: the git commands need @svc-manifest/gitops, which could not be loaded (${(error as Error).message})\n`);
    return 2;
  }
  if (typeof gitops.runGitCli !== 'function') {
    io.stderr('svc-manifest: @svc-manifest/gitops does not provide runGitCli\n');
    return 2;
  }
  return gitops.runGitCli([...args], { stdout: io.stdout, stderr: io.stderr, cwd: io.cwd });
}
