/**
 * The directive search (directive-search.ts) carried to a document: only to one made from its
 * own, and by the document state over an edit, which then searches the edited lines only. The
 * search after edits, against a whole-text search, is schema-pinning.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { ManifestDocument, PieceText } from '@svc-manifest/validator/library';
import { DirectiveSearch, type DirectiveRule } from '../src/directive-search.js';
import { updateState } from '../src/document-state.js';
import { findSchemaPin } from '../src/schema-pinning.js';
import { doc } from './helpers.js';
import { recordSearches } from '../../validator/test/support/recorded-searches.js';

const MODELINE: DirectiveRule = {
  marker: 'yaml-language-server',
  lineRule: /^[ \t]*#[ \t]*yaml-language-server[ \t]*:[ \t]*\$schema=(\S+)/,
};

describe('directive search', () => {
  it('carries no answer to a document that was not made from its own', () => {
    const text = 'svc_version: 2\n# yaml-language-server: $schema=https://a/s.json\n';
    const document = ManifestDocument.parse(text);
    const inserted = `x: 0\n${text}`;
    const search = new DirectiveSearch(document.update(inserted));
    expect(search.find(MODELINE)).toMatchObject({ start: inserted.indexOf('https') });
    // Another document made from the same one: the answer above would be five characters off.
    const sibling = document.update(text.replace('svc_version: 2', 'svc_version: 1'));
    expect(search.after(sibling).find(MODELINE)).toEqual({
      url: 'https://a/s.json',
      start: text.indexOf('https'),
      end: text.indexOf('https') + 'https://a/s.json'.length,
    });
  });

  it('finds a directive on the first line after a byte-order mark', () => {
    // An editor that sends the text as the file has it (the mark included) still has its modeline read.
    const text = '\ufeff# yaml-language-server: $schema=https://a/s.json\nsvc_version: 2\n';
    const search = new DirectiveSearch(ManifestDocument.parse(text));
    expect(search.find(MODELINE)).toEqual({
      url: 'https://a/s.json',
      start: text.indexOf('https'),
      end: text.indexOf('https') + 'https://a/s.json'.length,
    });
  });

  it("carries the document state's search over an edit: only the edited lines are searched", () => {
    const text = '# yaml-language-server: $schema=https://a/s.json\nsvc_version: 2\nagents: {}\n';
    const state = doc(text);
    const before = findSchemaPin(state);
    expect(before).toMatchObject({ url: 'https://a/s.json', how: 'modeline' });
    const edited = text.replace('agents: {}', 'agents: { a: {} }');
    const source = PieceText.from(edited);
    const wholeTextSearches = recordSearches(source, 'yaml-language-server');
    const start = text.indexOf('{}');
    const next = updateState(state, 2, source, [{ start, end: start + 2, newLength: '{ a: {} }'.length }]);
    expect(findSchemaPin(next)).toEqual(before);
    expect(wholeTextSearches).toEqual([]);
  });
});
