/**
 * Document links for the paths a manifest names, and `path-not-found` through the built server
 * over stdio: published for a manifest on disk, cleared once the file is created and the client
 * says so (workspace/didChangeWatchedFiles), off with `svc.pathChecks.enable: false`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentLinks } from '../src/features/document-links.js';
import { publication, startStdioClient, type StdioClient } from './built-server.js';
import { doc, rangeOf, tomlUri } from './helpers.js';

const YAML = `svc_version: 2
default_agent: main
agents:
  main: {}
agent_runtime:
  config_dir: .svc
sandbox:
  templates:
    - slug: base
      dockerfile: "docker/base image.Dockerfile"
    - slug: up
      dockerfile: ../Dockerfile
apps:
  web:
    path: web
    output_dir: web/dist
`;

describe('documentLinks', () => {
  it('links each path, resolved against the manifest, without its quotes; none for a path that goes up', () => {
    expect(documentLinks(doc(YAML, 'file:///work/project/svc.yaml'))).toEqual([
      { range: rangeOf(YAML, '.svc'), target: 'file:///work/project/.svc', tooltip: 'Open .svc' },
      {
        range: rangeOf(YAML, 'docker/base image.Dockerfile'),
        target: 'file:///work/project/docker/base%20image.Dockerfile',
        tooltip: 'Open docker/base image.Dockerfile',
      },
      { range: rangeOf(YAML, 'web', 1), target: 'file:///work/project/web', tooltip: 'Open web' },
      { range: rangeOf(YAML, 'web/dist'), target: 'file:///work/project/web/dist', tooltip: 'Build output: web/dist' },
    ]);
  });

  it('works in TOML, and gives nothing for a document without a hierarchical URI', () => {
    const toml = 'svc_version = 1\n\n[agent_runtime]\nconfig_dir = "agents"\n';
    expect(documentLinks(doc(toml, tomlUri))).toEqual([
      { range: rangeOf(toml, 'agents'), target: 'file:///work/agents', tooltip: 'Open agents' },
    ]);
    expect(documentLinks(doc(YAML, 'untitled:Untitled-1'))).toEqual([]);
  });
});

describe('over stdio', () => {
  let work: string;
  let settings: Record<string, unknown> = {};
  let client: StdioClient;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'svc-lsp-paths-'));
    mkdirSync(join(work, '.git'));
    mkdirSync(join(work, 'web'));
    client = await startStdioClient(() => settings);
  }, 60_000);
  afterAll(async () => {
    await client.close();
    rmSync(work, { recursive: true, force: true });
  });

  const published = (uri: string, count: number) => publication<{ code: string; range: unknown }>(client, uri, count);

  it('links, warns on a missing source path, and clears the warning when the file is created', async () => {
    const file = join(work, 'svc.yaml');
    writeFileSync(file, YAML);
    const uri = pathToFileURL(file).href;
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'yaml', version: 1, text: YAML },
    });
    const links = await client.connection.sendRequest<{ target: string }[]>('textDocument/documentLink', {
      textDocument: { uri },
    });
    expect(links.map((link) => link.target)).toEqual([
      pathToFileURL(join(work, '.svc')).href,
      pathToFileURL(join(work, 'docker', 'base image.Dockerfile')).href,
      pathToFileURL(join(work, 'web')).href,
      pathToFileURL(join(work, 'web', 'dist')).href,
    ]);
    const first = await published(uri, 1);
    expect(first.map((d) => [d.code, d.range])).toEqual([
      ['path-not-found', rangeOf(YAML, '.svc')],
      ['path-not-found', rangeOf(YAML, 'docker/base image.Dockerfile')],
      // The schema refuses `..`; the path check does not look it up.
      ['invalid-format', rangeOf(YAML, '../Dockerfile')],
    ]);
    mkdirSync(join(work, '.svc'));
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: pathToFileURL(join(work, '.svc')).href, type: 1 }],
    });
    const second = await published(uri, 2);
    expect(second.map((d) => [d.code, d.range])).toEqual([
      ['path-not-found', rangeOf(YAML, 'docker/base image.Dockerfile')],
      ['invalid-format', rangeOf(YAML, '../Dockerfile')],
    ]);

    settings = { pathChecks: { enable: false } };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    expect((await published(uri, 3)).map((d) => d.code)).toEqual(['invalid-format']);
  });
});

describe('looking paths up again', () => {
  const MANIFEST = `svc_version: 2
default_agent: main
agents:
  main: {}
agent_runtime:
  config_dir: .svc
`;
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'svc-lsp-lookups-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** Opens a manifest in its own folder, creates `.svc` without telling the server, then edits it once. */
  async function createdUnannounced(watches: boolean) {
    const folder = mkdtempSync(join(work, 'repo-'));
    mkdirSync(join(folder, '.git'));
    const uri = pathToFileURL(join(folder, 'svc.yaml')).href;
    const client = await startStdioClient(
      null,
      undefined,
      watches ? { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } } : {},
    );
    const published = (count: number) => publication<{ code: string }>(client, uri, count);
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'yaml', version: 1, text: MANIFEST },
    });
    expect((await published(1)).map((d) => d.code)).toEqual(['path-not-found']);
    mkdirSync(join(folder, '.svc'));
    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: `${MANIFEST}# edited\n` }],
    });
    return { client, uri, folder, afterEdit: (await published(2)).map((d) => d.code), published };
  }

  it("keeps each path's kind for a client that watches files, until it announces a change", async () => {
    const { client, folder, afterEdit, published } = await createdUnannounced(true);
    try {
      // Not asked again on a keystroke: the client has not said a file was created.
      expect(afterEdit).toEqual(['path-not-found']);
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: pathToFileURL(join(folder, '.svc')).href, type: 1 }],
      });
      expect(await published(3)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('asks the file system on every validation for a client that does not watch files', async () => {
    const { client, afterEdit } = await createdUnannounced(false);
    try {
      expect(afterEdit).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
