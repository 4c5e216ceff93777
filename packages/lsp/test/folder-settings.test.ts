/**
 * Settings per folder, over stdio against the built server: a client answering
 * `workspace/configuration` differently for the documents of two workspace folders (by the
 * `scopeUri` the server names) gets, in each folder, the features that folder's settings allow:
 * pushed and pulled diagnostics (with and without path checks), hover, completion, formatting.
 * A settings change is asked for again per document; a client that cannot be asked keeps the one
 * value it sent.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuiltServer, startStdioClient, type StdioClient } from './built-server.js';
import { positionIn, rangeOf } from './helpers.js';
import { createState } from '../src/document-state.js';
import { completion } from '../src/features/completion.js';
import { formatDocument } from '../src/features/formatting.js';
import { hover } from '../src/features/hover.js';

// An unknown key (`enabeld`), a folder that does not exist (`config_dir`), a line with spaces at its end (formatting has
// something to do) and an empty last line (completion offers the top-level keys there).
const YAML =
  'svc_version: 2   \ndefault_agent: helper\nagents:\n  helper:\n    enabeld: true\nagent_runtime:\n  config_dir: missing\n\n';
const HOVER_AT = positionIn(YAML, 'default_agent');
const COMPLETE_AT = { line: 7, character: 0 };
const FORMAT = { tabSize: 2, insertSpaces: true };
const unknownKey = ['unknown-key', rangeOf(YAML, 'enabeld')];
const pathNotFound = ['path-not-found', rangeOf(YAML, 'missing')];

interface Folders {
  root: string;
  /** Folder A's and B's URIs, and their manifests'. */
  a: string;
  b: string;
  aYaml: string;
  bYaml: string;
}

function makeFolders(): Folders {
  const root = mkdtempSync(join(tmpdir(), 'svc-lsp-folders-'));
  for (const name of ['a', 'b']) {
    // Each its own repository: the path check looks inside it.
    mkdirSync(join(root, name, '.git'), { recursive: true });
    writeFileSync(join(root, name, 'svc.yaml'), YAML);
  }
  const uri = (path: string) => pathToFileURL(join(root, path)).href;
  return { root, a: uri('a'), b: uri('b'), aYaml: uri('a/svc.yaml'), bYaml: uri('b/svc.yaml') };
}

/** What the features answer with the default settings, computed without a server: folder B's answers. */
function expectedWithDefaults(uri: string) {
  const state = createState(uri, 1, YAML);
  return {
    hover: hover(state, { position: HOVER_AT }),
    completion: completion(state, { position: COMPLETE_AT }),
    formatting: formatDocument(state, { options: FORMAT }),
  };
}

const codesAndRanges = (diagnostics: { code: string; range: unknown }[]) => diagnostics.map((d) => [d.code, d.range]);

describe('settings per folder (workspace/configuration with scopeUri)', () => {
  let folders: Folders;
  /** The answers by folder URI; the test changes them. */
  let byFolder: Record<string, Record<string, unknown>>;
  /** Every item the server asked for. */
  const asked: { scopeUri?: string; section?: string }[] = [];
  let client: StdioClient;

  const answer = (item: { scopeUri?: string; section?: string }) => {
    asked.push(item);
    const folder = Object.keys(byFolder).find((uri) => item.scopeUri?.startsWith(`${uri}/`));
    return folder ? byFolder[folder] : {};
  };
  const publications = (uri: string) =>
    client.notifications.filter((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri);
  const publication = (uri: string, count: number) =>
    client.until(() => {
      const all = publications(uri);
      return all.length >= count && (all[count - 1]!.params.diagnostics as { code: string; range: unknown }[]);
    }, `publication ${count} for ${uri}`);

  beforeAll(async () => {
    ensureBuiltServer();
    folders = makeFolders();
    // Folder A: hover, completion, formatting and path checks off; folder B: the defaults.
    byFolder = {
      [folders.a]: {
        hover: { enable: false },
        completion: { enable: false },
        format: { enable: false },
        pathChecks: { enable: false },
      },
      [folders.b]: {},
    };
    client = await startStdioClient(
      answer,
      undefined,
      {},
      {
        workspaceFolders: [
          { uri: folders.a, name: 'a' },
          { uri: folders.b, name: 'b' },
        ],
      },
    );
    for (const uri of [folders.aYaml, folders.bYaml])
      await client.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'yaml', version: 1, text: YAML },
      });
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    rmSync(folders.root, { recursive: true, force: true });
  });

  it("asks for each document's settings with the document as scopeUri", async () => {
    await publication(folders.aYaml, 1);
    await publication(folders.bYaml, 1);
    expect(asked).toContainEqual({ scopeUri: folders.aYaml, section: 'svc' });
    expect(asked).toContainEqual({ scopeUri: folders.bYaml, section: 'svc' });
  });

  it("pushes each folder's diagnostics: no path check in A", async () => {
    expect(codesAndRanges(await publication(folders.aYaml, 1))).toEqual([unknownKey]);
    expect(codesAndRanges(await publication(folders.bYaml, 1))).toEqual([unknownKey, pathNotFound]);
  });

  it('answers hover, completion and formatting in B, and nothing in A', async () => {
    const request = (method: string, uri: string, params: Record<string, unknown>) =>
      client.connection.sendRequest(method, { textDocument: { uri }, ...params });
    const expected = expectedWithDefaults(folders.bYaml);
    // (Each has something to say in B: the comparison with A is not between two empty answers.)
    expect(expected.hover).not.toBeNull();
    expect(expected.completion.items.map((item) => item.label)).toContain('runtime');
    expect(expected.formatting.length).toBeGreaterThan(0);

    expect(await request('textDocument/hover', folders.bYaml, { position: HOVER_AT })).toEqual(expected.hover);
    expect(await request('textDocument/completion', folders.bYaml, { position: COMPLETE_AT })).toEqual(
      expected.completion,
    );
    expect(await request('textDocument/formatting', folders.bYaml, { options: FORMAT })).toEqual(expected.formatting);

    expect(await request('textDocument/hover', folders.aYaml, { position: HOVER_AT })).toBeNull();
    expect(await request('textDocument/completion', folders.aYaml, { position: COMPLETE_AT })).toEqual({
      isIncomplete: false,
      items: [],
    });
    expect(await request('textDocument/formatting', folders.aYaml, { options: FORMAT })).toBeNull();
    expect(
      await request('textDocument/rangeFormatting', folders.aYaml, { options: FORMAT, range: rangeOf(YAML, YAML) }),
    ).toBeNull();
  });

  it('asks again on didChangeConfiguration and applies the new answers per folder', async () => {
    // A: validation off, everything else back on; B: path checks off.
    byFolder = { [folders.a]: { validation: { enable: false } }, [folders.b]: { pathChecks: { enable: false } } };
    const before = asked.length;
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    expect(await publication(folders.aYaml, 2)).toEqual([]);
    expect(codesAndRanges(await publication(folders.bYaml, 2))).toEqual([unknownKey]);
    expect(asked.slice(before)).toContainEqual({ scopeUri: folders.aYaml, section: 'svc' });
    expect(asked.slice(before)).toContainEqual({ scopeUri: folders.bYaml, section: 'svc' });
    expect(
      await client.connection.sendRequest('textDocument/hover', {
        textDocument: { uri: folders.aYaml },
        position: HOVER_AT,
      }),
    ).toEqual(expectedWithDefaults(folders.aYaml).hover);
  });
});

