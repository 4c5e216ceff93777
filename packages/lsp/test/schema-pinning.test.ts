import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SCHEMA_URLS } from '@svc-manifest/schema';
import { updateState } from '../src/document-state.js';
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
    expect(findSchemaPin(doc(text))).toMatchObject({
      how: '$schema',
      known: { version: 2 },
      start: text.indexOf('https'),
    });
  });

  it("reads Taplo's #:schema directive in TOML", () => {
    const text = `#:schema ${SCHEMA_URLS.combined}\nsvc_version = 1\n`;
    expect(findSchemaPin(doc(text, 'file:///work/other.toml'))).toMatchObject({
      how: 'taplo',
      known: { version: null },
    });
  });

  it('uses the pinned version for completion when svc_version is not written yet', () => {
    const fixture = at(`# yaml-language-server: $schema=${SCHEMA_URLS.v1}\n‸`, 'file:///work/x.yaml');
    const labels = completion(fixture.state, { position: fixture.position }).items.map((i) => i.label);
    expect(labels).toContain('channels');
    expect(labels).not.toContain('default_agent');
  });

  it('offers our schema URLs as $schema values', () => {
    const fixture = at(`$schema: ‸\nsvc_version: 2\n`);
    expect(completion(fixture.state, { position: fixture.position }).items.map((i) => i.label)).toEqual([
      SCHEMA_URLS.v2,
      SCHEMA_URLS.v1,
      SCHEMA_URLS.combined,
    ]);
    const toml = at(`"$schema" = "‸"\n`, 'file:///work/svc.toml');
    expect(completion(toml.state, { position: toml.position }).items[0]!.textEdit).toMatchObject({
      newText: JSON.stringify(SCHEMA_URLS.v2),
    });
  });

  it('warns when the pinned version disagrees with svc_version', () => {
    const text = `# yaml-language-server: $schema=${SCHEMA_URLS.v1}\nsvc_version: 2\ndefault_agent: a\nagents:\n  a: {}\n`;
    const diagnostics = computeDiagnostics(doc(text));
    expect(diagnostics.map((d) => [d.code, d.severity, d.range])).toEqual([
      ['schema-version-mismatch', 2, rangeOf(text, SCHEMA_URLS.v1)],
    ]);
    const state = doc(text);
    const [fix] = codeActions(state, { range: rangeOf(text, SCHEMA_URLS.v1), context: { diagnostics: [] } });
    expect(fix!.title).toBe('Pin the svc_version 2 schema');
    expect(applyEdits(text, fix!.edit!.changes![state.uri]!)).toBe(text.replace(SCHEMA_URLS.v1, SCHEMA_URLS.v2));
  });

  it('says once, as information, that a pinned URL is not one of ours', () => {
    const text = `$schema: https://json.schemastore.org/other.json\nsvc_version: 2\ndefault_agent: a\nagents:\n  a: {}\n`;
    const diagnostics = computeDiagnostics(doc(text));
    expect(diagnostics.map((d) => [d.code, d.severity, d.range])).toEqual([
      ['unknown-schema', 3, rangeOf(text, 'https://json.schemastore.org/other.json')],
    ]);
    expect(pinsOurSchema(doc(text))).toBe(false);
  });

  it('finds a modeline after lines that mention it without pinning, and after any kind of line break', () => {
    const text = `svc_version: 2\nname: "yaml-language-server"\u2028# yaml-language-server: $schema=${SCHEMA_URLS.v2}\n`;
    expect(findSchemaPin(doc(text))).toMatchObject({
      how: 'modeline',
      start: text.indexOf('https'),
      end: text.indexOf('https') + SCHEMA_URLS.v2.length,
    });
    const toml = `title = "#:schema not here"\r  #:schema ${SCHEMA_URLS.v1}\r\nsvc_version = 1\n`;
    expect(findSchemaPin(doc(toml, 'file:///work/svc.toml'))).toMatchObject({
      how: 'taplo',
      start: toml.indexOf('https'),
      known: { version: 1 },
    });
  });

  it('reads a directive exactly where a multiline regular expression over the whole text would', () => {
    // The reference: what the directive rules mean, run over the whole text at once.
    const reference = {
      yaml: /^[ \t]*#[ \t]*yaml-language-server[ \t]*:[ \t]*\$schema=(\S+)/m,
      toml: /^[ \t]*#:schema[ \t]+(\S+)/m,
    };
    const pieces = fc.constantFrom(
      ' ',
      '\t',
      '#',
      ':',
      '=',
      '$schema',
      'yaml-language-server',
      '#:schema',
      'x',
      'https://a/s.json',
    );
    const line = fc.oneof(
      fc.constantFrom(
        '# yaml-language-server: $schema=https://a/s.json',
        '\t#yaml-language-server :$schema=https://b/t.json',
        '  #:schema https://c/u.json',
        'x: "yaml-language-server"',
        'y = "#:schema z"',
        '',
      ),
      fc.array(pieces, { maxLength: 8 }).map((p) => p.join('')),
    );
    const lineBreak = fc.constantFrom('\n', '\r', '\r\n', '\u2028', '\u2029');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(line, lineBreak), { maxLength: 8 }),
        fc.constantFrom('yaml', 'toml'),
        (lines, format) => {
          const text = lines.map(([content, end]) => content + end).join('');
          const uri = format === 'toml' ? 'file:///work/svc.toml' : 'file:///work/svc.yaml';
          const expected = reference[format].exec(text);
          const pin = findSchemaPin(doc(text, uri));
          if (expected) {
            const start = expected.index + expected[0].length - expected[1]!.length;
            expect(pin).toMatchObject({ url: expected[1], start, how: format === 'toml' ? 'taplo' : 'modeline' });
          } else {
            expect(pin?.how === 'modeline' || pin?.how === 'taplo').toBe(false);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('after edits, with answers carried from the text before, reads the directive a search of the whole new text finds', () => {
    const reference = {
      yaml: /^[ \t]*#[ \t]*yaml-language-server[ \t]*:[ \t]*\$schema=(\S+)/m,
      toml: /^[ \t]*#:schema[ \t]+(\S+)/m,
    };
    const line = fc.constantFrom(
      '# yaml-language-server: $schema=https://a/s.json',
      '# yaml-language-server: $schema=https://b/t.json',
      '#:schema https://c/u.json',
      '  #:schema https://d/v.json',
      'x: "yaml-language-server"',
      'svc_version: 2',
      'y = 1',
      '',
    );
    const insert = fc.oneof(
      line.map((l) => `${l}\n`),
      fc.constantFrom('#', ' ', 'x', '\n', '\r\n', ':schema ', 'yaml-'),
    );
    // Each edit: where (as fractions of the text), what is inserted, and whether the pin is asked for after it
    // (a burst of edits is validated once: the answers carry over edits nobody asked about).
    const edit = fc.record({
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      span: fc.double({ min: 0, max: 0.3, noNaN: true }),
      text: insert,
      ask: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 10 }),
        fc.array(edit, { minLength: 1, maxLength: 12 }),
        fc.constantFrom('yaml', 'toml'),
        (lines, edits, format) => {
          const uri = format === 'toml' ? 'file:///work/svc.toml' : 'file:///work/svc.yaml';
          let text = lines.map((l) => `${l}\n`).join('');
          let state = doc(text, uri);
          findSchemaPin(state);
          for (const [index, { at, span, text: inserted, ask }] of edits.entries()) {
            const start = Math.floor(at * text.length);
            const end = Math.min(text.length, start + Math.floor(span * text.length));
            text = text.slice(0, start) + inserted + text.slice(end);
            state = updateState(state, index + 2, text, [{ start, end, newLength: inserted.length }]);
            if (!ask && index < edits.length - 1) continue;
            const expected = reference[format].exec(text);
            const pin = findSchemaPin(state);
            const directive =
              pin?.how === 'modeline' || pin?.how === 'taplo' ? { url: pin.url, start: pin.start } : null;
            expect(directive).toEqual(
              expected ? { url: expected[1], start: expected.index + expected[0].length - expected[1]!.length } : null,
            );
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
