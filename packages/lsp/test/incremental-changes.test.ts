/**
 * The client's change ranges reach the document: didChange's incremental content changes are
 * turned into offset replacements (positions.ts) and handed, through the store, to
 * `ManifestDocument.update`, which then re-reads only the changed lines. A full-text change
 * (a client syncing whole texts) still works, by comparing the texts.
 */
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConnection } from 'vscode-languageserver/node';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ManifestDocument, PieceText } from '@svc-manifest/validator';
import { DocumentStore } from '../src/document-store.js';
import { applyContentChanges, OpenText } from '../src/positions.js';
import { createState, declaredVersion, updateState } from '../src/document-state.js';
import { findSchemaPin } from '../src/schema-pinning.js';
import { completion } from '../src/features/completion.js';
import { computeDiagnostics } from '../src/features/diagnostics.js';
import { startServer } from '../src/server.js';

const URI = 'file:///work/svc.yaml';

describe('applyContentChanges', () => {
  it('answers each ranged change in the offsets of the text it applies to', () => {
    const document = OpenText.create(URI, 'yaml', 1, 'svc_version: 2\r\nagents:\n  a: {}\n');
    const { document: updated, changes } = applyContentChanges(
      document,
      [
        { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 6 } }, text: 'robots' },
        { range: { start: { line: 2, character: 2 }, end: { line: 2, character: 3 } }, text: 'bé😀' },
        { range: { start: { line: 0, character: 14 }, end: { line: 1, character: 0 } }, text: '\n' },
      ],
      2,
    );
    expect(updated.getText()).toBe('svc_version: 2\nrobots:\n  bé😀: {}\n');
    expect(updated.version).toBe(2);
    // Line 1 starts after the CRLF (16); line 2 of the second text at 24; the CRLF at 14..16.
    expect(changes).toEqual([
      { start: 16, end: 22, newLength: 6 },
      { start: 26, end: 27, newLength: 4 },
      { start: 14, end: 16, newLength: 1 },
    ]);
  });

  it('answers no changes when one replaces the whole text', () => {
    const document = OpenText.create(URI, 'yaml', 1, 'a: 1\n');
    const result = applyContentChanges(
      document,
      [{ range: { start: { line: 0, character: 3 }, end: { line: 0, character: 4 } }, text: '2' }, { text: 'b: 3\n' }],
      2,
    );
    expect(result.document.getText()).toBe('b: 3\n');
    expect(result.changes).toBeUndefined();
  });

  it('finds offsets and applies edits as the LSP library does, in a text held in many pieces', () => {
    const lineArb = fc.tuple(
      fc.string({ unit: fc.constantFrom('a', ' ', 'é', '😀', ':'), maxLength: 10 }),
      fc.constantFrom('\n', '\r\n', '\r', ''),
    );
    const positionArb = fc.record({
      line: fc.integer({ min: -1, max: 3000 }),
      character: fc.integer({ min: -1, max: 14 }),
    });
    const changeArb = fc.oneof(
      {
        weight: 9,
        arbitrary: fc.record({
          range: fc.record({ start: positionArb, end: positionArb }),
          text: fc.string({ unit: fc.constantFrom('x', '\n', '\r', '\r\n', '😀'), maxLength: 5 }),
        }),
      },
      { weight: 1, arbitrary: fc.record({ text: fc.constantFrom('', 'a\r\nb', 'k: v\n'.repeat(9000)) }) },
    );
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 2500 }),
        fc.array(changeArb, { maxLength: 6 }),
        (lines, repeat, contentChanges) => {
          const content = lines
            .map(([l, e]) => l + e)
            .join('')
            .repeat(repeat);
          let oracle = TextDocument.create(URI, 'yaml', 1, content);
          // Clients send ranges inside the text (the library's line bookkeeping assumes it): lines wrap into it.
          const inside = contentChanges.map((change) => {
            if (!('range' in change)) {
              oracle = TextDocument.update(oracle, [change], 2);
              return change;
            }
            const wrap = (p: { line: number; character: number }) => ({
              line: Math.abs(p.line) % oracle.lineCount,
              character: p.character,
            });
            const clamped = {
              range: { start: wrap(change.range.start), end: wrap(change.range.end) },
              text: change.text,
            };
            oracle = TextDocument.update(oracle, [clamped], 2);
            return clamped;
          });
          const { document } = applyContentChanges(OpenText.create(URI, 'yaml', 1, content), inside, 2);
          expect(document.getText()).toBe(oracle.getText());
          expect(document.text.lineCount).toBe(oracle.lineCount);
          for (const line of [-1, 0, 1, 2, 7, 99, 1000, 2999])
            for (const character of [-1, 0, 1, 5, 40])
              expect(document.text.offsetAt(line, character)).toBe(oracle.offsetAt({ line, character }));
        },
      ),
      { numRuns: 120 },
    );
  });
});

