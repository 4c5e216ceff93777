/**
 * The bundled CLI (`node packages/validator/dist/svc-manifest.cjs validate <example>`) against
 * a bare `node -e 0`, paired run by run (alternating which goes first), wall-clock from
 * spawn to exit.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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
  exitCode: number | null;
}

/** The example the CLI is measured on: examples/svc.yaml, else the realistic fixture. */
export function cliManifest(): string {
  const example = join(ROOT, 'examples', 'svc.yaml');
  if (existsSync(example)) return example;
  return join(ROOT, 'fixtures', 'realistic', 'valid', 'svc.yaml');
}

function wall(args: string[]): { ms: number; status: number | null } {
  const t = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return { ms: performance.now() - t, status: result.status };
}

export function benchCli(runs: number): CliResult {
  const manifest = cliManifest();
  const cliArgs = [CLI, 'validate', manifest];
  const bareArgs = ['-e', '0'];
  // Warm the OS file cache.
  wall(cliArgs);
  wall(bareArgs);
  const cli: number[] = [];
  const bare: number[] = [];
  let exitCode: number | null = null;
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      const c = wall(cliArgs);
      exitCode = c.status;
      cli.push(c.ms);
      bare.push(wall(bareArgs).ms);
    } else {
      bare.push(wall(bareArgs).ms);
      const c = wall(cliArgs);
      exitCode = c.status;
      cli.push(c.ms);
    }
  }
  return {
    manifest: manifest.slice(ROOT.length + 1),
    runs,
    cli: stat(cli),
    bareNode: stat(bare),
    ratio: stat(cli.map((c, i) => c / bare[i]!)),
    overheadMs: stat(cli.map((c, i) => c - bare[i]!)),
    exitCode,
  };
}
