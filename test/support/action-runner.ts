/**
 * Runs a composite GitHub Action's steps on this machine the way the Actions runner does, for
 * the steps this repository's action.yml uses (`run:` with `shell: bash`):
 *   - `${{ … }}` expressions in `env`, `working-directory` and `run` are replaced before the
 *     step starts. Supported: `inputs.<name>` (the `with:` value, else the input's default),
 *     `github.action_path`, `github.workspace`, `runner.temp`, `steps.<id>.outputs.<name>`.
 *     Anything else throws, so the action cannot start using an expression this test ignores.
 *   - the script is written to a file under RUNNER_TEMP and run as
 *     `bash --noprofile --norc -eo pipefail <file>` (the runner's `bash` template);
 *   - the environment has what the runner provides: GITHUB_WORKSPACE, GITHUB_ACTION_PATH,
 *     GITHUB_OUTPUT (a fresh file per step, read back as the step's outputs), GITHUB_ENV,
 *     GITHUB_STEP_SUMMARY, RUNNER_TEMP, GITHUB_ACTIONS=true, CI=true;
 *   - composite steps stop at the first failing step; the action's outputs are evaluated last.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { parse as parseYaml } from 'yaml';

interface ActionInput {
  description?: string;
  required?: boolean;
  default?: string;
}

interface ActionStep {
  id?: string;
  name?: string;
  shell?: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}

export interface ActionDefinition {
  name: string;
  description: string;
  inputs: Record<string, ActionInput>;
  outputs: Record<string, { description?: string; value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface RunActionOptions {
  /** The action's folder (GITHUB_ACTION_PATH): where action.yml is. */
  actionPath: string;
  workspace: string;
  runnerTemp: string;
  /** The step's `with:`. */
  with?: Record<string, string>;
  /** The job's environment (PATH, HOME, …), before the runner's own variables. */
  env: NodeJS.ProcessEnv;
}

export interface ActionRun {
  /** The exit code of the last step that ran (the action fails when it is not 0). */
  status: number | null;
  stdout: string;
  stderr: string;
  /** The action's `outputs`, evaluated after its steps. */
  outputs: Record<string, string>;
}

export function readAction(actionPath: string): ActionDefinition {
  return parseYaml(readFileSync(join(actionPath, 'action.yml'), 'utf8')) as ActionDefinition;
}

/** Lines `name=value` and blocks `name<<DELIMITER … DELIMITER`, as the runner reads GITHUB_OUTPUT. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      if (end < 0) throw new Error(`GITHUB_OUTPUT: no closing delimiter for ${heredoc[1]}`);
      outputs[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
      continue;
    }
    const equals = line.indexOf('=');
    if (equals <= 0) throw new Error(`GITHUB_OUTPUT: malformed line ${JSON.stringify(line)}`);
    outputs[line.slice(0, equals)] = line.slice(equals + 1);
  }
  return outputs;
}

export function runAction(options: RunActionOptions): ActionRun {
  const action = readAction(options.actionPath);
  if (action.runs.using !== 'composite') throw new Error(`only composite actions run here, not '${action.runs.using}'`);
  const given = options.with ?? {};
  for (const name of Object.keys(given)) if (!(name in action.inputs)) throw new Error(`unexpected input '${name}'`);
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) {
    const value = given[name] ?? input.default ?? '';
    if (input.required && value === '') throw new Error(`input required and not supplied: ${name}`);
    inputs[name] = value;
  }
  const stepOutputs: Record<string, Record<string, string>> = {};
  const evaluate = (text: string): string =>
    text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
      let match: RegExpExecArray | null;
      if ((match = /^inputs\.([\w-]+)$/.exec(expression))) {
        if (!(match[1]! in inputs)) throw new Error(`the action reads an undeclared input '${match[1]}'`);
        return inputs[match[1]!]!;
      }
      if (expression === 'github.action_path') return options.actionPath;
      if (expression === 'github.workspace') return options.workspace;
      if (expression === 'runner.temp') return options.runnerTemp;
      if ((match = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression)))
        return stepOutputs[match[1]!]?.[match[2]!] ?? '';
      throw new Error(`expression not supported by this test runner: \${{ ${expression} }}`);
    });

  let stdout = '';
  let stderr = '';
  let status: number | null = 0;
  action.runs.steps.forEach((step, index) => {
    if (status !== 0) return;
    if (step.uses || step.if) throw new Error(`step ${index}: only unconditional 'run' steps are supported here`);
    if (step.shell !== 'bash') throw new Error(`step ${index}: composite run steps must say 'shell: bash'`);
    const directory = evaluate(step['working-directory'] ?? '.');
    const cwd = isAbsolute(directory) ? directory : join(options.workspace, directory);
    const files = join(options.runnerTemp, `_runner_file_commands`, String(index));
    mkdirSync(files, { recursive: true });
    const outputFile = join(files, 'output');
    writeFileSync(outputFile, '');
    writeFileSync(join(files, 'env'), '');
    writeFileSync(join(files, 'summary'), '');
    const script = join(options.runnerTemp, `step-${index}.sh`);
    writeFileSync(script, evaluate(step.run ?? ''));
    const env: NodeJS.ProcessEnv = {
      ...options.env,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: options.workspace,
      GITHUB_ACTION_PATH: options.actionPath,
      GITHUB_OUTPUT: outputFile,
      GITHUB_ENV: join(files, 'env'),
      GITHUB_STEP_SUMMARY: join(files, 'summary'),
      RUNNER_TEMP: options.runnerTemp,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, evaluate(String(value))])),
    };
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (result.error) throw result.error;
    stdout += result.stdout;
    stderr += result.stderr;
    status = result.status;
    if (step.id) stepOutputs[step.id] = parseOutputFile(readFileSync(outputFile, 'utf8'));
  });
  const outputs = Object.fromEntries(
    Object.entries(action.outputs ?? {}).map(([name, output]) => [name, evaluate(output.value)]),
  );
  return { status, stdout, stderr, outputs };
}
