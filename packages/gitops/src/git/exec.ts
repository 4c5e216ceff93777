/**
 * Runs the real `git` CLI. Every call is an argument vector (no shell), with a fixed
 * locale so messages can be recognised, prompts disabled and literal pathspecs.
 */
import { spawn } from 'node:child_process';
import { GitCommandError } from '../errors.js';

export interface GitRunOptions {
  /** Bytes or text written to git's standard input. */
  input?: string | Uint8Array;
  /** Extra environment (e.g. GIT_INDEX_FILE, author identity). */
  env?: Record<string, string>;
  cwd?: string;
  /** Exit codes that are not failures (0 always is). */
  okCodes?: readonly number[];
  /** Resolve with whatever exit code git gives (the caller reads git's verdict). */
  anyExit?: boolean;
  /**
   * Time limit. Past it, git's whole process group (git, ssh, remote helpers) is killed and
   * the call rejects with `timeoutError()`. Only calls that talk to a remote need one: local
   * plumbing has nothing to wait for.
   */
  timeoutMs?: number;
  timeoutError?: () => Error;
}

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

const BASE_ENV = {
  LC_ALL: 'C',
  LANG: 'C',
  GIT_TERMINAL_PROMPT: '0',
  GIT_LITERAL_PATHSPECS: '1',
  GIT_OPTIONAL_LOCKS: '0',
};

/**
 * Variables that would point git at another repository, work tree or index than the one
 * named on the command line (e.g. when called from a git hook): never inherited.
 */
const REPOSITORY_ENV = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_NAMESPACE', 'GIT_PREFIX'];

function childEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of REPOSITORY_ENV) delete env[name];
  return { ...env, ...BASE_ENV, ...extra };
}

export function runGit(args: readonly string[], options: GitRunOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const limited = options.timeoutMs !== undefined;
    const child = spawn('git', args as string[], {
      cwd: options.cwd,
      env: childEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so a time limit can end the helpers git started too.
      detached: limited,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = limited
      ? setTimeout(() => {
          timedOut = true;
          killGroup(child.pid);
        }, options.timeoutMs)
      : undefined;
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.stdin.on('error', () => {
      /* git may exit before reading all input; its exit code tells what happened */
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (limited) killGroup(child.pid); // helpers (ssh, git-remote-https) may still hold the group
      if (timedOut) {
        reject(options.timeoutError?.() ?? new GitCommandError(args, null, `timed out after ${options.timeoutMs} ms`));
        return;
      }
      const result = { stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), code: code ?? -1 };
      if (code === 0 || options.anyExit || (code !== null && options.okCodes?.includes(code))) resolve(result);
      else reject(new GitCommandError(args, code, result.stderr));
    });
    child.stdin.end(options.input ?? '');
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* the group is already gone */
  }
}

/** Standard output as trimmed text. */
export async function gitText(args: readonly string[], options?: GitRunOptions): Promise<string> {
  return (await runGit(args, options)).stdout.toString('utf8').trim();
}
