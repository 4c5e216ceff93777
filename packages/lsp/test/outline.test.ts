import { describe, expect, it } from 'vitest';
import type { DocumentSymbol } from 'vscode-languageserver';
import { documentSymbols } from '../src/features/document-symbols.js';
import { foldingRanges } from '../src/features/folding.js';
import { doc, tomlUri } from './helpers.js';

const YAML = `svc_version: 2
default_agent: coder
agents:
  coder:
    sandbox: base
triggers:
  - slug: nightly
    type: cron
    cron: "0 9 * * *"
    prompt: |
      line one
      line two
`;

const outline = (symbols: DocumentSymbol[]): unknown[] =>
  symbols.map((s) => (s.children?.length ? [s.name, outline(s.children)] : s.name));

describe('document symbols', () => {
  it('outlines keys and names list items by slug (YAML)', () => {
    const symbols = documentSymbols(doc(YAML));
    expect(outline(symbols)).toEqual([
      'svc_version',
      'default_agent',
      ['agents', [['coder', ['sandbox']]]],
      ['triggers', [['nightly', ['slug', 'type', 'cron', 'prompt']]]],
    ]);
    const agents = symbols[2]!;
    expect(agents.selectionRange).toEqual({ start: { line: 2, character: 0 }, end: { line: 2, character: 6 } });
    expect(agents.range.start).toEqual({ line: 2, character: 0 });
    expect(agents.range.end.line).toBeGreaterThanOrEqual(4);
  });

  it('outlines TOML tables and arrays of tables', () => {
    const toml = `svc_version = 2\n[agents.coder]\nsandbox = "base"\n[[triggers]]\nslug = "a"\n[[triggers]]\nslug = "b"\n`;
    expect(outline(documentSymbols(doc(toml, tomlUri)))).toEqual([
      'svc_version',
      ['agents', [['coder', ['sandbox']]]],
      [
        'triggers',
        [
          ['a', ['slug']],
          ['b', ['slug']],
        ],
      ],
    ]);
  });
});

describe('folding ranges', () => {
  it('folds every multi-line map, list item and block scalar (YAML)', () => {
    expect(foldingRanges(doc(YAML)).map((r) => [r.startLine, r.endLine])).toEqual([
      [2, 4], // agents
      [3, 4], // coder
      [5, 11], // triggers
      [6, 11], // the trigger item
      [9, 11], // prompt: |
    ]);
  });

  it('folds TOML tables and each array-of-tables item', () => {
    const toml = `svc_version = 2\n[agents.coder]\nsandbox = "base"\nenabled = true\n\n[[triggers]]\nslug = "a"\ntype = "cron"\n[[triggers]]\nslug = "b"\ntype = "cron"\n`;
    expect(foldingRanges(doc(toml, tomlUri)).map((r) => [r.startLine, r.endLine])).toEqual([
      [1, 3],
      [5, 7],
      [8, 10],
    ]);
  });
});