describe('a keystroke in a large file', () => {
  it('is validated and published without making the whole text', () => {
    const agents = Array.from(
      { length: 1500 },
      (_, i) => `  agent-${i}:\n    description: "agent ${i}"\n    connectors: [gh, missing-${i % 7}]\n`,
    ).join('');
    const text = `# yaml-language-server: $schema=https://example.com/other.json\nsvc_version: 2\ndefault_agent: agent-3\nagents:\n${agents}connectors:\n  - slug: gh\n`;
    let state = createState(URI, 1, text);
    const before = computeDiagnostics(state);
    expect(before.length).toBeGreaterThan(1000);
    let source = PieceText.from(text);
    const at = text.indexOf('agent 700') + 5;
    for (let version = 2; version < 6; version++) {
      const insert = version % 2 === 0;
      source = insert ? source.edit(at, at, 'x') : source.edit(at, at + 1, '');
      state = updateState(state, version, source, [
        { start: at, end: insert ? at : at + 1, newLength: insert ? 1 : 0 },
      ]);
      const diagnostics = computeDiagnostics(state);
      expect(source.isMaterialized).toBe(false);
      // What a server that parsed the new text afresh publishes: codes, ranges and fixes.
      expect(diagnostics).toHaveLength(before.length);
      expect(diagnostics).toEqual(computeDiagnostics(createState(URI, version, source.toString())));
    }
  });

  it('publishes again, as the same objects, the diagnostics whose lines and columns a keystroke did not move', () => {
    const agents = Array.from(
      { length: 300 },
      (_, i) => `  agent-${i}:\n    description: "agent ${i}"\n    connectors: [missing-${i % 7}]\n`,
    ).join('');
    // Two diagnostics per agent (an unknown key, an undeclared connector), none for the top level.
    const text = `svc_version: 2\ndefault_agent: agent-0\nagents:\n${agents}`;
    let state = createState(URI, 1, text);
    const before = computeDiagnostics(state);
    expect(before).toHaveLength(600);
    const at = text.indexOf('agent 150') + 5;
    const source = PieceText.from(text).edit(at, at, 'x');
    state = updateState(state, 2, source, [{ start: at, end: at, newLength: 1 }]);
    const after = computeDiagnostics(state);
    expect(after).toEqual(computeDiagnostics(createState(URI, 2, source.toString())));
    const editLine = text.slice(0, at).split('\n').length - 1;
    const above = after.filter((d) => d.range.end.line < editLine);
    const below = after.filter((d) => d.range.start.line > editLine);
    expect(above).toHaveLength(300);
    expect(below).toHaveLength(299);
    for (const d of above) expect(before).toContain(d);
    // Past the edited agent (its connectors are checked again), the offsets moved by one and no line
    // or column did: the same LSP objects.
    const beyond = below.filter((d) => d.range.start.line > editLine + 1);
    expect(beyond).toHaveLength(298);
    for (const d of beyond) expect(before).toContain(d);
    // A line added: past it every diagnostic is a line down, converted again.
    const note = '    # note\n';
    const lineAfter = source.toString().indexOf('\n', at) + 1;
    const added = source.edit(lineAfter, lineAfter, note);
    state = updateState(state, 3, added, [{ start: lineAfter, end: lineAfter, newLength: note.length }]);
    const moved = computeDiagnostics(state);
    expect(moved).toEqual(computeDiagnostics(createState(URI, 3, added.toString())));
    const movedBeyond = moved.filter((d) => d.range.start.line > editLine + 2);
    expect(movedBeyond).toHaveLength(298);
    for (const [i, d] of movedBeyond.entries()) {
      expect(after).not.toContain(d);
      expect(d.range).toEqual({
        start: { ...beyond[i]!.range.start, line: beyond[i]!.range.start.line + 1 },
        end: { ...beyond[i]!.range.end, line: beyond[i]!.range.end.line + 1 },
      });
    }
  });

  it('keeps the LSP objects of diagnostics a keystroke did not move when a path warning is among them', () => {
    const agents = Array.from(
      { length: 50 },
      (_, i) => `  agent-${i}:\n    description: "agent ${i}"\n    connectors: [missing-${i % 7}]\n`,
    ).join('');
    // The path warning comes first: every diagnostic of the validation's own list is one place further in the merged list.
    const text = `svc_version: 2\nagent_runtime:\n  config_dir: gone\ndefault_agent: agent-0\nagents:\n${agents}`;
    const context = { files: () => ({ stat: () => 'missing' as const }) };
    let state = createState(URI, 1, text);
    const before = computeDiagnostics(state, {}, context);
    expect(before.map((d) => d.code).slice(0, 1)).toEqual(['path-not-found']);
    const at = text.indexOf('agent 25') + 5;
    const source = PieceText.from(text).edit(at, at, 'x');
    state = updateState(state, 2, source, [{ start: at, end: at, newLength: 1 }]);
    const after = computeDiagnostics(state, {}, context);
    expect(after).toEqual(computeDiagnostics(createState(URI, 2, source.toString()), {}, context));
    const editLine = text.slice(0, at).split('\n').length - 1;
    // Past the edited agent the offsets moved by one and no line or column did: the same LSP objects.
    const beyond = after.filter((d) => d.range.start.line > editLine + 1);
    expect(beyond).toHaveLength(48);
    for (const d of beyond) expect(before).toContain(d);
  });

  it('keeps the LSP objects of diagnostics a keystroke did not move when the policy sets their severity', () => {
    const agents = Array.from(
      { length: 50 },
      (_, i) => `  agent-${i}:\n    description: "agent ${i}"\n    connectors: [missing-${i % 7}]\n`,
    ).join('');
    // Per agent an unknown key (an error no policy changes) and an undeclared connector (a warning made an error).
    const text = `svc_version: 2\ndefault_agent: agent-0\nagents:\n${agents}`;
    const context = {
      policy: () => ({ file: '/work/.svc-manifest.yaml', rules: { 'agent-connector-declared': 'error' as const } }),
    };
    let state = createState(URI, 1, text);
    const before = computeDiagnostics(state, {}, context);
    expect(before.filter((d) => d.code === 'agent-connector-declared' && d.severity === 1)).toHaveLength(50);
    // Validated again unchanged (a pull after a push): the same objects.
    for (const [i, d] of computeDiagnostics(state, {}, context).entries()) expect(d).toBe(before[i]);
    const at = text.indexOf('agent 25') + 5;
    const source = PieceText.from(text).edit(at, at, 'x');
    state = updateState(state, 2, source, [{ start: at, end: at, newLength: 1 }]);
    const after = computeDiagnostics(state, {}, context);
    expect(after).toEqual(computeDiagnostics(createState(URI, 2, source.toString()), {}, context));
    const editLine = text.slice(0, at).split('\n').length - 1;
    const above = after.filter((d) => d.range.end.line < editLine);
    expect(above).toHaveLength(50);
    for (const d of above) expect(before).toContain(d);
    // Past the edited agent the offsets moved by one and no line or column did: the same LSP objects.
    const beyond = after.filter((d) => d.range.start.line > editLine + 1);
    expect(beyond).toHaveLength(48);
    for (const d of beyond) expect(before).toContain(d);
  });

  it('in a TOML file that does not parse is validated without making the whole text, and still reads what it pins', () => {
    // While a table header is typed the file has a syntax error and no tree: its `svc_version` and
    // `$schema` are read from the lines before the first header, not from the whole text.
    const triggers = Array.from(
      { length: 1500 },
      (_, i) => `[[triggers]]\nslug = "t-${i}"\ntype = "cron"\ncron = "0 0 * * *"\n`,
    ).join('\n');
    const text = `"$schema" = "https://schemas.svc.example/manifest/svc.v1.schema.json"\nmatrix = [\n  [1, 2],\n]\nnotes = """\n[not.a.header]\n"""\nsvc_version = 1\n\n${triggers}`;
    const uri = 'file:///work/svc.toml';
    let state = createState(uri, 1, text);
    computeDiagnostics(state);
    let source = PieceText.from(text);
    const at = text.indexOf('[[triggers]]\nslug = "t-700"');
    for (const [version, typed] of ['[', '[[', '[[t'].entries()) {
      source = source.edit(at, at + version, typed);
      state = updateState(state, version + 2, source, [{ start: at, end: at + version, newLength: typed.length }]);
      const diagnostics = computeDiagnostics(state);
      expect(state.doc.root).toBeNull();
      expect(diagnostics.map((d) => d.code)).toEqual(['toml-syntax']);
      expect(declaredVersion(state)).toBe(1);
      expect(findSchemaPin(state)?.url).toBe('https://schemas.svc.example/manifest/svc.v1.schema.json');
      expect(source.isMaterialized).toBe(false);
      expect(diagnostics).toEqual(computeDiagnostics(createState(uri, version + 2, source.toString())));
    }
  });

  it('in a YAML file without svc_version asks the tree, not the whole text, for the version', () => {
    const agents = Array.from({ length: 1500 }, (_, i) => `  agent-${i}:\n    description: "agent ${i}"\n`).join('');
    const text = `default_agent: agent-3\nagents:\n${agents}`;
    let state = createState(URI, 1, text);
    computeDiagnostics(state);
    let source = PieceText.from(text);
    const at = text.indexOf('agent 700') + 5;
    source = source.edit(at, at, 'x');
    state = updateState(state, 2, source, [{ start: at, end: at, newLength: 1 }]);
    expect(computeDiagnostics(state).map((d) => d.code)).toEqual(['svc-version']);
    expect(declaredVersion(state)).toBeNull();
    expect(source.isMaterialized).toBe(false);
    // A value the tree does not read as 1 or 2 is still read from the text.
    expect(declaredVersion(createState(URI, 1, `svc_version: "1"\n${text}`))).toBe(1);
  });

  it('is completed before it is parsed by reading the pending text by ranges', () => {
    const agents = Array.from(
      { length: 1500 },
      (_, i) => `  agent-${i}:\n    description: "agent ${i}"\n    workspace: branch\n`,
    ).join('');
    const text = `svc_version: 2\ndefault_agent: agent-3\nagents:\n${agents}`;
    const store = new DocumentStore(() => {});
    store.change({ uri: URI, version: 1, text: PieceText.from(text) });
    void store.state(URI);
    // A keystroke: `workspace: ` emptied on agent 700, and a completion asked there before any parse.
    const line = text.indexOf('workspace: branch', text.indexOf('agent-700:'));
    const at = line + 'workspace: '.length;
    const pending = PieceText.from(text).edit(at, at + 'branch'.length, '');
    store.change({
      uri: URI,
      version: 2,
      text: pending,
      changes: [{ start: at, end: at + 'branch'.length, newLength: 0 }],
    });
    const typing = store.typing(URI)!;
    expect(typing.text).toBe(pending);
    const position = { line: pending.slice(0, at).split('\n').length - 1, character: '    workspace: '.length };
    const labels = completion(typing, { position }).items.map((item) => item.label);
    expect(labels).toEqual(expect.arrayContaining(['branch']));
    expect(pending.isMaterialized).toBe(false);
  });
});

