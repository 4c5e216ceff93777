/**
 * The GitHub Action (action.yml at the repository root), run step by step on this machine with
 * the environment the Actions runner gives a composite action (test/support/action-runner.ts):
 * inputs substituted the way the runner does, each `run:` step under `bash -eo pipefail`,
 * GITHUB_OUTPUT read back. The workspace is a real git repository; PATH has `node` and the
 * system's programs, and no `svc-manifest`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../packages/validator/test/support/child.js';
import { parse as parseYaml } from 'yaml';
import { readAction, runAction, type ActionRun } from './support/action-runner.js';
import { readmeBlock } from './support/readme-section.js';
import { nodeOnlyEnv } from './support/user-machine.js';

const BROKEN = 'svc_version: 2\ndefault_agent: triage\nagents:\n  triage:\n    conectors: none\n';
const WARNING_ONLY = 'svc_version: 1\ntrigers: []\n';
const GOOD = 'svc_version: 2\ndefault_agent: triage\nagents:\n  triage:\n    connectors: none\n';

const ERROR_ANNOTATION =
  "::error file=deploy/svc.yaml,line=5,col=5,endLine=5,endColumn=14,title=svc-manifest (unknown-key)::unknown key 'conectors' in agent 'triage'; did you mean 'connectors'?";
const WARNING_ANNOTATION =
  "::warning file=svc.yml,line=2,col=1,endLine=2,endColumn=8,title=svc-manifest (possible-typo)::unknown key 'trigers'; did you mean 'triggers'? (extra keys are allowed here, so this is only a warning)";

let work: string;
let env: NodeJS.ProcessEnv;
let counter = 0;

/** A fresh workspace (a git repository with these files added) and a runner temp folder. */
function workspace(
  files: Record<string, string>,
  options: { git?: boolean } = {},
): { workspace: string; runnerTemp: string } {
  const root = join(work, `run-${++counter}`);
  const ws = join(root, 'workspace');
  mkdirSync(ws, { recursive: true });
  mkdirSync(join(root, 'temp'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(ws, path)), { recursive: true });
    writeFileSync(join(ws, path), text);
  }
  if (options.git !== false) {
    const git = (args: string[]) => {
      const result = spawnSync('git', args, { cwd: ws, env, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(result.stderr);
    };
    git(['init', '-q']);
    git(['add', '-A']);
  }
  return { workspace: ws, runnerTemp: join(root, 'temp') };
}

function run(
  files: Record<string, string>,
  inputs: Record<string, string> = {},
  options: { git?: boolean } = {},
): ActionRun & { workspace: string } {
  const dirs = workspace(files, options);
  return { ...runAction({ actionPath: REPO_ROOT, ...dirs, with: inputs, env }), workspace: dirs.workspace };
}

const annotations = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('::'));

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-action-'));
  env = nodeOnlyEnv(work, '/dev/null');
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('action.yml', () => {
  it('is a composite action whose steps are bash and read inputs only through env', () => {
    const action = readAction(REPO_ROOT);
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs).sort()).toEqual([
      'fail-on-error',
      'files',
      'format-check',
      'max-warnings',
      'sarif-file',
      'warnings',
      'working-directory',
    ]);
    for (const step of action.runs.steps) {
      expect(step.shell).toBe('bash');
      // An input pasted into the script's text could inject commands; env values cannot.
      expect(step.run).not.toMatch(/\$\{\{/);
    }
  });
});

