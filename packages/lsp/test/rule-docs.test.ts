/**
 * The rule pages of the codes only the language server reports (kind `editor` in RULES): their
 * examples' output blocks are exactly what the server shows for the example, in the format of
 * the validator's rule-docs test. `UPDATE_DOCS=1` rewrites the output blocks.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES } from '@svc-manifest/validator';
import { manifestDiagnostics } from '../src/features/diagnostics.js';
import {
  diagnosticLine,
  loadRulePages,
  parseExamples,
  type DocExample,
} from '../../validator/test/support/rule-docs.js';
import { doc } from './helpers.js';

const update = process.env.UPDATE_DOCS === '1';
const editorRules = RULES.filter((rule) => rule.kind === 'editor');

function runInServer(example: DocExample): string[] {
  if (example.flags.length) throw new Error(`editor examples take no flags (${example.flags.join(' ')})`);
  const uri = example.format === 'toml' ? 'file:///work/svc.toml' : 'file:///work/svc.yaml';
  return manifestDiagnostics(doc(example.input, uri)).map(diagnosticLine);
}

describe('rule pages of codes the language server reports', () => {
  it('exist for schema pinning', () => {
    expect(editorRules.map((rule) => rule.id).sort()).toEqual(['schema-version-mismatch', 'unknown-schema']);
  });

  for (const rule of editorRules) {
    it(`${rule.id}: the example's output block is exactly what the server reports`, () => {
      const page = loadRulePages().find((p) => p.id === rule.id);
      expect(page, `docs/rules/${rule.id}.md`).toBeDefined();
      let text = page!.text;
      if (update) {
        for (const example of [...parseExamples(text)].reverse()) {
          const lines = runInServer(example);
          text =
            text.slice(0, example.outputStart) +
            (lines.length ? lines.join('\n') + '\n' : '') +
            text.slice(example.outputEnd);
        }
        writeFileSync(page!.file, text);
      }
      const examples = parseExamples(text);
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples) expect(runInServer(example)).toEqual(example.output);
      expect(examples.flatMap((example) => runInServer(example).map((line) => line.split(' ')[2]))).toContain(rule.id);
    });
  }
});
