/**
 * What a user of another editor sees from the published schema alone, at marked places (`‸`) of a
 * YAML manifest and its TOML twin: redhat's yaml-language-server (1.25, what vscode-yaml runs) and
 * Taplo (@taplo/lsp 0.8, what Even Better TOML runs), each started over stdio, offline, with
 * `generated/svc.v2.schema.json` given as a file, as docs/other-editors.md tells users to set it
 * up. Asserts what a user sees: the keys offered (none forbidden, no alias, no deprecated key
 * unmarked), per-value docs on enum values, the snippets for a new trigger, hover text, and
 * diagnostic messages and ranges. The same places are asked of our own server, and the
 * side-by-side table of all three is docs/other-editors.generated.md (`UPDATE_DOCS=1` rewrites it).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompletionItem, Diagnostic, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { completion as ourCompletion, computeDiagnostics, createState, hover as ourHover } from '@svc-manifest/lsp';
import { atMarker, EditorServer } from './support/editor-server.js';
import { REPO_ROOT, SCHEMA_DIR } from './support/fixtures.js';

const SCHEMA_V2 = pathToFileURL(join(SCHEMA_DIR, 'svc.v2.schema.json')).href;
const TABLE_FILE = join(REPO_ROOT, 'docs', 'other-editors.generated.md');

/** vscode-yaml's settings for the manifest (section `yaml`), as docs/other-editors.md gives them. */
const YAML_SETTINGS = { validate: true, hover: true, completion: true, schemaStore: { enable: false }, schemas: { [SCHEMA_V2]: ['svc.yaml'] } };
/** Even Better TOML's settings (section `evenBetterToml`): the schema by file name, no catalogs (offline). */
const TOML_SETTINGS = {
  schema: { enabled: true, associations: { '.*/svc\\.toml$': SCHEMA_V2 }, catalogs: [], links: false },
  taplo: { configFile: { enabled: false } },
  completion: { maxKeys: 5 },
};

/** A place in a manifest, written in both formats with the cursor marked. */
interface Place {
  name: string;
  kind: 'completion' | 'hover' | 'diagnostics';
  yaml: string;
  toml: string;
}

const HEAD_YAML = 'svc_version: 2\ndefault_agent: main\nagents:\n  main:\n    enabled: true\n';
const HEAD_TOML = 'svc_version = 2\ndefault_agent = "main"\n\n[agents.main]\nenabled = true\n';

const PLACES = {
  topKeys: { name: 'keys at the top level', kind: 'completion', yaml: `${HEAD_YAML}‸\n`, toml: `svc_version = 2\n‸\n` },
  agentKeys: {
    name: 'keys in an agent',
    kind: 'completion',
    yaml: 'svc_version: 2\ndefault_agent: main\nagents:\n  main:\n    ‸\n',
    toml: 'svc_version = 2\ndefault_agent = "main"\n\n[agents.main]\n‸\n',
  },
  triggerKeys: {
    name: 'keys in a trigger',
    kind: 'completion',
    yaml: `${HEAD_YAML}triggers:\n  - slug: nightly\n    ‸\n`,
    toml: `${HEAD_TOML}\n[[triggers]]\nslug = "nightly"\n‸\n`,
  },
  connectorKeys: {
    name: 'keys in a connector',
    kind: 'completion',
    yaml: `${HEAD_YAML}connectors:\n  - slug: docs\n    ‸\n`,
    toml: `${HEAD_TOML}\n[[connectors]]\nslug = "docs"\n‸\n`,
  },
  appKeys: {
    name: 'keys in an app',
    kind: 'completion',
    yaml: `${HEAD_YAML}apps:\n  web:\n    ‸\n`,
    toml: `${HEAD_TOML}\n[apps.web]\n‸\n`,
  },
  newTrigger: {
    name: 'a new trigger (list item)',
    kind: 'completion',
    yaml: `${HEAD_YAML}triggers:\n  - ‸\n`,
    toml: `${HEAD_TOML}\n[[triggers]]\n‸\n`,
  },
  triggerType: {
    name: "values of a trigger's `type`",
    kind: 'completion',
    yaml: `${HEAD_YAML}triggers:\n  - slug: nightly\n    type: ‸\n`,
    toml: `${HEAD_TOML}\n[[triggers]]\nslug = "nightly"\ntype = "‸"\n`,
  },
  defaultAgentHover: {
    name: 'hover on `default_agent`',
    kind: 'hover',
    yaml: 'svc_version: 2\ndefault_a‸gent: main\nagents:\n  main: {}\n',
    toml: 'svc_version = 2\ndefault_a‸gent = "main"\n\n[agents.main]\n',
  },
  deprecatedKey: {
    name: '`connectors_personal` in an agent',
    kind: 'diagnostics',
    yaml: '‸svc_version: 2\ndefault_agent: main\nagents:\n  main:\n    connectors_personal: [docs]\n',
    toml: '‸svc_version = 2\ndefault_agent = "main"\n\n[agents.main]\nconnectors_personal = ["docs"]\n',
  },
  webhookSecret: {
    name: 'a webhook trigger without `secret_env`',
    kind: 'diagnostics',
    yaml: `‸${HEAD_YAML}triggers:\n  - slug: on-push\n    type: webhook\n    prompt: Review the push\n`,
    toml: `‸${HEAD_TOML}\n[[triggers]]\nslug = "on-push"\ntype = "webhook"\nprompt = "Review the push"\n`,
  },
} satisfies Record<string, Place>;
type PlaceId = keyof typeof PLACES;

