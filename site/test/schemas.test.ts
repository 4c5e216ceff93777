/**
 * The schema URLs, served: the site built for a base URL on this machine and previewed with the
 * `serve` package (as `npm run site:serve` does). Every schema file is fetched over HTTP and must
 * carry its own URL as `$id`, the headers `_headers` promises (`application/schema+json`, any
 * origin may read), the content the generator builds for that URL, and compile in ajv and in
 * python3-jsonschema (an implementation that shares no code with ours). Then yaml-language-server
 * (from npm) validates a manifest that pins the served `svc.v2.schema.json` with a modeline:
 * pinning proven end to end.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { parse as parseYaml } from 'yaml';
import { buildSchemas } from '@svc-manifest/schema';
import { EditorServer, YAML_LANGUAGE_SERVER } from '../../test/support/editor-server.js';
import { DEFAULT_BASE_URL, SCHEMA_DIR, siteSchemas } from '../scripts/build.js';
import { REPO, servedSite, type ServedSite } from './support.js';

const example = parseYaml(readFileSync(join(REPO, 'examples/svc.yaml'), 'utf8')) as unknown;

let site: ServedSite;

beforeAll(async () => {
  site = await servedSite();
}, 120_000);

afterAll(async () => {
  await site?.stop();
});

const SCHEMA_PATHS = [...siteSchemas(DEFAULT_BASE_URL).keys()];

describe('the preview server', () => {
  // As GitHub Pages, Netlify and Cloudflare Pages do: a folder's URL is its index.html, never a listing.
  it.each(['', 'playground/', 'rules/'])('serves /%s as that folder’s index.html', async (folder) => {
    const response = await fetch(new URL(folder, site.base), { redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(readFileSync(join(site.dir, folder, 'index.html'), 'utf8'));
  });

  it('redirects a folder named without its slash, so relative links resolve, and lists no folder', async () => {
    const bare = await fetch(new URL('playground', site.base), { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(new URL(bare.headers.get('location')!, site.base).href).toBe(new URL('playground/', site.base).href);
    const assets = await fetch(new URL('assets/', site.base), { redirect: 'manual' });
    expect(assets.status).toBe(404);
  });
});

describe('the schemas the site serves', () => {
  it('are the generated files, byte for byte, at the default base (the generator and the site agree)', () => {
    const atDefault = siteSchemas(DEFAULT_BASE_URL);
    for (const file of ['svc.schema.json', 'svc.v1.schema.json', 'svc.v2.schema.json']) {
      const generated = readFileSync(join(REPO, 'packages/schema/generated', file), 'utf8');
      expect(`${JSON.stringify(atDefault.get(`${SCHEMA_DIR}/${file}`), null, 2)}\n`).toBe(generated);
    }
    expect(SCHEMA_PATHS).toHaveLength(6);
  });

  it.each(SCHEMA_PATHS)(
    '%s: $id is its URL, with the promised headers and content; ajv and python-jsonschema accept it',
    async (path) => {
      const url = new URL(path, site.base).href;
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/schema+json');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const schema = (await response.json()) as Record<string, unknown>;
      expect(schema.$id).toBe(url);
      const built = buildSchemas(url.slice(0, url.lastIndexOf('/')));
      const file = path.slice(path.lastIndexOf('/') + 1);
      expect(schema).toEqual(
        file === 'svc.schema.json' ? built.combined : file === 'svc.v1.schema.json' ? built.v1 : built.v2,
      );

      const ajv = new Ajv({ strict: false, allErrors: true });
      const validate = ajv.compile(schema);
      expect(validate(example), JSON.stringify(validate.errors)).toBe(file !== 'svc.v1.schema.json');

      // python3-jsonschema fetches the URL itself and checks the schema against draft-07's metaschema.
      const python = spawnSync(
        'python3',
        [
          '-c',
          [
            'import json, sys, urllib.request, jsonschema',
            'schema = json.load(urllib.request.urlopen(sys.argv[1]))',
            'jsonschema.Draft7Validator.check_schema(schema)',
            'print(jsonschema.Draft7Validator(schema).is_valid(json.load(sys.stdin)))',
          ].join('\n'),
          url,
        ],
        { input: JSON.stringify(example), encoding: 'utf8' },
      );
      expect(python.stderr).toBe('');
      expect(python.stdout.trim()).toBe(file !== 'svc.v1.schema.json' ? 'True' : 'False');
    },
  );

  it('_headers gives the schema paths their content type and CORS, and every page the CSP', () => {
    const headers = readFileSync(join(site.dir, '_headers'), 'utf8');
    expect(headers).toContain(
      `/${SCHEMA_DIR}/*\n  Content-Type: application/schema+json\n  Access-Control-Allow-Origin: *\n`,
    );
    expect(headers).toMatch(/^\/\*\n {2}Content-Security-Policy: default-src 'none'; script-src 'self';/m);
  });
});

describe('yaml-language-server with a modeline pinning the served svc.v2.schema.json', () => {
  let yamlServer: EditorServer;

  beforeAll(async () => {
    // No schema associations, no schema store: the modeline is the only way to a schema.
    const settings: Record<string, unknown> = {
      yaml: { validate: true, schemaStore: { enable: false }, schemas: {} },
      http: { proxy: '' },
    };
    yamlServer = await EditorServer.start({
      ...YAML_LANGUAGE_SERVER,
      cwd: REPO,
      rootUri: pathToFileURL(REPO).href,
      settings: (section) => settings[section ?? ''] ?? null,
    });
  }, 60_000);

  afterAll(async () => {
    await yamlServer?.stop();
  });

  async function diagnosticsOf(
    name: string,
    text: string,
    accept: (diagnostics: Diagnostic[]) => boolean,
  ): Promise<Diagnostic[]> {
    const uri = `file:///pinning/${name}/svc.yaml`;
    await yamlServer.open(uri, text, 'yaml');
    return yamlServer.diagnostics(uri, accept);
  }

  it('reports what the served schema forbids, and only that, naming the served URL', async () => {
    const url = new URL(`${SCHEMA_DIR}/svc.v2.schema.json`, site.base).href;
    const text = `# yaml-language-server: $schema=${url}\nsvc_version: 2\ndefault_agent: writer\nagents:\n  writer:\n    model: large\n`;
    const diagnostics = await diagnosticsOf('invalid', text, (list) => list.length > 0);
    // One diagnostic, on the unknown key (line 5, columns 4-9), in the schema's own words for an agent.
    expect(
      diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.character}:${d.message}`),
      yamlServer.stderr,
    ).toEqual([expect.stringMatching(/^5:4-9:an agent is a map of these keys only: /)]);
    expect(JSON.stringify(diagnostics[0])).toContain(url);

    const valid = readFileSync(join(REPO, 'examples/svc.yaml'), 'utf8');
    const clean = await diagnosticsOf('valid', `# yaml-language-server: $schema=${url}\n${valid}`, () => true);
    expect(clean).toEqual([]);
  });
});
