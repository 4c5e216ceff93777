/**
 * A fresh clone of this repository (its committed HEAD), installed with `npm ci` offline from the
 * npm cache, as a new user or CI gets it. Used by the tests that check what a user gets: the
 * README's commands and the packed packages.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { run } from './packed.js';
import { REPO_ROOT } from './fixtures.js';

/** `git clone` of the repository into `parent/clone`; returns the clone's path. */
export function cloneRepository(parent: string, env: NodeJS.ProcessEnv): string {
  const clone = join(parent, 'clone');
  run('git', ['clone', '--quiet', '--no-hardlinks', REPO_ROOT, clone], { cwd: parent, env });
  return clone;
}

export interface LspAnswer {
  /** The `initialize` result. */
  result: { capabilities: Record<string, unknown>; serverInfo?: { name: string; version?: string } };
  /** Everything the server wrote to stderr. */
  stderr: string;
}

/**
 * Starts `command args` (a language server on stdio), sends `initialize`, returns the answer and
 * ends the server with `shutdown` / `exit`. Rejects after 60 s without an answer.
 */
export function initializeOverStdio(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<LspAnswer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = Buffer.alloc(0);
    let stderr = '';
    let answer: unknown;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no answer to initialize within 60 s; stderr:\n${stderr}`));
    }, 60_000);
    const send = (message: object) => {
      const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
      child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
    };
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout = Buffer.concat([stdout, chunk]);
      for (;;) {
        const headerEnd = stdout.indexOf('\r\n\r\n');
        if (headerEnd < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(stdout.subarray(0, headerEnd).toString('ascii'))?.[1]);
        if (stdout.length < headerEnd + 4 + length) return;
        const message = JSON.parse(stdout.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8')) as {
          id?: number;
          result?: unknown;
        };
        stdout = stdout.subarray(headerEnd + 4 + length);
        if (message.id === 1) {
          answer = message.result;
          send({ id: 2, method: 'shutdown' });
        } else if (message.id === 2) {
          send({ method: 'exit' });
          child.stdin.end();
          clearTimeout(timer);
          child.on('close', () => resolve({ result: answer as LspAnswer['result'], stderr }));
        }
      }
    });
    send({ id: 1, method: 'initialize', params: { processId: process.pid, rootUri: null, capabilities: {} } });
  });
}
