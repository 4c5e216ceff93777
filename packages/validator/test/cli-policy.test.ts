/**
 * Policy of `svc-manifest validate`, through the built command: `--max-warnings`, and the
 * `.svc-manifest.yaml` policy file (rule severities, ignore globs).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBundle, runBundle } from './support/child.js';

/** One warning (the default agent is not declared). */
const ONE_WARNING = 'svc_version: 2\ndefault_agent: nobody\nagents:\n  writer: {}\n';
/** One error. */
const ONE_ERROR = 'svc_version: 2\ndefault_agent: writer\nagents:\n  writer:\n    connectors: 7\n';

let work: string;
beforeAll(() => {
  ensureBundle();
  work = mkdtempSync(join(tmpdir(), 'svc-cli-policy-'));
  writeFileSync(join(work, 'warned.yaml'), ONE_WARNING);
  writeFileSync(join(work, 'also-warned.yaml'), ONE_WARNING);
  writeFileSync(join(work, 'broken.yaml'), ONE_ERROR);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('--max-warnings N', () => {
  it('exits 1 when the files together have more than N warnings, saying so on stderr', () => {
    const over = runBundle(['validate', 'warned.yaml', 'also-warned.yaml', '--max-warnings', '1'], { cwd: work });
    expect(over.status).toBe(1);
    expect(over.stderr).toBe('svc-manifest: 2 warnings, more than --max-warnings 1 allows\n');
    expect(over.stdout.endsWith('✖ 2 problems (0 errors, 2 warnings)\n')).toBe(true);
    const within = runBundle(['validate', 'warned.yaml', 'also-warned.yaml', '--max-warnings=2'], { cwd: work });
    expect([within.status, within.stderr]).toEqual([0, '']);
  });

  it('counts no warnings that --no-warnings left out; errors fail whatever N is', () => {
    expect(runBundle(['validate', 'warned.yaml', '--no-warnings', '--max-warnings', '0'], { cwd: work }).status).toBe(0);
    const broken = runBundle(['validate', 'broken.yaml', '--max-warnings', '100'], { cwd: work });
    expect([broken.status, broken.stderr]).toEqual([1, '']);
  });

  it('takes a whole number, 0 or more', () => {
    for (const value of ['-1', 'x', '1.5', '']) {
      const result = runBundle(['validate', 'warned.yaml', `--max-warnings=${value}`], { cwd: work });
      expect(result.status, value).toBe(2);
      expect(result.stderr).toBe("svc-manifest: --max-warnings takes a whole number, 0 or more (see 'svc-manifest validate --help')\n");
    }
  });
});

describe('.svc-manifest.yaml', () => {
  /** A repository (a folder with .git) holding these files, inside a folder whose own policy must not reach it. */
  function repository(name: string, files: Record<string, string>): string {
    const outer = join(work, name);
    const root = join(outer, 'repo');
    mkdirSync(join(root, '.git'), { recursive: true });
    writeFileSync(join(outer, '.svc-manifest.yaml'), 'rules:\n  default-agent-declared: off\n');
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }

  it("sets our rules' severities: the nearest file up from each manifest, up to the repository root, wins", () => {
    const root = repository('severities', {
      '.svc-manifest.yaml': 'rules:\n  default-agent-declared: error\n',
      'services/api/svc.yaml': ONE_WARNING,
      'services/web/svc.yaml': ONE_WARNING,
      'services/web/.svc-manifest.yaml': '# quiet here\nrules:\n  default-agent-declared: off\n',
    });
    const result = runBundle(['validate', '.', '--format', 'json'], { cwd: root });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    const files = JSON.parse(result.stdout) as { filePath: string; messages: { ruleId: string; severity: number }[] }[];
    expect(files.map((file) => [file.filePath.slice(root.length + 1), file.messages.map((m) => [m.ruleId, m.severity])])).toEqual([
      ['services/api/svc.yaml', [['default-agent-declared', 2]]],
      ['services/web/svc.yaml', []],
    ]);
    // Outside the repository's own files, the policy above its root does not apply.
    const plain = repository('no-policy', { 'svc.yaml': ONE_WARNING });
    expect(runBundle(['validate', 'svc.yaml'], { cwd: plain }).stdout).toContain('warning default_agent');
  });

  it('leaves what its ignore globs match out of folder walks, never a file named as an argument', () => {
    const root = repository('ignore', {
      '.svc-manifest.yaml': 'ignore:\n  - legacy\n  - "**/generated/*.yaml"\n',
      'legacy/svc.yaml': ONE_ERROR,
      'app/generated/svc.yaml': ONE_ERROR,
      'app/svc.yaml': ONE_WARNING,
    });
    const walked = runBundle(['validate', '.'], { cwd: root });
    expect([walked.status, walked.stdout.split('\n')[0]]).toEqual([0, 'app/svc.yaml']);
    const named = runBundle(['validate', '.', 'legacy/svc.yaml', '--format', 'json'], { cwd: root });
    expect(named.status).toBe(1);
    expect((JSON.parse(named.stdout) as { filePath: string }[]).map((file) => file.filePath.slice(root.length + 1))).toEqual([
      'app/svc.yaml',
      'legacy/svc.yaml',
    ]);
  });

  it("cannot change a rule the schema's verdict rests on, and names what is wrong in the file (exit 2)", () => {
    const cases: [string, string][] = [
      ['rules:\n  wrong-type: off\n', "'wrong-type' decides whether the published schema accepts a manifest; it cannot be changed or turned off"],
      [
        'rules:\n  trigger-webhook-secret: warning\n',
        "'trigger-webhook-secret' decides whether the published schema accepts a manifest; it cannot be changed or turned off",
      ],
      ['rules:\n  posible-typo: off\n', "no rule 'posible-typo' (did you mean 'possible-typo'?)"],
      ['rules:\n  possible-typo: silent\n', 'rule \'possible-typo\' is set to "silent"; use error, warning, info or off'],
      ['rule: {}\n', "unknown key 'rule' (did you mean 'rules'?); it takes 'rules' and 'ignore'"],
      ['ignore: legacy\n', "'ignore' is a list of globs, relative to the folder of the file"],
    ];
    for (const [policy, message] of cases) {
      const root = repository(`refused-${cases.findIndex(([p]) => p === policy)}`, { '.svc-manifest.yaml': policy, 'svc.yaml': ONE_ERROR });
      const result = runBundle(['validate', 'svc.yaml'], { cwd: root });
      expect([result.status, result.stdout]).toEqual([2, '']);
      expect(result.stderr).toBe(`svc-manifest: ${join(root, '.svc-manifest.yaml')}: ${message}\n`);
    }
  });
});

describe('inline suppressions', () => {
  const YAML = [
    'svc_version: 2',
    '# svc-manifest-disable-next-line default-agent-declared -- the platform declares it',
    'default_agent: nobody',
    'agents:',
    '  writer: {}',
    '# svc-manifest-disable-next-line possible-typo, wrong-type -- stale',
    'project: {}',
    '# svc-manifest-disable trigger-agent-declared -- agents come from the platform',
    'triggers:',
    '  - slug: a',
    '    type: cron',
    '    cron: "0 1 * * *"',
    '    agent: ghost',
    '    prompt: x',
    '# svc-manifest-enable trigger-agent-declared',
    '  - slug: b',
    '    type: cron',
    '    cron: "0 2 * * *"',
    '    agent: phantom',
    '    prompt: y',
    '',
  ].join('\n');

  it('hide the problems of the rules they name, on the next line or in a disable/enable range; the rest is reported', () => {
    writeFileSync(join(work, 'suppressed.yaml'), YAML);
    const result = runBundle(['validate', 'suppressed.yaml', '--format', 'json'], { cwd: work });
    const [file] = JSON.parse(result.stdout) as { messages: { ruleId: string; line: number }[] }[];
    // Only the trigger after the range is left (line 19); the suppressed ones are gone.
    expect(file!.messages.map((m) => [m.ruleId, m.line])).toEqual([['trigger-agent-declared', 19]]);
    expect(result.stderr).toBe(
      [
        "svc-manifest: suppressed.yaml:6:1: warning: svc-manifest-disable-next-line names 'wrong-type', which cannot be suppressed: the published schema's verdict rests on it",
        'svc-manifest: suppressed.yaml:6:1: warning: unused suppression: no possible-typo problem on the next line',
        '',
      ].join('\n'),
    );
    expect(result.status).toBe(0);
    // Problems of the comments count as warnings.
    expect(runBundle(['validate', 'suppressed.yaml', '--max-warnings', '2'], { cwd: work }).status).toBe(1);
    expect(runBundle(['validate', 'suppressed.yaml', '--max-warnings', '3'], { cwd: work }).status).toBe(0);
  });

  it('never hide a problem the schema reports, in TOML too', () => {
    writeFileSync(join(work, 'svc.toml'), '# svc-manifest-disable-next-line wrong-type\nsvc_version = "1"\n');
    const result = runBundle(['validate', 'svc.toml'], { cwd: work });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('wrong-type');
    expect(result.stderr).toBe(
      "svc-manifest: svc.toml:1:1: warning: svc-manifest-disable-next-line names 'wrong-type', which cannot be suppressed: the published schema's verdict rests on it\n",
    );
  });
});
