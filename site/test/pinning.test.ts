/**
 * The README's other two ways of pinning a schema URL (yaml-language-server's modeline is in
 * schemas.test.ts): Taplo (@taplo/lsp, Even Better TOML's engine, run as the extension runs it
 * through bench/taplo-server.mjs; Taplo fetches a `#:schema` URL itself) with a directive naming the
 * pinned svc.v1.schema.json served by the local static server; and our own server, which resolves
 * the pinned URL's file name to its bundled copy without fetching.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { createState, findSchemaPin, schemaPinDiagnostics } from '@svc-manifest/lsp';
import { EditorServer } from '../../test/support/editor-server.js';
import { SCHEMA_DIR } from '../scripts/build.js';
import { REPO, servedSite, type ServedSite } from './support.js';

const VERSION = '0.1.0';

let site: ServedSite;

beforeAll(async () => {
  site = await servedSite();
}, 120_000);

afterAll(async () => {
  await site?.stop();
});

describe('Taplo with a #:schema directive naming the served, pinned svc.v1.schema.json', () => {
  let taplo: EditorServer;

  beforeAll(async () => {
    const settings = {
      schema: { enabled: true, associations: {}, catalogs: [], links: false },
      taplo: { configFile: { enabled: false } },
    };
    taplo = await EditorServer.start({
      name: 'taplo',
      command: process.execPath,
      args: [join(REPO, 'bench/taplo-server.mjs')],
      ipc: true,
      cwd: REPO,
      // Taplo validates only documents inside a workspace folder: the built site's (a real folder).
      rootUri: pathToFileURL(site.dir).href,
      initializationOptions: { configurationSection: 'evenBetterToml' },
      settings: (section) => (section === 'evenBetterToml' ? settings : null),
    });
  }, 60_000);

  afterAll(async () => {
    await taplo?.stop();
  });

  /** Taplo publishes up to three times (syntax, structure, schema): the first list `accept` takes. */
  async function diagnosticsOf(
    name: string,
    text: string,
    accept: (list: Diagnostic[]) => boolean,
  ): Promise<Diagnostic[]> {
    const uri = pathToFileURL(join(site.dir, 'pinning', name, 'svc.toml')).href;
    await taplo.open(uri, text, 'toml');
    return taplo.diagnostics(uri, accept);
  }

  it('reports what the served schema forbids on its line', async () => {
    const url = new URL(`${SCHEMA_DIR}/${VERSION}/svc.v1.schema.json`, site.base).href;
    const text = `#:schema ${url}\nsvc_version = 1\n\n[project]\nname = "demo"\n\n[env]\nrequired = "API_TOKEN"\n`;
    const diagnostics = await diagnosticsOf('invalid', text, (list) => list.length > 0);
    expect(diagnostics?.map((d) => `${d.range.start.line}: ${d.message}`)).toEqual([
      expect.stringMatching(/^7: .*array/),
    ]);
  });
});

describe('our server with a pinned, versioned schema URL', () => {
  const pinned = (format: 'yaml' | 'toml', text: string) => createState(`file:///pinning/svc.${format}`, 1, text);

  it('resolves the pinned file name to its bundled schema, offline, and checks the version against svc_version', () => {
    const v2 = new URL(`${SCHEMA_DIR}/${VERSION}/svc.v2.schema.json`, 'https://schemas.svc.example/').href;
    const yaml = pinned('yaml', `# yaml-language-server: $schema=${v2}\nsvc_version: 2\n`);
    expect(findSchemaPin(yaml)).toMatchObject({ how: 'modeline', url: v2, known: { version: 2 } });
    expect(schemaPinDiagnostics(yaml)).toEqual([]);
    const v1 = v2.replace('svc.v2', 'svc.v1');
    const toml = pinned('toml', `#:schema ${v1}\nsvc_version = 2\n`);
    expect(findSchemaPin(toml)).toMatchObject({ how: 'taplo', url: v1, known: { version: 1 } });
    expect(schemaPinDiagnostics(toml).map((d) => d.code)).toEqual(['schema-version-mismatch']);
  });
});
