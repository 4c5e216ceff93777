import { describe, expect, it } from 'vitest';
import { definition } from '../src/features/definition.js';
import { documentHighlights } from '../src/features/document-highlight.js';
import { references } from '../src/features/references.js';
import { prepareRename, rename, RenameRefused } from '../src/features/rename.js';
import { applyEdits, at, rangeOf, tomlUri } from './helpers.js';

const YAML = `svc_version: 2
default_agent: coder
agents:
  coder:
    sandbox: base
    connectors: [github, docs]
  reviewer:
    sandbox: "base"
    connectors_required:
      - github
sandbox:
  default: base
  templates:
    - slug: base
      image: node:20
connectors:
  - slug: github
    provider: managed_a
    app: github-app
  - slug: docs
    provider: mcp
    url: https://docs.example/mcp
triggers:
  - slug: nightly
    type: cron
    cron: "0 9 * * *"
    agent: coder
    prompt: go
`;

const TOML = `svc_version = 2
default_agent = "coder"

[agents.coder]
sandbox = "base"
connectors = ["github"]

[sandbox]
default = "base"
templates = [{ slug = "base", image = "node:20" }]

[[connectors]]
slug = "github"
provider = "managed_a"
app = "gh"

[[triggers]]
slug = "nightly"
type = "cron"
cron = "0 9 * * *"
agent = "coder"
prompt = "go"
`;

// `at` needs a marker; these fixtures have none, so add one at the end and ignore it.
function atText(text: string, uri?: string) {
  return at(`${text}‸`, uri);
}

describe('go to definition', () => {
  it('goes from an agent reference to the agent key (YAML)', () => {
    const { state } = atText(YAML);
    const from = rangeOf(YAML, 'coder', 2); // trigger agent
    expect(definition(state, { position: from.start })).toEqual({ uri: state.uri, range: rangeOf(YAML, 'coder', 1) });
  });

  it('goes to a template and a connector (YAML, quoted reference too)', () => {
    const { state } = atText(YAML);
    expect(definition(state, { position: rangeOf(YAML, 'base', 1).end })!.range).toEqual(rangeOf(YAML, 'base', 3));
    expect(definition(state, { position: rangeOf(YAML, 'docs', 0).start })!.range).toEqual(rangeOf(YAML, 'docs', 1));
    expect(definition(state, { position: rangeOf(YAML, 'github', 1).start })!.range).toEqual(
      rangeOf(YAML, 'github', 2),
    );
  });

  it('goes from a TOML reference to its declaration', () => {
    const { state } = atText(TOML, tomlUri);
    expect(definition(state, { position: rangeOf(TOML, 'coder', 2).start })!.range).toEqual(rangeOf(TOML, 'coder', 1));
    expect(definition(state, { position: rangeOf(TOML, 'github', 0).start })!.range).toEqual(
      rangeOf(TOML, 'github', 1),
    );
    expect(definition(state, { position: rangeOf(TOML, 'base', 1).start })!.range).toEqual(rangeOf(TOML, 'base', 2));
  });

  it('answers nothing off a name', () => {
    const { state } = atText(YAML);
    expect(definition(state, { position: rangeOf(YAML, 'provider').start })).toBeNull();
  });
});

describe('find references', () => {
  it('lists the declaration and every reference of an agent', () => {
    const { state } = atText(YAML);
    const got = references(state, { position: rangeOf(YAML, 'coder', 1).start, context: { includeDeclaration: true } });
    expect(got.map((l) => l.range)).toEqual([0, 1, 2].map((i) => rangeOf(YAML, 'coder', i)));
    const withoutDeclaration = references(state, {
      position: rangeOf(YAML, 'coder', 1).start,
      context: { includeDeclaration: false },
    });
    expect(withoutDeclaration.map((l) => l.range)).toEqual([0, 2].map((i) => rangeOf(YAML, 'coder', i)));
  });

  it('lists every use of a connector slug (flow and block lists)', () => {
    const { state } = atText(YAML);
    const got = references(state, {
      position: rangeOf(YAML, 'github', 2).start,
      context: { includeDeclaration: true },
    });
    expect(got.map((l) => l.range)).toEqual([0, 1, 2].map((i) => rangeOf(YAML, 'github', i)));
  });
});