describe('the document store', () => {
  it('passes the changes to the document, composing those of edits not parsed yet', () => {
    const store = new DocumentStore(() => {});
    const text = 'svc_version: 2\nagents:\n  a: {}\n';
    store.change({ uri: URI, version: 1, text });
    const t2 = text.replace('a: {}', 'ab: {}');
    const t3 = t2.replace('svc_version: 2', 'svc_version: 2 # v');
    store.change({ uri: URI, version: 2, text: t2, changes: [{ start: 26, end: 26, newLength: 1 }] });
    store.change({ uri: URI, version: 3, text: t3, changes: [{ start: 14, end: 14, newLength: 4 }] });
    const state = store.state(URI)!;
    expect(state.version).toBe(3);
    expect(state.doc.text).toBe(t3);
    expect(state.doc.editedRegion?.fromChanges).toBe(true);
    expect(state.doc.value).toEqual(ManifestDocument.parse(t3).value);
    // A full-text change in the burst: the texts are compared instead.
    const t4 = t3.replace('ab', 'abc');
    store.change({ uri: URI, version: 4, text: t4, changes: [{ start: 31, end: 31, newLength: 1 }] });
    store.change({ uri: URI, version: 5, text: t4 });
    expect(store.state(URI)!.doc.editedRegion?.fromChanges).toBe(false);
    expect(store.state(URI)!.doc.text).toBe(t4);
  });

  it('ignores changes that do not make the text (the texts are compared)', () => {
    const store = new DocumentStore(() => {});
    store.change({ uri: URI, version: 1, text: 'a: 1\nb: 2\n' });
    store.change({ uri: URI, version: 2, text: 'a: 1\nb: 3\n', changes: [{ start: 0, end: 1, newLength: 1 }] });
    const doc = store.state(URI)!.doc;
    expect(doc.editedRegion?.fromChanges).toBe(false);
    expect(doc.value).toEqual({ a: 1, b: 3 });
  });
});

