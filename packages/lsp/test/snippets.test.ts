import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { publishedSchemas } from '@svc-manifest/schema';
import { ManifestDocument, validateManifest } from '@svc-manifest/validator';
import { completion } from '../src/features/completion.js';
import { expandSnippetDefaults, MAX_AGENT_CHOICES } from '../src/snippets.js';
import { applyEdits, at, tomlUri } from './helpers.js';

const ajv = new Ajv({ strict: false, allErrors: true });
const validators = { 1: ajv.compile(publishedSchemas().v1), 2: ajv.compile(publishedSchemas().v2) };

/** Inserts every snippet offered at the cursor (placeholders at their defaults) and returns the texts. */
function expandAll(textWithCursor: string, uri?: string): { label: string; text: string }[] {
  const fixture = at(textWithCursor, uri);
  const snippets = completion(fixture.state, { position: fixture.position }).items.filter((i) => i.kind === 15);
  return snippets.map((snippet) => {
    const edit = snippet.textEdit as { range: never; newText: string };
    return {
      label: snippet.label,
      text: applyEdits(fixture.text, [{ range: edit.range, newText: expandSnippetDefaults(edit.newText) }]),
    };
  });
}

function expectValid(text: string, format: 'yaml' | 'toml', version: 1 | 2): void {
  const doc = ManifestDocument.parse(text, { format });
  expect(doc.diagnostics, text).toEqual([]);
  const validate = validators[version];
  const ok = validate(doc.value);
  expect(validate.errors ?? [], text).toEqual([]);
  expect(ok).toBe(true);
  // And the validator, with its cross-field rules, finds nothing to say.
  expect(
    validateManifest(text, { format }).diagnostics.map((d) => `${d.code}: ${d.message}`),
    text,
  ).toEqual([]);
}

const TRIGGER_LABELS = ['trigger: cron', 'trigger: webhook', 'trigger: monitor (poll)', 'trigger: monitor (stream)'];
const CONNECTOR_LABELS = ['managed_a', 'managed_b', 'mcp', 'openapi', 'collection', 'graphql', 'http', 'channel'].map(
  (p) => `connector: ${p}`,
);

describe('snippets produce valid triggers and connectors', () => {
  const yamlHead = 'svc_version: 2\ndefault_agent: coder\nagents:\n  coder: {}\n  reviewer: {}\n';

  it('a trigger of each type, after "- " (YAML)', () => {
    const expanded = expandAll(`${yamlHead}triggers:\n  - ‸\n`);
    expect(expanded.map((e) => e.label)).toEqual(TRIGGER_LABELS);
    for (const { text } of expanded) expectValid(text, 'yaml', 2);
    expect(expanded[0]!.text).toContain('  - slug: nightly-report\n    type: cron\n    agent: coder\n');
  });

  it('a trigger of each type, on an empty line under "triggers:" (YAML)', () => {
    const expanded = expandAll(
      `${yamlHead}triggers:\n  - slug: nightly-report\n    type: webhook\n    prompt: x\n    secret_env: S\n  ‸\n`,
    );
    expect(expanded.map((e) => e.label)).toEqual(TRIGGER_LABELS);
    for (const { text } of expanded) expectValid(text, 'yaml', 2);
    // The default slug avoids the one in use.
    expect(expanded[0]!.text).toContain('- slug: nightly-report-2');
  });

  it('a connector of each provider (YAML, both versions)', () => {
    for (const version of [1, 2] as const) {
      const head = version === 2 ? yamlHead : 'svc_version: 1\n';
      const expanded = expandAll(`${head}connectors:\n  - ‸\n`);
      expect(expanded.map((e) => e.label)).toEqual(CONNECTOR_LABELS);
      for (const { text } of expanded) expectValid(text, 'yaml', version);
    }
  });

  it('a trigger of each type and a connector of each provider (TOML)', () => {
    const head = 'svc_version = 2\ndefault_agent = "coder"\n\n[agents.coder]\nenabled = true\n\n';
    const expanded = expandAll(`${head}‸\n`, tomlUri);
    expect(expanded.map((e) => e.label)).toEqual([...TRIGGER_LABELS, ...CONNECTOR_LABELS]);
    for (const { text } of expanded) expectValid(text, 'toml', 2);
    expect(expanded[0]!.text).toContain('[[triggers]]\nslug = "nightly-report"\ntype = "cron"\nagent = "coder"\n');
  });

  it('offers the agents as a choice up to a drop-down of MAX_AGENT_CHOICES; past it, the first one as the default, still valid', () => {
    const agentsYaml = (n: number) => Array.from({ length: n }, (_, i) => `  agent-${i}: {}\n`).join('');
    const snippetText = (n: number) => {
      const fixture = at(`svc_version: 2\ndefault_agent: agent-0\nagents:\n${agentsYaml(n)}triggers:\n  - ‸\n`);
      const cron = completion(fixture.state, { position: fixture.position }).items.find(
        (i) => i.label === 'trigger: cron',
      )!;
      return (cron.textEdit as { newText: string }).newText;
    };
    const choices = snippetText(MAX_AGENT_CHOICES);
    expect(choices).toContain(
      `agent: \${2|${Array.from({ length: MAX_AGENT_CHOICES }, (_, i) => `agent-${i}`).join(',')}|}`,
    );
    const many = snippetText(MAX_AGENT_CHOICES + 1);
    expect(many).toContain('agent: ${2:agent-0}');
    expect(many).not.toContain('agent-1');
    const expanded = expandAll(
      `svc_version: 2\ndefault_agent: agent-0\nagents:\n${agentsYaml(MAX_AGENT_CHOICES + 1)}triggers:\n  - ‸\n`,
    );
    for (const { text } of expanded) expectValid(text, 'yaml', 2);
  });

  it('offers no snippets once an item has keys', () => {
    const fixture = at(`${yamlHead}triggers:\n  - slug: a\n    ‸\n`);
    expect(completion(fixture.state, { position: fixture.position }).items.filter((i) => i.kind === 15)).toEqual([]);
  });
});