describe('find references (TOML)', () => {
  it('lists the declaration and every reference of an agent and a template', () => {
    const { state } = atText(TOML, tomlUri);
    const agent = references(state, {
      position: rangeOf(TOML, 'coder', 0).start,
      context: { includeDeclaration: true },
    });
    expect(agent.map((l) => l.range)).toEqual([0, 1, 2].map((i) => rangeOf(TOML, 'coder', i)));
    const template = references(state, {
      position: rangeOf(TOML, 'base', 2).start,
      context: { includeDeclaration: false },
    });
    expect(template.map((l) => l.range)).toEqual([0, 1].map((i) => rangeOf(TOML, 'base', i)));
  });
});

describe('rename', () => {
  it('renames an agent everywhere in one edit (YAML)', () => {
    const { state } = atText(YAML);
    const edit = rename(state, { position: rangeOf(YAML, 'coder', 2).start, newName: 'writer' })!;
    expect(Object.keys(edit.changes!)).toEqual([state.uri]);
    expect(applyEdits(YAML, edit.changes![state.uri]!)).toBe(YAML.replaceAll('coder', 'writer'));
  });

  it('renames a template, keeping quotes', () => {
    const { state } = atText(YAML);
    const edit = rename(state, { position: rangeOf(YAML, 'base', 0).start, newName: 'node' })!;
    const result = applyEdits(YAML, edit.changes![state.uri]!);
    expect(result).toBe(
      YAML.replaceAll('sandbox: base', 'sandbox: node')
        .replace('sandbox: "base"', 'sandbox: "node"')
        .replace('default: base', 'default: node')
        .replace('slug: base', 'slug: node'),
    );
  });

  it('renames a connector in TOML', () => {
    const { state } = atText(TOML, tomlUri);
    const edit = rename(state, { position: rangeOf(TOML, 'github', 1).start, newName: 'gh' })!;
    expect(applyEdits(TOML, edit.changes![state.uri]!)).toBe(TOML.replaceAll('"github"', '"gh"'));
  });

  it('renames a version 1 agent (declared by name in a list) and a quoted version 2 agent key', () => {
    const v1 = `svc_version: 1\nagents:\n  - name: coder\n    connectors: [gh]\ntriggers:\n  - slug: t\n    agent_name: coder\n`;
    const { state } = atText(v1);
    const edit = rename(state, { position: rangeOf(v1, 'coder', 1).start, newName: 'writer' })!;
    expect(applyEdits(v1, edit.changes![state.uri]!)).toBe(v1.replaceAll('coder', 'writer'));
    const quoted = `svc_version: 2\ndefault_agent: coder\nagents:\n  "coder": {}\n`;
    const q = atText(quoted).state;
    expect(definition(q, { position: rangeOf(quoted, 'coder', 0).start })!.range).toEqual(rangeOf(quoted, 'coder', 1));
    const renamed = rename(q, { position: rangeOf(quoted, 'coder', 1).start, newName: 'writer' })!;
    expect(applyEdits(quoted, renamed.changes![q.uri]!)).toBe(quoted.replaceAll('coder', 'writer'));
  });

  it('prepares a rename on the name only', () => {
    const { state } = atText(YAML);
    expect(prepareRename(state, { position: rangeOf(YAML, 'coder', 0).start })).toEqual({
      range: rangeOf(YAML, 'coder', 0),
      placeholder: 'coder',
    });
    expect(prepareRename(state, { position: rangeOf(YAML, 'provider').start })).toBeNull();
  });

  it('refuses a name that is not a slug, or taken', () => {
    const { state } = atText(YAML);
    expect(() => rename(state, { position: rangeOf(YAML, 'coder', 0).start, newName: 'Bad Name' })).toThrow(
      RenameRefused,
    );
    expect(() => rename(state, { position: rangeOf(YAML, 'coder', 0).start, newName: 'reviewer' })).toThrow(
      RenameRefused,
    );
    expect(() => rename(state, { position: rangeOf(YAML, 'base', 0).start, newName: 'default' })).toThrow(
      RenameRefused,
    );
  });
});

describe('document highlights', () => {
  it('marks the declaration as write and references as read (YAML and TOML)', () => {
    const { state } = atText(YAML);
    expect(documentHighlights(state, { position: rangeOf(YAML, 'github', 1).start })).toEqual([
      { range: rangeOf(YAML, 'github', 0), kind: 2 },
      { range: rangeOf(YAML, 'github', 1), kind: 2 },
      { range: rangeOf(YAML, 'github', 2), kind: 3 },
    ]);
    const toml = atText(TOML, tomlUri).state;
    expect(documentHighlights(toml, { position: rangeOf(TOML, 'coder', 2).start }).map((h) => h.kind)).toEqual([
      2, 3, 2,
    ]);
    expect(documentHighlights(toml, { position: rangeOf(TOML, 'provider').start })).toEqual([]);
  });
});
