import { MONITOR_FORBIDDEN_KEYS } from '@svc-manifest/schema';
import { describe, expect, it } from 'vitest';
import { completion } from '../src/features/completion.js';
import { at, tomlUri } from './helpers.js';

const labels = (text: string, uri?: string) => {
  const fixture = at(text, uri);
  return completion(fixture.state, { position: fixture.position }).items.map((item) => item.label);
};
const item = (text: string, label: string, uri?: string) => {
  const fixture = at(text, uri);
  const found = completion(fixture.state, { position: fixture.position }).items.find((i) => i.label === label);
  if (!found) throw new Error(`no completion '${label}'`);
  return found;
};

const V2 = `svc_version: 2
default_agent: coder
agents:
  coder:
    sandbox: base
  reviewer:
    enabled: true
sandbox:
  templates:
    - slug: base
      image: node:20
    - slug: gpu-box
      image: cuda:12
connectors:
  - slug: github
    provider: managed_a
    app: github
  - slug: docs
    provider: mcp
    url: https://docs.example/mcp
`;

describe('completion of keys (YAML)', () => {
  it('offers the top-level keys of svc_version 2 that are not written yet', () => {
    const got = labels(`svc_version: 2\nagents:\n  a: {}\n‸`);
    expect(got).toEqual(
      expect.arrayContaining([
        'project',
        'env',
        'sandbox',
        'triggers',
        'connectors',
        'default_agent',
        'runtime',
        'apps',
      ]),
    );
    expect(got).not.toContain('svc_version');
    expect(got).not.toContain('agents');
    expect(got).not.toContain('sandboxes'); // forbidden
    expect(got).not.toContain('channels'); // version 1 only
  });

  it('offers the top-level keys of svc_version 1', () => {
    const got = labels(`svc_version: 1\n‸`);
    expect(got).toContain('channels');
    expect(got).not.toContain('apps');
    expect(got).not.toContain('default_agent');
  });

  it('inserts a key with its separator, replacing the typed part', () => {
    const fixture = at(`svc_version: 2\ndefa‸`);
    const found = completion(fixture.state, { position: fixture.position }).items.find(
      (i) => i.label === 'default_agent',
    )!;
    expect(found.textEdit).toEqual({
      range: { start: { line: 1, character: 0 }, end: { line: 1, character: 4 } },
      newText: 'default_agent: ',
    });
  });

  it('knows the keys of a version 2 agent in a half-typed document', () => {
    const got = labels(`svc_version: 2\nagents:\n  coder:\n    enabled: true\n    sa‸\n`);
    expect(got).toEqual(
      expect.arrayContaining(['sandbox', 'connectors', 'connectors_required', 'svc_cli', 'workspace']),
    );
    expect(got).not.toContain('enabled');
  });

  it('does not offer keys a monitor trigger forbids', () => {
    const got = labels(`svc_version: 2\ntriggers:\n  - slug: m\n    type: monitor\n    mode: poll\n    ‸\n`);
    expect(got).toEqual(expect.arrayContaining(['run', 'interval', 'prompt']));
    // The schema's list of keys a monitor forbids, and those the item already has.
    for (const key of [...MONITOR_FORBIDDEN_KEYS, 'slug', 'type', 'mode']) expect(got).not.toContain(key);
  });

  it('offers the connector keys of the document version', () => {
    expect(labels(`svc_version: 2\nconnectors:\n  - slug: a\n    ‸\n`)).not.toContain('agent_scope');
    expect(labels(`svc_version: 1\nconnectors:\n  - slug: a\n    ‸\n`)).toContain('agent_scope');
  });

  it('offers the keys of a new list item after "- "', () => {
    const got = labels(`svc_version: 2\nconnectors:\n  - slug: a\n    provider: mcp\n  - ‸\n`);
    expect(got).toEqual(expect.arrayContaining(['slug', 'provider', 'url']));
  });

  it('opens a block for a key whose value is a map or a list of maps', () => {
    expect(item(`svc_version: 2\n‸`, 'project').textEdit).toMatchObject({ newText: 'project:\n  ' });
    expect(item(`svc_version: 2\n‸`, 'triggers').textEdit).toMatchObject({ newText: 'triggers:\n  - ' });
    expect(item(`svc_version: 2\nagents:\n  a:\n    ‸`, 'connectors').textEdit).toMatchObject({
      newText: 'connectors: ',
    });
  });

  it('does not offer the other spelling of a key already written', () => {
    const got = labels(`svc_version: 2\ntriggers:\n  - slug: a\n    session_mode: fresh\n    secretEnv: S\n    ‸\n`);
    expect(got).not.toContain('sessionMode');
    expect(got).not.toContain('secret_env');
    expect(got).toContain('session_key');
    expect(labels(`svc_version: 2\nagents:\n  a:\n    connectors_required: []\n    ‸\n`)).not.toContain(
      'connectors_personal',
    );
  });

  it('marks the deprecated key', () => {
    const found = item(`svc_version: 2\nagents:\n  coder:\n    ‸\n`, 'connectors_personal');
    expect(found.tags).toEqual([1]);
  });
});

