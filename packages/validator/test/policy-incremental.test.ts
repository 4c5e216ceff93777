/**
 * Suppression comments after edits: a `SuppressionSearch` carried over `update()` (as the
 * language server carries it on its document state) searches only the edited lines, and the
 * policy it gives is the one a fresh validation of the same text gives — diagnostics kept and
 * left out, and the comments' own problems (`unused-suppression`, `invalid-suppression`,
 * `unsuppressible-rule`) — after random edits that add, remove and break comments, open and
 * close strings around them, and in bursts validated once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ManifestDocument,
  PieceText,
  SuppressionSearch,
  validateDocument,
  validateManifest,
  withPolicy,
  type ManifestPolicy,
} from '@svc-manifest/validator/library';
import { diagnosticLine } from './support/diagnostic-lines.js';
import { recordSearches } from './support/recorded-searches.js';

const line = diagnosticLine;

const POLICY: ManifestPolicy = { inlineSuppressions: true };
const SET: ManifestPolicy = { rules: { 'possible-typo': 'error' }, inlineSuppressions: true };

const YAML = [
  'svc_version: 2',
  '# svc-manifest-disable-next-line default-agent-declared -- from the platform',
  'default_agent: nobody',
  'agents:',
  '  writer: {}',
  '# svc-manifest-disable possible-typo',
  'trigers: []',
  'projets: [a]',
  '# svc-manifest-enable possible-typo',
  'descripton: "# svc-manifest-disable-next-line possible-typo"',
  '',
].join('\n');

const TOML = [
  'svc_version = 2',
  '# svc-manifest-disable-next-line default-agent-declared',
  'default_agent = "nobody"',
  'trigers = []',
  '# svc-manifest-disable-next-line possible-typo, no-such-rule',
  'projets = ["a"]',
  '[agents.writer]',
  '',
].join('\n');

/** Pieces an edit inserts: whole comments of every kind, broken ones, string openers, line breaks. */
const PIECES = [
  '# svc-manifest-disable-next-line possible-typo\n',
  '# svc-manifest-disable-next-line default-agent-declared\n',
  '# svc-manifest-disable possible-typo, default-agent-declared\n',
  '# svc-manifest-enable possible-typo\n',
  '# svc-manifest-disable-next-line\n',
  '# svc-manifest-disable-next-line possble-typo\n',
  '# svc-manifest-disable-next-line unused-suppression\n',
  '# svc-manifest-disable-next-line yaml-syntax\n',
  '#svc-manifest-enable default-agent-declared -- done\n',
  'x: 1 # svc-manifest-disable-next-line possible-typo\n',
  'note: |\n  # svc-manifest-disable possible-typo\n',
  'd: "\n',
  "d: '# svc-manifest-disable possible-typo'\n",
  'projeckt: 1\n',
  'svc-manifest-',
  'svc-',
  'manifest-',
  '#',
  ' ',
  '\n',
  '\r\n',
  '\r',
  'x',
  '"',
  "'",
  '|',
];

interface Edit {
  at: number;
  remove: number;
  insert: number;
}

const edit = fc.record({ at: fc.nat(10_000), remove: fc.nat(30), insert: fc.nat(PIECES.length - 1) });

/** `text` with the edit applied (its offset and length cut to the text), and the change that made it. */
function applied(text: string, { at, remove, insert }: Edit) {
  const start = at % (text.length + 1);
  const end = Math.min(text.length, start + (remove % 4 === 0 ? remove : 0));
  const piece = PIECES[insert]!;
  return { text: text.slice(0, start) + piece + text.slice(end), change: { start, end, newLength: piece.length } };
}

/** The starts of the lines holding `svc-manifest-`, lines ending at "\n", "\r\n" or a lone "\r" (as the line index has them). */
function markedByLines(text: string): number[] {
  const starts: number[] = [];
  let start = 0;
  for (const lineBreak of [...text.matchAll(/\r\n|\r|\n/g), null]) {
    const end = lineBreak ? lineBreak.index : text.length;
    if (text.slice(start, end).includes('svc-manifest-')) starts.push(start);
    if (lineBreak) start = end + lineBreak[0].length;
  }
  return starts;
}

/** Edits in bursts: each burst's documents are updated one by one and the search carried, but only the last is validated. */
function checkBursts(format: 'yaml' | 'toml', base: string, bursts: Edit[][], policy: ManifestPolicy) {
  let text = base;
  let document = ManifestDocument.parse(text, { format });
  let search = SuppressionSearch.of(document);
  expect(withPolicy(document, validateDocument(document), policy, search).diagnostics.map(line)).toEqual(
    validateManifest(text, { format, policy }).diagnostics.map(line),
  );
  for (const burst of bursts) {
    for (const one of burst) {
      const next = applied(text, one);
      text = next.text;
      document = document.update(text, [next.change]);
      search = search.after(document);
    }
    const fresh = ManifestDocument.parse(text, { format });
    expect(search.markedLines()).toEqual(markedByLines(text));
    expect(SuppressionSearch.of(fresh).markedLines()).toEqual(markedByLines(text));
    const carried = withPolicy(document, validateDocument(document), policy, search).diagnostics.map(line);
    expect(carried).toEqual(withPolicy(document, validateDocument(document), policy).diagnostics.map(line));
    expect(carried).toEqual(validateManifest(text, { format, policy }).diagnostics.map(line));
  }
}

describe('suppression comments after edits', () => {
  const bursts = fc.array(fc.array(edit, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 });

  it('give what a fresh validation gives, in YAML', () => {
    fc.assert(
      fc.property(bursts, fc.boolean(), (edits, withRules) =>
        checkBursts('yaml', YAML, edits, withRules ? SET : POLICY),
      ),
      { numRuns: 150, seed: 3201 },
    );
  });

  it('give what a fresh validation gives, in TOML', () => {
    fc.assert(
      fc.property(bursts, fc.boolean(), (edits, withRules) =>
        checkBursts('toml', TOML, edits, withRules ? SET : POLICY),
      ),
      { numRuns: 100, seed: 3202 },
    );
  });

  it("a comment's line moved by an edit above it, and one turned into a string's text by an edit elsewhere", () => {
    const text =
      'svc_version: 2\nagents:\n  writer: {}\ndefault_agent: writer\nnote: x\n  # svc-manifest-disable-next-line possible-typo\ntrigers: []\n';
    let document = ManifestDocument.parse(text);
    let search = SuppressionSearch.of(document);
    const codes = () => withPolicy(document, validateDocument(document), POLICY, search).diagnostics.map((d) => d.code);
    expect(codes()).toEqual([]);
    // Two lines above the comment: it moves, and still suppresses; only the edited lines are searched.
    const moved = text.replace('svc_version: 2\n', 'svc_version: 2\n\n\n');
    const source = PieceText.from(moved);
    const wholeTextSearches = recordSearches(source, 'svc-manifest-');
    document = document.update(source, [{ start: 15, end: 15, newLength: 2 }]);
    search = search.after(document);
    expect(search.markedLines()).toEqual([moved.indexOf('  # svc')]);
    expect(wholeTextSearches).toEqual([]);
    expect(codes()).toEqual([]);
    // A block scalar opened above it: the unchanged comment line is now text, and suppresses nothing.
    const swallowed = moved.replace('note: x', 'note: |');
    document = document.update(swallowed);
    search = search.after(document);
    expect(codes()).toEqual(['possible-typo']);
  });
});
