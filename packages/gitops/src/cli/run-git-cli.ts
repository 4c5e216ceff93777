/**
 * `svc-manifest git …`: the applier's operations for scripts and people. The commands,
 * their options and the usage text come from the operation table (`OPERATIONS` in
 * api.ts). Prints what happened (the new commit, or "no change"), or with
 * `--format json` the operation's result as JSON; exit 0 on success, 1 when the
 * operation was refused (with the reason and any diagnostics), 2 on a usage error.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { closestMatch, escapeForTerminal } from '@svc-manifest/validator';
import type { Identity } from '../applier.js';
import { OPERATIONS, type CliInput, type Operation } from '../api.js';
import { RefusedError } from '../errors.js';
import { parseRemote } from '../remote/url.js';
import type { ReadOptions, WriteOptions } from '../remote/target.js';
import type { ManifestLocation } from '../operations/manifest-access.js';
import { gitText } from '../git/exec.js';
import type { CliOutput } from './output.js';

export interface CliIo extends CliOutput {
  cwd: string;
}

/** Options every command takes. */
const COMMON: Readonly<Record<string, 'value' | 'flag'>> = {
  repo: 'value',
  branch: 'value',
  author: 'value',
  committer: 'value',
  message: 'value',
  cache: 'value',
  timeout: 'value',
  format: 'value',
  help: 'flag',
};

const ROWS: readonly Operation[] = Object.values(OPERATIONS);

const COMMON_OPTIONS = `options:
  --repo PATH|URL       repository: a path (bare or not) or a git URL (file://, ssh://,
                        git://, http(s)://, user@host:path); default: current directory
  --branch NAME         branch to change (default: the repository's HEAD branch)
  --author "N <E>"      author (default: git config user.name/email, else svc-manifest)
  --committer "N <E>"   committer (default: the author)
  --message TEXT        commit message (default: describes the operation)
  --cache DIR           where caches of remote repositories live
                        (default: $XDG_CACHE_HOME/svc-manifest, else ~/.cache/svc-manifest)
  --timeout SECONDS     time limit of each network git call (default 60)
  --format text|json    output format (default text)
  --manifest PATH       (set-default-agent, set-agent-scope) the manifest to edit; default: the
                        svc.yaml, svc.yml or svc.toml nearest above the current folder in its
                        repository (with --repo: at the repository's root)
  -h, --help            this help
`;

function usageText(): string {
  const commands = ROWS.map(
    (row) => `  ${row.command}${row.synopsis ? ` ${row.synopsis}` : ''}\n      ${row.summary}\n`,
  ).join('');
  return `usage: svc-manifest git <command> [options]

commands:
${commands}
${COMMON_OPTIONS}
'svc-manifest git <command> --help' describes one command.
`;
}

/** One operation's usage: its synopsis, what it does, and the options it takes. */
function commandUsageText(row: Operation): string {
  return `usage: svc-manifest git ${row.command}${row.synopsis ? ` ${row.synopsis}` : ''} [options]

${row.summary[0]!.toUpperCase()}${row.summary.slice(1)}.

${COMMON_OPTIONS}`;
}

/** ` (did you mean 'x'?)` when a candidate is close to what was typed, else nothing. */
function didYouMean(typed: string, candidates: readonly string[]): string {
  const match = closestMatch(typed, candidates);
  return match === undefined ? '' : `; did you mean '${match}'?`;
}

class UsageError extends Error {}

interface ParsedArgs {
  positional: string[];
  options: Map<string, string | true>;
}

function parseArgs(argv: readonly string[]): ParsedArgs {
  const known = new Map(Object.entries(COMMON));
  for (const row of ROWS) for (const [name, kind] of Object.entries(row.options ?? {})) known.set(name, kind);
  const positional: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-h') {
      options.set('help', true);
      continue;
    }
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const kind = known.get(name);
    if (kind === 'flag' && eq < 0) options.set(name, true);
    else if (kind === 'value') {
      const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      options.set(name, value);
    } else {
      const typed = arg.slice(0, eq < 0 ? undefined : eq);
      throw new UsageError(
        `unknown option ${escapeForTerminal(typed)}${didYouMean(
          typed,
          [...known.keys()].map((option) => `--${option}`),
        )}`,
      );
    }
  }
  return { positional, options };
}

function parseIdentity(flag: string, value: string): Identity {
  const match = /^\s*(.+?)\s*<([^>]+)>\s*$/.exec(value);
  if (!match) throw new UsageError(`--${flag} must look like "Name <email>"`);
  return { name: match[1]!, email: match[2]! };
}

