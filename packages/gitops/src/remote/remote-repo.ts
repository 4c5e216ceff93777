/**
 * The three conversations with a remote: which branch HEAD names, fetch the branch and
 * the hidden refs into the cache, and push branch and pristine ref back together under
 * leases. Every call has a time limit and redacted messages (see network.ts).
 */
import { RefusedError } from '../errors.js';
import { runGit } from '../git/exec.js';
import { PRISTINE_REF } from '../pristine.js';
import { gitReason, networkGit } from './network.js';
import type { RemoteUrl } from './url.js';

/** The applier's hidden refs, fetched and pushed with the branch (the pristine ref among them). */
const HIDDEN_REFS = 'refs/svc-manifest/';

export interface RemoteState {
  /** The branch head as fetched. */
  head: string;
  /** The pristine ref as fetched, or null when the remote has none. */
  pristine: string | null;
}

export interface PushRefs {
  branch: string;
  /** Branch head before and after (the lease: the remote must still be at `old`). */
  head: { old: string; new: string };
  /** Pristine ref before and after; null `old`: the remote must not have one. */
  pristine: { old: string | null; new: string | null };
}

export class RemoteRepo {
  constructor(
    readonly remote: RemoteUrl,
    /** The cache's git directory. */
    readonly gitDir: string,
    readonly timeoutMs: number,
  ) {}

  /** The branch the remote's HEAD names. */
  async defaultBranch(): Promise<string> {
    const result = await networkGit(
      this.gitDir,
      ['ls-remote', '--symref', '--', this.remote.url, 'HEAD'],
      this.remote,
      this.timeoutMs,
      'read the default branch of',
    );
    if (result.code !== 0) throw this.unreachable('read the default branch of', result.stderr);
    const match = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(result.stdout);
    if (!match)
      throw new RefusedError(
        'unknown-branch',
        `${this.remote.display} has no default branch (empty repository?); pass a branch explicitly`,
      );
    return checkBranchName(match[1]!, this.remote.display);
  }

  /**
   * Makes the cache's `refs/heads/<branch>` and hidden refs exactly the remote's
   * (forced, pruned), so a commit of ours that lost a push race is dropped.
   */
  async fetch(branch: string): Promise<RemoteState> {
    checkBranchName(branch, this.remote.display);
    const ref = `refs/heads/${branch}`;
    const args = [
      '-c',
      'fetch.recurseSubmodules=false',
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      '--prune',
      '--update-head-ok',
      '--no-auto-maintenance',
      '--',
      this.remote.url,
      `+${ref}:${ref}`,
      `+${HIDDEN_REFS}*:${HIDDEN_REFS}*`,
    ];
    const result = await networkGit(this.gitDir, args, this.remote, this.timeoutMs, 'fetch from');
    if (result.code !== 0) {
      if (/couldn't find remote ref/i.test(result.stderr)) {
        throw new RefusedError('unknown-branch', `branch '${branch}' does not exist in ${this.remote.display}`);
      }
      throw this.unreachable('fetch from', result.stderr);
    }
    const refs = await this.localRefs([ref, PRISTINE_REF]);
    const head = refs.get(ref);
    if (!head) throw new RefusedError('unknown-branch', `branch '${branch}' does not exist in ${this.remote.display}`);
    return { head, pristine: refs.get(PRISTINE_REF) ?? null };
  }

  /** Values of local refs of the cache (absent refs are left out). */
  async localRefs(refs: readonly string[]): Promise<Map<string, string>> {
    const result = await runGit([
      '--git-dir',
      this.gitDir,
      'for-each-ref',
      '--format=%(objectname) %(refname)',
      ...refs,
    ]);
    const values = new Map<string, string>();
    for (const line of result.stdout.toString('utf8').split('\n')) {
      const space = line.indexOf(' ');
      if (space > 0) values.set(line.slice(space + 1), line.slice(0, space));
    }
    return values;
  }

  /**
   * One atomic push of the branch and the pristine ref, each with a lease on the value
   * we built on. True when it landed; false when another writer moved first (fetch and
   * redo). Any other rejection (a hook, a protected branch) is a refusal.
   */
  async push(refs: PushRefs): Promise<boolean> {
    const branchRef = `refs/heads/${refs.branch}`;
    const leases = [`--force-with-lease=${branchRef}:${refs.head.old}`];
    const specs = [`${refs.head.new}:${branchRef}`];
    if (refs.pristine.new) {
      // Sent even when unchanged: the lease then checks nobody moved it since our fetch.
      leases.push(`--force-with-lease=${PRISTINE_REF}:${refs.pristine.old ?? ''}`);
      specs.push(`${refs.pristine.new}:${PRISTINE_REF}`);
    }
    const args = [
      'push',
      '--atomic',
      '--porcelain',
      '--no-verify',
      '--no-recurse-submodules',
      ...leases,
      '--',
      this.remote.url,
      ...specs,
    ];
    const result = await networkGit(this.gitDir, args, this.remote, this.timeoutMs, 'push to');
    if (result.code === 0) return true;
    const rejected = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('!\t'))
      .map((line) => ({
        ref: line.split('\t')[1]?.split(':')[1] ?? '?',
        reason: /\(([^)]*)\)\s*$/.exec(line)?.[1] ?? line.split('\t')[2] ?? '',
      }));
    if (rejected.length === 0) throw this.unreachable('push to', result.stderr);
    const other = rejected.filter((r) => !LOST_RACE.test(r.reason));
    if (other.length === 0) return false;
    throw new RefusedError(
      'push-rejected',
      `${this.remote.display} refused the push: ${other.map((r) => `${r.ref} (${r.reason})`).join(', ')}${gitReason(result.stderr) === 'git gave no reason' ? '' : `; ${gitReason(result.stderr)}`}`,
    );
  }

  /** Packs loose objects once enough have piled up (local work, under the cache lock; failures are harmless). */
  async housekeeping(): Promise<void> {
    await runGit(['--git-dir', this.gitDir, 'gc', '--auto', '--quiet']).catch(() => undefined);
  }

  private unreachable(what: string, stderr: string): RefusedError {
    return new RefusedError('remote-unreachable', `could not ${what} ${this.remote.display}: ${gitReason(stderr)}`);
  }
}

/**
 * A branch name as git's check-ref-format allows it (it becomes part of refspecs, where
 * `:`, `*` or a leading `+`/`-` would change their meaning); refused otherwise.
 */
export function checkBranchName(branch: string, where: string): string {
  const bad =
    branch === '' ||
    branch === '@' ||
    branch.length > 255 ||
    /^[-+.]|[.]$|\.\.|@\{|\/\/|\/\.|\.lock$|\.lock\/|^\/|\/$/.test(branch) ||
    /[\u0000-\u0020\u007f~^:?*[\\]/.test(branch);
  if (bad)
    throw new RefusedError('unknown-branch', `${JSON.stringify(branch)} is not a valid branch name (for ${where})`);
  return branch;
}

/**
 * Push rejections that mean "someone else moved first": a stale lease, a non-fast-forward,
 * the server's compare-and-swap losing, or the other refs of an atomic push that failed
 * for one of those reasons.
 */
const LOST_RACE =
  /stale info|fetch first|non-fast-forward|failed to update ref|cannot lock|but expected|incorrect old value|failed to lock|atomic/i;