describe('completion of values (YAML)', () => {
  it('offers enum values', () => {
    expect(labels(`svc_version: 2\ntriggers:\n  - slug: a\n    type: ‸\n`)).toEqual(['cron', 'webhook', 'monitor']);
    expect(labels(`svc_version: 2\nruntime: ‸\n`)).toEqual(['runtime_a', 'runtime_b']);
    expect(labels(`svc_version: ‸\n`)).toEqual(['1', '2']);
  });

  it('offers declared agents for default_agent and a trigger agent', () => {
    expect(labels(V2.replace('default_agent: coder', 'default_agent: ‸'))).toEqual(['coder', 'reviewer']);
    expect(labels(`${V2}triggers:\n  - slug: t\n    agent: ‸\n`)).toEqual(['coder', 'reviewer']);
  });

  it('offers template slugs for sandbox.default and an agent sandbox', () => {
    expect(labels(V2.replace('    sandbox: base', '    sandbox: ‸'))).toEqual(['base', 'gpu-box']);
    expect(labels(`${V2.replace('sandbox:\n  templates', 'sandbox:\n  default: ‸\n  templates')}`)).toEqual([
      'base',
      'gpu-box',
    ]);
  });

  it('offers connector slugs in flow and block lists', () => {
    expect(labels(V2.replace('    enabled: true', '    connectors: [github, ‸'))).toEqual(['docs']);
    expect(labels(V2.replace('    enabled: true', '    connectors_required:\n      - ‸'))).toEqual(['github', 'docs']);
  });

  it('does not offer a name the list already has', () => {
    expect(labels(V2.replace('    enabled: true', '    connectors:\n      - docs\n      - ‸\n'))).toEqual(['github']);
    const got = labels(`svc_version: 2\nagents:\n  a:\n    svc_cli:\n      - project.read\n      - ‸\n`);
    expect(got).not.toContain('project.read');
    expect(got).toContain('project.write');
  });

  it('offers svc_cli names of the document version', () => {
    const v2 = labels(`svc_version: 2\nagents:\n  a:\n    svc_cli: [‸`);
    expect(v2).toContain('project.trigger.fire');
    expect(v2).toContain('*');
    expect(v2).not.toContain('project.session.exec');
    const v1 = labels(`svc_version: 1\nagents:\n  - name: a\n    svc_cli:\n      - ‸`);
    expect(v1).toContain('project.session.exec');
    expect(v1).toContain('channel.send');
  });

  it('puts a space between the colon and the value when none was typed', () => {
    const found = item(`svc_version: 2\nruntime:‸`, 'runtime_a');
    expect(found.textEdit).toEqual({
      range: { start: { line: 1, character: 8 }, end: { line: 1, character: 8 } },
      newText: ' runtime_a',
    });
  });

  it('quotes a value YAML would misread', () => {
    const found = item(`svc_version: 2\nagents:\n  a:\n    svc_cli: ‸`, '*');
    expect(found.textEdit).toMatchObject({ newText: '"*"' });
  });
});

