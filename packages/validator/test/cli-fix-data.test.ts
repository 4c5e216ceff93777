/**
 * Honest fix data, through the built command: JSON's `fix` is what `--fix` applies (ESLint's
 * meaning), a fix that invents a value or needs a choice is a suggestion, the fixable counts
 * count only real fixes, stylish says how many `--fix` would fix, and `--fix` says what it did.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBundle, REPO_ROOT, runBundle } from './support/child.js';

interface Fix {
  range: [number, number];
  text: string;
}
interface Message {
  ruleId: string;
  fix?: Fix;
  suggestions?: { desc: string; fix: Fix }[];
}
interface FileResult {
  messages: Message[];
  fixableErrorCount: number;
  fixableWarningCount: number;
}

const EXAMPLES = join(REPO_ROOT, 'examples');
let work: string;
beforeAll(() => {
  ensureBundle();
  work = mkdtempSync(join(tmpdir(), 'svc-fix-data-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a fix that invents a value (the secret of examples/broken)', () => {
  it('is a suggestion, not a fix, and is not counted as fixable', () => {
    const result = runBundle(['validate', 'broken/svc.yaml', '--format', 'json'], { cwd: EXAMPLES });
    const [file] = JSON.parse(result.stdout) as FileResult[];
    expect(file!.messages).toHaveLength(1);
    expect(file!.messages[0]!.fix).toBeUndefined();
    expect(file!.messages[0]!.suggestions).toEqual([
      { desc: "Add 'secret_env'", fix: { range: [284, 284], text: '\n    secret_env: WEBHOOK_SECRET' } },
    ]);
    expect([file!.fixableErrorCount, file!.fixableWarningCount]).toEqual([0, 0]);
    const stylish = runBundle(['validate', 'broken/svc.yaml'], { cwd: EXAMPLES });
    expect(stylish.stdout.endsWith('\n✖ 1 problem (1 error, 0 warnings)\n')).toBe(true);
  });
});

describe('the safe fixes of examples/fixable', () => {
  it('are the fixes of the JSON report, and applying them gives the text --fix writes', () => {
    const source = join(EXAMPLES, 'fixable', 'svc.yaml');
    const text = readFileSync(source, 'utf8');
    const result = runBundle(['validate', source, '--format', 'json']);
    const [file] = JSON.parse(result.stdout) as FileResult[];
    expect(file!.messages.map((m) => [m.ruleId, m.fix])).toEqual([
      ['svc-version-format', { range: [text.indexOf('2.0'), text.indexOf('2.0') + 3], text: '2' }],
      ['unknown-key', { range: [text.indexOf('conectors'), text.indexOf('conectors') + 9], text: 'connectors' }],
      [
        'deprecated-key',
        {
          range: [text.indexOf('connectors_personal'), text.indexOf('connectors_personal') + 19],
          text: 'connectors_required',
        },
      ],
    ]);
    expect([file!.fixableErrorCount, file!.fixableWarningCount]).toEqual([1, 2]);
    // A suggestion is never the fix again.
    for (const message of file!.messages)
      for (const suggestion of message.suggestions ?? []) expect(suggestion.fix).not.toEqual(message.fix);

    let patched = text;
    for (const { fix } of [...file!.messages].sort((a, b) => b.fix!.range[0] - a.fix!.range[0])) {
      patched = patched.slice(0, fix!.range[0]) + fix!.text + patched.slice(fix!.range[1]);
    }
    const copy = join(work, 'svc.yaml');
    copyFileSync(source, copy);
    const fixed = runBundle(['validate', '--fix', 'svc.yaml'], { cwd: work });
    expect(fixed.status).toBe(0);
    expect(readFileSync(copy, 'utf8')).toBe(patched);
    expect(fixed.stderr).toBe(
      [
        'svc-manifest: svc.yaml: fixed: write svc_version as 2 (svc-version-format)',
        "svc-manifest: svc.yaml: fixed: rename 'conectors' to 'connectors' (unknown-key)",
        "svc-manifest: svc.yaml: fixed: rename 'connectors_personal' to 'connectors_required' (deprecated-key)",
        '',
      ].join('\n'),
    );
    expect(fixed.stdout).toBe('✔ svc.yaml: no problems\n');
  });

  it('are counted at the end of the stylish report', () => {
    const result = runBundle(['validate', 'fixable/svc.yaml'], { cwd: EXAMPLES });
    expect(
      result.stdout.endsWith(
        '\n✖ 3 problems (1 error, 2 warnings)\n  3 of them fixable with --fix (--fix-dry-run shows the changes)\n',
      ),
    ).toBe(true);
  });
});
