/** The operation table is the one source of the library's groups, the project handle and the CLI's commands and usage. */
import { expect, test } from 'vitest';
import * as gitops from '../src/index.js';
import { marketplace, OPERATIONS, project, registry, runGitCli } from '../src/index.js';
import { crlf, YAML_LINES } from './support/fixtures.js';
import { makeRepo, show } from './support/repos.js';

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runGitCli(argv, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    cwd: process.cwd(),
  });
  return { code, stdout, stderr };
}

const rows = Object.entries(OPERATIONS);

test('every row is in its group, on the project handle, and a named export', () => {
  const market = rows.filter(([, row]) => row.group === 'marketplace').map(([name]) => name);
  const own = rows.filter(([, row]) => row.group === 'project').map(([name]) => name);
  expect(market).toEqual(['list', 'install', 'updates', 'update', 'updateAll', 'remove']);
  expect(own).toEqual(['setDefaultAgent', 'setAgentScope']);
  expect(Object.keys(marketplace)).toEqual(market);
  expect(registry).toBe(marketplace);
  for (const [name, row] of rows) {
    expect((gitops as Record<string, unknown>)[name], name).toBe(row.call);
    if (row.group === 'marketplace') expect((marketplace as Record<string, unknown>)[name]).toBe(row.call);
  }
  const handle = project('/nowhere');
  expect(Object.keys(handle).sort()).toEqual([...own, 'marketplace', 'registry'].sort());
  expect(Object.keys(handle.marketplace)).toEqual(market);
  expect(handle.registry).toBe(handle.marketplace);
});

test('the usage text has one line per row, in table order, and every command is dispatched', async () => {
  const help = await cli(['help']);
  expect(help.code).toBe(0);
  const commandLines = help.stdout.split('\n').filter((line) => /^ {2}[a-z]/.test(line));
  expect(commandLines.map((line) => line.trim().split(' ')[0])).toEqual(rows.map(([, row]) => row.command));
  for (const [, row] of rows)
    expect(help.stdout).toContain(
      `\n  ${row.command}${row.synopsis ? ` ${row.synopsis}` : ''}\n      ${row.summary}\n`,
    );
  for (const [, row] of rows) {
    // Dispatched (not "unknown command"): a missing repository is an error of the operation, exit 1.
    const args = [row.command, '--repo', '/nonexistent/repo'];
    if (/^(NAME|ID)\b/.test(row.synopsis)) args.push('x');
    if (row.options?.catalog) args.push('--catalog', '/nonexistent/catalog');
    if (row.options?.secrets) args.push('--secrets', 'all');
    const result = await cli(args);
    expect(result.code, `${row.command}: ${result.stderr}`).toBe(1);
    expect(result.stderr).not.toContain('usage:');
  }
});

test("a command refuses another command's options; --format json prints the result", async () => {
  const wrong = await cli(['install', 'pdf', '--force', '--catalog', '/x']);
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toBe(
    "svc-manifest git: install does not take --force (see 'svc-manifest git install --help')\n",
  );
  expect((await cli(['list', '--format', 'yaml'])).stderr).toBe(
    "svc-manifest git: --format must be text or json (see 'svc-manifest git list --help')\n",
  );

  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const result = await cli([
    'set-default-agent',
    'helper',
    '--repo',
    repo,
    '--format',
    'json',
    '--author',
    'A <a@example.test>',
  ]);
  expect(result.code).toBe(0);
  const parsed = JSON.parse(result.stdout) as { status: string; branch: string; info: unknown; changedPaths: string[] };
  expect(parsed).toMatchObject({
    status: 'committed',
    branch: 'main',
    changedPaths: ['svc.yaml'],
    info: { agent: 'helper', manifest: 'svc.yaml' },
  });
  expect(show(repo, 'main', 'svc.yaml').toString('utf8')).toContain('default_agent: helper ');

  const refused = await cli(['set-default-agent', 'reviewer', '--repo', repo, '--format', 'json']);
  const message = "agent 'reviewer' is disabled (enabled: false); enable it before making it the default";
  expect(refused).toEqual({
    code: 1,
    stdout: `${JSON.stringify({ refused: { code: 'agent-disabled', message, file: 'svc.yaml' } }, null, 2)}\n`,
    stderr: `refused: agent-disabled: ${message}\n`,
  });
});
