/**
 * Git commands that talk to a remote. Each runs in its own process group with a time
 * limit; when the limit passes the whole group (git, ssh, remote helpers) is killed and
 * the operation is refused. Arguments and messages are redacted before they reach an
 * error, since the URL may carry credentials.
 */
import { spawn } from 'node:child_process';
import { RefusedError } from '../errors.js';
import { redactText, type RemoteUrl } from './url.js';

export interface NetworkResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** Variables that would point git at another repository than the cache (e.g. inside a hook). */
const REPOSITORY_ENV = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_NAMESPACE', 'GIT_PREFIX'];

function networkEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of REPOSITORY_ENV) delete env[name];
  // No prompts: credentials come from helpers, GIT_ASKPASS or the ssh agent, never a terminal.
  return { ...env, LC_ALL: 'C', LANG: 'C', GIT_TERMINAL_PROMPT: '0', GCM_INTERACTIVE: 'never' };
}

/**
 * Runs `git --git-dir <gitDir> <args>` against `remote`. Resolves with the exit code
 * (callers read git's verdict); refuses with `remote-timeout` when it runs past
 * `timeoutMs`.
 */
export function networkGit(gitDir: string, args: readonly string[], remote: RemoteUrl, timeoutMs: number, what: string): Promise<NetworkResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', gitDir, ...args], { env: networkEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(redactText(`cannot run git to ${what}: ${error.message}`, remote)));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // Helpers (ssh, git-remote-https) may still hold the group; they go with it.
      killGroup(child.pid);
      if (timedOut) {
        reject(new RefusedError('remote-timeout', `could not ${what} ${remote.display}: no answer within ${formatSeconds(timeoutMs)} (the remote is unreachable or too slow; raise the timeout with --timeout)`));
        return;
      }
      resolve({
        stdout: redactText(Buffer.concat(out).toString('utf8'), remote),
        stderr: redactText(Buffer.concat(err).toString('utf8'), remote),
        code: code ?? -1,
      });
    });
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

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** Git's own words for why it could not talk to the remote, trimmed to what a person needs. */
export function gitReason(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/^(hint|remote: Counting|remote: Compressing|remote: Total):?/.test(line));
  return lines.slice(-4).join('; ') || 'git gave no reason';
}
