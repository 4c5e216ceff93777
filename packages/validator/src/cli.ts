/**
 * `svc-manifest`: validate manifests from the command line, pre-commit and CI; print the
 * published schemas; and (through the `svc-manifest-git` command of @svc-manifest/gitops) apply
 * manifest operations to git.
 *
 * Exit codes: 0 no error, 1 at least one error, 2 usage error or unreadable file.
 */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { publishedSchemas } from '@svc-manifest/schema';
import { describeFileError } from './inputs/file-errors.js';
import { findManifestFiles, manifestsInFolder } from './inputs/manifest-files.js';
import { escapeForTerminal } from './formatters/terminal-text.js';
import { closestMatch } from './suggest.js';
import { ManifestDocument } from './document/manifest-document.js';
import { DEFAULT_LIMITS } from './document/limits.js';
import { spawn } from 'node:child_process';
import { formatGithub } from './formatters/github.js';
import { formatJson } from './formatters/json.js';
import { formatSarif } from './formatters/sarif.js';
import { manifestPolicyOf, PolicyFinder } from './policy/config.js';
import { formatStylish } from './formatters/stylish.js';
import type { FileReport, FormatOptions } from './formatters/types.js';
import { convertCommand, fixFile, migrateCommand, type CliTools } from './cli-transform.js';
import type { CliIo } from './cli-io.js';
import {
  checkFile,
  checkFilesInWorkers,
  readFileCapped,
  readInput,
  reportedDiagnostics,
  workerCount,
  type CheckedFile,
  type CheckOptions,
  type FileToCheck,
} from './cli-workers.js';
import { fmtCommand } from './cli-fmt.js';
import { repositoryRootOf } from './node-files.js';
import { validateDocument } from './validate.js';

export type { CliIo };

export const VERSION = '0.1.0';

/** Each command's usage, printed by `svc-manifest <command> --help`. */
const COMMAND_USAGE: Readonly<Record<string, string>> = {
  validate: `usage: svc-manifest validate [paths...] [options]

Check manifests. A path is a file, a folder (walked for svc.yaml, svc.yml and svc.toml, leaving
out what .gitignore ignores, node_modules and .git), a quoted glob ('services/**/svc.yaml'), or
'-' for standard input. With no path: svc.yaml, svc.yml or svc.toml in the current folder.

options:
  --format <name>          stylish (default), json (ESLint's shape), sarif (2.1.0), github (annotations)
  --no-warnings            report errors only
  --max-warnings <n>       exit 1 when there are more than n warnings (errors always do)
  --fix                    apply the safe fixes in place, report what is left
  --fix-dry-run            print the safe fixes as a unified diff (the report goes to stderr)
  --no-ignore              also walk what .gitignore ignores, node_modules and .git
  --stdin-filename <name>  the name shown for '-' (and its format: .toml is TOML)
  --no-path-checks         do not look up the paths the manifest names (path-not-found)
  --max-bytes <n>          largest file to read (default ${DEFAULT_LIMITS.maxBytes})
  --concurrency <n>        threads for many files: auto (default: half the cores, from 400 files), off, or a number
  --color, --no-color      colours on or off (default: on a terminal, unless NO_COLOR is set)
  -h, --help               this help

policy: the nearest .svc-manifest.yaml up from each manifest (to the repository root) sets our
rules' severities ('rules: {possible-typo: error, deprecated-key: off}') and globs to leave out
of folder walks ('ignore: [legacy/**]'); rules the schema's verdict rests on cannot be changed.
In a manifest, '# svc-manifest-disable-next-line <rule> -- reason' (or '# svc-manifest-disable
<rule>' ... '# svc-manifest-enable <rule>') suppresses those rules' problems; a comment that
suppresses nothing or names a rule it cannot suppress is a warning (unused-suppression,
invalid-suppression, unsuppressible-rule), which the policy file can set too. --fix fixes
nothing the policy leaves out.

exit codes: 0 no errors (and no more warnings than --max-warnings), 1 errors (or too many
warnings), 2 a usage error or a path that gave no file
`,
  migrate: `usage: svc-manifest migrate [file] --to 2 [options]

Turn a svc_version 1 manifest into version 2: printed, or written in place with --write. Refused,
located, where version 2 has no counterpart. With no file: svc.yaml, svc.yml or svc.toml here.

options:
  --to 2                   the version to migrate to
  --default-agent <name>   the default agent, when the file declares several
  --write                  write the result into the file
  --format <name>          how refusals are reported: stylish (default), json, sarif, github
  -h, --help               this help
`,
  convert: `usage: svc-manifest convert [svc.toml] [options]

Turn svc.toml into svc.yaml, comments kept: printed, or with --write written as svc.yaml beside it
(never over an existing svc.yaml or svc.yml) and svc.toml removed.

options:
  --write                  write svc.yaml and remove the TOML file
  --format <name>          how problems are reported: stylish (default), json, sarif, github
  -h, --help               this help
`,
  fmt: `usage: svc-manifest fmt [paths...] [--check]

Format manifests in place: indentation (width from .editorconfig, else 2; sequences as the file
has them), one space after ':' and around '=', no trailing white space, one final newline, and
YAML's single-quoted keys and values in double quotes where no escape is needed ('web' becomes
"web"; 'say "hi"' stays). A policy file's 'format' (indent: 1-8, sequences: indented or flush,
quotes: double or preserve) decides over .editorconfig and what the file has. Comments,
key order, TOML quoting, anchors and aliases are kept, and a result that would read to another
value is refused. Paths are taken as by 'validate' (files, folders, quoted globs); with
no path, the manifest in the current folder.

options:
  --check                  write nothing; list the files that would change and exit 1 if any
  --no-ignore              also walk what .gitignore ignores, node_modules and .git
  -h, --help               this help
`,
  schema: `usage: svc-manifest schema [--version 1|2]

Print the published JSON Schema: the combined one, or one version's.

options:
  --version 1|2            one version's schema
  -h, --help               this help
`,
};

