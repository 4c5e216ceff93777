import { describe, expect, it } from 'vitest';
import { SCHEMA_URLS } from '@svc-manifest/schema';
import { computeDiagnostics } from '../src/features/diagnostics.js';
import { effectiveVersion, findSchemaPin, pinsOurSchema } from '../src/schema-pinning.js';
import { completion } from '../src/features/completion.js';
import { codeActions } from '../src/features/code-actions.js';
import { applyEdits, at, doc, rangeOf } from './helpers.js';

describe('schema pinning', () => {
  it('reads a yaml-language-server modeline', () => {
    const text = `# yaml-language-server: $schema=${SCHEMA_URLS.v1}\nagents: []\n`;
    const state = doc(text, 'file:///work/deploy/manifest.yaml');
    expect(findSchemaPin(state)).toMatchObject({ url: SCHEMA_URLS.v1, how: 'modeline', known: { version: 1 } });
    expect(pinsOurSchema(state)).toBe(true);
    expect(effectiveVersion(state)).toBe(1);
  });

  it('reads a $schema key, on a mirror of our schemas too', () => {
    const text = `$schema: "https://mirror.internal/schemas/svc.v2.schema.json"\nsvc_version: 2\n`;
    expect(findSchemaPin(doc(text))).toMatchObject({ how: '$schema', known: { version: 2 }, start: text.indexOf('https') });
  });

  it("reads Taplo's #:schema directive in TOML", () => {
    const text = `#:schema ${SCHEMA_URLS.combined}\nsvc_version = 1\n`;
    expect(findSchemaPin(doc(text, 'file:///work/other.toml'))).toMatchObject({ how: 'taplo', known: { version: null } });
  });

  it('uses the pinned version for completion when svc_version is not written yet', () => {
    const fixture = at(`# yaml-language-server: $schema=${SCHEMA_URLS.v1}\n‸`, 'file:///work/x.yaml');
    const labels = completion(fixture.state, { position: fixture.position }).items.map((i) => i.label);
    expect(labels).toContain('channels');
    expect(labels).not.toContain('default_agent');
  });

  it('offers our schema URLs as $schema values', () => {
    const fixture = at(`$schema: ‸\nsvc_version: 2\n`);
    expect(completion(fixture.state, { position: fixture.position }).items.map((i) => i.label)).toEqual([SCHEMA_URLS.v2, SCHEMA_URLS.v1, SCHEMA_URLS.combined]);
    const toml = at(`"$schema" = "‸"\n`, 'file:///work/svc.toml');
    expect(completion(toml.state, { position: toml.position }).items[0]!.textEdit).toMatchObject({ newText: JSON.stringify(SCHEMA_URLS.v2) });
  });

  it('warns when the pinned version disagrees with svc_version', () => {
    const text = `# yaml-language-server: $schema=${SCHEMA_URLS.v1}\nsvc_version: 2\ndefault_agent: a\nagents:\n  a: {}\n`;
    const diagnostics = computeDiagnostics(doc(text));
    expect(diagnostics.map((d) => [d.code, d.severity, d.range])).toEqual([['schema-version-mismatch', 2, rangeOf(text, SCHEMA_URLS.v1)]]);
    const state = doc(text);
    const [fix] = codeActions(state, { range: rangeOf(text, SCHEMA_URLS.v1), context: { diagnostics: [] } });
    expect(fix!.title).toBe('Pin the svc_version 2 schema');
    expect(applyEdits(text, fix!.edit!.changes![state.uri]!)).toBe(text.replace(SCHEMA_URLS.v1, SCHEMA_URLS.v2));
  });

  it('says once, as information, that a pinned URL is not one of ours', () => {
    const text = `$schema: https://json.schemastore.org/other.json\nsvc_version: 2\ndefault_agent: a\nagents:\n  a: {}\n`;
    const diagnostics = computeDiagnostics(doc(text));
    expect(diagnostics.map((d) => [d.code, d.severity, d.range])).toEqual([['unknown-schema', 3, rangeOf(text, 'https://json.schemastore.org/other.json')]]);
    expect(pinsOurSchema(doc(text))).toBe(false);
  });
});
