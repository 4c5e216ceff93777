/**
 * The commands that change files: `validate --fix` / `--fix-dry-run`, `migrate`, `convert`.
 * Exit codes, output formats, what is written and what is refused (with the files unchanged),
 * in process through `runCli` on real files in a temporary folder, and once through the built
 * bundle in a child process.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPatch } from 'diff';
import { runCli, type CliIo } from '@svc-manifest/validator';
import { ensureBundle, REPO_ROOT, runBundle } from './support/child.js';

const FIXTURES = join(REPO_ROOT, 'fixtures-transform');
const fixture = (path: string): Buffer => readFileSync(join(FIXTURES, path));

interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(argv: string[], cwd: string): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, env: {}, isTty: false };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

let work: string;
let counter = 0;
function folder(files: Record<string, string | Buffer>): string {
  const dir = join(work, `case-${counter++}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-transform-cli-'));
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('validate --fix', () => {
  it('rewrites the file with the safe fixes and reports what is left', async () => {
    const dir = folder({ 'svc.yaml': fixture('fix/ambiguous.in.yaml') });
    const result = await cli(['validate', '--fix', '--format', 'json'], dir);
    expect(readFileSync(join(dir, 'svc.yaml')).equals(fixture('fix/ambiguous.out.yaml'))).toBe(true);
    const report = JSON.parse(result.stdout) as { messages: { ruleId: string; line: number }[] }[];
    // What is left is located in the fixed text.
    expect(report[0]!.messages.map((m) => [m.ruleId, m.line])).toEqual([
      ['sandbox-template-declared', 6],
      ['possible-typo', 13],
    ]);
    expect(result.code).toBe(0);
  });

  it('exits 1 when errors remain after fixing', async () => {
    const dir = folder({
      'svc.yaml': 'svc_version: 2.0\ndefault_agent: main\nagents:\n  main:\n    workspace: nowhere-near\n',
    });
    const result = await cli(['validate', '--fix'], dir);
    expect(result.code).toBe(1);
    expect(readFileSync(join(dir, 'svc.yaml'), 'utf8')).toBe(
      'svc_version: 2\ndefault_agent: main\nagents:\n  main:\n    workspace: nowhere-near\n',
    );
  });

  it('never touches a file without findings', async () => {
    const bytes = fixture('fix/valid.in.yaml');
    const dir = folder({ 'svc.yaml': bytes });
    const result = await cli(['validate', '--fix'], dir);
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'svc.yaml')).equals(bytes)).toBe(true);
  });

  it('--fix-dry-run prints a unified diff that turns the file into the fixed one, and writes nothing', async () => {
    const bytes = fixture('fix/typos.in.toml');
    const dir = folder({ 'svc.toml': bytes });
    const result = await cli(['validate', '--fix-dry-run'], dir);
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'svc.toml')).equals(bytes)).toBe(true);
    expect(result.stdout.startsWith('--- a/svc.toml\n+++ b/svc.toml\n@@ ')).toBe(true);
    expect(result.stdout).toContain('\n-provider = "htttp" # misspelt value\n+provider = "http" # misspelt value\n');
    expect(applyPatch(bytes.toString('utf8'), result.stdout)).toBe(fixture('fix/typos.out.toml').toString('utf8'));
    // The report (of the fixed text) goes to stderr so stdout stays a patch.
    expect(result.stderr).toBe('✔ svc.toml: no problems\n');
  });

  it('--fix-dry-run on a clean file prints nothing', async () => {
    const dir = folder({ 'svc.yaml': fixture('fix/valid.in.yaml') });
    const result = await cli(['validate', '--fix-dry-run'], dir);
    expect([result.code, result.stdout]).toEqual([0, '']);
  });

  it('refuses --fix with --fix-dry-run', async () => {
    const dir = folder({ 'svc.yaml': fixture('fix/valid.in.yaml') });
    expect((await cli(['validate', '--fix', '--fix-dry-run'], dir)).code).toBe(2);
  });
});

describe('migrate', () => {
  it('prints the migrated text and leaves the file alone without --write', async () => {
    const bytes = fixture('migrate/commented.in.yaml');
    const dir = folder({ 'svc.yaml': bytes });
    const result = await cli(['migrate', '--to', '2'], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(fixture('migrate/commented.out.yaml').toString('utf8'));
    expect(readFileSync(join(dir, 'svc.yaml')).equals(bytes)).toBe(true);
  });

  it('rewrites the file in place with --write, in the same format', async () => {
    const dir = folder({ 'svc.toml': fixture('migrate/tables.in.toml') });
    const result = await cli(['migrate', 'svc.toml', '--to=2', '--default-agent', 'triage', '--write'], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(readFileSync(join(dir, 'svc.toml')).equals(fixture('migrate/tables.out.toml'))).toBe(true);
  });

  it('refuses with located errors in every format, exit 1, nothing written', async () => {
    const bytes = fixture('migrate/refused-everything.in.yaml');
    const dir = folder({ 'svc.yaml': bytes });
    const expected = JSON.parse(fixture('migrate/refused-everything.refused.json').toString('utf8')) as [
      string,
      number,
      number,
    ][];

    const json = await cli(['migrate', '--to', '2', '--write', '--format', 'json'], dir);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as {
      messages: { ruleId: string; line: number; column: number; severity: number }[];
    }[];
    expect(report[0]!.messages.map((m) => [m.ruleId, m.line, m.column])).toEqual(expected);
    expect(report[0]!.messages.every((m) => m.severity === 2)).toBe(true);

    const sarif = await cli(['migrate', '--to', '2', '--write', '--format', 'sarif'], dir);
    expect(sarif.code).toBe(1);
    const results = (
      JSON.parse(sarif.stdout) as {
        runs: { results: { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[] }[];
      }
    ).runs[0]!.results;
    expect(results.map((r) => [r.ruleId, r.locations[0]!.physicalLocation.region.startLine])).toEqual(
      expected.map(([code, line]) => [code, line]),
    );

    const github = await cli(['migrate', '--to', '2', '--write', '--format', 'github'], dir);
    expect(github.code).toBe(1);
    expect(github.stdout).toContain('::error file=svc.yaml,line=8,col=1,');
    expect(github.stdout.match(/^::error /gm)).toHaveLength(expected.length);

    const stylish = await cli(['migrate', '--to', '2', '--write'], dir);
    expect(stylish.code).toBe(1);
    expect(stylish.stdout).toContain('migrate-channels');
    expect(readFileSync(join(dir, 'svc.yaml')).equals(bytes)).toBe(true);
  });

  it('exits 0 and changes nothing for a manifest that is already version 2', async () => {
    const bytes = fixture('migrate/already-v2.in.yaml');
    const dir = folder({ 'svc.yaml': bytes });
    const result = await cli(['migrate', '--to', '2', '--write'], dir);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('already svc_version 2');
    expect(readFileSync(join(dir, 'svc.yaml')).equals(bytes)).toBe(true);
  });

  it('reports the errors of an invalid version 1 manifest instead of migrating it', async () => {
    const text = 'svc_version: 1\nagents:\n  - name: Not_A_Slug\n';
    const dir = folder({ 'svc.yaml': text });
    const result = await cli(['migrate', '--to', '2', '--write', '--format', 'json'], dir);
    expect(result.code).toBe(1);
    expect(
      (JSON.parse(result.stdout) as { messages: { ruleId: string }[] }[])[0]!.messages.map((m) => m.ruleId),
    ).toEqual(['invalid-format']);
    expect(readFileSync(join(dir, 'svc.yaml'), 'utf8')).toBe(text);
  });

  it('usage errors exit 2: no --to, another version, two manifests, a missing file', async () => {
    const dir = folder({
      'svc.yaml': fixture('migrate/commented.in.yaml'),
      'svc.toml': fixture('migrate/tables.in.toml'),
    });
    expect((await cli(['migrate', 'svc.yaml'], dir)).code).toBe(2);
    expect((await cli(['migrate', 'svc.yaml', '--to', '3'], dir)).code).toBe(2);
    expect((await cli(['migrate', '--to', '2'], dir)).code).toBe(2);
    expect((await cli(['migrate', 'nope.yaml', '--to', '2'], dir)).code).toBe(2);
    expect((await cli(['migrate', 'svc.yaml', '--to', '2', '--format', 'xml'], dir)).code).toBe(2);
  });
});

describe('convert', () => {
  it('prints the YAML without --write', async () => {
    const bytes = fixture('convert/commented.in.toml');
    const dir = folder({ 'svc.toml': bytes });
    const result = await cli(['convert'], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(fixture('convert/commented.out.yaml').toString('utf8'));
    expect(readFileSync(join(dir, 'svc.toml')).equals(bytes)).toBe(true);
    expect(existsSync(join(dir, 'svc.yaml'))).toBe(false);
  });

  it('--write writes svc.yaml beside svc.toml and removes svc.toml', async () => {
    const dir = folder({ 'svc.toml': fixture('convert/crlf-bom.in.toml') });
    const result = await cli(['convert', 'svc.toml', '--write'], dir);
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'svc.yaml')).equals(fixture('convert/crlf-bom.out.yaml'))).toBe(true);
    expect(existsSync(join(dir, 'svc.toml'))).toBe(false);
  });

  for (const existing of ['svc.yaml', 'svc.yml']) {
    it(`--write refuses when ${existing} exists: exit 1, nothing changed`, async () => {
      const toml = fixture('convert/commented.in.toml');
      const dir = folder({ 'svc.toml': toml, [existing]: 'svc_version: 2\n' });
      const result = await cli(['convert', '--write'], dir);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`${existing} already exists`);
      expect(readFileSync(join(dir, 'svc.toml')).equals(toml)).toBe(true);
      expect(readFileSync(join(dir, existing), 'utf8')).toBe('svc_version: 2\n');
    });
  }

  it('a TOML syntax error is reported (exit 1); a YAML file or a missing file is a usage error (exit 2)', async () => {
    const dir = folder({ 'svc.toml': 'svc_version = = 2\n', 'svc.yaml': 'svc_version: 2\n' });
    const broken = await cli(['convert', '--write', '--format', 'json'], dir);
    expect(broken.code).toBe(1);
    expect(
      (JSON.parse(broken.stdout) as { messages: { ruleId: string }[] }[])[0]!.messages.map((m) => m.ruleId),
    ).toEqual(['toml-syntax']);
    expect(readFileSync(join(dir, 'svc.toml'), 'utf8')).toBe('svc_version = = 2\n');
    expect((await cli(['convert', 'svc.yaml'], dir)).code).toBe(2);
    expect((await cli(['convert', 'missing.toml'], dir)).code).toBe(2);
  });
});

describe('the built CLI', () => {
  beforeAll(() => ensureBundle());

  it('runs migrate and convert from the bundle', () => {
    const dir = folder({ 'svc.toml': fixture('migrate/inline.in.toml') });
    const migrated = runBundle(['migrate', '--to', '2', '--write'], { cwd: dir });
    expect(migrated.status).toBe(0);
    expect(readFileSync(join(dir, 'svc.toml')).equals(fixture('migrate/inline.out.toml'))).toBe(true);
    const converted = runBundle(['convert', '--write'], { cwd: dir });
    expect(converted.status).toBe(0);
    expect(readFileSync(join(dir, 'svc.yaml'), 'utf8')).toBe(
      'svc_version: 2\ndefault_agent: solo\nagents: {solo: {connectors: all}}  # one agent: the default\n',
    );
    expect(existsSync(join(dir, 'svc.toml'))).toBe(false);
  });
});

describe('hostile input', () => {
  const bomb = readFileSync(join(REPO_ROOT, 'fixtures/alias-expansion/invalid/v1-billion-laughs.yaml'));
  const deepToml = readFileSync(join(REPO_ROOT, 'fixtures/too-deep/invalid/v1-array-depth-80.toml'));

  it('a billion-laughs manifest is reported, never expanded, fixed or migrated', async () => {
    const dir = folder({ 'svc.yaml': bomb });
    for (const argv of [
      ['validate', '--fix'],
      ['migrate', '--to', '2', '--write'],
    ]) {
      const result = await cli([...argv, '--format', 'json'], dir);
      expect(result.code, argv.join(' ')).toBe(1);
      expect(
        (JSON.parse(result.stdout) as { messages: { ruleId: string }[] }[])[0]!.messages.map((m) => m.ruleId),
      ).toContain('alias-expansion');
      expect(readFileSync(join(dir, 'svc.yaml')).equals(bomb)).toBe(true);
    }
  });

  it('a TOML file nested past the limit is refused by convert, nothing written', async () => {
    const dir = folder({ 'svc.toml': deepToml });
    const result = await cli(['convert', '--write', '--format', 'json'], dir);
    expect(result.code).toBe(1);
    expect(
      (JSON.parse(result.stdout) as { messages: { ruleId: string }[] }[])[0]!.messages.map((m) => m.ruleId),
    ).toContain('too-deep');
    expect(existsSync(join(dir, 'svc.yaml'))).toBe(false);
    expect(readFileSync(join(dir, 'svc.toml')).equals(deepToml)).toBe(true);
  });
});
