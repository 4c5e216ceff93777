import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { hover } from '../src/features/hover.js';
import { publishedSchemas } from '@svc-manifest/schema';
import { at, tomlUri } from './helpers.js';

const v2Definitions = publishedSchemas().v2.definitions as Record<
  string,
  { properties: Record<string, { markdownDescription: string }> }
>;

const hoverAt = (text: string, uri?: string) => {
  const fixture = at(text, uri);
  const result = hover(fixture.state, { position: fixture.position });
  return result && { value: (result.contents as { value: string }).value, range: result.range };
};

const YAML = `svc_version: 2
default_agent: coder
agents:
  coder:
    sandbox: base
    workspace: read
sandbox:
  templates:
    - slug: base
      image: node:20
`;

describe('hover', () => {
  it('shows the schema description of a key', () => {
    const got = hoverAt(YAML.replace('    sandbox: base', '    sand‸box: base'));
    expect(got!.value).toContain('**sandbox**');
    expect(got!.value).toContain(v2Definitions.agentV2!.properties.sandbox!.markdownDescription);
    expect(got!.range).toEqual({ start: { line: 4, character: 4 }, end: { line: 4, character: 11 } });
  });

  it('describes a value by its key, with the allowed values', () => {
    const got = hoverAt(YAML.replace('workspace: read', 'workspace: re‸ad'));
    expect(got!.value).toContain('`runtime`, `read`, `branch`');
    expect(got!.range).toEqual({ start: { line: 5, character: 15 }, end: { line: 5, character: 19 } });
  });

  it('shows what a reference points at', () => {
    const got = hoverAt(YAML.replace('default_agent: coder', 'default_agent: co‸der'));
    expect(got!.value).toContain('**agent** `coder` — declared on line 4, 1 reference');
    expect(got!.value).toContain('```yaml\ncoder:\n  sandbox: base\n  workspace: read\n```');
    expect(got!.range).toEqual({ start: { line: 1, character: 15 }, end: { line: 1, character: 20 } });
    const template = hoverAt(YAML.replace('sandbox: base', 'sandbox: ba‸se'));
    expect(template!.value).toContain('**sandbox template** `base` — declared on line 9');
    expect(template!.value).toContain('- slug: base\n  image: node:20');
  });

  it('says when a reference names nothing declared', () => {
    const got = hoverAt(YAML.replace('default_agent: coder', 'default_agent: gh‸ost'));
    expect(got!.value).toBe('agent `ghost` is not declared in this manifest');
  });

  it('works in TOML', () => {
    const toml = `svc_version = 2\ndefault_agent = "coder"\n\n[agents.coder]\nworkspace = "read"\n\n[[triggers]]\nslug = "t"\nty‸pe = "cron"\n`;
    expect(hoverAt(toml, tomlUri)!.value).toContain(v2Definitions.trigger!.properties.type!.markdownDescription);
    const reference = hoverAt(
      toml.replace('ty‸pe', 'type').replace('default_agent = "coder"', 'default_agent = "co‸der"'),
      tomlUri,
    );
    expect(reference!.value).toContain('**agent** `coder` — declared on line 4');
    expect(reference!.value).toContain('```toml');
  });

  it('describes a TOML table header key, svc_version with both values, and a list item by its list', () => {
    const header = hoverAt(`svc_version = 2\n[[tri‸ggers]]\nslug = "a"\n`, tomlUri);
    expect(header!.value).toContain('**triggers**');
    expect(header!.range).toEqual({ start: { line: 1, character: 2 }, end: { line: 1, character: 10 } });
    expect(hoverAt(`svc_ver‸sion: 2\n`)!.value).toContain('Allowed: `1`, `2`');
    expect(hoverAt(`svc_version: 2\nagents:\n  a:\n    svc_cli: [project.re‸ad]\n`)!.value).toContain(
      v2Definitions.svcCliV2
        ? String((v2Definitions.svcCliV2 as unknown as { markdownDescription: string }).markdownDescription)
        : 'svc',
    );
  });

  it('says when a key is deprecated', () => {
    expect(hoverAt(`svc_version: 2\nagents:\n  a:\n    connectors_per‸sonal: []\n`)!.value).toContain(
      '*Deprecated:* use `connectors_required`.',
    );
  });

  it('answers nothing on blank space or in a broken TOML file', () => {
    expect(hoverAt(`svc_version: 2\n‸\n`)).toBeNull();
    expect(hoverAt(`svc_version = ‸\n`, tomlUri)).toBeNull();
  });

  it('quotes a name holding backticks, and a declaration holding a line of them, as text a Markdown renderer keeps literal', () => {
    // A renderer that passes raw HTML through (as editors' Markdown renderers do before sanitising).
    const markdown = new MarkdownIt({ html: true });
    const name = 'a`<b>x</b>``y`';
    const yaml = [
      'svc_version: 2',
      `default_agent: "${name}"`,
      'agents:',
      `  "${name}":`,
      '    notes: |',
      '      ```',
      '      <i>out of the block</i>',
      '',
    ].join('\n');
    const reference = hoverAt(yaml.replace('default_agent: "a`', 'default_agent: "a‸`'))!.value;
    expect(reference).toContain('**agent** ``` a`<b>x</b>``y` ``` — declared on line 4, 1 reference');
    expect(reference).toContain('````yaml\n"a`<b>x</b>``y`":\n  notes: |\n    ```\n    <i>out of the block</i>\n````');
    const html = markdown.render(reference);
    expect(html).toContain(`<code>${markdown.utils.escapeHtml(name)}</code>`);
    expect(html).toContain(markdown.utils.escapeHtml('<i>out of the block</i>'));
    expect(html).not.toMatch(/<b>|<i>/);

    const missing = hoverAt('svc_version: 2\ndefault_agent: "`gh‸ost`"\n')!.value;
    expect(missing).toBe('agent `` `ghost` `` is not declared in this manifest');
    expect(markdown.render(missing)).toBe('<p>agent <code>`ghost`</code> is not declared in this manifest</p>\n');

    // A key the manifest made up is described by its container, under its own name as the title.
    const madeUp = hoverAt('svc_version: 2\nagents:\n  a:\n    "<b>x</b>_*y*‸`": 1\n')!.value;
    expect(madeUp.split('\n\n')[0]).toBe('**\\<b\\>x\\<\\/b\\>\\_\\*y\\*\\`**');
    expect(markdown.render(madeUp)).toMatch(/^<p><strong>&lt;b&gt;x&lt;\/b&gt;_\*y\*`<\/strong><\/p>/);
  });
});
