/**
 * The table-driven test over fixtures/: every `invalid/` case must produce exactly the
 * diagnostics in its `.expected` file (codes, severities and ranges; the message after ` | `
 * is there for the reader), and every `valid/` case none at all.
 * `UPDATE_FIXTURES=1 npx vitest run packages/validator/test/fixtures.test.ts` rewrites the
 * expected files; review the diff before committing.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateManifest, type Diagnostic } from '@svc-manifest/validator';

const root = join(import.meta.dirname, '..', '..', '..', 'fixtures');
const update = process.env.UPDATE_FIXTURES === '1';

function casesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => /\.(ya?ml|toml)$/.test(name))
    .map((name) => join(folder, name))
    .sort();
}

export function expectedLine(d: Diagnostic): string {
  const r = d.range;
  return `${r.start.line}:${r.start.column}-${r.end.line}:${r.end.column} ${d.severity} ${d.code} | ${d.message}`;
}

const comparable = (line: string) => line.split(' | ')[0]!.trim();

const ruleFolders = existsSync(root)
  ? readdirSync(root)
      .filter((name) => statSync(join(root, name)).isDirectory())
      .sort()
  : [];

describe('fixtures', () => {
  it('exist', () => {
    expect(ruleFolders.length).toBeGreaterThan(10);
  });

  for (const folder of ruleFolders) {
    describe(folder, () => {
      for (const file of casesUnder(join(root, folder, 'valid'))) {
        it(`valid/${relative(join(root, folder, 'valid'), file)}`, () => {
          const result = validateManifest(readFileSync(file), { filename: file });
          const problems = result.diagnostics.filter((d) => d.severity !== 'info').map(expectedLine);
          expect(problems).toEqual([]);
          expect(result.ok).toBe(true);
        });
      }
      for (const file of casesUnder(join(root, folder, 'invalid'))) {
        it(`invalid/${relative(join(root, folder, 'invalid'), file)}`, () => {
          const result = validateManifest(readFileSync(file), { filename: file });
          const actual = result.diagnostics.map(expectedLine);
          const expectedFile = `${file}.expected`;
          if (update || !existsSync(expectedFile)) {
            if (!update)
              throw new Error(`${relative(root, expectedFile)} is missing: run with UPDATE_FIXTURES=1 and review it`);
            writeFileSync(expectedFile, actual.join('\n') + '\n');
          }
          const expected = readFileSync(expectedFile, 'utf8')
            .split('\n')
            .filter((line) => line.trim() && !line.startsWith('#'));
          expect(actual.map(comparable)).toEqual(expected.map(comparable));
          // An invalid case must show the problem its folder is about.
          if (folder !== 'realistic') expect(result.diagnostics.some((d) => d.code === folder)).toBe(true);
        });
      }
    });
  }
});
