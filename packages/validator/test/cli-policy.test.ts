/**
 * Policy of `svc-manifest validate`, through the built command: `--max-warnings`, and the
 * `.svc-manifest.yaml` policy file (rule severities, ignore globs).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
    expect(runBundle(['validate', 'warned.yaml', '--no-warnings', '--max-warnings', '0'], { cwd: work }).status).toBe(
      0,
    );
    const broken = runBundle(['validate', 'broken.yaml', '--max-warnings', '100'], { cwd: work });
    expect([broken.status, broken.stderr]).toEqual([1, '']);
  });

  it('takes a whole number, 0 or more', () => {
    for (const value of ['-1', 'x', '1.5', '']) {
      const result = runBundle(['validate', 'warned.yaml', `--max-warnings=${value}`], { cwd: work });
      expect(result.status, value).toBe(2);
      expect(result.stderr).toBe(
        "svc-manifest: --max-warnings takes a whole number, 0 or more (see 'svc-manifest validate --help')\n",
      );
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
    expect(
      files.map((file) => [file.filePath.slice(root.length + 1), file.messages.map((m) => [m.ruleId, m.severity])]),
    ).toEqual([
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
    expect(
      (JSON.parse(named.stdout) as { filePath: string }[]).map((file) => file.filePath.slice(root.length + 1)),
    ).toEqual(['app/svc.yaml', 'legacy/svc.yaml']);
  });

  it('is found the same in the folders a walk listed: through a link, and never above the repository root', () => {
    // The walk's listings spare the lookup its system calls; what it finds must not change.
    const root = repository('listed', {
      'services/api/svc.yaml': ONE_WARNING,
      'services/web/svc.yaml': ONE_WARNING,
      'shared/quiet.yaml': 'rules:\n  default-agent-declared: off\n',
    });
    symlinkSync(join(root, 'shared', 'quiet.yaml'), join(root, 'services', 'web', '.svc-manifest.yaml'));
    const result = runBundle(['validate', '.', '--format', 'json'], { cwd: root });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(
      (JSON.parse(result.stdout) as { filePath: string; messages: { ruleId: string }[] }[]).map((file) => [
        file.filePath.slice(root.length + 1),
        file.messages.map((m) => m.ruleId),
      ]),
    ).toEqual([
      // The repository has no policy of its own: the one above its root (which turns the rule off) does not apply.
      ['services/api/svc.yaml', ['default-agent-declared']],
      ['services/web/svc.yaml', []],
    ]);
  });

  it("cannot change a rule the schema's verdict rests on, and names what is wrong in the file (exit 2)", () => {
    const cases: [string, string][] = [
      [
        'rules:\n  wrong-type: off\n',
        "'wrong-type' decides whether the published schema accepts a manifest; it cannot be changed or turned off",
      ],
      [
        'rules:\n  trigger-webhook-secret: warning\n',
        "'trigger-webhook-secret' decides whether the published schema accepts a manifest; it cannot be changed or turned off",
      ],
      ['rules:\n  posible-typo: off\n', "no rule 'posible-typo' (did you mean 'possible-typo'?)"],
      [
        'rules:\n  possible-typo: silent\n',
        'rule \'possible-typo\' is set to "silent"; use error, warning, info or off',
      ],
      ['rule: {}\n', "unknown key 'rule' (did you mean 'rules'?); it takes 'rules', 'ignore' and 'format'"],
      ['ignore: legacy\n', "'ignore' is a list of globs, relative to the folder of the file"],
    ];
    for (const [policy, message] of cases) {
      const root = repository(`refused-${cases.findIndex(([p]) => p === policy)}`, {
        '.svc-manifest.yaml': policy,
        'svc.yaml': ONE_ERROR,
      });
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
    '    prompt: "a string # svc-manifest-disable-next-line posible-typo"',
    '',
  ].join('\n');
  /** The comment on line 6, from its '#' to its last character: where its problems are located. */
  const COMMENT_END = '# svc-manifest-disable-next-line possible-typo, wrong-type -- stale'.length + 1;

  beforeAll(() => writeFileSync(join(work, 'suppressed.yaml'), YAML));

  it('hide the problems of the rules they name, on the next line or in a disable/enable range; the rest is reported', () => {
    const result = runBundle(['validate', 'suppressed.yaml', '--format', 'json'], { cwd: work });
    const [file] = JSON.parse(result.stdout) as {
      messages: { ruleId: string; line: number; column: number; endLine: number; endColumn: number; message: string }[];
    }[];
    // The comment's problems are messages like any other, on the comment; of the problems only
    // the trigger after the range is left (line 19). A directive inside a string is text.
    expect(file!.messages).toEqual([
      {
        ruleId: 'unsuppressible-rule',
        severity: 1,
        message:
          "svc-manifest-disable-next-line names 'wrong-type', which cannot be suppressed: the published schema's verdict rests on it",
        line: 6,
        column: 1,
        endLine: 6,
        endColumn: COMMENT_END,
      },
      {
        ruleId: 'unused-suppression',
        severity: 1,
        message: 'unused suppression: no possible-typo problem on the next line',
        line: 6,
        column: 1,
        endLine: 6,
        endColumn: COMMENT_END,
      },
      {
        ruleId: 'trigger-agent-declared',
        severity: 1,
        message: "trigger agent 'phantom' is not a declared agent (declared agents: 'writer')",
        line: 19,
        column: 12,
        endLine: 19,
        endColumn: 19,
      },
    ]);
    expect([result.status, result.stderr]).toEqual([0, '']);
    // Problems of the comments count as warnings.
    expect(runBundle(['validate', 'suppressed.yaml', '--max-warnings', '2'], { cwd: work }).status).toBe(1);
    expect(runBundle(['validate', 'suppressed.yaml', '--max-warnings', '3'], { cwd: work }).status).toBe(0);
    // --no-warnings leaves them out with the other warnings.
    expect(
      runBundle(['validate', 'suppressed.yaml', '--no-warnings', '--max-warnings', '0'], { cwd: work }).stdout,
    ).toBe('✔ suppressed.yaml: no problems\n');
  });

  it('are reported in stylish and github as the other warnings, and nothing goes to stderr', () => {
    const stylish = runBundle(['validate', 'suppressed.yaml'], { cwd: work });
    const carets = '^'.repeat(COMMENT_END - 1);
    expect([stylish.status, stylish.stderr]).toEqual([0, '']);
    expect(stylish.stdout).toBe(
      [
        'suppressed.yaml',
        "  6:1     warning svc-manifest-disable-next-line names 'wrong-type', which cannot be suppressed: the published schema's verdict rests on it  unsuppressible-rule",
        '      5 |   writer: {}',
        '    > 6 | # svc-manifest-disable-next-line possible-typo, wrong-type -- stale',
        `        | ${carets}`,
        '  6:1     warning unused suppression: no possible-typo problem on the next line  unused-suppression',
        '      5 |   writer: {}',
        '    > 6 | # svc-manifest-disable-next-line possible-typo, wrong-type -- stale',
        `        | ${carets}`,
        "  19:12   warning trigger agent 'phantom' is not a declared agent (declared agents: 'writer')  trigger-agent-declared",
        '      18 |     cron: "0 2 * * *"',
        '    > 19 |     agent: phantom',
        '         |            ^^^^^^^',
        '',
        '✖ 3 problems (0 errors, 3 warnings)',
        '',
      ].join('\n'),
    );
    const github = runBundle(['validate', 'suppressed.yaml', '--format', 'github'], { cwd: work });
    expect([github.status, github.stderr]).toEqual([0, '']);
    expect(github.stdout).toBe(
      [
        `::warning file=suppressed.yaml,line=6,col=1,endLine=6,endColumn=${COMMENT_END},title=svc-manifest (unsuppressible-rule)::svc-manifest-disable-next-line names 'wrong-type', which cannot be suppressed: the published schema's verdict rests on it`,
        `::warning file=suppressed.yaml,line=6,col=1,endLine=6,endColumn=${COMMENT_END},title=svc-manifest (unused-suppression)::unused suppression: no possible-typo problem on the next line`,
        "::warning file=suppressed.yaml,line=19,col=12,endLine=19,endColumn=19,title=svc-manifest (trigger-agent-declared)::trigger agent 'phantom' is not a declared agent (declared agents: 'writer')",
        '',
      ].join('\n'),
    );
  });

  it('are SARIF results with their rules described, located on the comment', () => {
    const result = runBundle(['validate', 'suppressed.yaml', '--format', 'sarif'], { cwd: work });
    expect([result.status, result.stderr]).toEqual([0, '']);
    const run = (
      JSON.parse(result.stdout) as {
        runs: {
          tool: {
            driver: {
              rules: { id: string; defaultConfiguration: { level: string }; properties: { tags: string[] } }[];
            };
          };
          results: {
            ruleId: string;
            ruleIndex: number;
            level: string;
            locations: { physicalLocation: { region: unknown } }[];
          }[];
        }[];
      }
    ).runs[0]!;
    expect(run.results.map((r) => [r.ruleId, r.level, r.locations[0]!.physicalLocation.region])).toEqual([
      ['unsuppressible-rule', 'warning', { startLine: 6, startColumn: 1, endLine: 6, endColumn: COMMENT_END }],
      ['unused-suppression', 'warning', { startLine: 6, startColumn: 1, endLine: 6, endColumn: COMMENT_END }],
      ['trigger-agent-declared', 'warning', { startLine: 19, startColumn: 12, endLine: 19, endColumn: 19 }],
    ]);
    for (const r of run.results) {
      expect(run.tool.driver.rules[r.ruleIndex]!.id).toBe(r.ruleId);
    }
    const suppressionRules = run.tool.driver.rules
      .filter((rule) => rule.properties.tags.includes('suppression'))
      .map((rule) => rule.id);
    expect(suppressionRules).toEqual(['invalid-suppression', 'unsuppressible-rule', 'unused-suppression']);
  });

  it('have their severity set by the policy file (off, or error: exit 1), and no comment suppresses them', () => {
    const root = join(work, 'suppression-policy');
    mkdirSync(join(root, '.git'), { recursive: true });
    writeFileSync(
      join(root, 'svc.yaml'),
      YAML.replace('-- stale', '-- stale\n# svc-manifest-disable-next-line unused-suppression, posible-typo'),
    );
    writeFileSync(
      join(root, '.svc-manifest.yaml'),
      'rules:\n  unused-suppression: error\n  unsuppressible-rule: off\n',
    );
    const strict = runBundle(['validate', 'svc.yaml', '--format', 'json'], { cwd: root });
    const [file] = JSON.parse(strict.stdout) as {
      messages: {
        ruleId: string;
        severity: number;
        line: number;
        column: number;
        endColumn: number;
        message: string;
      }[];
    }[];
    const added = '# svc-manifest-disable-next-line unused-suppression, posible-typo'.length + 1;
    expect(file!.messages.map((m) => [m.ruleId, m.severity, m.line, m.column, m.endColumn, m.message])).toEqual([
      ['unused-suppression', 2, 6, 1, COMMENT_END, 'unused suppression: no possible-typo problem on the next line'],
      [
        'invalid-suppression',
        1,
        7,
        1,
        added,
        "svc-manifest-disable-next-line names 'posible-typo', which is no rule (did you mean 'possible-typo'?)",
      ],
      [
        'trigger-agent-declared',
        1,
        20,
        12,
        19,
        "trigger agent 'phantom' is not a declared agent (declared agents: 'writer')",
      ],
    ]);
    expect([strict.status, strict.stderr]).toEqual([1, '']);
    writeFileSync(
      join(root, '.svc-manifest.yaml'),
      'rules:\n  unused-suppression: off\n  unsuppressible-rule: off\n  invalid-suppression: off\n',
    );
    const quiet = runBundle(['validate', 'svc.yaml', '--format', 'json'], { cwd: root });
    expect(
      (JSON.parse(quiet.stdout) as { messages: { ruleId: string }[] }[])[0]!.messages.map((m) => m.ruleId),
    ).toEqual(['trigger-agent-declared']);
    expect(quiet.status).toBe(0);
  });

  it('never hide a problem the schema reports, in TOML too', () => {
    writeFileSync(join(work, 'svc.toml'), '# svc-manifest-disable-next-line wrong-type\nsvc_version = "1"\n');
    const result = runBundle(['validate', 'svc.toml', '--format', 'json'], { cwd: work });
    expect(result.status).toBe(1);
    const [file] = JSON.parse(result.stdout) as {
      messages: { ruleId: string; line: number; column: number; endColumn: number }[];
    }[];
    expect(file!.messages.map((m) => [m.ruleId, m.line, m.column, m.endColumn])).toEqual([
      ['unsuppressible-rule', 1, 1, 44],
      ['svc-version', 2, 15, 18],
    ]);
    expect(result.stderr).toBe('');
  });
});