describe('settings per folder for a client that pulls diagnostics', () => {
  let folders: Folders;
  let client: StdioClient;
  const asked: { scopeUri?: string }[] = [];

  beforeAll(async () => {
    ensureBuiltServer();
    folders = makeFolders();
    const answer = (item: { scopeUri?: string }) => {
      asked.push(item);
      return item.scopeUri?.startsWith(`${folders.a}/`)
        ? { pathChecks: { enable: false } }
        : item.scopeUri?.startsWith(`${folders.b}/`)
          ? { validation: { enable: false } }
          : {};
    };
    client = await startStdioClient(
      answer,
      undefined,
      { textDocument: { diagnostic: { dynamicRegistration: false } } },
      {
        workspaceFolders: [
          { uri: folders.a, name: 'a' },
          { uri: folders.b, name: 'b' },
        ],
      },
    );
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    rmSync(folders.root, { recursive: true, force: true });
  });

  it("answers textDocument/diagnostic with the document's folder's settings", async () => {
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: folders.aYaml, languageId: 'yaml', version: 1, text: YAML },
    });
    const report = await client.connection.sendRequest<{ kind: string; items: { code: string; range: unknown }[] }>(
      'textDocument/diagnostic',
      {
        textDocument: { uri: folders.aYaml },
      },
    );
    expect(report.kind).toBe('full');
    expect(codesAndRanges(report.items)).toEqual([unknownKey]);
  });

  it('answers workspace/diagnostic per file, asking for the settings of the files not open', async () => {
    const report = await client.connection.sendRequest<{
      items: { uri: string; kind: string; items: { code: string; range: unknown }[] }[];
    }>('workspace/diagnostic', { previousResultIds: [] });
    const byUri = Object.fromEntries(report.items.map((item) => [item.uri, codesAndRanges(item.items)]));
    expect(byUri).toEqual({ [folders.aYaml]: [unknownKey], [folders.bYaml]: [] });
    expect(asked).toContainEqual({ scopeUri: folders.bYaml, section: 'svc' });
  });
});

describe('a client without workspace/configuration', () => {
  it('applies the settings it sent at start to every document, and never asks', async () => {
    const folders = makeFolders();
    let asks = 0;
    const client = await startStdioClient(
      () => ++asks,
      undefined,
      { workspace: { configuration: false } },
      { initializationOptions: { svc: { hover: { enable: false }, pathChecks: { enable: false } } } },
    );
    try {
      for (const uri of [folders.aYaml, folders.bYaml]) {
        await client.connection.sendNotification('textDocument/didOpen', {
          textDocument: { uri, languageId: 'yaml', version: 1, text: YAML },
        });
        expect(
          await client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: HOVER_AT }),
        ).toBeNull();
        const diagnostics = await client.until(
          () =>
            client.notifications.find((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri)
              ?.params.diagnostics,
          `diagnostics for ${uri}`,
        );
        expect(codesAndRanges(diagnostics)).toEqual([unknownKey]);
      }
      expect(asks).toBe(0);
    } finally {
      await client.close();
      rmSync(folders.root, { recursive: true, force: true });
    }
  });
});
