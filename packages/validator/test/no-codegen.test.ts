/**
 * No code generation at run time: the validator (ajv's standalone validators, compiled at build
 * time) must work with `node --disallow-code-generation-from-strings`, where `eval` and
 * `new Function` throw. The proof runs in child processes with the flag: the CLI bundle over
 * every fixture, and the library from source over every fixture, compared with this process.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, validateManifest } from '@svc-manifest/validator';
import { loadExamples, loadFixtures } from '../../../test/support/fixtures.js';
import { ensureBundle, REPO_ROOT, runBundle, runTsScript } from './support/child.js';

const FLAG = '--disallow-code-generation-from-strings';
const files = [...loadFixtures(), ...loadExamples()].map((f) => relative(REPO_ROOT, f.file));
let cache: string;

beforeAll(() => {
  ensureBundle();
  // The CLI launcher keeps a V8 code cache; use a fresh one so both the cold and the warm start run.
  cache = mkdtempSync(join(tmpdir(), 'svc-ncg-cache-'));
}, 120_000);
afterAll(() => {
  rmSync(cache, { recursive: true, force: true });
});

async function inProcess(argv: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const code = await runCli(argv, {
    stdout: (t) => (stdout += t),
    stderr: () => {},
    cwd: REPO_ROOT,
    env: {},
    isTty: false,
  });
  return { code, stdout };
}

/**
 * CI runs the validator's whole suite a second time with the flag (.ci/run) and says so with
 * `SVC_NO_CODEGEN_REQUIRED=1`: there the check below must run, and fails if the flag is missing.
 * Elsewhere it runs only when NODE_OPTIONS sets the flag, and shows as skipped otherwise.
 */
const flagged = process.env.NODE_OPTIONS?.includes(FLAG) ?? false;
const required = process.env.SVC_NO_CODEGEN_REQUIRED === '1';

describe(`node ${FLAG}`, () => {
  it.runIf(flagged || required)('is in force in this process (the whole suite runs under it)', () => {
    expect(() => eval('1')).toThrow(EvalError);
  });

  it('really forbids eval in a child (the flag works)', () => {
    const child = runTsScript(join(import.meta.dirname, 'support', 'eval-probe.ts'), [], { nodeOptions: [FLAG] });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('EvalError EvalError');
  });

  it('the CLI bundle validates every fixture with the same exit code and JSON as in process (cold and warm code cache)', async () => {
    expect(files.length).toBeGreaterThan(200);
    const expected = await inProcess(['validate', '--format', 'json', ...files]);
    expect(expected.code).toBe(1);
    for (const run of ['cold', 'warm']) {
      const child = runBundle(['validate', '--format', 'json', ...files], {
        nodeOptions: [FLAG],
        env: { XDG_CACHE_HOME: cache },
      });
      expect(child.stderr, run).toBe('');
      expect(child.status, run).toBe(expected.code);
      expect(JSON.parse(child.stdout), run).toEqual(JSON.parse(expected.stdout));
      // After the cold run the launcher has written its V8 code cache, so the warm run loads it.
      const cacheDir = join(cache, 'svc-manifest');
      if (existsSync(join(REPO_ROOT, 'packages/validator/launcher')))
        expect(
          readdirSync(cacheDir).some((name) => name.endsWith('.v8cache')),
          run,
        ).toBe(true);
    }
  });

  it('the CLI bundle prints the schema and passes a valid manifest', () => {
    const valid = runBundle(['validate', 'examples/svc.yaml'], { nodeOptions: [FLAG], env: { XDG_CACHE_HOME: cache } });
    expect(valid.stderr).toBe('');
    expect(valid.status).toBe(0);
    const schema = runBundle(['schema'], { nodeOptions: [FLAG], env: { XDG_CACHE_HOME: cache } });
    expect(schema.status).toBe(0);
    expect(JSON.parse(schema.stdout)).toHaveProperty('$schema');
  });

  it('the library, from source, gives every fixture the same diagnostics as in process', () => {
    const child = runTsScript(join(import.meta.dirname, 'support', 'fixture-walk.ts'), [], { nodeOptions: [FLAG] });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const results = JSON.parse(child.stdout) as Record<string, unknown>;
    const fixtures = [...loadFixtures(), ...loadExamples()];
    expect(Object.keys(results)).toHaveLength(fixtures.length);
    for (const fixture of fixtures) {
      const diagnostics = validateManifest(fixture.text, { format: fixture.format }).diagnostics;
      expect(results[fixture.name], fixture.name).toEqual(JSON.parse(JSON.stringify(diagnostics)));
    }
  });
});
