/**
 * `svc-manifest git …`: the applier's operations for scripts and people. Prints what
 * happened (the new commit, or "no change"); exit 0 on success, 1 when the operation
 * was refused (with the reason and any diagnostics), 2 on a usage error.
 */
import { resolve } from 'node:path';
import type { ApplyOptions, ApplyResult, Identity } from '../applier.js';
import { RefusedError } from '../errors.js';
import { install, remove, setAgentScope, setDefaultAgent, update, updateAll, updates } from '../api.js';
import type { Allowlist } from '../operations/agents.js';
import type { UpdateAllInfo, UpdateInfo } from '../marketplace/update.js';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

const USAGE = `usage: svc-manifest git <command> [options]

commands:
  set-default-agent NAME
  set-agent-scope NAME [--secrets a,b|all|none] [--connectors a,b|all|none]
  install ID --catalog DIR|URL
  updates --catalog DIR|URL
  update NAME --catalog DIR|URL
  update-all --catalog DIR|URL
  remove NAME [--force]

options:
  --repo PATH           repository, bare or not (default: current directory)
  --branch NAME         branch to change (default: the repository's HEAD branch)
  --author "N <E>"      author (default: git config user.name/email, else svc-manifest)
  --committer "N <E>"   committer (default: the author)
  --message TEXT        commit message (default: describes the operation)
`;

class UsageError extends Error {}

const FLAGS = new Set(['force', 'help']);
const VALUED = new Set(['repo', 'branch', 'catalog', 'secrets', 'connectors', 'author', 'committer', 'message']);

function parseArgs(argv: readonly string[]): { positional: string[]; options: Map<string, string | true> } {
  const positional: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (FLAGS.has(name) && eq < 0) options.set(name, true);
    else if (VALUED.has(name)) {
      const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      options.set(name, value);
    } else throw new UsageError(`unknown option ${arg}`);
  }
  return { positional, options };
}

function parseAllowlist(flag: string, value: string | true | undefined): Allowlist | undefined {
  if (value === undefined) return undefined;
  if (value === true) throw new UsageError(`--${flag} needs a value`);
  if (value === 'all' || value === 'none') return value;
  const names = value.split(',').map((name) => name.trim());
  if (names.some((name) => name === '')) throw new UsageError(`--${flag} takes a comma-separated list of names, all or none`);
  return names;
}

function parseIdentity(flag: string, value: string): Identity {
  const match = /^\s*(.+?)\s*<([^>]+)>\s*$/.exec(value);
  if (!match) throw new UsageError(`--${flag} must look like "Name <email>"`);
  return { name: match[1]!, email: match[2]! };
}

/** Runs one `svc-manifest git` command; `argv` starts at the subcommand (a leading `git` is skipped). */
export async function runGitCli(argv: string[], io: CliIo): Promise<number> {
  const args = argv[0] === 'git' ? argv.slice(1) : argv;
  try {
    const { positional, options } = parseArgs(args);
    const [command, ...rest] = positional;
    if (!command || options.has('help') || command === 'help') {
      (command ? io.stdout : io.stderr)(USAGE);
      return command ? 0 : 2;
    }
    const repo = resolve(io.cwd, stringOption(options, 'repo') ?? '.');
    const author = stringOption(options, 'author');
    const committer = stringOption(options, 'committer');
    const apply: ApplyOptions = {
      ...(stringOption(options, 'branch') ? { branch: stringOption(options, 'branch') } : {}),
      ...(author ? { author: parseIdentity('author', author) } : {}),
      ...(committer ? { committer: parseIdentity('committer', committer) } : {}),
      ...(stringOption(options, 'message') ? { message: stringOption(options, 'message') } : {}),
    };
    const catalog = () => {
      const value = stringOption(options, 'catalog');
      if (!value) throw new UsageError(`${command} needs --catalog DIR|URL`);
      return /^https?:\/\//i.test(value) ? value : resolve(io.cwd, value);
    };
    const one = (what: string) => {
      if (rest.length !== 1) throw new UsageError(`${command} takes exactly one ${what}`);
      return rest[0]!;
    };
    switch (command) {
      case 'set-default-agent':
        return report(io, await setDefaultAgent(repo, one('agent name'), apply));
      case 'set-agent-scope': {
        const name = one('agent name');
        const secrets = parseAllowlist('secrets', options.get('secrets'));
        const connectors = parseAllowlist('connectors', options.get('connectors'));
        if (!secrets && !connectors) throw new UsageError('set-agent-scope needs --secrets and/or --connectors');
        return report(io, await setAgentScope(repo, name, { ...(secrets ? { secrets } : {}), ...(connectors ? { connectors } : {}) }, apply));
      }
      case 'install':
        return report(io, await install(repo, one('item id'), { ...apply, catalog: catalog() }));
      case 'updates': {
        if (rest.length > 0) throw new UsageError('updates takes no arguments');
        const available = await updates(repo, { catalog: catalog(), ...(apply.branch ? { branch: apply.branch } : {}) });
        if (available.length === 0) io.stdout('all installed items are up to date\n');
        for (const row of available) io.stdout(`${row.name} ${row.installed} -> ${row.available}\n`);
        return 0;
      }
      case 'update': {
        const result = await update(repo, one('item name'), { ...apply, catalog: catalog() });
        describeUpdate(io, result.info);
        return report(io, result);
      }
      case 'update-all': {
        if (rest.length > 0) throw new UsageError('update-all takes no arguments');
        const result = await updateAll(repo, { ...apply, catalog: catalog() });
        return reportUpdateAll(io, result);
      }
      case 'remove':
        return report(io, await remove(repo, one('item name'), { ...apply, force: options.get('force') === true }));
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`svc-manifest git: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof RefusedError) {
      io.stderr(`refused: ${error.code}: ${error.message}\n`);
      return 1;
    }
    io.stderr(`error: ${(error as Error).message}\n`);
    return 1;
  }
}

function stringOption(options: Map<string, string | true>, name: string): string | undefined {
  const value = options.get(name);
  return typeof value === 'string' ? value : undefined;
}

function report(io: CliIo, result: ApplyResult): number {
  if (result.status === 'committed') {
    io.stdout(`committed ${result.commit} on ${result.branch}: ${result.message.split('\n', 1)[0]}\n`);
  } else {
    io.stdout(`no change (${result.branch} stays at ${result.commit})\n`);
  }
  for (const warning of result.warnings) io.stderr(`warning: ${warning}\n`);
  return 0;
}

function describeUpdate(io: CliIo, info: UpdateInfo): void {
  for (const path of info.kept) io.stdout(`kept local edits: ${path}\n`);
  for (const path of info.merged) io.stdout(`merged local edits with upstream: ${path}\n`);
}

function reportUpdateAll(io: CliIo, result: ApplyResult<UpdateAllInfo>): number {
  for (const info of result.info.updated) {
    io.stdout(`updated ${info.name} ${info.from} -> ${info.to}\n`);
    describeUpdate(io, info);
  }
  report(io, result);
  for (const refused of result.info.refused) io.stderr(`refused: conflict: ${refused.message}\n`);
  return result.info.refused.length > 0 ? 1 : 0;
}
