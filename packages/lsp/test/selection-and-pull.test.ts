/**
 * Selection ranges and pull diagnostics: unit cases with exact ranges, and both through the built
 * server over stdio with a client that pulls (it gets `textDocument/diagnostic` answers with
 * result ids, `unchanged` for an unchanged list, and no pushed diagnostics: none is even scheduled).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectionRanges } from '../src/features/selection-ranges.js';
import { documentDiagnostics } from '../src/features/pull-diagnostics.js';
import type { SchedulerStats } from '../src/diagnostic-scheduler.js';
import { STATS_REQUEST } from '../src/server.js';
import { startStdioClient, type StdioClient } from './built-server.js';
import { doc, positionIn, rangeOf } from './helpers.js';

const YAML = 'svc_version: 2\ndefault_agent: main\nagents:\n  main:\n    model: "fast-1"\n    workspace: read\n';

type Chain = { range: unknown; parent?: Chain };
const chain = (selection: Chain | undefined): unknown[] =>
  selection ? [selection.range, ...chain(selection.parent)] : [];
const whole = { start: { line: 0, character: 0 }, end: { line: 6, character: 0 } };

describe('selectionRanges', () => {
  it('grows from a quoted value to the entry, the map, the agent and the document', () => {
    const [selection] = selectionRanges(doc(YAML), { positions: [positionIn(YAML, 'fast-1', 0, 2)] });
    expect(chain(selection)).toEqual([
      rangeOf(YAML, 'fast-1'),
      rangeOf(YAML, '"fast-1"'),
      rangeOf(YAML, 'model: "fast-1"'),
      // A block map runs to the end of its last line.
      rangeOf(YAML, 'model: "fast-1"\n    workspace: read\n'),
      rangeOf(YAML, 'main:\n    model: "fast-1"\n    workspace: read\n'),
      rangeOf(YAML, 'agents:\n  main:\n    model: "fast-1"\n    workspace: read\n'),
      whole,
    ]);
  });

  it('starts at a key on a key', () => {
    const [selection] = selectionRanges(doc(YAML), { positions: [positionIn(YAML, 'workspace', 0, 3)] });
    expect(chain(selection).slice(0, 2)).toEqual([rangeOf(YAML, 'workspace'), rangeOf(YAML, 'workspace: read')]);
  });
});

describe('documentDiagnostics', () => {
  it('answers the full list with a result id, then unchanged for the same id', () => {
    const state = doc('svc_version: 2\nagents: {}\n');
    const first = documentDiagnostics(state, {});
    expect(first.kind).toBe('full');
    expect((first as { items: { code: string }[] }).items.map((d) => d.code)).toEqual([
      'missing-key',
      'invalid-length',
    ]);
    expect(documentDiagnostics(state, { previousResultId: first.resultId })).toEqual({
      kind: 'unchanged',
      resultId: first.resultId,
    });
    expect(documentDiagnostics(doc('svc_version: 2\n'), { previousResultId: first.resultId }).kind).toBe('full');
  });
});

describe('over stdio, a client that pulls', () => {
  let client: StdioClient;
  beforeAll(async () => {
    client = await startStdioClient(null, undefined, { textDocument: { diagnostic: { dynamicRegistration: false } } });
  }, 60_000);
  afterAll(() => client.close());

  it('announces pull diagnostics and selection ranges', () => {
    expect(client.initializeResult.capabilities).toMatchObject({
      diagnosticProvider: { interFileDependencies: false },
      selectionRangeProvider: true,
    });
  });

  it('pulls diagnostics with result ids, gets unchanged, and is pushed nothing', async () => {
    const uri = 'file:///work/pull/svc.yaml';
    const text = 'svc_version: 2\ndefault_agent: main\nagents:\n  main:\n    conectors: none\n';
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'yaml', version: 1, text },
    });
    const first = await client.connection.sendRequest<{
      kind: string;
      resultId: string;
      items: { code: string; range: unknown }[];
    }>('textDocument/diagnostic', {
      textDocument: { uri },
    });
    expect(first.kind).toBe('full');
    expect(first.items.map((d) => [d.code, d.range])).toEqual([['unknown-key', rangeOf(text, 'conectors')]]);
    const again = await client.connection.sendRequest('textDocument/diagnostic', {
      textDocument: { uri },
      previousResultId: first.resultId,
    });
    expect(again).toEqual({ kind: 'unchanged', resultId: first.resultId });
    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: rangeOf(text, 'conectors'), text: 'connectors' }],
    });
    const fixed = await client.connection.sendRequest<{ kind: string; items: unknown[] }>('textDocument/diagnostic', {
      textDocument: { uri },
      previousResultId: first.resultId,
    });
    expect(fixed).toMatchObject({ kind: 'full', items: [] });
    const edited = text.replace('conectors', 'connectors');
    const ranges = await client.connection.sendRequest<Chain[]>('textDocument/selectionRange', {
      textDocument: { uri },
      positions: [positionIn(edited, 'none', 0, 1)],
    });
    expect(chain(ranges[0]).slice(0, 2)).toEqual([rangeOf(edited, 'none'), rangeOf(edited, 'connectors: none')]);
    // Answered after the didOpen and didChange above were handled: a push would have been scheduled by then.
    expect(await client.connection.sendRequest<SchedulerStats>(STATS_REQUEST)).toEqual({
      scheduled: 0,
      validations: 0,
      publications: 0,
      dropped: 0,
    });
    expect(client.notifications.filter((n) => n.method === 'textDocument/publishDiagnostics')).toEqual([]);
  });
});