describe('completion in TOML', () => {
  it('offers keys in a table even when the line does not parse', () => {
    const got = labels(`svc_version = 2\n[agents.coder]\nenabled = true\nsa‸\n`, tomlUri);
    expect(got).toContain('sandbox');
    expect(got).not.toContain('enabled');
  });

  it('offers top-level keys minus those written as keys or tables', () => {
    const got = labels(`svc_version = 2\ndefault_agent = "a"\n‸\n[agents.a]\n`, tomlUri);
    expect(got).toEqual(expect.arrayContaining(['project', 'runtime']));
    expect(got).not.toContain('default_agent');
    expect(got).not.toContain('agents');
    expect(got).not.toContain('svc_version');
  });

  it('inserts a table header at the top, a plain key deeper', () => {
    expect(item(`svc_version = 2\n‸`, 'triggers', tomlUri).textEdit).toMatchObject({ newText: '[[triggers]]\n' });
    expect(item(`svc_version = 2\n‸`, 'project', tomlUri).textEdit).toMatchObject({ newText: '[project]\n' });
    expect(item(`svc_version = 2\n[[connectors]]\nslug = "a"\n‸`, 'policies', tomlUri).textEdit).toMatchObject({
      newText: 'policies = ',
    });
  });

  it('offers table names in a header being typed', () => {
    const fixture = at(`svc_version = 2\n[[tri‸`, tomlUri);
    const items = completion(fixture.state, { position: fixture.position }).items;
    expect(items.map((i) => i.label)).toEqual(expect.arrayContaining(['triggers', 'connectors', 'project', 'agents']));
    expect(items.map((i) => i.label)).not.toContain('default_agent');
    expect(items.find((i) => i.label === 'triggers')!.textEdit).toEqual({
      range: { start: { line: 1, character: 2 }, end: { line: 1, character: 5 } },
      newText: 'triggers',
    });
  });

  it('offers keys of an inline table, and no snippets there or after a dotted key', () => {
    const fixture = at(`svc_version = 2\n[[connectors]]\nslug = "x"\nauth = { ‸ }`, tomlUri);
    const items = completion(fixture.state, { position: fixture.position }).items;
    expect(items.map((i) => i.label)).toEqual(['type']);
    expect(items[0]!.textEdit).toMatchObject({ newText: 'type = ' });
    expect(labels(`svc_version = 2\n[apps.web]\nresources.‸`, tomlUri)).toEqual(['cpu', 'memory_gb']);
  });

  it('offers enum values, quoted', () => {
    const fixture = at(`svc_version = 2\n[[triggers]]\nslug = "t"\ntype = ‸\n`, tomlUri);
    const items = completion(fixture.state, { position: fixture.position }).items;
    expect(items.map((i) => i.label)).toEqual(['cron', 'webhook', 'monitor']);
    expect(items[0]!.textEdit).toMatchObject({ newText: '"cron"' });
  });

  it('offers references inside an open string', () => {
    const toml = `svc_version = 2\ndefault_agent = "coder"\n[agents.coder]\nsandbox = "base"\n[agents.reviewer]\nenabled = true\n[sandbox]\ntemplates = [{ slug = "base", image = "x" }]\n[[connectors]]\nslug = "github"\nprovider = "managed_a"\napp = "gh"\n[[triggers]]\nslug = "t"\nagent = "‸`;
    const fixture = at(toml, tomlUri);
    const items = completion(fixture.state, { position: fixture.position }).items;
    expect(items.map((i) => i.label)).toEqual(['coder', 'reviewer']);
    expect(items[0]!.textEdit).toMatchObject({ newText: '"coder"' });
  });

  it('offers connector slugs in an array', () => {
    const toml = `svc_version = 2\n[[connectors]]\nslug = "github"\nprovider = "managed_a"\napp = "gh"\n[agents.coder]\nconnectors = ["‸`;
    expect(labels(toml, tomlUri)).toEqual(['github']);
  });

  it('keys of the current array-of-tables item, conditional on its type', () => {
    const got = labels(`svc_version = 2\n[[triggers]]\nslug = "a"\ntype = "monitor"\n‸`, tomlUri);
    expect(got).toContain('run');
    expect(got).not.toContain('cron');
  });
});

describe('completion before the newest text is parsed', () => {
  it('reads the place from the new text and names from the last tree', () => {
    const parsed = at(`${V2}‸`).state;
    const newer = `${V2}triggers:\n  - slug: t\n    agent: co`;
    const typing = { ...parsed, version: 2, text: newer };
    const line = newer.split('\n').length - 1;
    const result = completion(typing, { position: { line, character: 13 } });
    expect(result.items.map((i) => i.label)).toEqual(['coder', 'reviewer']);
    expect(result.items[0]!.textEdit).toEqual({
      range: { start: { line, character: 11 }, end: { line, character: 13 } },
      newText: 'coder',
    });
    expect(parsed.doc.text.split('\n').length - 1).toBeLessThan(line);
  });
});