describe('running the action', () => {
  it('annotates every tracked manifest by default and fails on an error', () => {
    const result = run({
      'deploy/svc.yaml': BROKEN,
      'svc.yml': WARNING_ONLY,
      'docs/svc.yaml.bak': 'svc_version: 3\n',
      'notes.md': '# notes\n',
    });
    expect(annotations(result.stdout)).toEqual([ERROR_ANNOTATION, WARNING_ANNOTATION]);
    expect(result.status).toBe(1);
    expect(result.outputs['exit-code']).toBe('1');
    expect(result.outputs['sarif-file']).toBe('');
  });

  it('passes a clean repository and a warning-only one', () => {
    const clean = run({ 'svc.yaml': GOOD });
    expect(clean.status).toBe(0);
    expect(annotations(clean.stdout)).toEqual([]);
    const warned = run({ 'svc.yml': WARNING_ONLY });
    expect(warned.status).toBe(0);
    expect(annotations(warned.stdout)).toEqual([WARNING_ANNOTATION]);
    expect(warned.outputs['exit-code']).toBe('0');
  });

  it("'format-check: true' annotates each manifest fmt would change and fails; formatted ones pass", () => {
    const messy = run(
      {
        'deploy/svc.yaml': GOOD.replace('  triage:\n    connectors', '    triage:\n        connectors') + '\n\n',
        'svc.yml': GOOD,
      },
      { 'format-check': 'true' },
    );
    expect(annotations(messy.stdout)).toEqual([
      "::error file=deploy/svc.yaml,title=svc-manifest (format)::not formatted: run 'svc-manifest fmt'",
    ]);
    expect(messy.status).toBe(1);
    expect([messy.outputs['exit-code'], messy.outputs['format-exit-code']]).toEqual(['0', '1']);
    expect(readFileSync(join(messy.workspace, 'deploy/svc.yaml'), 'utf8')).not.toBe(GOOD);
    const nested = run({ 'app/svc.yaml': GOOD + '   \n' }, { 'format-check': 'true', 'working-directory': 'app' });
    expect(annotations(nested.stdout)).toEqual([
      "::error file=app/svc.yaml,title=svc-manifest (format)::not formatted: run 'svc-manifest fmt'",
    ]);
    const formatted = run({ 'svc.yaml': GOOD }, { 'format-check': 'true' });
    expect([formatted.status, formatted.outputs['format-exit-code'], annotations(formatted.stdout)]).toEqual([
      0,
      '0',
      [],
    ]);
    const off = run({ 'svc.yaml': GOOD + '\n\n' });
    expect([off.status, off.outputs['format-exit-code']]).toEqual([0, '']);
  });

  it("'warnings: false' reports errors only", () => {
    const result = run({ 'deploy/svc.yaml': BROKEN, 'svc.yml': WARNING_ONLY }, { warnings: 'false' });
    expect(annotations(result.stdout)).toEqual([ERROR_ANNOTATION]);
    expect(result.status).toBe(1);
  });

  it("'max-warnings' fails the step when there are more warnings than it allows", () => {
    const over = run({ 'svc.yml': WARNING_ONLY }, { 'max-warnings': '0' });
    expect(annotations(over.stdout)).toEqual([WARNING_ANNOTATION]);
    expect(over.stderr).toContain('svc-manifest: 1 warning, more than --max-warnings 0 allows\n');
    expect([over.status, over.outputs['exit-code']]).toEqual([1, '1']);
    expect(run({ 'svc.yml': WARNING_ONLY }, { 'max-warnings': '1' }).status).toBe(0);
    const bad = run({ 'svc.yml': WARNING_ONLY }, { 'max-warnings': 'many' });
    expect(bad.status).toBe(2);
    expect(annotations(bad.stdout)).toEqual([
      "::error title=svc-manifest::the input 'max-warnings' is a whole number, 0 or more, not 'many'",
    ]);
  });

  it("'fail-on-error: false' annotates without failing the step", () => {
    const result = run({ 'deploy/svc.yaml': BROKEN }, { 'fail-on-error': 'false' });
    expect(annotations(result.stdout)).toEqual([ERROR_ANNOTATION]);
    expect(result.status).toBe(0);
    expect(result.outputs['exit-code']).toBe('1');
  });

  it('checks the files named in the input, from working-directory; annotations stay relative to the repository', () => {
    const result = run(
      { 'deploy/svc.yaml': BROKEN, 'svc.yaml': GOOD },
      { 'working-directory': 'deploy', files: '  svc.yaml  \n\n' },
    );
    expect(annotations(result.stdout)).toEqual([ERROR_ANNOTATION]);
    expect(result.status).toBe(1);
  });

  it('finds only the manifests under working-directory', () => {
    const result = run(
      { 'deploy/svc.yaml': BROKEN, 'other/svc.yaml': GOOD, 'svc.yml': WARNING_ONLY },
      { 'working-directory': 'other' },
    );
    expect(annotations(result.stdout)).toEqual([]);
    expect(result.status).toBe(0);
  });

  it('writes SARIF that validates against the SARIF 2.1.0 schema, with repository-relative locations', () => {
    const result = run({ 'deploy/svc.yaml': BROKEN, 'svc.yml': WARNING_ONLY }, { 'sarif-file': 'reports/svc.sarif' });
    expect(result.status).toBe(1);
    const path = join(result.workspace, 'reports', 'svc.sarif');
    expect(result.outputs['sarif-file']).toBe(path);
    const log = JSON.parse(readFileSync(path, 'utf8')) as {
      version: string;
      runs: {
        results: {
          ruleId: string;
          level: string;
          locations: { physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> } }[];
        }[];
      }[];
    };
    expect(log.version).toBe('2.1.0');
    expect(
      log.runs[0]!.results.map((r) => [
        r.ruleId,
        r.level,
        r.locations[0]!.physicalLocation.artifactLocation.uri,
        r.locations[0]!.physicalLocation.region,
      ]),
    ).toEqual([
      ['unknown-key', 'error', 'deploy/svc.yaml', { startLine: 5, startColumn: 5, endLine: 5, endColumn: 14 }],
      ['possible-typo', 'warning', 'svc.yml', { startLine: 2, startColumn: 1, endLine: 2, endColumn: 8 }],
    ]);
    const schema = join(REPO_ROOT, 'packages', 'validator', 'test', 'support', 'sarif-2.1.0-rtm.5.json');
    const script = [
      'import json, sys',
      'from jsonschema import Draft4Validator',
      'schema = json.load(open(sys.argv[1]))',
      'print(json.dumps([f"{list(e.absolute_path)}: {e.message}" for e in Draft4Validator(schema).iter_errors(json.load(open(sys.argv[2])))]))',
    ].join('\n');
    const python = spawnSync('python3', ['-W', 'ignore', '-c', script, schema, path], { encoding: 'utf8' });
    expect(python.stderr).toBe('');
    expect(JSON.parse(python.stdout)).toEqual([]);
  });

  it('fails loudly when there is nothing to check (a check that finds no manifest must not pass)', () => {
    const result = run({ 'README.md': '# x\n' });
    expect(result.status).toBe(2);
    expect(annotations(result.stdout)).toEqual([
      `::error title=svc-manifest::no svc.yaml, svc.yml or svc.toml tracked by git under ${result.workspace}: name the manifests in the input 'files'`,
    ]);
  });

  it('outside a git repository it needs the files input, and then works', () => {
    expect(run({ 'svc.yaml': BROKEN }, {}, { git: false }).status).toBe(2);
    const named = run({ 'svc.yaml': GOOD }, { files: 'svc.yaml' }, { git: false });
    expect(named.status).toBe(0);
  });

  it('refuses bad input values with one escaped annotation', () => {
    const result = run({ 'svc.yaml': GOOD }, { warnings: 'yes\n::warning::injected' });
    expect(result.status).toBe(2);
    expect(annotations(result.stdout)).toEqual([
      "::error title=svc-manifest::the input 'warnings' is 'true' or 'false', not 'yes%0A::warning::injected'",
    ]);
    expect(run({ 'svc.yaml': GOOD }, { 'sarif-file': 'a\nb' }).status).toBe(2);
  });

  it('says how to get Node when the runner has none', () => {
    // A PATH with bash and git but no node.
    const bin = join(work, 'no-node-bin');
    mkdirSync(bin, { recursive: true });
    for (const program of ['bash', 'git']) {
      const found = spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).stdout.trim();
      if (!existsSync(join(bin, program))) symlinkSync(found, join(bin, program));
    }
    const dirs = workspace({ 'svc.yaml': BROKEN });
    const result = runAction({ actionPath: REPO_ROOT, ...dirs, env: { ...env, PATH: bin } });
    expect(result.status).toBe(2);
    expect(annotations(result.stdout)).toEqual([
      '::error title=svc-manifest::svc-manifest needs Node.js >= 20.19 on PATH: add actions/setup-node before this action',
    ]);
  });

  it('treats file names as data: no shell expansion of the input', () => {
    const result = run({ 'svc.yaml': GOOD }, { files: '$(touch pwned).yaml\n`touch pwned2`\n"; touch pwned3; "' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('$(touch pwned).yaml: no such file');
    for (const name of ['pwned', 'pwned2', 'pwned3']) {
      expect(existsSync(join(result.workspace, name))).toBe(false);
      expect(existsSync(join(result.workspace, 'deploy', name))).toBe(false);
    }
  });
});

