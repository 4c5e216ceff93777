/**
 * Every feature, and the workspace requests, on arbitrary text made of manifest-ish fragments and
 * garbage, at many positions: none throws, and every range it returns lies inside the document.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Range } from 'vscode-languageserver';
import { createState, type DocumentState } from '../src/document-state.js';
import { FeatureRefusal } from '../src/feature-context.js';
import type { RequestHandler } from '../src/feature.js';
import { computeDiagnostics } from '../src/features/diagnostics.js';
import { FEATURES } from '../src/features/index.js';
import { completion } from '../src/features/completion.js';
import { lspLines } from '../src/positions.js';
import { workspaceDiagnostics, workspaceSymbols } from '../src/workspace.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

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

const text = fc
  .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 6 })), { maxLength: 40 })
  .map((parts) => parts.join(''));

function inside(state: DocumentState, range: Range): boolean {
  const lines = lspLines(state).lineCount;
  const ok = (p: { line: number; character: number }) => p.line >= 0 && p.line < lines && p.character >= 0;
  return ok(range.start) && ok(range.end);
}

const isPosition = (value: unknown): value is { line: number; character: number } =>
  typeof value === 'object' && value !== null && typeof (value as { line?: unknown }).line === 'number';

/** Every range anywhere in a feature's answer (a hover's, an edit's, a symbol's, a location's). */
function rangesIn(value: unknown, found: Range[] = []): Range[] {
  if (typeof value !== 'object' || value === null) return found;
  const { start, end } = value as { start?: unknown; end?: unknown };
  if (isPosition(start) && isPosition(end)) found.push(value as Range);
  for (const child of Object.values(value)) rangesIn(child, found);
  return found;
}

/**
 * The parameters of each request the feature table answers, at a position. A feature added to
 * the table without a row here fails the test below: every handler is exercised.
 */
const PARAMS_AT: Record<string, (position: { line: number; character: number }, lineCount: number) => unknown> = {
  'textDocument/completion': (position) => ({ position }),
  'textDocument/hover': (position) => ({ position }),
  'textDocument/definition': (position) => ({ position }),
  'textDocument/references': (position) => ({ position, context: { includeDeclaration: true } }),
  'textDocument/documentHighlight': (position) => ({ position }),
  'textDocument/prepareRename': (position) => ({ position }),
  'textDocument/rename': (position) => ({ position, newName: 'renamed' }),
  'textDocument/codeAction': (position) => ({
    range: { start: position, end: position },
    context: { diagnostics: [] },
  }),
  'textDocument/inlayHint': (position, lineCount) => ({
    range: { start: position, end: { line: lineCount, character: 0 } },
  }),
  'textDocument/documentSymbol': () => ({}),
  'textDocument/foldingRange': () => ({}),
  'textDocument/formatting': () => ({ options: { tabSize: 2, insertSpaces: true } }),
  'textDocument/rangeFormatting': (position, lineCount) => ({
    range: { start: position, end: { line: lineCount, character: 0 } },
    options: { tabSize: 2, insertSpaces: true },
  }),
  'textDocument/selectionRange': (position) => ({ positions: [position] }),
  'textDocument/documentLink': () => ({}),
  'textDocument/diagnostic': () => ({}),
};

const HANDLERS: readonly RequestHandler[] = FEATURES.flatMap((feature) => feature.handlers);

/** A handler's answer; a refusal (a rename the feature declines) is an answer too. */
function answer(handler: RequestHandler, state: DocumentState, params: unknown): unknown {
  try {
    return handler.run(state, params, {});
  } catch (error) {
    expect(error, handler.method).toBeInstanceOf(FeatureRefusal);
    return undefined;
  }
}

/** The workspace requests (workspace.ts, wired beside the table) over this one manifest. */
function exerciseWorkspace(state: DocumentState): number {
  const symbols = workspaceSymbols([state], '');
  for (const range of rangesIn(symbols)) expect(inside(state, range), 'workspace/symbol').toBe(true);
  for (const range of rangesIn(workspaceDiagnostics([state], [])))
    expect(inside(state, range), 'workspace/diagnostic').toBe(true);
  return symbols.length;
}

function exercise(state: DocumentState): void {
  const lineCount = lspLines(state).lineCount;
  for (const d of computeDiagnostics(state)) expect(inside(state, d.range)).toBe(true);
  exerciseWorkspace(state);
  for (const handler of HANDLERS) {
    const paramsAt = PARAMS_AT[handler.method]!;
    for (let line = 0; line <= lineCount; line++) {
      for (const character of [0, 1, 3, 7, 12, 40]) {
        const result = answer(handler, state, paramsAt({ line, character }, lineCount));
        for (const range of rangesIn(result)) expect(inside(state, range), handler.method).toBe(true);
        for (const folded of handler.method === 'textDocument/foldingRange' ? (result as { endLine: number }[]) : []) {
          expect(folded.endLine).toBeLessThan(lineCount);
        }
      }
    }
  }
}

describe('the feature table', () => {
  it('is exercised whole: every handler of every listed feature has parameters here', () => {
    expect(HANDLERS.length).toBeGreaterThanOrEqual(11);
    expect(HANDLERS.map((handler) => handler.method).filter((method) => !PARAMS_AT[method])).toEqual([]);
  });
});

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

  it('workspace requests keep ranges inside the document on the examples, whose declarations the fragments rarely make', () => {
    for (const path of [
      'examples/svc.yaml',
      'examples/broken/svc.yaml',
      'examples/fixable/svc.yaml',
      'examples/legacy/svc.toml',
    ]) {
      expect(
        exerciseWorkspace(createState(`file:///w/${path}`, 1, readFileSync(join(ROOT, path), 'utf8'))),
        path,
      ).toBeGreaterThan(0);
    }
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