describe('--fix under the policy', () => {
  const MANIFEST = [
    'svc_version: 2',
    'default_agent: writer',
    'agents:',
    '  writer:',
    '    connectors_personal: []',
    '# svc-manifest-disable-next-line possible-typo -- our deploy script reads it',
    'trigers: []',
    'projct:',
    '  name: billing',
    '',
  ].join('\n');

  it('fixes neither a rule the policy file turns off nor a problem a comment suppresses; the rest is fixed', () => {
    const root = join(work, 'fix-policy');
    mkdirSync(join(root, '.git'), { recursive: true });
    writeFileSync(join(root, '.svc-manifest.yaml'), 'rules:\n  deprecated-key: off\n');
    writeFileSync(join(root, 'svc.yaml'), MANIFEST);
    // JSON's `fix` is what --fix applies: only the unsuppressed typo has one.
    const preview = runBundle(['validate', 'svc.yaml', '--format', 'json'], { cwd: root });
    const [file] = JSON.parse(preview.stdout) as {
      messages: { ruleId: string; line: number; fix?: unknown }[];
      fixableWarningCount: number;
    }[];
    expect(file!.messages.map((m) => [m.ruleId, m.line, m.fix !== undefined])).toEqual([['possible-typo', 8, true]]);
    expect(file!.fixableWarningCount).toBe(1);
    const dryRun = runBundle(['validate', 'svc.yaml', '--fix-dry-run'], { cwd: root });
    expect(dryRun.stdout).toBe(
      [
        '--- a/svc.yaml',
        '+++ b/svc.yaml',
        '@@ -5,5 +5,5 @@',
        '     connectors_personal: []',
        ' # svc-manifest-disable-next-line possible-typo -- our deploy script reads it',
        ' trigers: []',
        '-projct:',
        '+project:',
        '   name: billing',
        '',
      ].join('\n'),
    );
    const fixed = runBundle(['validate', 'svc.yaml', '--fix'], { cwd: root });
    expect([fixed.status, fixed.stdout, fixed.stderr]).toEqual([
      0,
      '✔ svc.yaml: no problems\n',
      "svc-manifest: svc.yaml: fixed: rename 'projct' to 'project' (possible-typo)\n",
    ]);
    expect(readFileSync(join(root, 'svc.yaml'), 'utf8')).toBe(MANIFEST.replace('projct:', 'project:'));
  });

  it('fixes a rule the policy sets to info, and fixes everything without a policy or comment', () => {
    const root = join(work, 'fix-info');
    mkdirSync(join(root, '.git'), { recursive: true });
    writeFileSync(join(root, '.svc-manifest.yaml'), 'rules:\n  deprecated-key: info\n');
    const text = MANIFEST.replace(/^# svc-manifest.*\n/m, '');
    writeFileSync(join(root, 'svc.yaml'), text);
    const fixed = runBundle(['validate', 'svc.yaml', '--fix'], { cwd: root });
    expect(fixed.status).toBe(0);
    expect(readFileSync(join(root, 'svc.yaml'), 'utf8')).toBe(
      text
        .replace('connectors_personal', 'connectors_required')
        .replace('trigers', 'triggers')
        .replace('projct:', 'project:'),
    );
  });
});
