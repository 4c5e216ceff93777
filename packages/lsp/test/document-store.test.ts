/** The document store: lazy incremental parsing, which files are ours, settings re-reading every file. */
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../src/document-store.js';
import { DEFAULT_SETTINGS } from '../src/settings.js';

const YAML = 'file:///work/svc.yaml';
const OTHER = 'file:///work/deploy/other.yaml';
const PINNED = '# yaml-language-server: $schema=https://example.com/svc.v2.schema.json\nsvc_version: 2\n';

function store(): { store: DocumentStore; logged: string[] } {
  const logged: string[] = [];
  return { store: new DocumentStore((message) => logged.push(message)), logged };
}

describe('DocumentStore', () => {
  it('records an edit without parsing, and parses it when the state is asked for', () => {
    const { store: s } = store();
    expect(s.change({ uri: YAML, version: 1, text: 'svc_version: 2\n' })).toBe(true);
    const first = s.state(YAML)!;
    expect(s.change({ uri: YAML, version: 2, text: 'svc_version: 2\ndefault_agent: a\n' })).toBe(true);
    // Completion reads the newest text over the last parse, without parsing it.
    const typing = s.typing(YAML)!;
    expect([typing.version, typing.text, typing.doc]).toEqual([2, 'svc_version: 2\ndefault_agent: a\n', first.doc]);
    const second = s.state(YAML)!;
    expect([second.version, second.doc.text]).toEqual([2, 'svc_version: 2\ndefault_agent: a\n']);
    expect(second.doc).not.toBe(first.doc);
  });

  it('looks only at manifests by name and YAML/TOML files, and takes a YAML file only if it pins our schema', () => {
    const { store: s } = store();
    expect(
      s.change({ uri: 'file:///work/notes.txt', version: 1, text: 'svc_version: 2\n', languageId: 'plaintext' }),
    ).toBeUndefined();
    expect(s.state('file:///work/notes.txt')).toBeUndefined();
    expect(s.change({ uri: OTHER, version: 1, text: 'a: 1\n', languageId: 'yaml' })).toBe(false);
    expect(s.managed(OTHER)).toBeUndefined();
    expect(s.change({ uri: OTHER, version: 2, text: PINNED, languageId: 'yaml' })).toBe(true);
    expect(s.managed(OTHER)?.version).toBe(2);
  });

  it('new settings re-read every tracked file and say which are still ours', () => {
    const { store: s } = store();
    s.change({ uri: YAML, version: 1, text: 'svc_version: 2\n', languageId: 'yaml' });
    s.change({ uri: OTHER, version: 1, text: 'a: 1\n', languageId: 'yaml' });
    const open = [
      { uri: YAML, version: 1, text: 'svc_version: 2\n', languageId: 'yaml' },
      { uri: OTHER, version: 1, text: 'a: 1\n', languageId: 'yaml' },
      { uri: 'file:///work/untracked.yaml', version: 1, text: 'a: 1\n', languageId: 'yaml' },
    ];
    expect(s.applySettings({ ...DEFAULT_SETTINGS, enable: false }, open)).toEqual([
      { uri: YAML, managed: false },
      { uri: OTHER, managed: false },
    ]);
    expect(s.managed(YAML)).toBeUndefined();
    expect(s.applySettings({ ...DEFAULT_SETTINGS }, open)).toEqual([
      { uri: YAML, managed: true },
      { uri: OTHER, managed: false },
    ]);
  });

  it('forgets a closed file', () => {
    const { store: s } = store();
    s.change({ uri: YAML, version: 1, text: 'svc_version: 2\n' });
    s.close(YAML);
    expect(s.state(YAML)).toBeUndefined();
  });
});
