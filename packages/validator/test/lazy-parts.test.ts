/**
 * The bundles' lazy-parts plugin (scripts/lazy-parts-plugin.mjs) fails a build in which no import
 * reaches a module it lists: a module renamed or moved would otherwise be bundled eagerly again.
 */
import { build, type BuildFailure } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { lazyParts } from '../scripts/lazy-parts-plugin.mjs';

/** The modules the build's errors say no import reaches (empty when the build succeeds). */
async function unreached(entry: string): Promise<string[]> {
  const failure = await build({
    stdin: { contents: entry, loader: 'js', resolveDir: import.meta.dirname },
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    plugins: [lazyParts],
  }).then(
    () => undefined,
    (error: BuildFailure) => error,
  );
  return (failure?.errors ?? []).map((error) => /no import reaches (\S+);/.exec(error.text)?.[1] ?? error.text);
}

describe('the lazy-parts plugin', () => {
  it('fails a build that reaches none of its modules, naming each; one an import reaches is not named', async () => {
    const none = await unreached('export {};');
    expect(none).toContain('node:child_process');
    expect(none).toContain('toml-eslint-parser');
    expect(none.some((module) => /[\\/]src[\\/]document[\\/]parse-toml\.ts$/.test(module))).toBe(true);

    const some = await unreached("import { spawnSync } from 'node:child_process'; export { spawnSync };");
    expect(some).not.toContain('node:child_process');
    expect(some).toEqual(none.filter((module) => module !== 'node:child_process'));
  });
});