/** What one server showed at one place. */
type Seen = { completion: CompletionItem[] } | { hover: Hover | null } | { diagnostics: Diagnostic[] };
type ServerName = 'yaml-language-server' | 'taplo' | 'ours (YAML)' | 'ours (TOML)';
const seen = new Map<`${ServerName}:${PlaceId}`, Seen>();

let work: string;
let yls: EditorServer;
let taplo: EditorServer;
let opened = 0;

async function ask(server: EditorServer, place: Place, format: 'yaml' | 'toml'): Promise<Seen> {
  const { text, position } = atMarker(place[format]);
  // A folder per document: both servers pick the schema by the file name svc.yaml / svc.toml.
  const folder = join(work, `d${++opened}`);
  mkdirSync(folder);
  const uri = pathToFileURL(join(folder, `svc.${format}`)).href;
  await server.open(uri, text, format);
  // Taplo answers from the schema once it has validated the document.
  const diagnostics = await server.diagnostics(uri);
  if (place.kind === 'diagnostics') return { diagnostics };
  if (place.kind === 'hover') return { hover: await server.hover(uri, position) };
  return { completion: await server.completion(uri, position) };
}

function askOurs(place: Place, format: 'yaml' | 'toml'): Seen {
  const { text, position } = atMarker(place[format]);
  const state = createState(`file:///work/svc.${format}`, 1, text);
  if (place.kind === 'diagnostics') return { diagnostics: computeDiagnostics(state) };
  if (place.kind === 'hover') return { hover: ourHover(state, { position }) };
  return { completion: ourCompletion(state, { position }).items };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'svc-editor-hints-'));
  yls = await EditorServer.start({
    name: 'yaml-language-server',
    command: process.execPath,
    args: [join(REPO_ROOT, 'node_modules/yaml-language-server/bin/yaml-language-server'), '--stdio'],
    cwd: work,
    rootUri: pathToFileURL(work).href,
    settings: (section) => (section === 'yaml' ? YAML_SETTINGS : section === 'http' ? { proxy: '', proxyStrictSSL: false } : {}),
  });
  taplo = await EditorServer.start({
    name: 'taplo',
    command: process.execPath,
    args: [join(REPO_ROOT, 'test/support/taplo-stdio.mjs')],
    cwd: work,
    rootUri: pathToFileURL(work).href,
    initializationOptions: { configurationSection: 'evenBetterToml', cachePath: join(work, 'taplo-cache') },
    settings: (section) => (section === 'evenBetterToml' ? TOML_SETTINGS : null),
    // Taplo publishes per stage (syntax, structure, schema), each only when the one before found nothing.
    published: (diagnostics, count) => diagnostics.length > 0 || count >= 3,
  });
  for (const [id, place] of Object.entries(PLACES) as [PlaceId, Place][]) {
    seen.set(`yaml-language-server:${id}`, await ask(yls, place, 'yaml'));
    seen.set(`taplo:${id}`, await ask(taplo, place, 'toml'));
    seen.set(`ours (YAML):${id}`, askOurs(place, 'yaml'));
    seen.set(`ours (TOML):${id}`, askOurs(place, 'toml'));
  }
}, 300_000);

