/**
 * Runs the real `git` CLI. Every call is an argument vector (no shell), with a fixed
 * locale so messages can be recognised, prompts disabled and literal pathspecs.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
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

/** One object read by {@link CatFileBatch}: `content` is null when it was larger than asked for. */
export interface BatchObject {
  oid: string;
  type: string;
  size: number;
  content: Buffer | null;
}

interface BatchRequest {
  maxBytes: number;
  resolve: (object: BatchObject | null) => void;
  reject: (error: Error) => void;
}

/** One `git cat-file --batch` process and the requests written to it, answered in order. */
class BatchProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pending: BatchRequest[] = [];
  private stderr = '';
  private failure: Error | undefined;
  /** Header bytes read so far (the header phase), or null in the body phase. */
  private header: Buffer | null = Buffer.alloc(0);
  private body: { object: BatchObject; need: number; got: number; parts: Buffer[]; keep: boolean } | undefined;

  constructor(args: readonly string[]) {
    this.child = spawn('git', args as string[], { env: childEnv(undefined), stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => this.take(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.child.stdin.on('error', () => {
      /* git exited early; 'close' tells why */
    });
    this.child.on('error', (error) => this.fail(error));
    this.child.on('close', (code) =>
      this.fail(new GitCommandError(args, code, this.stderr || 'cat-file --batch ended early')),
    );
    this.idle(true);
  }

  request(spec: Buffer, maxBytes: number): Promise<BatchObject | null> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.push({ maxBytes, resolve, reject });
      if (this.pending.length === 1) this.idle(false);
      this.child.stdin.write(Buffer.concat([spec, Buffer.from('\n')]));
    });
  }

  end(): void {
    this.child.stdin.end();
    this.idle(true);
  }

  /**
   * An idle reader keeps nothing alive: the process and its pipes are unreferenced, so a caller
   * that never closes the repository still lets Node exit (and git then sees the end of its input).
   */
  private idle(idle: boolean): void {
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as {
      ref(): void;
      unref(): void;
    }[]) {
      if (idle) handle.unref();
      else handle.ref();
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const request of this.pending.splice(0)) request.reject(this.failure);
  }

  private answer(object: BatchObject | null): void {
    this.pending.shift()?.resolve(object);
    if (this.pending.length === 0) this.idle(true);
  }

  /** Parses `<oid> <type> <size>\n<content>\n` or `<spec> missing\n` answers from git's output. */
  private take(chunk: Buffer): void {
    while (chunk.length > 0) {
      if (this.header) {
        const newline = chunk.indexOf(0x0a);
        if (newline < 0) {
          this.header = Buffer.concat([this.header, chunk]);
          return;
        }
        const line = Buffer.concat([this.header, chunk.subarray(0, newline)]).toString('latin1');
        chunk = chunk.subarray(newline + 1);
        const match = /^([0-9a-f]{40,64}) ([a-z]+) (\d+)$/.exec(line);
        if (!match) {
          if (/ (missing|ambiguous)$/.test(line)) this.answer(null);
          else
            this.fail(
              new GitCommandError(
                ['cat-file', '--batch'],
                null,
                `unexpected output: ${JSON.stringify(line.slice(0, 200))}`,
              ),
            );
          continue;
        }
        const size = Number(match[3]);
        const request = this.pending[0];
        this.header = null;
        this.body = {
          object: { oid: match[1]!, type: match[2]!, size, content: null },
          need: size + 1,
          got: 0,
          parts: [],
          keep: size <= (request?.maxBytes ?? 0),
        };
      }
      const body = this.body!;
      const take = Math.min(body.need - body.got, chunk.length);
      if (body.keep) body.parts.push(chunk.subarray(0, take));
      body.got += take;
      chunk = chunk.subarray(take);
      if (body.got === body.need) {
        if (body.keep) body.object.content = Buffer.concat(body.parts).subarray(0, body.object.size);
        this.header = Buffer.alloc(0);
        this.body = undefined;
        this.answer(body.object);
      }
    }
  }
}

/**
 * A long-lived `git cat-file --batch` on one repository: objects, trees and refs read one after
 * another through one process instead of one process per read. Requests are answered in order;
 * `close` ends the process (an idle one never keeps Node running).
 */
export class CatFileBatch {
  private process: BatchProcess | undefined;

  constructor(private readonly gitDir: string) {}

  /**
   * The object `spec` names (an object id, `<rev>^{commit}`, `<tree>:<path>`), or null when there
   * is none. With `maxBytes`, a larger object comes back with its size but without its content,
   * which is never held in memory. `spec` is a line of git's input: it cannot hold a line break.
   */
  read(spec: string | Buffer, maxBytes = Number.MAX_SAFE_INTEGER): Promise<BatchObject | null> {
    const bytes = typeof spec === 'string' ? Buffer.from(spec, 'utf8') : spec;
    if (bytes.includes(0x0a) || bytes.includes(0x0d))
      return Promise.reject(
        new Error(
          `cannot ask cat-file --batch for a name with a line break: ${JSON.stringify(bytes.toString('utf8'))}`,
        ),
      );
    this.process ??= new BatchProcess(['--git-dir', this.gitDir, 'cat-file', '--batch']);
    return this.process.request(bytes, maxBytes);
  }

  /** Ends the process; a later read starts a new one. */
  close(): void {
    if (this.process && this.process.pending.length === 0) this.process.end();
    this.process = undefined;
  }
}