const USAGE = `usage: svc-manifest <command> [options]

commands:
  validate [paths...]   check manifests: files, folders, quoted globs, '-' (standard input)
  migrate [file] --to 2 turn a svc_version 1 manifest into version 2
  convert [svc.toml]    turn svc.toml into svc.yaml
  fmt [paths...]        format manifests in place ('fmt --check' writes nothing, exits 1 on a change)
  schema [--version N]  print the published JSON Schema
  git <operation> ...   apply setDefaultAgent, setAgentScope and marketplace operations as git
                        commits (svc-manifest-git of @svc-manifest/gitops; 'svc-manifest git --help')

'svc-manifest <command> --help' describes a command and its options.
  -h, --help            this help
  -v, --version         the version
`;

const COMMANDS = ['validate', 'migrate', 'convert', 'fmt', 'schema', 'git', 'help'];

/**
 * A mistake in the command line: reported in one line, with where to look (`hint`: the help of
 * the command it was for) unless the message carries its own hint.
 */
class UsageError extends Error {
  constructor(
    message: string,
    readonly hint = true,
  ) {
    super(message);
  }
}

/** Whether the arguments ask for help (before any `--`). */
function asksForHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command !== undefined && command in COMMAND_USAGE && asksForHelp(rest)) {
      io.stdout(COMMAND_USAGE[command]!);
      return 0;
    }
    switch (command) {
      case 'validate':
        return await validateCommand(rest, io);
      case 'schema':
        return schemaCommand(rest, io);
      case 'migrate':
        return await migrateCommand(rest, io, CLI_TOOLS);
      case 'convert':
        return await convertCommand(rest, io, CLI_TOOLS);
      case 'fmt':
        return await fmtCommand(rest, io, CLI_TOOLS);
      case 'git':
        return await gitCommand(rest, io);
      case '--version':
      case '-v':
        io.stdout(`${VERSION}\n`);
        return 0;
      case '--help':
      case '-h':
        io.stdout(USAGE);
        return 0;
      case 'help': {
        const topic = rest[0];
        if (topic === undefined) io.stdout(USAGE);
        else if (topic in COMMAND_USAGE) io.stdout(COMMAND_USAGE[topic]!);
        else if (topic === 'git') return await gitCommand(['--help'], io);
        else throw new UsageError(`no help on '${escapeForTerminal(topic)}'${didYouMean(topic, COMMANDS)}`);
        return 0;
      }
      case undefined:
        throw new UsageError('name a command: validate, migrate, convert, fmt, schema or git');
      default:
        throw new UsageError(`unknown command '${escapeForTerminal(command)}'${didYouMean(command, COMMANDS)}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      const help =
        command !== undefined && command in COMMAND_USAGE ? `svc-manifest ${command} --help` : 'svc-manifest --help';
      io.stderr(`svc-manifest: ${error.message}${error.hint ? ` (see '${help}')` : ''}\n`);
      return 2;
    }
    io.stderr(`svc-manifest: ${escapeForTerminal((error as Error).message)}\n`);
    return 2;
  }
}

/** `; did you mean 'x'?` when a candidate is close to what was typed, else nothing. */
function didYouMean(typed: string, candidates: readonly string[]): string {
  const match = closestMatch(typed, candidates);
  return match === undefined ? '' : `; did you mean '${match}'?`;
}

function parseFlags(
  args: readonly string[],
  valued: readonly string[],
  booleans: readonly string[],
): { flags: Map<string, string>; positional: string[] } {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    // '-' alone is standard input, a path like any other.
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (booleans.includes(name)) {
      if (inline !== undefined) throw new UsageError(`${name} takes no value`);
      flags.set(name, 'true');
    } else if (valued.includes(name)) {
      const value = inline ?? args[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value`);
      flags.set(name, value);
    } else {
      const shown = escapeForTerminal(name);
      throw new UsageError(`unknown option '${shown}'${didYouMean(name, [...valued, ...booleans])}`);
    }
  }
  return { flags, positional };
}

