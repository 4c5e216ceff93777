/**
 * Packing the workspace packages and installing the tarballs into a fresh project, offline.
 *
 * `npm install ./x.tgz` in a new project needs registry metadata to resolve the tarballs'
 * dependencies, and `--offline` has none cached (only the tarballs `npm ci` fetched are). So the
 * project gets a package-lock.json: our tarballs as `file:` entries with their integrity, and every
 * third-party package they need copied from the repository's own lock (same versions, same
 * integrity, so the npm cache has them). `npm ci --offline` then installs it without a single
 * request; a lookup of any name, our own unpublished ones first, fails instead of reaching a registry.
 */
import { spawnSync, type SpawnSyncOptions, type SpawnSyncReturns } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const PUBLISHED = [
  '@svc-manifest/schema',
  '@svc-manifest/validator',
  '@svc-manifest/lsp',
  '@svc-manifest/gitops',
] as const;

export interface PackageJson {
  name: string;
  version: string;
  license?: string;
  type?: string;
  types?: string;
  bin?: Record<string, string>;
  exports?: unknown;
  files?: string[];
  dependencies?: Record<string, string>;
  engines?: Record<string, string>;
}

export interface PackedPackage {
  name: string;
  version: string;
  /** Absolute path of the tarball. */
  tarball: string;
  integrity: string;
  /** Paths inside the tarball, without the `package/` prefix. */
  files: string[];
}

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  bin?: Record<string, string>;
  [key: string]: unknown;
}

/** Runs a command; throws with its output when it exits non-zero. */
export function run(
  command: string,
  args: string[],
  options: SpawnSyncOptions & { cwd: string },
): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    timeout: 300_000,
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  }) as SpawnSyncReturns<string>;
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} (in ${options.cwd}) exited ${result.status ?? result.signal}:\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result;
}

/** PATH without any node_modules/.bin folder (npm scripts put the repository's first). */
export function cleanPath(): string {
  return (process.env.PATH ?? '')
    .split(':')
    .filter((folder) => folder && !folder.includes('node_modules'))
    .join(':');
}

/**
 * The environment for npm and for the commands under test: offline (any request that is not in
 * the cache fails), no colours, no update notices, nothing from the outer npm run.
 */
export function offlineEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  return {
    ...env,
    PATH: cleanPath(),
    NO_COLOR: '1',
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

/** `npm pack` of every published workspace package of `repo` (built) into `destination`. */
export function packWorkspaces(repo: string, destination: string, env: NodeJS.ProcessEnv): PackedPackage[] {
  const workspaces = PUBLISHED.flatMap((name) => ['--workspace', name]);
  const result = run('npm', ['pack', ...workspaces, '--pack-destination', destination, '--json'], { cwd: repo, env });
  const packed = JSON.parse(result.stdout) as {
    name: string;
    version: string;
    filename: string;
    integrity: string;
    files: { path: string }[];
  }[];
  return packed.map((entry) => ({
    name: entry.name,
    version: entry.version,
    tarball: join(destination, entry.filename),
    integrity: entry.integrity,
    files: entry.files.map((file) => file.path).sort(),
  }));
}

/** The package.json inside a tarball. */
export function packedManifest(pack: PackedPackage): PackageJson {
  const result = run('tar', ['-xOzf', pack.tarball, 'package/package.json'], { cwd: '/' });
  return JSON.parse(result.stdout) as PackageJson;
}

/**
 * Writes package.json and package-lock.json of a project in `dir` depending on `packs` (the
 * tarballs), with third-party versions taken from `repositoryLock` (the repository's lock file).
 */
export function writeLockedProject(dir: string, packs: readonly PackedPackage[], repositoryLock: string): void {
  const source = JSON.parse(readFileSync(repositoryLock, 'utf8')) as { packages: Record<string, LockEntry> };
  const dependencies = Object.fromEntries(packs.map((pack) => [pack.name, `file:${relative(dir, pack.tarball)}`]));
  const packages: Record<string, LockEntry> = { '': { name: 'app', dependencies } };
  const ours = new Set(packs.map((pack) => pack.name));
  const workspaceFolder = new Map(
    Object.entries(source.packages)
      .filter(([key, value]) => key.startsWith('packages/') && typeof value.name === 'string')
      .map(([key, value]) => [value.name as string, key]),
  );
  // Each dependency is looked up the way Node resolves it from its parent's place in the
  // repository's tree, and placed at the same depth under its parent's place in the project.
  const queue: { name: string; from: string; into: string }[] = [];
  for (const pack of packs) {
    const manifest = packedManifest(pack);
    const into = `node_modules/${pack.name}`;
    packages[into] = {
      version: pack.version,
      resolved: `file:${relative(dir, pack.tarball)}`,
      integrity: pack.integrity,
      license: manifest.license,
      ...(manifest.dependencies ? { dependencies: manifest.dependencies } : {}),
      ...(manifest.bin ? { bin: manifest.bin } : {}),
      ...(manifest.engines ? { engines: manifest.engines } : {}),
    };
    const from = workspaceFolder.get(pack.name);
    if (!from) throw new Error(`${pack.name} is not a workspace of the repository's lock file`);
    for (const name of Object.keys(manifest.dependencies ?? {})) queue.push({ name, from, into });
  }
  while (queue.length > 0) {
    const { name, from, into } = queue.shift()!;
    if (ours.has(name)) continue;
    let found: string | undefined;
    for (let parent = from; ;) {
      const candidate = parent === '' ? `node_modules/${name}` : `${parent}/node_modules/${name}`;
      if (source.packages[candidate] && !source.packages[candidate].link) {
        found = candidate;
        break;
      }
      if (parent === '') break;
      const cut = parent.lastIndexOf('/node_modules/');
      parent = cut < 0 ? '' : parent.slice(0, cut);
    }
    if (!found) throw new Error(`${name} (needed by ${from}) is not in the repository's lock file`);
    const entry = source.packages[found]!;
    const hoisted = found === `node_modules/${name}`;
    const top = `node_modules/${name}`;
    const target =
      hoisted && (!packages[top] || packages[top].version === entry.version) ? top : `${into}/node_modules/${name}`;
    if (packages[target]) continue;
    const copy: LockEntry = { ...entry };
    for (const flag of ['dev', 'devOptional', 'peer', 'optional']) delete copy[flag];
    packages[target] = copy;
    for (const dependency of Object.keys(entry.dependencies ?? {}))
      queue.push({ name: dependency, from: found, into: target });
  }
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'app', private: true, type: 'module', dependencies }, null, 2)}\n`,
  );
  writeFileSync(
    join(dir, 'package-lock.json'),
    `${JSON.stringify({ name: 'app', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  );
}
