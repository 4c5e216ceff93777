/**
 * The CLI's input and output for this process, made cheaply: a one-shot run must not pay for
 * what it does not use (see docs/decisions.md, "What a one-shot `svc-manifest validate` loads").
 */
import { fstatSync, statSync, writeSync } from 'node:fs';
import type { CliIo } from './cli-io.js';

/** `os.devNull`, without loading node:os (a few tenths of a millisecond of a one-shot run) for one constant. */
const devNull = process.platform === 'win32' ? '\\\\.\\nul' : '/dev/null';

/**
 * Whether stdout is a terminal. Only a character device can be one, so a pipe or a file (CI,
 * pre-commit, the usual case) is answered by one fstat, and /dev/null (where benchmarks and
 * scripts send output) by comparing device numbers, without loading node:tty and its
 * dependencies (as `process.stdout.isTTY` does), which costs a one-shot run a few milliseconds.
 */
function stdoutIsTty(): boolean {
  try {
    const stdout = fstatSync(1);
    if (!stdout.isCharacterDevice()) return false;
    if (stdout.rdev === statSync(devNull).rdev) return false;
  } catch {
    // No /dev/null to compare with: ask the stream.
  }
  try {
    return Boolean(process.stdout.isTTY);
  } catch {
    return false;
  }
}

/**
 * Writes to stdout with write(2) directly: creating `process.stdout` (a stream over a pipe, tty or
 * file) costs more than a one-shot run's whole report. When the descriptor is non-blocking and
 * full (EAGAIN), the rest goes through the stream, which waits for the reader.
 */
function writeStdout(text: string): void {
  let rest = Buffer.from(text, 'utf8');
  while (rest.length > 0) {
    let written: number;
    try {
      written = writeSync(1, rest);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      process.stdout.write(rest);
      return;
    }
    rest = rest.subarray(written);
  }
}

/** `runCli`'s io for the running process: stdout written with write(2), colours only on a terminal. */
export function processIo(): CliIo {
  return {
    stdout: writeStdout,
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    isTty: stdoutIsTty(),
  };
}
