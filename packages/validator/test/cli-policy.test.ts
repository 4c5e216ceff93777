/**
 * Policy options of `svc-manifest validate`, through the built command: `--max-warnings`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
