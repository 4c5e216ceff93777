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
    const child = spawn('git', args as string[], {
      cwd: options.cwd,
      env: childEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.stdin.on('error', () => {
      /* git may exit before reading all input; its exit code tells what happened */
    });
    child.on('close', (code) => {
      const result = { stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), code: code ?? -1 };
      if (code === 0 || (code !== null && options.okCodes?.includes(code))) resolve(result);
      else reject(new GitCommandError(args, code, result.stderr));
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Standard output as trimmed text. */
export async function gitText(args: readonly string[], options?: GitRunOptions): Promise<string> {
  return (await runGit(args, options)).stdout.toString('utf8').trim();
}
