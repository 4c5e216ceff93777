/**
 * Twenty appliers in separate processes on one bare repository: every change lands,
 * history stays linear, nothing is lost. Plus the in-process lock for concurrent calls
 * in one process.
 */
import { afterAll, expect, test } from 'vitest';
import { setAgentScope } from '../src/index.js';
import { lf } from './support/fixtures.js';
import { applyOptions, cleanupTempDirs, git, makeRepo, runSupportChild, show } from './support/repos.js';

afterAll(cleanupTempDirs);

const AGENTS = 20;

function manifest(): string {
  const lines = ['# twenty agents, one per applier', 'svc_version: 2', 'default_agent: agent-0', 'agents:'];
  for (let i = 0; i < AGENTS; i++) lines.push(`  # agent number ${i}`, `  agent-${i}:`, '    enabled: true   # on');
  return lf(lines);
}

const runChild = (repo: string, index: number) => runSupportChild('concurrent-child.ts', [repo, String(index)]);

function expectAllScopesSet(repo: string): void {
  const text = show(repo, 'main', 'svc.yaml').toString('utf8');
  for (let i = 0; i < AGENTS; i++) {
    expect(text).toContain(
      `  # agent number ${i}\n  agent-${i}:\n    enabled: true   # on\n    secrets: [SECRET_${i}]\n`,
    );
  }
}

test('20 appliers in separate processes: all 20 commits land on a linear history', async () => {
  const repo = makeRepo({ 'svc.yaml': manifest() }, { bare: true });
  const initial = git(repo, ['rev-parse', 'main']).trim();
  const results = await Promise.all(Array.from({ length: AGENTS }, (_, i) => runChild(repo, i)));

  for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });
  const outcomes = results.map(
    (result) => JSON.parse(result.stdout) as { status: string; commit: string; attempts: number },
  );
  expect(outcomes.every((outcome) => outcome.status === 'committed')).toBe(true);

  // Linear: 21 commits, each with exactly one parent except the root, first-parent chain = whole history.
  const history = git(repo, ['rev-list', '--parents', 'main']).trim().split('\n');
  expect(history).toHaveLength(AGENTS + 1);
  expect(history.slice(0, -1).every((line) => line.split(' ').length === 2)).toBe(true);
  expect(history[history.length - 1]).toBe(initial);
  expect(git(repo, ['rev-list', '--first-parent', '--count', 'main']).trim()).toBe(String(AGENTS + 1));
  // Every process's commit is in that history, and every change is in the final file.
  const commits = new Set(history.map((line) => line.split(' ')[0]));
  for (const outcome of outcomes) expect(commits.has(outcome.commit)).toBe(true);
  expectAllScopesSet(repo);
}, 300_000);

test('concurrent calls in one process take turns on the repository lock', async () => {
  const repo = makeRepo({ 'svc.yaml': manifest() }, { bare: true });
  const options = await applyOptions();
  const results = await Promise.all(
    Array.from({ length: AGENTS }, (_, i) => setAgentScope(repo, `agent-${i}`, { secrets: [`SECRET_${i}`] }, options)),
  );
  expect(results.map((result) => result.attempts)).toEqual(Array(AGENTS).fill(1));
  expect(git(repo, ['rev-list', '--count', 'main']).trim()).toBe(String(AGENTS + 1));
  expectAllScopesSet(repo);
});
