/**
 * The environment of a user's machine that has Node and the system's programs but no
 * `svc-manifest` command, for the tests that run what we publish the way a user meets it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * An environment whose PATH is a folder under `work` holding a `node` link, then /usr/bin and
 * /bin (nothing from this repository: npm puts node_modules/.bin on PATH for `npm test`). HOME
 * (created here) and the XDG cache are under `work`; git reads no system configuration and
 * `gitConfigGlobal` as its global one. `extra` is added as it is. Throws when `svc-manifest`
 * is found on that PATH all the same.
 */
export function nodeOnlyEnv(
  work: string,
  gitConfigGlobal: string,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const bin = join(work, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
  const env: NodeJS.ProcessEnv = {
    HOME: join(work, 'home'),
    PATH: `${bin}:/usr/bin:/bin`,
    LANG: 'C.UTF-8',
    XDG_CACHE_HOME: join(work, 'cache'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: gitConfigGlobal,
    ...extra,
  };
  mkdirSync(env.HOME!);
  const found = spawnSync('sh', ['-c', 'command -v svc-manifest'], { env, encoding: 'utf8' });
  if (found.status === 0)
    throw new Error(`this test needs a PATH with no svc-manifest, but it finds ${found.stdout.trim()}`);
  return env;
}
