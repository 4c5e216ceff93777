/**
 * The `svc-manifest` CLI: in process through `runCli(argv, io)` with a fake io, and as the
 * built bundle (`node dist/svc-manifest.cjs`) in a child process for the cases where the real
 * process matters (exit code, stdout, argv).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULES, runCli, validateManifest, type CliIo } from '@svc-manifest/validator';
import { ruleUrl } from '@svc-manifest/schema';
import { ensureBundle, REPO_ROOT, runBundle } from './support/child.js';
import { toEslintFix } from '../src/formatters/json.js';

const VALID = join(REPO_ROOT, 'fixtures/realistic/valid/v2-commerce-platform.yaml');
const VALID_TOML = join(REPO_ROOT, 'fixtures/realistic/valid/v1-support-desk.toml');

const INVALID_YAML = `svc_version: 2
default_agent: triage
agents:
  triage:
    conectors: [github]
triggers:
  - slug: deploy-hook
    type: webhook
    prompt: A deployment finished.
  - slug: deploy-hook
    type: cron
    cron: "0 2 * * *"
    agent: nobody
    prompt: Nightly.
`;

interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(
  argv: string[],
  options: { cwd?: string; env?: Record<string, string | undefined>; isTty?: boolean } = {},
): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env ?? {},
    isTty: options.isTty ?? false,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

let work: string;
/** A fresh folder with the given files; `git: true` marks it as a repository root. */
function folder(name: string, files: Record<string, string | Uint8Array>, options: { git?: boolean } = {}): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  if (options.git) mkdirSync(join(dir, '.git'), { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(resolve(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-cli-'));
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('exit codes', () => {
  it('0 for a valid file (YAML and TOML), with a one-line all-clear', async () => {
    // The fixtures name paths (a Dockerfile, an app's folder) that are not beside them: no path checks here.
    const result = await cli(['validate', '--no-path-checks', VALID, VALID_TOML]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('✔ 2 files: no problems\n');
    const one = await cli(['validate', 'examples/svc.yaml']);
    expect(one).toEqual({ code: 0, stdout: '✔ examples/svc.yaml: no problems\n', stderr: '' });
  });

  it('0 when there are only warnings', async () => {
    const dir = folder('warnings-only', { 'svc.yaml': 'svc_version: 1\ntrigers: []\n' });
    const result = await cli(['validate'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('possible-typo');
    expect(result.stdout).toContain('1 problem (0 errors, 1 warning)');
  });

  it('1 for an invalid file', async () => {
    const dir = folder('invalid', { 'svc.yaml': INVALID_YAML });
    const result = await cli(['validate', 'svc.yaml'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('unknown-key');
  });

  it('2 for an unknown option, an unknown command, a missing option value, an unknown format', async () => {
    for (const argv of [
      ['validate', '--frmat', 'json', VALID],
      ['lint', VALID],
      ['validate', '--format'],
      ['validate', '--format', 'xml', VALID],
      ['validate', '--max-bytes', 'lots', VALID],
      ['validate', '--max-bytes=0', VALID],
      ['schema', '--version', '3'],
      [],
    ]) {
      const result = await cli(argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stdout, argv.join(' ')).toBe('');
      // One line naming the problem and where help is, not the whole usage.
      expect(result.stderr, argv.join(' ')).toMatch(
        /^svc-manifest: [^\n]+ \(see 'svc-manifest( validate| schema)? --help'\)\n$/,
      );
    }
    expect((await cli(['validate', '--frmat', 'json', VALID])).stderr).toContain(
      "unknown option '--frmat'; did you mean '--format'?",
    );
  });

  it('2 for a missing or unreadable file, still reporting the files it could read', async () => {
    const missing = await cli(['validate', 'no/such/svc.yaml']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('svc-manifest: no/such/svc.yaml: no such file\n');

    const dir = folder('unreadable', { 'svc.yaml': INVALID_YAML, 'sub/.keep': '' });
    const mixed = await cli(['validate', 'sub', 'svc.yaml', '--format', 'json'], { cwd: dir });
    expect(mixed.code).toBe(2); // an unreadable file wins over an invalid one
    expect(mixed.stderr).toBe('svc-manifest: sub: holds no svc.yaml, svc.yml, svc.toml\n');
    // The folder that gave nothing is in the report too (last), as ESLint reports a file it cannot parse.
    expect(JSON.parse(mixed.stdout).map((file: { fatalErrorCount: number }) => file.fatalErrorCount)).toEqual([0, 1]);
  });

  it('2 when no file is named and the folder has no svc.yaml, svc.yml or svc.toml', async () => {
    const dir = folder('empty', { 'README.md': '# nothing here\n', 'manifest.yaml': 'svc_version: 1\n' });
    const result = await cli(['validate'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^svc-manifest: no manifest here; pass a folder, e.g. `svc-manifest validate \.`\n/);
  });
});

describe('default files', () => {
  for (const name of ['svc.yaml', 'svc.yml', 'svc.toml']) {
    it(`validates ${name} in the current folder`, async () => {
      const content = name.endsWith('.toml')
        ? 'svc_version = 1\n[project]\nnme = "x"\n'
        : 'svc_version: 1\nproject:\n  nme: x\n';
      const dir = folder(`default-${name}`, { [name]: content });
      const result = await cli(['validate', '--format', 'json'], { cwd: dir });
      expect(result.code).toBe(0);
      const [report] = JSON.parse(result.stdout) as {
        filePath: string;
        messages: { ruleId: string; line: number }[];
      }[];
      expect(report!.filePath).toBe(join(dir, name));
      // Parsed in the file's own format: TOML and YAML put `nme` on line 3.
      expect(report!.messages).toMatchObject([{ ruleId: 'possible-typo', line: 3 }]);
    });
  }

  it('validates every default file present, in a fixed order', async () => {
    const dir = folder('default-all', {
      'svc.toml': 'svc_version = 1\n',
      'svc.yaml': 'svc_version: 1\n',
      'svc.yml': 'svc_version: 3\n',
    });
    const result = await cli(['validate', '--format', 'json'], { cwd: dir });
    expect(result.code).toBe(1);
    const reports = JSON.parse(result.stdout) as { filePath: string; errorCount: number }[];
    expect(reports.map((r) => [r.filePath, r.errorCount])).toEqual([
      [join(dir, 'svc.yaml'), 0],
      [join(dir, 'svc.yml'), 1],
      [join(dir, 'svc.toml'), 0],
    ]);
  });
});

describe('--format json', () => {
  it("has the shape of ESLint's json formatter, with the validator's diagnostics", async () => {
    const dir = folder('json', { 'svc.yaml': INVALID_YAML });
    const result = await cli(['validate', '--format', 'json', 'svc.yaml'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout.endsWith('\n')).toBe(true);
    const reports = JSON.parse(result.stdout) as unknown[];
    const expected = validateManifest(INVALID_YAML).diagnostics.filter((d) => d.severity !== 'info');
    // ESLint's meaning: `fix` is what --fix applies (and counts as fixable); the other quick fixes,
    // including one that invents a value (the secret's name), are `suggestions`.
    const conectors = INVALID_YAML.indexOf('conectors');
    // The new key goes after the trigger's last key.
    const secretAt = INVALID_YAML.indexOf('prompt: A deployment finished.') + 'prompt: A deployment finished.'.length;
    const fixesByCode: Record<string, object> = {
      'unknown-key': {
        fix: { range: [conectors, conectors + 'conectors'.length], text: 'connectors' },
        suggestions: [
          {
            desc: "Remove 'conectors'",
            fix: {
              range: [INVALID_YAML.indexOf('  triage:\n') + '  triage:\n'.length, INVALID_YAML.indexOf('triggers:')],
              text: '',
            },
          },
        ],
      },
      'trigger-webhook-secret': {
        suggestions: [
          { desc: "Add 'secret_env'", fix: { range: [secretAt, secretAt], text: '\n    secret_env: WEBHOOK_SECRET' } },
        ],
      },
    };
    expect(reports).toEqual([
      {
        filePath: join(dir, 'svc.yaml'),
        messages: expected.map((d) => ({
          ruleId: d.code,
          severity: d.severity === 'error' ? 2 : 1,
          message: d.message,
          line: d.range.start.line,
          column: d.range.start.column,
          endLine: d.range.end.line,
          endColumn: d.range.end.column,
          ...fixesByCode[d.code],
        })),
        errorCount: 2,
        fatalErrorCount: 0,
        warningCount: 2,
        fixableErrorCount: 1,
        fixableWarningCount: 0,
      },
    ]);
    // Applying the one `fix` gives a file without that problem.
    const fix = (reports[0] as { messages: { fix?: { range: [number, number]; text: string } }[] }).messages.find(
      (m) => m.fix,
    )!.fix!;
    const fixed = INVALID_YAML.slice(0, fix.range[0]) + fix.text + INVALID_YAML.slice(fix.range[1]);
    expect(validateManifest(fixed).diagnostics.map((d) => d.code)).not.toContain('unknown-key');
    const messages = (reports[0] as { messages: { ruleId: string; severity: number }[] }).messages;
    expect(messages.map((m) => m.ruleId)).toEqual(
      expect.arrayContaining(['unknown-key', 'trigger-webhook-secret', 'duplicate-slug', 'trigger-agent-declared']),
    );
    expect(new Set(messages.map((m) => m.severity))).toEqual(new Set([1, 2]));
  });

  it('counts fix ranges without the byte-order mark, as ESLint does, and merges a fix of several edits into one', async () => {
    const text = '\uFEFFsvc_version: 2\ntriggers:\n  - slug: hook\n    type: webhook\n    prompt: Go.\n';
    const dir = folder('json-bom', { 'svc.yaml': text });
    const report = (
      JSON.parse((await cli(['validate', '--format', 'json'], { cwd: dir })).stdout) as {
        messages: { ruleId: string; fix?: { range: [number, number]; text: string } }[];
      }[]
    )[0]!;
    const fix = (report.messages as { ruleId: string; suggestions?: { fix: unknown }[] }[]).find(
      (m) => m.ruleId === 'trigger-webhook-secret',
    )!.suggestions![0]!.fix;
    const withoutBom = text.slice(1);
    const at = withoutBom.indexOf('prompt: Go.') + 'prompt: Go.'.length;
    expect(fix).toEqual({ range: [at, at], text: '\n    secret_env: WEBHOOK_SECRET' });

    const position = (offset: number) => ({ offset, line: 1, column: offset + 1 });
    const edit = (start: number, end: number, newText: string) => ({
      range: { start: position(start), end: position(end) },
      newText,
    });
    expect(toEslintFix({ title: 'two edits', edits: [edit(8, 9, 'Z'), edit(2, 4, 'xy')] }, 'abcdefghij')).toEqual({
      range: [2, 9],
      text: 'xyefghZ',
    });
    expect(
      toEslintFix({ title: 'overlapping', edits: [edit(2, 6, 'a'), edit(4, 8, 'b')] }, 'abcdefghij'),
    ).toBeUndefined();
    expect(toEslintFix({ title: 'with a BOM', edits: [edit(3, 3, '!')] }, '\uFEFFabcdef')).toEqual({
      range: [2, 2],
      text: '!',
    });
  });

  it('leaves info diagnostics out (ESLint has no info level) and honours --no-warnings', async () => {
    const dir = folder('json-info', { 'svc.yaml': '\uFEFFsvc_version: 1\ntrigers: []\n' });
    const all = JSON.parse((await cli(['validate', '--format', 'json'], { cwd: dir })).stdout) as {
      messages: { ruleId: string }[];
    }[];
    expect(all[0]!.messages.map((m) => m.ruleId)).toEqual(['possible-typo']);
    const errorsOnly = JSON.parse((await cli(['validate', '--format=json', '--no-warnings'], { cwd: dir })).stdout) as {
      messages: unknown[];
      warningCount: number;
    }[];
    expect(errorsOnly[0]).toMatchObject({ messages: [], warningCount: 0 });
  });
});

describe('--format sarif', () => {
  async function sarifFor(files: Record<string, string>, argv: string[], cwdSub = '') {
    const dir = folder(`sarif-${Object.keys(files).join('-').replace(/\W/g, '_')}`, files, { git: true });
    const result = await cli(['validate', '--format', 'sarif', ...argv], { cwd: join(dir, cwdSub) });
    return { dir, result, log: JSON.parse(result.stdout) as Sarif };
  }

  interface Sarif {
    version: string;
    $schema: string;
    runs: {
      tool: {
        driver: {
          name: string;
          version: string;
          rules: {
            id: string;
            shortDescription: { text: string };
            fullDescription: { text: string };
            defaultConfiguration: { level: string };
          }[];
        };
      };
      originalUriBaseIds: Record<string, { uri: string }>;
      results: {
        ruleId: string;
        ruleIndex: number;
        level: string;
        message: { text: string };
        locations: {
          physicalLocation: {
            artifactLocation: { uri: string; uriBaseId: string };
            region: { startLine: number; startColumn: number; endLine: number; endColumn: number };
          };
        }[];
      }[];
    }[];
  }

  it('is SARIF 2.1.0: every rule described, results with levels, repo-relative URIs and regions', async () => {
    const { dir, result, log } = await sarifFor({ 'deploy/svc.yaml': INVALID_YAML }, ['svc.yaml'], 'deploy');
    expect(result.code).toBe(1);
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toMatch(/sarif-2\.1\.0/);
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0]!;
    expect(run.tool.driver.name).toBe('svc-manifest');
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(RULES.map((r) => r.id));
    for (const [index, rule] of run.tool.driver.rules.entries()) {
      expect(rule.shortDescription.text.length).toBeGreaterThan(10);
      expect(rule.fullDescription.text).toContain(rule.shortDescription.text);
      expect(rule.defaultConfiguration.level).toBe(
        { error: 'error', warning: 'warning', info: 'note' }[RULES[index]!.severity],
      );
    }
    expect(run.originalUriBaseIds['%SRCROOT%']!.uri).toBe(`file://${dir}/`);
    const diagnostics = validateManifest(INVALID_YAML).diagnostics;
    expect(run.results).toHaveLength(diagnostics.length);
    for (const [i, r] of run.results.entries()) {
      const d = diagnostics[i]!;
      expect(r.ruleId).toBe(d.code);
      expect(run.tool.driver.rules[r.ruleIndex]!.id).toBe(r.ruleId);
      expect(r.level).toBe(d.severity === 'error' ? 'error' : 'warning');
      expect(r.message.text).toBe(d.message);
      const location = r.locations[0]!.physicalLocation;
      // Relative to the repository root (the folder holding .git), not to the working directory.
      expect(location.artifactLocation).toEqual({ uri: 'deploy/svc.yaml', uriBaseId: '%SRCROOT%' });
      expect(location.region).toEqual({
        startLine: d.range.start.line,
        startColumn: d.range.start.column,
        endLine: d.range.end.line,
        endColumn: d.range.end.column,
      });
    }
  });

  it('gives zero-width diagnostics a one-column region and maps info to note', async () => {
    const { log } = await sarifFor({ 'svc.yaml': '\uFEFFsvc_version: 1\n' }, ['svc.yaml']);
    expect(log.runs[0]!.results).toMatchObject([
      {
        ruleId: 'byte-order-mark',
        level: 'note',
        locations: [{ physicalLocation: { region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 2 } } }],
      },
    ]);
  });

  // SARIF requires a valid URI reference: a space is %20 and '#' %23 ('#1.yaml' would read as a fragment).
  it('percent-encodes file names in artifactLocation.uri', async () => {
    const { log } = await sarifFor({ 'my svc#1.yaml': 'svc_version: 3\n' }, ['my svc#1.yaml']);
    expect(log.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe('my%20svc%231.yaml');
  });

  it('validates against the SARIF 2.1.0 JSON schema (python3-jsonschema, Draft 4)', async () => {
    const { log } = await sarifFor({ 'svc.yaml': INVALID_YAML, 'svc.toml': 'svc_version = 1\n[project\n' }, [
      'svc.yaml',
      'svc.toml',
    ]);
    expect(log.runs[0]!.results.length).toBeGreaterThan(3);
    const schema = join(import.meta.dirname, 'support', 'sarif-2.1.0-rtm.5.json');
    const script = [
      'import json, sys',
      'from jsonschema import Draft4Validator',
      'schema = json.load(open(sys.argv[1]))',
      'errors = [f"{list(e.absolute_path)}: {e.message}" for e in Draft4Validator(schema).iter_errors(json.load(sys.stdin))]',
      'print(json.dumps(errors))',
    ].join('\n');
    const python = spawnSync('python3', ['-c', script, schema], { input: JSON.stringify(log), encoding: 'utf8' });
    expect(python.stderr.replace(/.*DeprecationWarning.*\n?/g, '')).toBe('');
    expect(JSON.parse(python.stdout)).toEqual([]);
  });
});

describe('--format github', () => {
  it('prints one workflow command per diagnostic with file, line, col, endLine, endColumn and title', async () => {
    const dir = folder('github-plain', { 'ci/svc.yaml': INVALID_YAML }, { git: true });
    const result = await cli(['validate', '--format', 'github', 'ci/svc.yaml'], { cwd: dir });
    expect(result.code).toBe(1);
    const diagnostics = validateManifest(INVALID_YAML).diagnostics;
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toEqual(
      diagnostics.map((d) => {
        const command = d.severity === 'error' ? 'error' : 'warning';
        const r = d.range;
        return `::${command} file=ci/svc.yaml,line=${r.start.line},col=${r.start.column},endLine=${r.end.line},endColumn=${r.end.column},title=svc-manifest (${d.code})::${d.message}`;
      }),
    );
  });

  it('escapes %, CR and LF in messages, and also : and , in properties', async () => {
    // A file name with ',' ':' and '%', and an unknown key whose name (quoted in the message) holds %, CR and LF.
    const name = 'a,b:c%d.yaml';
    const text = 'svc_version: 2\ndefault_agent: triage\nagents:\n  triage:\n    "50%\\r\\nof: it": 1\n';
    const dir = folder('github-escape', { [name]: text }, { git: true });
    const result = await cli(['validate', '--format', 'github', name], { cwd: dir });
    expect(result.code).toBe(1);
    const [message] = validateManifest(text).diagnostics.map((d) => d.message);
    expect(message).toContain('50%\r\nof: it');
    expect(result.stdout).toBe(
      `::error file=a%2Cb%3Ac%25d.yaml,line=5,col=5,endLine=5,endColumn=20,title=svc-manifest (unknown-key)::${message!.replace('50%\r\nof: it', '50%25%0D%0Aof: it')}\n`,
    );
    // The command stays on one line; ':' and ',' in the message are left alone.
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
  });

  it('reports info as ::notice', async () => {
    const dir = folder('github-notice', { 'svc.yaml': '\uFEFFsvc_version: 1\n' }, { git: true });
    const result = await cli(['validate', '--format', 'github'], { cwd: dir });
    expect(result.stdout).toMatch(
      /^::notice file=svc\.yaml,line=1,col=1,endLine=1,endColumn=1,title=svc-manifest \(byte-order-mark\)::/,
    );
  });
});

describe('--format stylish (default)', () => {
  it('prints each problem with position, severity, message and rule id, a code frame, and a summary', async () => {
    const dir = folder('stylish', { 'svc.yaml': INVALID_YAML });
    const result = await cli(['validate', 'svc.yaml'], { cwd: dir });
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('svc.yaml');
    const diagnostics = validateManifest(INVALID_YAML).diagnostics;
    const unknown = diagnostics.find((d) => d.code === 'unknown-key')!;
    const at = lines.indexOf(`  5:5     error   ${unknown.message}  unknown-key`);
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 4)).toEqual([
      '      4 |   triage:',
      '    > 5 |     conectors: [github]',
      '        |     ^^^^^^^^^',
    ]);
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
    expect(
      result.stdout.endsWith(
        `✖ ${errors + warnings} problems (${errors} errors, ${warnings} warnings)\n  1 of them fixable with --fix (--fix-dry-run shows the changes)\n`,
      ),
    ).toBe(true);
  });

  // Positions count a lone CR as a line end (6bdd370); the code frame must split lines the same way.
  it('the code frame splits lines like the positions do (lone CR)', async () => {
    const dir = folder('stylish-cr', { 'svc.yaml': 'svc_version: 2\rdefault_agent: a\ragents:\r  a:\r    model: 1\r' });
    const result = await cli(['validate'], { cwd: dir });
    expect(result.stdout).not.toContain('\r');
    expect(result.stdout).toContain('> 4 |   a:');
  });

  it('uses the singular for one problem and shows info in the summary', async () => {
    const dir = folder('stylish-one', { 'svc.yaml': '\uFEFFsvc_version: 3\n' });
    const result = await cli(['validate'], { cwd: dir });
    expect(result.stdout).toContain('✖ 2 problems (1 error, 0 warnings, 1 info)');
  });

  it('colours only on a TTY, and never with NO_COLOR', async () => {
    const dir = folder('colours', { 'svc.yaml': INVALID_YAML });
    const ansi = /\u001b\[/;
    expect((await cli(['validate'], { cwd: dir, isTty: true })).stdout).toMatch(ansi);
    expect((await cli(['validate'], { cwd: dir, isTty: false })).stdout).not.toMatch(ansi);
    expect((await cli(['validate'], { cwd: dir, isTty: true, env: { NO_COLOR: '1' } })).stdout).not.toMatch(ansi);
    // https://no-color.org: an empty NO_COLOR does not disable colour.
    expect((await cli(['validate'], { cwd: dir, isTty: true, env: { NO_COLOR: '' } })).stdout).toMatch(ansi);
    // Machine formats are never coloured.
    for (const format of ['json', 'sarif', 'github'])
      expect((await cli(['validate', '--format', format], { cwd: dir, isTty: true })).stdout).not.toMatch(ansi);
  });
});

describe('schema', () => {
  const generated = (name: string) =>
    JSON.parse(readFileSync(join(REPO_ROOT, 'packages/schema/generated', name), 'utf8')) as unknown;

  it('prints the published schemas, the same as packages/schema/generated', async () => {
    for (const [argv, file] of [
      [['schema'], 'svc.schema.json'],
      [['schema', '--version', '1'], 'svc.v1.schema.json'],
      [['schema', '--version=2'], 'svc.v2.schema.json'],
    ] as const) {
      const result = await cli([...argv]);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual(generated(file));
    }
  });

  it('refuses file names and other versions', async () => {
    expect((await cli(['schema', 'svc.yaml'])).code).toBe(2);
    expect((await cli(['schema', '--version', '3'])).stderr).toContain("--version is 1 or 2, not '3'");
  });
});

describe('--max-bytes', () => {
  it('reports a file over the limit as too-large without reading it whole', async () => {
    const text = `svc_version: 1\nproject:\n  description: ${'x'.repeat(500)}\n`;
    const dir = folder('max-bytes', { 'svc.yaml': text });
    const small = await cli(['validate', '--max-bytes', '100', '--format', 'json'], { cwd: dir });
    expect(small.code).toBe(1);
    const [report] = JSON.parse(small.stdout) as {
      messages: { ruleId: string; line: number; column: number; message: string }[];
    }[];
    // The 101st byte is on line 3: 15 + 9 bytes before it, so column 101 - 24 = 77.
    expect(report!.messages).toEqual([expect.objectContaining({ ruleId: 'too-large', line: 3, column: 77 })]);
    expect(report!.messages[0]!.message).toContain('larger than 100 bytes');
    const enough = await cli(['validate', '--max-bytes', String(text.length), '--format', 'json'], { cwd: dir });
    expect(enough.code).toBe(0);
  });

  // The CLI reads max-bytes + 1 bytes, which can end inside a multi-byte character: that cut is not invalid UTF-8.
  it('cutting the read inside a UTF-8 character reports only too-large', async () => {
    const dir = folder('max-bytes-utf8', { 'svc.yaml': 'svc_version: 1\nproject:\n  name: café café café\n' });
    const result = await cli(['validate', '--max-bytes', '35', '--format', 'json'], { cwd: dir });
    expect(JSON.parse(result.stdout)[0].messages.map((m: { ruleId: string }) => m.ruleId)).toEqual(['too-large']);
  });

  it('defaults to 1 MiB', async () => {
    const dir = folder('max-bytes-default', { 'svc.yaml': `svc_version: 1\nx: "${'y'.repeat(1024 * 1024)}"\n` });
    const result = await cli(['validate', '--format', 'json'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)[0].messages[0]).toMatchObject({
      ruleId: 'too-large',
      message: expect.stringContaining('1048576 bytes'),
    });
  });
});

interface SarifRun {
  tool: { driver: { rules: { id: string; helpUri?: string }[] } };
  results: { ruleId: string }[];
}

describe('the built bundle (node dist/svc-manifest.cjs)', () => {
  beforeAll(() => {
    ensureBundle();
  }, 120_000);

  it('exits 0 for a valid file, 1 for an invalid one, 2 for a usage error or a missing file', () => {
    const dir = folder('bundle', { 'svc.yaml': INVALID_YAML });
    expect(runBundle(['validate', VALID]).status).toBe(0);
    const invalid = runBundle(['validate'], { cwd: dir });
    expect(invalid.status).toBe(1);
    expect(invalid.stdout).toContain('unknown-key');
    const usage = runBundle(['validate', '--bogus']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("unknown option '--bogus'");
    expect(runBundle(['validate', join(dir, 'missing.yaml')]).status).toBe(2);
    expect(runBundle(['validate'], { cwd: folder('bundle-empty', {}) }).status).toBe(2);
  });

  it('prints the same JSON as the in-process CLI, and the same schema', async () => {
    const dir = folder('bundle-json', { 'svc.yaml': INVALID_YAML, 'svc.toml': readFileSync(VALID_TOML, 'utf8') });
    const child = runBundle(['validate', '--format', 'json'], { cwd: dir });
    const inProcess = await cli(['validate', '--format', 'json'], { cwd: dir });
    expect(child.status).toBe(inProcess.code);
    expect(JSON.parse(child.stdout)).toEqual(JSON.parse(inProcess.stdout));
    const schema = runBundle(['schema', '--version', '2']);
    expect(schema.status).toBe(0);
    expect(JSON.parse(schema.stdout)).toEqual(
      JSON.parse(readFileSync(join(REPO_ROOT, 'packages/schema/generated/svc.v2.schema.json'), 'utf8')),
    );
  });

  // The bundle loads the TOML parser and the non-default formats on first use, and writes
  // stdout with write(2): every format, both languages and a report larger than a pipe holds.
  it('prints every format exactly like the in-process CLI, for YAML and TOML and a report of hundreds of KB', async () => {
    const refs = Array.from({ length: 1500 }, (_, i) => `c${i}`).join(', ');
    const dir = folder('bundle-formats', {
      'svc.yaml': `svc_version: 2\ndefault_agent: a\nagents:\n  a:\n    connectors: [${refs}]\n`,
      'svc.toml': 'svc_version = 2\ndefault_agent = "nobody"\n[agents.a]\nsandbox = "missing"\n',
    });
    for (const format of ['stylish', 'json', 'sarif', 'github']) {
      const child = runBundle(['validate', '--format', format, 'svc.yaml', 'svc.toml'], { cwd: dir });
      const inProcess = await cli(['validate', '--format', format, 'svc.yaml', 'svc.toml'], { cwd: dir });
      expect(child.stderr).toBe('');
      expect(child.status).toBe(inProcess.code);
      expect(child.stdout).toBe(inProcess.stdout);
      if (format === 'json') {
        expect(child.stdout.length).toBeGreaterThan(256 * 1024);
        const reports = JSON.parse(child.stdout) as { filePath: string; messages: { ruleId: string }[] }[];
        expect(reports.map((r) => r.messages.length)).toEqual([1500, 2]);
        expect(reports[1]!.messages.map((m) => m.ruleId).sort()).toEqual([
          'default-agent-declared',
          'sandbox-template-declared',
        ]);
      }
    }
  });

  // Each rule a result names links to its page on the site that serves the schemas (the host of the schemas' $id).
  it("gives every rule it reports in SARIF a helpUri, the rule page under the schemas' $id host", () => {
    const dir = folder('bundle-sarif-help', { 'svc.yaml': INVALID_YAML });
    const child = runBundle(['validate', '--format', 'sarif'], { cwd: dir });
    expect(child.status).toBe(1);
    const run = (JSON.parse(child.stdout) as { runs: [SarifRun] }).runs[0];
    const host = new URL('/', (JSON.parse(runBundle(['schema']).stdout) as { $id: string }).$id).href;
    const reported = [...new Set(run.results.map((result) => result.ruleId))];
    expect(reported.length).toBeGreaterThan(2);
    for (const id of reported) {
      const rule = run.tool.driver.rules.find((candidate) => candidate.id === id);
      expect(rule?.helpUri, id).toBe(ruleUrl(id));
      expect(rule?.helpUri, id).toBe(`${host}rules/${id}.html`);
    }
  });

  it('does not colour a pipe, and prints --version and --help', () => {
    const dir = folder('bundle-pipe', { 'svc.yaml': INVALID_YAML });
    expect(runBundle(['validate'], { cwd: dir }).stdout).not.toMatch(/\u001b\[/);
    expect(runBundle(['--version']).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const help = runBundle(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('usage: svc-manifest');
  });
});
