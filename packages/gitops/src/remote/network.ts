/**
 * Git commands that talk to a remote. Each runs in its own process group with a time
 * limit; when the limit passes the whole group (git, ssh, remote helpers) is killed and
 * the operation is refused. Arguments and messages are redacted before they reach an
 * error, since the URL may carry credentials.
 */
import { RefusedError } from '../errors.js';
import { runGit } from '../git/exec.js';
import { redactText, type RemoteUrl } from './url.js';

export interface NetworkResult {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * Runs `git --git-dir <gitDir> <args>` against `remote`. Resolves with the exit code
 * (callers read git's verdict); refuses with `remote-timeout` when it runs past
 * `timeoutMs`. No prompts: credentials come from helpers, GIT_ASKPASS or the ssh agent,
 * never a terminal (git/exec.ts turns terminal prompts off; this turns off the credential
 * manager's own).
 */
export async function networkGit(
  gitDir: string,
  args: readonly string[],
  remote: RemoteUrl,
  timeoutMs: number,
  what: string,
): Promise<NetworkResult> {
  try {
    const result = await runGit(['--git-dir', gitDir, ...args], {
      env: { GCM_INTERACTIVE: 'never' },
      anyExit: true,
      timeoutMs,
      timeoutError: () =>
        new RefusedError(
          'remote-timeout',
          `could not ${what} ${remote.display}: no answer within ${formatSeconds(timeoutMs)} (the remote is unreachable or too slow; raise the timeout with --timeout)`,
        ),
    });
    return {
      stdout: redactText(result.stdout.toString('utf8'), remote),
      stderr: redactText(result.stderr, remote),
      code: result.code,
    };
  } catch (error) {
    if (error instanceof RefusedError) throw error;
    throw new Error(redactText(`cannot run git to ${what}: ${(error as Error).message}`, remote));
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