afterAll(async () => {
  await yls?.stop();
  await taplo?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

function completionAt(server: ServerName, id: PlaceId): CompletionItem[] {
  const found = seen.get(`${server}:${id}`);
  if (!found || !('completion' in found)) throw new Error(`no completion recorded for ${server} at ${id}`);
  return found.completion;
}
function labels(server: ServerName, id: PlaceId): string[] {
  return completionAt(server, id).map((item) => item.label.replace(/^"|"$/g, ''));
}
function documentation(item: CompletionItem | undefined): string {
  const docs = item?.documentation;
  return typeof docs === 'string' ? docs : (docs?.value ?? '');
}
function hoverText(server: ServerName, id: PlaceId): string {
  const found = seen.get(`${server}:${id}`);
  if (!found || !('hover' in found)) throw new Error(`no hover recorded for ${server} at ${id}`);
  const contents = found.hover?.contents;
  if (!contents) return '';
  if (typeof contents === 'string') return contents;
  if (Array.isArray(contents)) return contents.map((part) => (typeof part === 'string' ? part : part.value)).join('\n');
  return (contents as MarkupContent).value;
}
function diagnosticsAt(server: ServerName, id: PlaceId): Diagnostic[] {
  const found = seen.get(`${server}:${id}`);
  if (!found || !('diagnostics' in found)) throw new Error(`no diagnostics recorded for ${server} at ${id}`);
  return found.diagnostics;
}

const FORBIDDEN_OR_ALIAS = ['sandboxes', 'sessionMode', 'sessionKey', 'sessionId', 'secretEnv', 'runAt', 'baseUrl', 'agent_scope'];

describe('yaml-language-server with the published v2 schema', () => {
  it('offers no forbidden key, alias or deprecated key, and the ones a user needs, with their docs', () => {
    expect(labels('yaml-language-server', 'topKeys')).toEqual(expect.arrayContaining(['project', 'triggers', 'connectors', 'apps', 'runtime']));
    expect(labels('yaml-language-server', 'agentKeys')).toEqual(expect.arrayContaining(['sandbox', 'connectors', 'connectors_required', 'workspace']));
    expect(labels('yaml-language-server', 'triggerKeys')).toEqual(expect.arrayContaining(['type', 'prompt', 'cron', 'secret_env', 'session_mode']));
    expect(labels('yaml-language-server', 'connectorKeys')).toEqual(expect.arrayContaining(['provider', 'url', 'base_url', 'auth']));
    for (const id of ['topKeys', 'agentKeys', 'triggerKeys', 'connectorKeys'] as const) {
      const offered = labels('yaml-language-server', id);
      expect(
        offered.filter((label) => [...FORBIDDEN_OR_ALIAS, 'connectors_personal'].includes(label)),
        id,
      ).toEqual([]);
    }
    const sandbox = completionAt('yaml-language-server', 'agentKeys').find((item) => item.label === 'sandbox');
    expect(documentation(sandbox)).toContain("The slug of the sandbox template the agent's sessions use.");
  });

  it('offers snippets for a new trigger, and no key a rule forbids for some other trigger', () => {
    const items = completionAt('yaml-language-server', 'newTrigger');
    expect(items.map((item) => item.label)).toEqual(
      expect.arrayContaining(['cron trigger', 'webhook trigger', 'monitor trigger (poll)', 'monitor trigger (stream)']),
    );
    const cron = items.find((item) => item.label === 'cron trigger');
    expect(cron?.insertText ?? cron?.textEdit?.newText).toMatch(/type: cron\n.*cron: \$\{2:0 3 \* \* \*\}/s);
    expect(items.filter((item) => /does not take/.test(documentation(item))).map((item) => item.label)).toEqual([]);
    // An empty item is no monitor: `cron` is offered with its own text.
    expect(documentation(items.find((item) => item.label === 'cron'))).toContain('A cron expression.');
  });

  it("describes each value of a trigger's type on its own", () => {
    const items = completionAt('yaml-language-server', 'triggerType');
    expect(Object.fromEntries(items.map((item) => [item.label, documentation(item)]))).toEqual({
      cron: expect.stringContaining('On a schedule'),
      webhook: expect.stringContaining('HMAC secret named by `secret_env`'),
      monitor: expect.stringContaining('polled (`mode: poll`'),
    });
  });

  it('hovers default_agent with its description under a title people read', () => {
    const text = hoverText('yaml-language-server', 'defaultAgentHover');
    expect(text).toContain('The agent new sessions use unless told otherwise');
    expect(text).toContain('svc manifest, version 2');
    expect(text).not.toMatch(/ManifestV2|AgentV2/);
  });

  it('marks connectors_personal deprecated on its key, naming the key to use', () => {
    const { text } = atMarker(PLACES.deprecatedKey.yaml);
    const line = text.split('\n').findIndex((l) => l.includes('connectors_personal'));
    expect(diagnosticsAt('yaml-language-server', 'deprecatedKey').map((d) => ({ line: d.range.start.line, message: d.message }))).toEqual([
      { line, message: "'connectors_personal' is deprecated: use 'connectors_required' instead" },
    ]);
  });

  it('says what a webhook trigger misses, naming both spellings, with a source people read', () => {
    const diagnostics = diagnosticsAt('yaml-language-server', 'webhookSecret');
    expect(diagnostics.map((d) => d.message)).toEqual(["a webhook trigger needs 'secret_env' (or 'secretEnv'): the variable holding its HMAC secret"]);
    const { text } = atMarker(PLACES.webhookSecret.yaml);
    expect(diagnostics[0]!.range.start.line).toBe(text.split('\n').findIndex((l) => l.includes('slug: on-push')));
    expect(diagnostics[0]!.source).not.toMatch(/V2/);
  });
});

describe('Taplo with the published v2 schema', () => {
  it('offers the keys of a trigger, a connector, an agent and an app, with their docs', () => {
    expect(labels('taplo', 'triggerKeys')).toEqual(expect.arrayContaining(['type', 'prompt', 'cron', 'secret_env', 'mode', 'interval']));
    expect(labels('taplo', 'connectorKeys')).toEqual(expect.arrayContaining(['provider', 'url', 'base_url', 'transport', 'auth']));
    expect(labels('taplo', 'agentKeys')).toEqual(expect.arrayContaining(['sandbox', 'connectors', 'connectors_required', 'workspace']));
    expect(labels('taplo', 'appKeys')).toEqual(expect.arrayContaining(['type', 'port', 'build_command']));
    const mode = completionAt('taplo', 'triggerKeys').find((item) => item.label === 'mode');
    expect(documentation(mode)).toContain('How a `monitor` runs its command'.replace(/`/g, ''));
    const sandbox = completionAt('taplo', 'agentKeys').find((item) => item.label === 'sandbox');
    expect(documentation(sandbox), "the key's own text, not its $ref's").toContain('The slug of the sandbox template');
  });

  it("describes each value of a trigger's type on its own", () => {
    const items = completionAt('taplo', 'triggerType');
    expect(Object.fromEntries(items.map((item) => [item.label.replace(/"/g, ''), documentation(item)]))).toEqual({
      cron: expect.stringContaining('On a schedule'),
      webhook: expect.stringContaining('HMAC secret'),
      monitor: expect.stringContaining('polled'),
    });
  });

  it('hovers default_agent with its description', () => {
    expect(hoverText('taplo', 'defaultAgentHover')).toContain('The agent new sessions use unless told otherwise');
  });
});

/** One cell of the table: what a server showed at a place, in a few words. */
function summary(server: ServerName, id: PlaceId): string {
  const place: Place = PLACES[id];
  if (place.kind === 'hover') {
    const text = hoverText(server, id).replace(/\s+/g, ' ').trim();
    return text ? `“${text.slice(0, 60)}${text.length > 60 ? '…' : ''}”` : 'nothing';
  }
  if (place.kind === 'diagnostics') {
    const list = diagnosticsAt(server, id);
    if (!list.length) return 'nothing';
    return list
      .map((d) => {
        const lines = d.range.end.line - d.range.start.line + 1;
        const message = (typeof d.message === 'string' ? d.message : d.message.value).replace(/\s+/g, ' ');
        return `“${message.slice(0, 70)}${message.length > 70 ? '…' : ''}” (${lines === 1 ? 'one line' : `${lines} lines`})`;
      })
      .join('; ');
  }
  const items = completionAt(server, id);
  if (!items.length) return 'nothing';
  const names = labels(server, id);
  const snippets = items.filter((item) => item.kind === 15 || / trigger/.test(item.label)).length;
  const documented = items.filter((item) => documentation(item)).length;
  const markedDeprecated = items.filter((item) => item.deprecated === true || item.tags?.includes(1)).map((item) => item.label);
  const unwanted = names.filter((label) => (FORBIDDEN_OR_ALIAS.includes(label) || label === 'connectors_personal') && !markedDeprecated.includes(label));
  const parts = [`${items.length} items`, `${documented} with docs`];
  if (id === 'newTrigger') parts.push(`${snippets} snippets`);
  parts.push(unwanted.length ? `offers ${unwanted.map((label) => `\`${label}\``).join(', ')}` : 'no forbidden key or alias');
  if (markedDeprecated.length) parts.push(`${markedDeprecated.map((label) => `\`${label}\``).join(', ')} marked deprecated`);
  return parts.join(', ');
}

describe('the side-by-side table in the docs', () => {
  it('is docs/other-editors.generated.md (UPDATE_DOCS=1 rewrites it)', () => {
    const servers: ServerName[] = ['yaml-language-server', 'taplo', 'ours (YAML)', 'ours (TOML)'];
    const rows = (Object.keys(PLACES) as PlaceId[]).map((id) => `| ${PLACES[id].name} | ${servers.map((server) => summary(server, id)).join(' | ')} |`);
    const table = [
      '<!-- Generated by test/editor-hints.test.ts (UPDATE_DOCS=1 npx vitest run test/editor-hints.test.ts). Do not edit. -->',
      '',
      '| place | yaml-language-server (svc.yaml) | Taplo (svc.toml) | svc-manifest-lsp (svc.yaml) | svc-manifest-lsp (svc.toml) |',
      '|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n');
    if (process.env.UPDATE_DOCS) writeFileSync(TABLE_FILE, table);
    expect(table).toBe(readFileSync(TABLE_FILE, 'utf8'));
  });
});