/**
 * `--fix` (`write`) or `--fix-dry-run` on one input: the safe fixes applied in place, or their
 * diff added to `diffs`; what is left is reported as `checkFile` reports it. Under the file's
 * policy: a problem of a rule it turns off, or that a comment suppresses, is not fixed.
 */
function fixInput(input: FileToCheck, options: CheckOptions, write: boolean, diffs: string[], io: CliIo): CheckedFile {
  let bytes: Uint8Array;
  try {
    bytes = readInput(input, options.maxBytes);
  } catch (error) {
    return { text: '', diagnostics: [], readError: describeFileError(error) };
  }
  const file = input.displayPath;
  const document = ManifestDocument.parse(bytes, { filename: file, limits: { maxBytes: options.maxBytes } });
  const fixed = fixFile(document, file, input.absolutePath, write, diffs, input.policy);
  // --fix says what it changed (on stderr: stdout is the report, in whatever format); --fix-dry-run's diff shows it.
  if (write)
    for (const fix of fixed.fixes)
      io.stderr(`svc-manifest: ${escapeForTerminal(file)}: fixed: ${escapeForTerminal(fix.title)} (${fix.code})\n`);
  // Paths are looked up beside a file on disk (standard input has no folder of its own), and
  // located in the text the fixes left; the policy then applies to them all.
  return {
    text: fixed.text,
    diagnostics: reportedDiagnostics(fixed.document, input, options.pathChecks, validateDocument(fixed.document)),
  };
}

/** Reported when `validate` is run with no argument in a folder that has no manifest. */
const NO_MANIFEST_HERE = 'no manifest here; pass a folder, e.g. `svc-manifest validate .`';

/** What `validate`'s options ask for, each checked (a usage error otherwise). */
interface ValidateOptions {
  format: string;
  color: boolean | undefined;
  maxBytes: number;
  maxWarnings: number;
  concurrency: 'auto' | number;
  stdinFilename: string | undefined;
}

