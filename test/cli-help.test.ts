/**
 * Help and usage errors of the installed commands (`node_modules/.bin/svc-manifest` and
 * `svc-manifest-git`, as `npx --no-install` runs them; needs `npm run build`): help on stdout
 * with exit 0, a usage error as one line on stderr with exit 2, and colours as asked.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/fixtures.js';

const BIN = join(REPO_ROOT, 'node_modules', '.bin');

function run(
  command: 'svc-manifest' | 'svc-manifest-git',
  args: string[],
  env: Record<string, string | undefined> = {},
) {
  return spawnSync(join(BIN, command), args, {
    cwd: join(REPO_ROOT, 'examples'),
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...env },
  });
}

describe('--help and -h', () => {
  for (const command of ['validate', 'migrate', 'convert', 'fmt', 'schema']) {
    it(`svc-manifest ${command} --help (and -h) prints its usage on stdout, exit 0`, () => {
      for (const flag of ['--help', '-h']) {
        const result = run('svc-manifest', [command, flag]);
        expect(result.status).toBe(0);
        expect(result.stderr).toBe('');
        expect(result.stdout).toMatch(new RegExp(`^usage: svc-manifest ${command} `));
        expect(result.stdout).toContain('-h, --help');
      }
    });
  }

  it('svc-manifest git --help and svc-manifest-git <operation> --help print on stdout, exit 0', () => {
    const git = run('svc-manifest', ['git', '--help']);
    expect([git.status, git.stderr]).toEqual([0, '']);
    expect(git.stdout).toMatch(/^usage: svc-manifest git <command> \[options\]\n/);
    const operation = run('svc-manifest-git', ['set-default-agent', '--help']);
    expect([operation.status, operation.stderr]).toEqual([0, '']);
    expect(operation.stdout).toMatch(
      /^usage: svc-manifest git set-default-agent NAME \[options\]\n\nMake a declared, enabled agent the default/,
    );
    const throughValidator = run('svc-manifest', ['git', 'set-default-agent', '-h']);
    expect(throughValidator.stdout).toBe(operation.stdout);
  });
});

describe('usage errors: one line, what is wrong, what was probably meant, where the help is', () => {
  const cases: [string[], string][] = [
    [['valdate'], "svc-manifest: unknown command 'valdate'; did you mean 'validate'? (see 'svc-manifest --help')\n"],
    [
      ['validate', '--frmat', 'json'],
      "svc-manifest: unknown option '--frmat'; did you mean '--format'? (see 'svc-manifest validate --help')\n",
    ],
    [
      ['validate', '--format', 'jsno'],
      "svc-manifest: unknown format 'jsno'; did you mean 'json'? (see 'svc-manifest validate --help')\n",
    ],
    [
      ['validate', '--format', 'xml'],
      "svc-manifest: unknown format 'xml'; stylish, json, sarif or github (see 'svc-manifest validate --help')\n",
    ],
    [['validate', '-x'], "svc-manifest: unknown option '-x' (see 'svc-manifest validate --help')\n"],
    [['migrate', 'svc.yaml'], "svc-manifest: migrate needs --to 2 (see 'svc-manifest migrate --help')\n"],
    [[], "svc-manifest: name a command: validate, migrate, convert, fmt, schema or git (see 'svc-manifest --help')\n"],
    [
      ['validate', '--bad\u001b[31m'],
      "svc-manifest: unknown option '--bad\\x1b[31m' (see 'svc-manifest validate --help')\n",
    ],
  ];
  for (const [args, stderr] of cases) {
    it(`svc-manifest ${JSON.stringify(args)}`, () => {
      const result = run('svc-manifest', args);
      expect(result.status).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(stderr);
    });
  }

  it('svc-manifest git with a misspelt operation', () => {
    const result = run('svc-manifest', ['git', 'set-defualt-agent', 'x']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      "svc-manifest git: unknown command 'set-defualt-agent'; did you mean 'set-default-agent'? (see 'svc-manifest git --help')\n",
    );
  });
});

describe('colour', () => {
  const RED = '\u001b[31m';
  it('--color forces it, --no-color refuses it, FORCE_COLOR turns it on, NO_COLOR off (flags win)', () => {
    const colour = (args: string[], env: Record<string, string> = {}) =>
      run('svc-manifest', ['validate', 'broken/svc.yaml', ...args], env).stdout.includes(RED);
    expect(colour([])).toBe(false); // a pipe
    expect(colour(['--color'])).toBe(true);
    expect(colour(['--color'], { NO_COLOR: '1' })).toBe(true);
    expect(colour([], { FORCE_COLOR: '1' })).toBe(true);
    expect(colour([], { FORCE_COLOR: '0' })).toBe(false);
    expect(colour(['--no-color'], { FORCE_COLOR: '1' })).toBe(false);
    expect(colour([], { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
  });
});
