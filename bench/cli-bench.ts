/**
 * The bundled CLI (`node packages/validator/dist/svc-manifest.cjs validate <example>`) against
 * a bare `node -e 0`, paired run by run (alternating which goes first), wall-clock from
 * spawn to exit. The CLI keeps its V8 code cache in a folder of this run's own, written by the
 * warm-up run, so another build's cache in the user's folder neither helps nor disturbs it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stat, type Stat } from './lsp-harness.ts';
import { ROOT } from './servers.ts';

export const CLI = join(ROOT, 'packages', 'validator', 'dist', 'svc-manifest.cjs');

export interface CliResult {
  manifest: string;
  runs: number;
  cli: Stat;
  bareNode: Stat;
  /** Per-pair cli/bare ratios. */
  ratio: Stat;
  /** What a CLI start costs on top of node itself (per pair, ms). */
  overheadMs: Stat;
  /** CPU time (user + sys; see {@link CPU_CLOCK}) when it can be measured: steadier than wall time on a loaded machine. */
  cliCpu?: Stat;
  bareNodeCpu?: Stat;
  cpuRatio?: Stat;
  /** How the CPU time was read. */
  cpuClock?: string;
  exitCode: number | null;
}

/** The example the CLI is measured on: examples/svc.yaml, else the realistic fixture. */
export function cliManifest(): string {
  const example = join(ROOT, 'examples', 'svc.yaml');
  if (existsSync(example)) return example;
  return join(ROOT, 'fixtures', 'realistic', 'valid', 'svc.yaml');
}

const TIME = '/usr/bin/time';
const RUSAGE = join(ROOT, 'bench', 'rusage.py');
const HAS_PYTHON = spawnSync('python3', ['-c', '0']).status === 0;
const HAS_TIME = existsSync(TIME);
/** Whether CPU time is measured at all (see {@link CPU_CLOCK}). */
const COUNTS_CPU = HAS_PYTHON || HAS_TIME;
const TIME_OUT = `${tmpdir()}/svc-manifest-bench-time-${process.pid}.txt`;
/** How CPU time is read: getrusage through bench/rusage.py (microseconds), else /usr/bin/time (10 ms steps). */
export const CPU_CLOCK = HAS_PYTHON
  ? 'getrusage, bench/rusage.py'
  : HAS_TIME
    ? '/usr/bin/time, 10 ms resolution'
    : 'not measured';

/**
 * Wall time spawn → exit, and CPU time (user + sys). With python3, both come from bench/rusage.py,
 * which runs the command (its own start-up is outside the times); else the wall time is taken here
 * and the CPU time from /usr/bin/time when it exists.
 */
export function wall(
  args: string[],
  env?: Record<string, string>,
  /** The program `args` are given to (default: this Node). */
  program: string = process.execPath,
): { ms: number; cpuMs: number; status: number | null } {
  if (HAS_PYTHON) {
    const result = spawnSync('python3', [RUSAGE, program, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: env ? { ...process.env, ...env } : process.env,
    });
    if (result.status !== 0) throw new Error(`bench/rusage.py failed: ${result.stderr.toString()}`);
    return JSON.parse(result.stdout.toString()) as { ms: number; cpuMs: number; status: number | null };
  }
  const command = HAS_TIME ? TIME : program;
  const argv = HAS_TIME ? ['-f', '%U %S', '-o', TIME_OUT, program, ...args] : args;
  const t = performance.now();
  const result = spawnSync(command, argv, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: env ? { ...process.env, ...env } : process.env,
  });
  const ms = performance.now() - t;
  let cpuMs = NaN;
  if (HAS_TIME) {
    const [user, sys] = readFileSync(TIME_OUT, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
    cpuMs = ((user ?? NaN) + (sys ?? NaN)) * 1000;
  }
  return { ms, cpuMs, status: result.status };
}

export function benchCli(runs: number): CliResult {
  const manifest = cliManifest();
  const cliArgs = [CLI, 'validate', manifest];
  const bareArgs = ['-e', '0'];
  const cache = mkdtempSync(join(tmpdir(), 'svc-manifest-bench-cache-'));
  const env = { XDG_CACHE_HOME: cache };
  try {
    return pairs(
      manifest,
      runs,
      () => wall(cliArgs, env),
      () => wall(bareArgs),
    );
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

type Run = ReturnType<typeof wall>;

/**
 * `runs` pairs of a command and its baseline, the one that goes first alternating (the command
 * on even runs, the baseline on odd ones) so that neither always gets the warmer caches. The
 * i-th command result pairs with the i-th baseline result.
 */
export function interleaved<T>(
  runs: number,
  command: (run: number) => T,
  baseline: (run: number) => T,
): { command: T[]; baseline: T[] } {
  const measured: { command: T[]; baseline: T[] } = { command: [], baseline: [] };
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      measured.command.push(command(i));
      measured.baseline.push(baseline(i));
    } else {
      measured.baseline.push(baseline(i));
      measured.command.push(command(i));
    }
  }
  return measured;
}

/** A command to time: its program (undefined: this Node) and arguments. */
export interface TimedCommand {
  program?: string;
  args: string[];
}

/**
 * Each command once as a warm-up, then `rounds` rounds of all of them, each round starting with
 * the next command so that none always runs first: the wall and CPU times of each command, by round.
 */
export function roundRobin(
  commands: readonly TimedCommand[],
  rounds: number,
  env?: Record<string, string>,
): { ms: number[]; cpuMs: number[] }[] {
  for (const { program, args } of commands) wall(args, env, program);
  const measured = commands.map(() => ({ ms: [] as number[], cpuMs: [] as number[] }));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < commands.length; k++) {
      const i = (round + k) % commands.length;
      const run = wall(commands[i]!.args, env, commands[i]!.program);
      measured[i]!.ms.push(run.ms);
      measured[i]!.cpuMs.push(run.cpuMs);
    }
  }
  return measured;
}

function pairs(manifest: string, runs: number, runCommand: () => Run, runBareNode: () => Run): CliResult {
  // Warm the OS file cache, and let the CLI write its code cache (its first three runs do).
  for (let i = 0; i < 3; i++) runCommand();
  runBareNode();
  const measured = interleaved(runs, runCommand, runBareNode);
  const cli = measured.command.map((c) => c.ms);
  const bare = measured.baseline.map((b) => b.ms);
  const cliCpu = measured.command.map((c) => c.cpuMs);
  const bareCpu = measured.baseline.map((b) => b.cpuMs);
  const exitCode = measured.command.at(-1)?.status ?? null;
  return {
    manifest: manifest.slice(ROOT.length + 1),
    runs,
    cli: stat(cli),
    bareNode: stat(bare),
    ratio: stat(cli.map((c, i) => c / bare[i]!)),
    overheadMs: stat(cli.map((c, i) => c - bare[i]!)),
    ...(COUNTS_CPU
      ? {
          cliCpu: stat(cliCpu),
          bareNodeCpu: stat(bareCpu),
          cpuRatio: stat(cliCpu.map((c, i) => c / bareCpu[i]!)),
          cpuClock: CPU_CLOCK,
        }
      : {}),
    exitCode,
  };
}