/** Reads and checks `validate`'s options, in the order their usage errors are reported. */
function validateOptions(flags: Map<string, string>, positional: readonly string[]): ValidateOptions {
  const format = flags.get('--format') ?? 'stylish';
  checkFormat(format);
  if (flags.has('--fix') && flags.has('--fix-dry-run')) throw new UsageError('use --fix or --fix-dry-run, not both');
  if (flags.has('--color') && flags.has('--no-color')) throw new UsageError('use --color or --no-color, not both');
  const color = flags.has('--color') ? true : flags.has('--no-color') ? false : undefined;
  const maxBytes = flags.has('--max-bytes') ? Number(flags.get('--max-bytes')) : DEFAULT_LIMITS.maxBytes;
  if (!Number.isInteger(maxBytes) || maxBytes <= 0) throw new UsageError('--max-bytes takes a positive whole number');
  const maxWarningsFlag = flags.get('--max-warnings');
  if (maxWarningsFlag !== undefined && !/^\d+$/.test(maxWarningsFlag))
    throw new UsageError('--max-warnings takes a whole number, 0 or more');
  const maxWarnings = maxWarningsFlag === undefined ? Infinity : Number(maxWarningsFlag);
  const concurrencyFlag = flags.get('--concurrency') ?? 'auto';
  if (!/^(auto|off|[1-9]\d{0,2})$/.test(concurrencyFlag))
    throw new UsageError('--concurrency takes auto, off or a number of threads');
  const concurrency = concurrencyFlag === 'auto' ? 'auto' : concurrencyFlag === 'off' ? 1 : Number(concurrencyFlag);
  const stdinFilename = flags.get('--stdin-filename');
  if (stdinFilename !== undefined && !positional.includes('-'))
    throw new UsageError("--stdin-filename names standard input: pass '-' too");
  if (stdinFilename === '') throw new UsageError('--stdin-filename needs a name');
  if (flags.has('--fix') && positional.includes('-'))
    throw new UsageError('--fix cannot write to standard input; --fix-dry-run prints the fixes as a diff');
  return { format, color, maxBytes, maxWarnings, concurrency, stdinFilename };
}

async function validateCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { flags, positional } = parseFlags(
    args,
    ['--format', '--max-bytes', '--stdin-filename', '--max-warnings', '--concurrency'],
    ['--no-warnings', '--fix', '--fix-dry-run', '--no-ignore', '--color', '--no-color', '--no-path-checks'],
  );
  const { format, color, maxBytes, maxWarnings, concurrency, stdinFilename } = validateOptions(flags, positional);
  const diffs: string[] = [];
  const found =
    positional.length === 0
      ? { files: manifestsInFolder(io.cwd), stdin: false, problems: [] }
      : findManifestFiles(positional, { cwd: io.cwd, honourIgnoreFiles: !flags.has('--no-ignore') });
  if (positional.length === 0 && found.files.length === 0) throw new UsageError(NO_MANIFEST_HERE, false);
  // A policy file that cannot be used (PolicyError) ends the run as runCli reports any error:
  // its message, escaped, and exit 2.
  // Each file is validated under its policy: the nearest policy file's rules, its comments honoured.
  const policies = new PolicyFinder(found.listings);
  const files: FileToCheck[] = found.files
    .filter((file) => policies.keeps(file))
    .map((file) => ({
      displayPath: file.displayPath,
      absolutePath: file.absolutePath,
      policy: manifestPolicyOf(policies.policyFor(file.absolutePath)),
    }));
  const inputs: FileToCheck[] = [...files];
  if (found.stdin) {
    const name = stdinFilename ?? '<stdin>';
    const absolutePath = resolve(io.cwd, name);
    inputs.push({
      displayPath: name,
      absolutePath,
      stdin: true,
      policy: manifestPolicyOf(policies.policyFor(absolutePath)),
    });
  }
  const reports: FileReport[] = [];
  let unreadable = found.problems.length > 0;
  for (const problem of found.problems)
    io.stderr(`svc-manifest: ${escapeForTerminal(problem.input)}: ${problem.reason}\n`);
  const fixing = flags.has('--fix') || flags.has('--fix-dry-run');
  // Many files are validated on every core (cli-workers.ts); the results come back in the files' order.
  const workers = fixing ? undefined : workerCount(files.length, concurrency);
  const checkOptions: CheckOptions = {
    maxBytes,
    pathChecks: !flags.has('--no-path-checks'),
    previewFixes: format === 'json' || format === 'stylish',
  };
  const checkedInWorkers = workers === undefined ? undefined : await checkFilesInWorkers(files, checkOptions, workers);
  for (const [index, input] of inputs.entries()) {
    const file = input.displayPath;
    let checked: CheckedFile;
    if (checkedInWorkers !== undefined && !input.stdin) checked = checkedInWorkers[index]!;
    else if (!fixing) checked = checkFile(input, checkOptions);
    else checked = fixInput(input, checkOptions, flags.has('--fix'), diffs, io);
    if (checked.readError !== undefined) {
      io.stderr(`svc-manifest: ${escapeForTerminal(file)}: ${checked.readError}\n`);
      reports.push({
        filePath: file,
        absolutePath: input.absolutePath,
        text: '',
        diagnostics: [],
        readError: checked.readError,
      });
      unreadable = true;
      continue;
    }
    let diagnostics = checked.diagnostics;
    if (flags.has('--no-warnings')) diagnostics = diagnostics.filter((d) => d.severity === 'error');
    reports.push({
      filePath: file,
      absolutePath: input.absolutePath,
      text: checked.text,
      diagnostics,
      ...(checked.fixable ? { fixable: checked.fixable } : {}),
    });
  }
  // Arguments that selected nothing come last in the report (JSON and SARIF say what they were).
  for (const problem of found.problems) {
    reports.push({
      filePath: problem.input,
      absolutePath: resolve(io.cwd, problem.input),
      text: '',
      diagnostics: [],
      readError: problem.reason,
    });
  }
  if (flags.has('--fix-dry-run')) io.stdout(diffs.join(''));
  await printReports(reports, format, io, flags.has('--fix-dry-run'), color);
  return unreadable ? 2 : validateExitCode(reports, maxWarnings, io);
}

