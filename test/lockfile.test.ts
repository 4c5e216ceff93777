/**
 * package-lock.json records each workspace package as its package.json says: `npm ci` links bins
 * and installs dependencies from the lock, not from package.json, so a stale lock (a bin missing
 * from it, as once happened) leaves a fresh clone without its commands.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT } from './support/fixtures.js';

interface Manifest {
  name: string;
  version?: string;
  workspaces?: string[];
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const read = <T>(path: string) => JSON.parse(readFileSync(join(REPO_ROOT, path), 'utf8')) as T;
const root = read<Manifest>('package.json');
const lock = read<{ packages: Record<string, Manifest & { link?: boolean; resolved?: string }> }>('package-lock.json');

it.each(root.workspaces!)('%s: the lock has its name, version, bins and dependencies, and links it', (folder) => {
  const manifest = read<Manifest>(`${folder}/package.json`);
  const locked = lock.packages[folder]!;
  expect({
    name: locked.name,
    version: locked.version,
    bin: locked.bin,
    dependencies: locked.dependencies,
    devDependencies: locked.devDependencies,
  }).toEqual({
    name: manifest.name,
    version: manifest.version,
    bin:
      manifest.bin &&
      Object.fromEntries(Object.entries(manifest.bin).map(([name, path]) => [name, path.replace(/^\.\//, '')])),
    dependencies: manifest.dependencies,
    devDependencies: manifest.devDependencies,
  });
  expect(lock.packages[`node_modules/${manifest.name}`]).toEqual({ resolved: folder, link: true });
});

it("the root's dependencies are the lock's", () => {
  expect(lock.packages['']).toMatchObject({ devDependencies: root.devDependencies, workspaces: root.workspaces });
});
