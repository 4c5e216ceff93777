/**
 * Every feature, on arbitrary text made of manifest-ish fragments and garbage, at many
 * positions: none throws, and every range it returns lies inside the document.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Range } from 'vscode-languageserver';
import { createState, type DocumentState } from '../src/document-state.js';
import { codeActions } from '../src/features/code-actions.js';
import { completion } from '../src/features/completion.js';
import { definition } from '../src/features/definition.js';
import { computeDiagnostics } from '../src/features/diagnostics.js';
import { documentHighlights } from '../src/features/document-highlight.js';
import { documentSymbols } from '../src/features/document-symbols.js';
import { foldingRanges } from '../src/features/folding.js';
import { hover } from '../src/features/hover.js';
import { references } from '../src/features/references.js';
import { prepareRename, rename, RenameRefused } from '../src/features/rename.js';
import { lspLines } from '../src/positions.js';

const FRAGMENTS = [
  'svc_version: 2\n',
  'svc_version = 1\n',
  'agents:\n',
  '  coder:\n',
  '    sandbox: base\n',
  '    connectors: [gh, "x"]\n',
  '  - name: a\n',
  'triggers:\n',
  '  - slug: t\n',
  '    type: monitor\n',
  '    agent: coder\n',
  'connectors:\n',
  '  - slug: gh\n',
  '    provider: mcp\n',
  'sandbox:\n',
  '  default: base\n',
  '  templates:\n',
  '    - slug: base\n',
  '[agents.coder]\n',
  '[[triggers]]\n',
  'agent = "coder"\n',
  'slug = "gh"\n',
  'default_agent: coder\n',
  '# yaml-language-server: $schema=https://x/svc.v1.schema.json\n',
  '#:schema https://x/svc.v2.schema.json\n',
  '$schema: https://x/other.json\n',
  '{',
  '}',
  '[',
  ']',
  ': ',
  ' = ',
  '- ',
  '"',
  "'",
  '&a ',
  '*a',
  '<<: *a\n',
  '|\n',
  '😀',
  '名前',
  '\r\n',
  '\r',
  '\t',
  '\u0000',
  '\ud800',
];

const text = fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 6 })), { maxLength: 40 }).map((parts) => parts.join(''));

function inside(state: DocumentState, range: Range): boolean {
  const lines = lspLines(state).lineCount;
  const ok = (p: { line: number; character: number }) => p.line >= 0 && p.line < lines && p.character >= 0;
  return ok(range.start) && ok(range.end);
}

function exercise(state: DocumentState): void {
  const lineCount = lspLines(state).lineCount;
  for (const d of computeDiagnostics(state)) expect(inside(state, d.range)).toBe(true);
  for (const s of documentSymbols(state)) expect(inside(state, s.range) && inside(state, s.selectionRange)).toBe(true);
  for (const f of foldingRanges(state)) expect(f.endLine).toBeLessThan(lineCount);
  for (let line = 0; line <= lineCount; line++) {
    for (const character of [0, 1, 3, 7, 12, 40]) {
      const position = { line, character };
      for (const item of completion(state, { position }).items) {
        const edit = item.textEdit as { range: Range } | undefined;
        if (edit) expect(inside(state, edit.range)).toBe(true);
      }
      const h = hover(state, { position });
      if (h?.range) expect(inside(state, h.range)).toBe(true);
      definition(state, { position });
      references(state, { position, context: { includeDeclaration: true } });
      for (const h of documentHighlights(state, { position })) expect(inside(state, h.range)).toBe(true);
      prepareRename(state, { position });
      try {
        rename(state, { position, newName: 'renamed' });
      } catch (error) {
        expect(error).toBeInstanceOf(RenameRefused);
      }
      codeActions(state, { range: { start: position, end: position }, context: { diagnostics: [] } });
    }
  }
}

describe('features on arbitrary text', () => {
  it('never throw and keep ranges inside the document (YAML)', () => {
    fc.assert(
      fc.property(text, (t) => exercise(createState('file:///w/svc.yaml', 1, t))),
      { numRuns: 150, seed: 42 },
    );
  });

  it('never throw and keep ranges inside the document (TOML)', () => {
    fc.assert(
      fc.property(text, (t) => exercise(createState('file:///w/svc.toml', 1, t))),
      { numRuns: 150, seed: 43 },
    );
  });

  it('completion never throws on a text newer than its tree', () => {
    fc.assert(
      fc.property(text, text, (parsed, newer) => {
        for (const uri of ['file:///w/svc.yaml', 'file:///w/svc.toml']) {
          const typing = { ...createState(uri, 1, parsed), version: 2, text: newer };
          const lines = lspLines(typing).lineCount;
          for (let line = 0; line <= lines; line++) {
            for (const item of completion(typing, { position: { line, character: 4 } }).items) {
              const edit = item.textEdit as { range: Range } | undefined;
              if (edit) expect(edit.range.end.line).toBeLessThan(lines);
            }
          }
        }
      }),
      { numRuns: 150, seed: 44 },
    );
  });
});