/** 1 when a report has an error or there are more warnings than `--max-warnings` allows (said on stderr), else 0. */
function validateExitCode(reports: readonly FileReport[], maxWarnings: number, io: CliIo): number {
  if (reports.some((r) => r.diagnostics.some((d) => d.severity === 'error'))) return 1;
  const warnings = reports.reduce(
    (count, r) => count + r.diagnostics.filter((d) => d.severity === 'warning').length,
    0,
  );
  if (warnings > maxWarnings) {
    io.stderr(
      `svc-manifest: ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}, more than --max-warnings ${maxWarnings} allows\n`,
    );
    return 1;
  }
  return 0;
}

const FORMATS = ['stylish', 'json', 'sarif', 'github'];

function checkFormat(format: string): void {
  if (!FORMATS.includes(format)) {
    const suggestion = closestMatch(format, FORMATS);
    const choices = suggestion === undefined ? 'stylish, json, sarif or github' : `did you mean '${suggestion}'?`;
    throw new UsageError(`unknown format '${escapeForTerminal(format)}'; ${choices}`);
  }
}

/**
 * Whether to colour: `--color` / `--no-color` when given, else `FORCE_COLOR` (set, and not `0` or
 * `false`), else not with `NO_COLOR` (set and not empty, as no-color.org says), else on a terminal.
 */
function wantsColor(io: CliIo, flag: boolean | undefined, toStderr: boolean): boolean {
  if (flag !== undefined) return flag;
  const force = io.env.FORCE_COLOR;
  if (force !== undefined && force !== '0' && force !== 'false') return true;
  if (io.env.NO_COLOR) return false;
  // Colours go only to a terminal; whether stderr is one is not known, so a report there is plain.
  return io.isTty && !toStderr;
}

async function printReports(
  reports: FileReport[],
  format: string,
  io: CliIo,
  toStderr = false,
  colorFlag?: boolean,
): Promise<void> {
  const options: FormatOptions = {
    color: format === 'stylish' && wantsColor(io, colorFlag, toStderr),
    repositoryRoot: repositoryRootOf(resolve(io.cwd)),
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
      return readFileCapped(resolve(io.cwd, file), DEFAULT_LIMITS.maxBytes + 1);
    } catch (error) {
      io.stderr(`svc-manifest: ${escapeForTerminal(file)}: ${describeFileError(error)}\n`);
      return undefined;
    }
  },
  report: printReports,
  checkFormat,
};

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
        `The packages are not on a public registry: in a clone of the svc manifest toolchain, run\n` +
        `  npm run build && npm pack -w @svc-manifest/validator -w @svc-manifest/gitops\n` +
        `then install both tarballs in your project: npm install ./svc-manifest-validator-${VERSION}.tgz ./svc-manifest-gitops-${VERSION}.tgz\n`,
    );
    return 2;
  }
  // child_process (with Node's stream and socket modules behind it) loads only here: a
  // `validate` run never uses it (in the bundle: scripts/lazy-parts-plugin.mjs).
  // Node scripts found in node_modules/.bin run with this Node, whatever PATH's `node` is.
  const env = { ...io.env, PATH: [dirname(process.execPath), io.env.PATH].filter(Boolean).join(delimiter) };
  return new Promise<number>((resolvePromise) => {
    const child = spawn(command, [...args], {
      cwd: io.cwd,
      env,
      stdio: ['inherit', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
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