describe('the server', () => {
  let client: ProtocolConnection | undefined;
  afterEach(() => {
    client?.dispose();
    vi.restoreAllMocks();
  });

  it('hands the ranges of an incremental didChange to ManifestDocument.update, and full-text changes without them', async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const connection = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
    startServer(connection, { debounceMs: 0 });
    connection.listen();
    client = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
    const published: { version?: number; diagnostics: { code: string }[] }[] = [];
    /** Called after each publication for URI (a pending `waitFor`). */
    let onPublished: (() => void) | undefined;
    client.onNotification(
      'textDocument/publishDiagnostics',
      (params: { uri: string; version?: number; diagnostics: { code: string }[] }) => {
        if (params.uri === URI) published.push(params);
        onPublished?.();
      },
    );
    client.onRequest('workspace/configuration', () => [null]);
    client.listen();
    await client.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} });
    await client.sendNotification('initialized', {});
    // The spy calls the real update and records its arguments and results.
    const spy = vi.spyOn(ManifestDocument.prototype, 'update');
    const lastCall = () => {
      const index = spy.mock.calls.length - 1;
      const [text, changes] = spy.mock.calls[index]!;
      return {
        text: String(text),
        changes,
        fromChanges: (spy.mock.results[index]!.value as ManifestDocument).editedRegion?.fromChanges === true,
      };
    };
    const text = 'svc_version: 2\ndefault_agent: a\nagents:\n  a: {}\n';
    await client.sendNotification('textDocument/didOpen', {
      textDocument: { uri: URI, languageId: 'yaml', version: 1, text },
    });
    /** The diagnostics published for `version`, once they are. */
    const waitFor = (version: number) =>
      new Promise<(typeof published)[number]>((resolve) => {
        const check = () => {
          const found = published.find((p) => p.version === version);
          if (found) resolve(found);
          else onPublished = check;
        };
        check();
      });
    expect((await waitFor(1)).diagnostics).toEqual([]);
    // Rename the agent on line 3: `a` → `b`, so default_agent names no declared agent.
    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [{ range: { start: { line: 3, character: 2 }, end: { line: 3, character: 3 } }, text: 'b' }],
    });
    expect((await waitFor(2)).diagnostics.map((d) => d.code)).toEqual(['default-agent-declared']);
    const offset = text.indexOf('a: {}');
    expect(lastCall()).toEqual({
      text: text.replace('a: {}', 'b: {}'),
      changes: [{ start: offset, end: offset + 1, newLength: 1 }],
      fromChanges: true,
    });
    // A client that syncs whole texts.
    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri: URI, version: 3 },
      contentChanges: [{ text }],
    });
    expect((await waitFor(3)).diagnostics).toEqual([]);
    expect(lastCall()).toEqual({ text, changes: undefined, fromChanges: false });
  });
});