describe("the README's workflow", () => {
  interface WorkflowStep {
    id?: string;
    uses?: string;
    if?: string;
    with?: Record<string, string | number>;
  }
  const workflow = parseYaml(readmeBlock('CI (GitHub Actions)', 'yaml')) as {
    jobs: Record<string, { steps: WorkflowStep[] }>;
  };
  const steps = Object.values(workflow.jobs)[0]!.steps;
  const ours = steps.find((step) => step.uses === '<owner>/<repository>@<tag or commit>')!;

  it('uses this action with inputs it declares, and uploads the SARIF file it writes', () => {
    expect(ours).toBeDefined();
    const inputs = readAction(REPO_ROOT).inputs;
    for (const name of Object.keys(ours.with ?? {})) expect(Object.keys(inputs)).toContain(name);
    const upload = steps.find((step) => step.uses?.startsWith('github/codeql-action/upload-sarif@'))!;
    expect(upload.with?.sarif_file).toBe(ours.with?.['sarif-file']);
    // The upload must run after the check failed on an error, and read the action's output.
    expect(upload.if).toContain('!cancelled()');
    expect(upload.if).toContain(`steps.${ours.id}.outputs.sarif-file`);
  });

  it("runs with the README's inputs: annotations, exit code and the SARIF file where the upload step looks", () => {
    const result = run(
      { 'deploy/svc.yaml': BROKEN },
      Object.fromEntries(Object.entries(ours.with ?? {}).map(([k, v]) => [k, String(v)])),
    );
    expect(result.status).toBe(1);
    expect(annotations(result.stdout)).toEqual([ERROR_ANNOTATION]);
    expect(result.outputs['sarif-file']).toBe(join(result.workspace, String(ours.with?.['sarif-file'])));
    expect(JSON.parse(readFileSync(result.outputs['sarif-file']!, 'utf8')).runs[0].results).toHaveLength(1);
  });
});
