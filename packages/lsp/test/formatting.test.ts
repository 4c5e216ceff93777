/**
 * Document and range formatting: unit cases with exact edits, and over stdio through the built
 * server on every fixture and example: the edits give `formatManifest`'s text, and formatting that
 * text again gives no edit.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatManifest, ManifestEditError } from '@svc-manifest/validator';
import { formatDocument, formatRange } from '../src/features/formatting.js';
import { startStdioClient, type StdioClient } from './built-server.js';
import { applyEdits, doc, positionIn, tomlUri } from './helpers.js';
import { manifestPaths } from '../../../test/support/fixtures.js';

const MESSY =
  'svc_version:   2\nagents:\n    main:\n        model: x   \n\n\n\ntriggers:\n    - slug: t\n      type: cron\n';

describe('formatDocument', () => {
  it('answers the formatter edits, with the editor tab size as the width', () => {
    const edits = formatDocument(doc(MESSY), { options: { tabSize: 2, insertSpaces: true } });
    expect(applyEdits(MESSY, edits)).toBe(
      'svc_version: 2\nagents:\n  main:\n    model: x\n\ntriggers:\n  - slug: t\n    type: cron\n',
    );
    expect(edits[0]).toEqual({
      range: { start: { line: 0, character: 11 }, end: { line: 0, character: 15 } },
      newText: ': ',
    });
    expect(applyEdits(MESSY, formatDocument(doc(MESSY), { options: { tabSize: 4, insertSpaces: true } }))).toBe(
      'svc_version: 2\nagents:\n    main:\n        model: x\n\ntriggers:\n    - slug: t\n      type: cron\n',
    );
    expect(applyEdits(MESSY, formatDocument(doc(MESSY), { options: { tabSize: 4, insertSpaces: false } }))).toContain(
      '\n  main:\n',
    );
  });

  it('writes single-quoted YAML values in double quotes, one edit per scalar, and leaves those that would need an escape', () => {
    const text = "svc_version: 2\nproject:\n  name: 'web'\n  description: 'say \"hi\"'\n";
    const edits = formatDocument(doc(text), { options: { tabSize: 2, insertSpaces: true } });
    expect(edits).toEqual([
      { range: { start: positionIn(text, "'web'", 0, 0), end: positionIn(text, "'web'", 0, 5) }, newText: '"web"' },
    ]);
    expect(applyEdits(text, edits)).toBe('svc_version: 2\nproject:\n  name: "web"\n  description: \'say "hi"\'\n');
  });

  it("keeps the quotes when the document's policy file says preserve", () => {
    const text = "svc_version: 2\nproject:\n  name: 'web'\n";
    const state = doc(text);
    const options = { options: { tabSize: 2, insertSpaces: true } };
    const policy = { file: '/p/.svc-manifest.yaml', rules: {}, format: { quotes: 'preserve' as const } };
    expect(formatDocument(state, options, { policy: (uri) => (uri === state.uri ? policy : undefined) })).toEqual([]);
    expect(
      formatDocument(state, options, { policy: () => ({ file: '/p/.svc-manifest.yaml', rules: {} }) }),
    ).toHaveLength(1);
    const range = { start: positionIn(text, 'name', 0, 0), end: positionIn(text, "'web'", 0, 5) };
    expect(formatRange(state, { ...options, range }, { policy: () => policy })).toEqual([]);
  });

  it("puts the policy file's indent and sequence style over the editor's tab size", () => {
    const text = 'svc_version: 2\nagents:\n  main:\n    model: x\ntriggers:\n  - slug: t\n';
    const state = doc(text);
    const policy = { file: '/p/.svc-manifest.yaml', rules: {}, format: { indent: 3, sequences: 'flush' as const } };
    const edits = formatDocument(state, { options: { tabSize: 2, insertSpaces: true } }, { policy: () => policy });
    expect(applyEdits(text, edits)).toBe('svc_version: 2\nagents:\n   main:\n      model: x\ntriggers:\n- slug: t\n');
  });

  it('formats TOML and answers nothing for a file it cannot read', () => {
    const text = 'svc_version=2\n  [project]\n  name  =  "x"';
    expect(applyEdits(text, formatDocument(doc(text, tomlUri), { options: { tabSize: 2, insertSpaces: true } }))).toBe(
      'svc_version = 2\n[project]\nname = "x"\n',
    );
    expect(formatDocument(doc('svc_version: [\n'), { options: { tabSize: 2, insertSpaces: true } })).toEqual([]);
  });
  // A client that sends the mark has it as line 0's first character, as in every other position the server answers.
  it('re-indents a document that starts with a byte-order mark, and keeps the mark', () => {
    const text = '\uFEFFsvc_version:   2\nagents:\n    main:\n        model: x\n';
    const edits = formatDocument(doc(text), { options: { tabSize: 2, insertSpaces: true } });
    expect(edits).toEqual([
      { range: { start: { line: 0, character: 12 }, end: { line: 0, character: 16 } }, newText: ': ' },
      { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 4 } }, newText: '  ' },
      { range: { start: { line: 3, character: 0 }, end: { line: 3, character: 8 } }, newText: '    ' },
    ]);
    expect(applyEdits(text, edits)).toBe('\uFEFFsvc_version: 2\nagents:\n  main:\n    model: x\n');
  });
});

describe('formatRange', () => {
  it('formats the selected lines only', () => {
    const range = { start: positionIn(MESSY, 'main:', 0, 0), end: positionIn(MESSY, 'x   ', 0, 4) };
    const edits = formatRange(doc(MESSY), { options: { tabSize: 2, insertSpaces: true }, range });
    expect(applyEdits(MESSY, edits)).toBe(
      'svc_version:   2\nagents:\n  main:\n    model: x\n\n\n\ntriggers:\n    - slug: t\n      type: cron\n',
    );
  });

  it('formats the selected lines of a document that starts with a byte-order mark', () => {
    const text = '\uFEFFsvc_version:   2\nagents:\n    main:\n        model: x   \n';
    const range = { start: positionIn(text, 'agents', 0, 0), end: positionIn(text, 'x   ', 0, 4) };
    const edits = formatRange(doc(text), { options: { tabSize: 2, insertSpaces: true }, range });
    expect(applyEdits(text, edits)).toBe('\uFEFFsvc_version:   2\nagents:\n  main:\n    model: x\n');
  });

  it('leaves out re-indentation that would change the value on its own', () => {
    // Only the first of two entries of a map selected: moving it alone would change the map.
    const text = 'svc_version: 2\nproject:\n    name:   x\n    description: y\n';
    const range = { start: positionIn(text, 'name', 0, 0), end: positionIn(text, 'x\n', 0, 1) };
    expect(applyEdits(text, formatRange(doc(text), { options: { tabSize: 2, insertSpaces: true }, range }))).toBe(
      'svc_version: 2\nproject:\n    name: x\n    description: y\n',
    );
  });
});

const files = manifestPaths();

describe('over stdio', () => {
  let client: StdioClient;
  beforeAll(async () => {
    client = await startStdioClient();
  }, 60_000);
  afterAll(() => client.close());

  it('announces formatting and range formatting', () => {
    expect(client.initializeResult.capabilities).toMatchObject({
      documentFormattingProvider: true,
      documentRangeFormattingProvider: true,
    });
  });

  it('formats a document with a byte-order mark, whole and by range, keeping the mark', async () => {
    const options = { tabSize: 2, insertSpaces: true };
    const text = '\uFEFFsvc_version: 2\nagents:\n    main:\n        connectors: none\n';
    const uri = 'file:///work/fmt-bom/svc.yaml';
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'yaml', version: 1, text },
    });
    const whole = await client.connection.sendRequest<{ range: never; newText: string }[]>('textDocument/formatting', {
      textDocument: { uri },
      options,
    });
    expect(applyEdits(text, whole)).toBe('\uFEFFsvc_version: 2\nagents:\n  main:\n    connectors: none\n');
    const range = { start: { line: 0, character: 0 }, end: { line: 4, character: 0 } };
    expect(
      await client.connection.sendRequest('textDocument/rangeFormatting', { textDocument: { uri }, options, range }),
    ).toEqual(whole);
    await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  });

  it('formats every fixture and example as formatManifest does, idempotently', async () => {
    const options = { tabSize: 2, insertSpaces: true };
    let formatted = 0;
    for (const [index, file] of files.entries()) {
      const text = readFileSync(file, 'utf8');
      const toml = file.endsWith('.toml');
      let expected: string;
      try {
        expected = formatManifest(text, { format: toml ? 'toml' : 'yaml' }).text;
      } catch (error) {
        if (error instanceof ManifestEditError) continue;
        throw error;
      }
      const uri = `file:///work/fmt-${index}/${toml ? 'svc.toml' : 'svc.yaml'}`;
      await client.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: toml ? 'toml' : 'yaml', version: 1, text },
      });
      const edits = await client.connection.sendRequest<{ range: never; newText: string }[]>(
        'textDocument/formatting',
        { textDocument: { uri }, options },
      );
      expect(applyEdits(text, edits), file).toBe(expected);
      await client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: 2 },
        contentChanges: [{ text: expected }],
      });
      expect(
        await client.connection.sendRequest('textDocument/formatting', { textDocument: { uri }, options }),
        file,
      ).toEqual([]);
      await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
      formatted++;
    }
    expect(formatted).toBeGreaterThan(350);
  }, 120_000);
});