/** Runs one `svc-manifest git` command; `argv` starts at the subcommand (a leading `git` is skipped). */
export async function runGitCli(argv: string[], io: CliIo): Promise<number> {
  const args = argv[0] === 'git' ? argv.slice(1) : argv;
  let json = false;
  let usedCommand: string | undefined;
  try {
    const { positional, options } = parseArgs(args);
    const [command, ...rest] = positional;
    if (command === 'help' || (command === undefined && options.has('help'))) {
      const topic = command === 'help' ? rest[0] : undefined;
      const row = ROWS.find((candidate) => candidate.command === topic);
      if (topic !== undefined && row === undefined) throw new UsageError(unknownCommand(topic));
      io.stdout(row ? commandUsageText(row) : usageText());
      return 0;
    }
    if (command === undefined) throw new UsageError('name a command, e.g. set-default-agent');
    const row = ROWS.find((candidate) => candidate.command === command);
    if (!row) throw new UsageError(unknownCommand(command));
    usedCommand = row.command;
    if (options.has('help')) {
      io.stdout(commandUsageText(row));
      return 0;
    }
    for (const name of options.keys()) {
      if (!(name in COMMON) && !(row.options && name in row.options))
        throw new UsageError(`${command} does not take --${name}`);
    }
    const format = stringOption(options, 'format') ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError('--format must be text or json');
    json = format === 'json';

    const repoSpec = stringOption(options, 'repo') ?? '.';
    const repo = parseRemote(repoSpec) ? repoSpec : resolve(io.cwd, repoSpec);
    const read: ReadOptions = {
      ...(stringOption(options, 'branch') !== undefined ? { branch: stringOption(options, 'branch') } : {}),
      ...(stringOption(options, 'cache') !== undefined
        ? { cache: resolve(io.cwd, stringOption(options, 'cache')!) }
        : {}),
      ...(stringOption(options, 'timeout') !== undefined
        ? { timeoutMs: parseTimeout(stringOption(options, 'timeout')!) }
        : {}),
    };
    const author = stringOption(options, 'author');
    const committer = stringOption(options, 'committer');
    const message = stringOption(options, 'message');
    const write: WriteOptions = {
      ...read,
      ...(author !== undefined ? { author: parseIdentity('author', author) } : {}),
      ...(committer !== undefined ? { committer: parseIdentity('committer', committer) } : {}),
      ...(message !== undefined ? { message } : {}),
    };
    const input: CliInput = {
      command,
      one: (what) => {
        if (rest.length !== 1) throw new UsageError(`${command} takes exactly one ${what}`);
        return rest[0]!;
      },
      none: () => {
        if (rest.length > 0) throw new UsageError(`${command} takes no arguments`);
      },
      option: (name) => {
        const value = options.get(name);
        return typeof value === 'string' ? value : undefined;
      },
      flag: (name) => options.get(name) === true,
      catalog: () => {
        const value = stringOption(options, 'catalog');
        if (!value) throw new UsageError(`${command} needs --catalog DIR|URL`);
        return /^https?:\/\//i.test(value) ? value : resolve(io.cwd, value);
      },
      write,
      read,
      usage: (text) => new UsageError(text),
      manifestLocation: () =>
        manifestLocation(stringOption(options, 'manifest'), options.has('repo') ? repo : undefined, io.cwd),
    };
    const call = row.call as (repo: string, ...rest: unknown[]) => Promise<unknown>;
    const cli = row.cli as (input: CliInput, call: (...args: unknown[]) => Promise<unknown>) => Promise<unknown>;
    const result = await cli(input, (...callArgs) => call(repo, ...callArgs));
    if (json) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    else (row.print as (result: unknown, out: CliOutput) => void)(result, io);
    return (row.exitCode as ((result: unknown) => number) | undefined)?.(result) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      const help = usedCommand === undefined ? 'svc-manifest git --help' : `svc-manifest git ${usedCommand} --help`;
      io.stderr(`svc-manifest git: ${error.message} (see '${help}')\n`);
      return 2;
    }
    if (error instanceof RefusedError) {
      // Scripts reading JSON get the refusal as JSON too: its code, message and details.
      if (json)
        io.stdout(
          `${JSON.stringify({ refused: { code: error.code, message: error.message, ...error.details } }, null, 2)}\n`,
        );
      io.stderr(`refused: ${error.code}: ${error.message}\n`);
      return 1;
    }
    io.stderr(`error: ${(error as Error).message}\n`);
    return 1;
  }
}

/**
 * Which manifest an agent operation edits. `--manifest PATH` is relative to the current folder
 * and becomes a path in the repository (for a URL or a bare repository, it is one already).
 * Without it, and without `--repo`, the search starts at the current folder's place in its
 * repository and goes up to the root, as git finds its repository; with `--repo`, the root.
 */
async function manifestLocation(
  manifest: string | undefined,
  repo: string | undefined,
  cwd: string,
): Promise<ManifestLocation> {
  if (manifest !== undefined) {
    if (manifest === '') throw new UsageError('--manifest needs a path');
    if (
      repo !== undefined &&
      (parseRemote(repo) || (await gitOutput(repo, ['rev-parse', '--is-bare-repository'])) === 'true')
    )
      return { manifest };
    const topLevel = await gitOutput(repo ?? cwd, ['rev-parse', '--show-toplevel']);
    if (topLevel === undefined) return { manifest };
    const inRepository = relative(realpathOrSelf(topLevel), realpathOrSelf(resolve(cwd, manifest)))
      .split(sep)
      .join('/');
    if (inRepository === '' || inRepository.startsWith('../') || inRepository === '..' || isAbsolute(inRepository)) {
      throw new UsageError(
        `--manifest ${JSON.stringify(escapeForTerminal(manifest))} is not inside the repository at ${escapeForTerminal(topLevel)}`,
      );
    }
    return { manifest: inRepository };
  }
  if (repo !== undefined) return {};
  const prefix = await gitOutput(cwd, ['rev-parse', '--show-prefix']);
  return prefix ? { searchFrom: prefix.replace(/\/+$/, '') } : {};
}

/** A git command's output, trimmed; undefined when it fails (not a repository, git missing). */
async function gitOutput(cwd: string, args: string[]): Promise<string | undefined> {
  try {
    return await gitText(args, { cwd });
  } catch {
    return undefined;
  }
}

/** The real path of what exists (a manifest named by --manifest may be a file in the work tree or not). */
function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realpathOrSelf(parent), basename(path));
  }
}

function unknownCommand(command: string): string {
  return `unknown command '${escapeForTerminal(command)}'${didYouMean(
    command,
    ROWS.map((row) => row.command),
  )}`;
}

function stringOption(options: Map<string, string | true>, name: string): string | undefined {
  const value = options.get(name);
  return typeof value === 'string' ? value : undefined;
}

function parseTimeout(value: string): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(seconds > 0))
    throw new UsageError('--timeout takes a positive number of seconds');
  return Math.round(seconds * 1000);
}
