/**
 * Running the validator in a child process: the CLI bundle (`dist/svc-manifest.cjs`) and
 * TypeScript scripts under the package's source (through tsx with the `source` export condition,
 * so the child runs the same code as the in-process tests, not a stale build).
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './rule-docs.js';

export { REPO_ROOT };
export const VALIDATOR_DIR = join(REPO_ROOT, 'packages', 'validator');
export const BUNDLE = join(VALIDATOR_DIR, 'dist', 'svc-manifest.cjs');
/** The bundled CLI itself; `svc-manifest.cjs` may be a launcher that loads it. */
const BUNDLE_MAIN = join(VALIDATOR_DIR, 'dist', 'svc-manifest-main.cjs');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    newest = Math.max(newest, stat.isDirectory() ? newestMtime(path) : stat.mtimeMs);
  }
  return newest;
}

/** Builds the CLI bundle when it is missing or older than the validator's or schema's source. */
export function ensureBundle(): void {
  const folders = [
    join(VALIDATOR_DIR, 'src'),
    join(VALIDATOR_DIR, 'launcher'),
    join(REPO_ROOT, 'packages', 'schema', 'src'),
  ];
  const sources = Math.max(...folders.filter((folder) => existsSync(folder)).map(newestMtime));
  const built = existsSync(BUNDLE_MAIN) ? BUNDLE_MAIN : BUNDLE;
  if (existsSync(BUNDLE) && existsSync(built) && statSync(built).mtimeMs >= sources) return;
  const result = spawnSync('npm', ['run', 'bundle', '-w', '@svc-manifest/validator'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`npm run bundle failed:\n${result.stdout}\n${result.stderr}`);
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  input?: string;
  timeout?: number;
  nodeOptions?: string[];
}

/** `node [nodeOptions] dist/svc-manifest.cjs ...args`. */
export function runBundle(args: string[], options: RunOptions = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [...(options.nodeOptions ?? []), BUNDLE, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...options.env },
    encoding: 'utf8',
    input: options.input,
    timeout: options.timeout ?? 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** `node --conditions=source --import tsx [nodeOptions] <script> ...args`, from the repository root. */
export function runTsScript(script: string, args: string[] = [], options: RunOptions = {}): SpawnSyncReturns<string> {
  return spawnSync(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', ...(options.nodeOptions ?? []), script, ...args],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ...options.env },
      encoding: 'utf8',
      input: options.input,
      timeout: options.timeout ?? 120_000,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
}
