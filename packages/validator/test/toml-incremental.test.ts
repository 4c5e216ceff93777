/**
 * Incremental TOML parsing: `ManifestDocument.update` re-parses only the blocks (text from one
 * table header to the next) whose text changed, and joins the blocks' trees. Whatever the edit,
 * the result must be exactly what a fresh parse of the final text gives, and the joined tree
 * exactly what the whole-text tree builder gives. `FC_RUNS=<n>` scales the number of runs.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManifestDocument, nodeAtPointer, PieceText, validateDocument, type Diagnostic } from '../src/index.js';
import { checkCharacters } from '../src/document/limits.js';
import { parseTomlFragment, planTomlBlocks, planTomlPart, planTomlRange } from '../src/document/parse-toml.js';
import {
  applyAll,
  largeTomlManifest,
  tomlEdits,
  tomlManifestArb,
  validTomlEdit,
} from './support/manifest-arbitraries.js';

const SCALE = Number(process.env.FC_RUNS ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

const toml = (text: string) => ManifestDocument.parse(text, { format: 'toml' });
const treeJson = (root: ManifestDocument['root']) => JSON.stringify(root);
const shown = (list: readonly Diagnostic[]) =>
  list.map((d) => [d.code, d.range.start.offset, d.range.end.offset, d.path, d.message]);

/** The tree of a whole-text build (no blocks) of what the document parses: the text after any byte-order mark, forbidden characters blanked. */
function wholeTree(text: string): string {
  const checked = checkCharacters(text, 'toml').text;
  const bom = checked.charCodeAt(0) === 0xfeff ? 1 : 0;
  return treeJson(parseTomlFragment(checked.slice(bom), bom).root);
}

/** How `document` differs from a fresh parse of its text and from the whole-text tree; null when it does not. */
function differenceFromFresh(document: ManifestDocument): string | null {
  const fresh = toml(document.text);
  if (!isDeepStrictEqual(document.value, fresh.value)) return 'value differs';
  const a = validateDocument(fresh).diagnostics;
  const b = validateDocument(document).diagnostics;
  if (!isDeepStrictEqual(b, a))
    return `diagnostics differ:\nfresh:   ${JSON.stringify(shown(a))}\nupdated: ${JSON.stringify(shown(b))}`;
  if (treeJson(document.root) !== treeJson(fresh.root)) return 'tree differs from a fresh parse';
  if (document.fatal !== fresh.fatal) return 'fatal differs';
  // Neither may differ from the tree built from one parse of the whole text.
  if (!fresh.fatal && treeJson(fresh.root) !== wholeTree(document.text))
    return 'tree differs from the whole-text build';
  return null;
}

describe('the generated TOML manifests', () => {
  it('parse without a problem, in many blocks, into the tree the whole-text build gives', () => {
    const text = largeTomlManifest(40, 20, 3);
    const document = toml(text);
    expect(
      shown(validateDocument(document).diagnostics).filter(
        ([code]) => code === 'toml-syntax' || code === 'duplicate-key',
      ),
    ).toEqual([]);
    expect(planTomlBlocks(text)!.length).toBe(1 + 4 + 20 + 2 + 40 + 4 + 6 + 1 + 3);
    expect(treeJson(document.root)).toBe(wholeTree(text));
    expect(document.parsedCharacters).toBe(text.length);
  });
});

describe('planning blocks over a text held in pieces', () => {
  // Blocks with multi-line strings of up to 90 KB (past the first windows of 16 and 64 KB), and
  // now and then a string, array or table left open, so a window can end inside a value.
  const block = fc.oneof(
    fc.nat(40).map((n) => `[agents.a${n}]\nenabled = true\n`),
    fc.nat(40).map((n) => `[[triggers]]\nslug = "t${n}"\ntags = [\n  "x",\n]\n`),
    fc
      .integer({ min: 1, max: 90_000 })
      .map((n) => `[long]\ntext = """\n${'line [not.a.header]\n'.repeat(Math.ceil(n / 21))}"""\n`),
    fc.constantFrom('[open]\nx = """never closed\n', '[open]\nx = [1,\n', 'k = { a = 1,\n'),
  );
  const text = fc
    .array(block, { minLength: 1, maxLength: 12 })
    .map((blocks) => 'svc_version = 2\n' + blocks.join('\n'));

  it('gives what planning the string gives, from any block, with any stop', () => {
    fc.assert(
      fc.property(
        text,
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 2, max: 5 }),
        fc.constantFrom(64, 4096, 16 * 1024),
        (text, pick, stopPick, every, pieceSize) => {
          const starts = planTomlBlocks(text)?.map((b) => b.start) ?? [0];
          const from = starts[pick % starts.length]!;
          const stopFrom = from + (stopPick % Math.max(1, text.length - from));
          // Accepts some line starts, by their offset alone, as an edit accepts the blocks the previous text had.
          const stopAt = (offset: number) => ((offset * 2654435761) >>> 0) % every === 0;
          const expected = planTomlRange(text, from, stopAt, stopFrom);
          const inWindows = planTomlPart(PieceText.from(text, pieceSize), from, stopAt, stopFrom);
          expect(inWindows).toEqual(expected);
        },
      ),
      { numRuns: runs(150), seed: 1711 },
    );
  });
});

describe('opening a TOML file block by block', () => {
  // Each text parses block by block without a problem; only how the blocks combine decides.
  const cases = [
    '[a]\nx = 1\n\n[a.x]\nw = 3\n',
    '[a]\nx.y = 1\n\n[a.x.z]\nw = 3\n',
    '[a]\nx = { y = 1 }\n\n[a.x.z]\nw = 3\n',
    '[[a]]\nb = 1\n\n[a]\nc = 2\n',
    '[a]\nb = 1\n\n[[a]]\nc = 2\n',
    '[a.b]\nc = 1\n\n[a]\nb = 2\n',
    '[a.b]\nc = 1\n\n[a]\nb.d = 2\n',
    '[a.b.c]\nd = 1\n\n[a]\nb.e = 2\n',
    'a = 1\n\n[a]\nb = 2\n',
    'a.b = 1\n\n[a.c]\nd = 2\n',
    'x = [1]\n\n[[x]]\ny = 2\n',
    '[t]\nk = 1\n\n[u]\nk = 2\n\n[t]\nj = 3\n',
    '[[p]]\nq = 1\n\n[p.r]\ns = 1\n\n[[p]]\nq = 2\n\n[p.r]\ns = 2\n',
  ];
  it.each(cases)('%j gives what the whole text gives', (text) => {
    const document = toml(text);
    const whole = parseTomlFragment(text, 0);
    expect(treeJson(document.root)).toBe(treeJson(whole.root));
    expect(document.diagnostics).toEqual(whole.diagnostics);
  });
});

describe('incremental TOML parsing: parse(t1).update(t2) is parse(t2)', () => {
  it('after random edits', () => {
    let total = 0;
    let blockwise = 0;
    let errorsBlockwise = 0;
    fc.assert(
      fc.property(tomlManifestArb, tomlEdits, (t1, list) => {
        const t2 = applyAll(t1, list);
        const updated = toml(t1).update(t2);
        expect(updated.text).toBe(t2);
        total += 1;
        if (updated.parsedCharacters < t2.length) blockwise += 1;
        if (updated.parsedCharacters < t2.length && updated.root === null) errorsBlockwise += 1;
        const problem = differenceFromFresh(updated);
        if (problem) throw new Error(problem);
      }),
      { numRuns: runs(150) },
    );
    // Most edits keep every block's signature: the property is not checked on whole parses only.
    expect(blockwise).toBeGreaterThan(total / 5);
    // And many texts with a syntax error got it from the one block that has it.
    expect(errorsBlockwise).toBeGreaterThan(total / 10);
  });

  it('after edits that keep the text valid, nearly always block by block', () => {
    let total = 0;
    let blockwise = 0;
    fc.assert(
      fc.property(tomlManifestArb, fc.array(validTomlEdit, { minLength: 1, maxLength: 4 }), (t1, list) => {
        const t2 = applyAll(t1, list);
        const updated = toml(t1).update(t2);
        total += 1;
        if (updated.parsedCharacters < t2.length / 4) blockwise += 1;
        const problem = differenceFromFresh(updated);
        if (problem) throw new Error(problem);
      }),
      { numRuns: runs(100) },
    );
    expect(blockwise).toBeGreaterThan(total / 2);
  });

  it('after a chain of edits, each update starting from the previous document', () => {
    fc.assert(
      fc.property(tomlManifestArb, fc.array(tomlEdits, { minLength: 2, maxLength: 6 }), (t1, steps) => {
        let document = toml(t1);
        let text = t1;
        for (const step of steps) {
          text = applyAll(text, step);
          document = document.update(text);
          const problem = differenceFromFresh(document);
          if (problem) throw new Error(problem);
        }
      }),
      { numRuns: runs(60) },
    );
  });

  it('a document updated twice: the second update gives a fresh parse and leaves the first one’s result as it was', () => {
    // The first update takes the document's block trees over and moves them in place; a second
    // update of the same document cannot use them, so it reads its text afresh.
    const text = largeTomlManifest(200, 20, 4);
    const document = toml(text);
    const first = document.update(text.replace('slug = "trigger-100"', 'slug = "trigger-100x"'));
    expect(first.parsedCharacters).toBeLessThan(200);
    const firstTree = treeJson(first.root);
    const second = document.update(`# moved\n${text.replace('slug = "trigger-150"', 'slug = "trigger-150y"')}`);
    expect(second.parsedCharacters).toBe(second.text.length);
    expect(differenceFromFresh(second)).toBeNull();
    expect(treeJson(first.root)).toBe(firstTree);
    expect(differenceFromFresh(first)).toBeNull();
    // The first update's document is the one to go on from: its next edit is incremental again.
    const third = first.update(first.text.replace('slug = "trigger-20"', 'slug = "trigger-20z"'));
    expect(third.parsedCharacters).toBeLessThan(200);
    expect(differenceFromFresh(third)).toBeNull();
  });

  it('edits that undo themselves (t1 → t2 → t1) give back the first document', () => {
    fc.assert(
      fc.property(tomlManifestArb, tomlEdits, (t1, list) => {
        const first = toml(t1);
        const expected = {
          value: first.value,
          diagnostics: validateDocument(first).diagnostics,
          tree: treeJson(first.root),
        };
        const back = toml(t1).update(applyAll(t1, list)).update(t1);
        expect(back.value).toEqual(expected.value);
        expect(validateDocument(back).diagnostics).toEqual(expected.diagnostics);
        expect(treeJson(back.root)).toBe(expected.tree);
      }),
      { numRuns: runs(40) },
    );
  });
});

describe('what an edit re-parses', () => {
  /** The text of the block (header line to the next header line) holding `offset`. */
  function blockAround(text: string, offset: number): string {
    const starts = [...text.matchAll(/^\[/gm)].map((m) => m.index);
    const start = starts.filter((s) => s <= offset).pop() ?? 0;
    const end = starts.find((s) => s > offset) ?? text.length;
    return text.slice(start, end);
  }

  /**
   * What an update reads of a text with an error in the block holding `offset`: the block, and
   * the next header line, up to its line break (the parser may look past the block's end).
   */
  function readForError(text: string, offset: number): number {
    const block = blockAround(text, offset);
    const next = text.indexOf(block) + block.length;
    if (next >= text.length) return block.length;
    const lineEnd = text.indexOf('\n', next);
    return block.length + (lineEnd === -1 ? text.length : lineEnd) - next;
  }

  for (const [name, triggers] of [
    ['1k lines', 120],
    ['50k lines', 7000],
  ] as const) {
    it(`a one-line value edit in a ${name} file re-parses only its block`, () => {
      const text = largeTomlManifest(triggers, 20, 1);
      const lineCount = text.split('\n').length;
      expect(lineCount).toBeGreaterThan(name === '1k lines' ? 900 : 50_000);
      let document = toml(text);
      expect(document.parsedCharacters).toBe(text.length);
      // Change the slug of the trigger in the middle of the file, then keep typing in it.
      const at = text.indexOf(`slug = "trigger-${Math.floor(triggers / 2)}"`) + 'slug = "'.length;
      let edited = text;
      for (const typed of ['x', 'xy', 'xyz']) {
        edited = text.slice(0, at) + typed + text.slice(at);
        document = document.update(edited);
        expect(document.parsedCharacters).toBe(blockAround(edited, at).length);
        expect(document.parsedCharacters).toBeLessThan(200);
      }
      expect((document.value as { triggers: { slug: string }[] }).triggers[Math.floor(triggers / 2)]!.slug).toBe(
        `xyztrigger-${Math.floor(triggers / 2)}`,
      );
      expect(differenceFromFresh(document)).toBeNull();
    });
  }

  it('a date typed into one block of a file that had none, then taken out, is what a fresh parse sees', () => {
    // A TOML date is no JSON type for the schema (not even an object, where a table is due):
    // whether the text has one decides what the schema is given.
    const triggers = Array.from(
      { length: 300 },
      (_, t) => `[[triggers]]\nslug = "trigger-${t}"\ntype = "cron"\ncron = "0 ${t % 24} * * *"\nprompt = "Run ${t}"\n`,
    );
    const text = `svc_version = 2\n\n[agents.main]\nenabled = true\n\n${triggers.join('\n')}`;
    const slug = 'slug = "trigger-150"\n';
    const dated = text.replace(slug, `${slug}filter = 2024-05-01\n`);
    let document = toml(text).update(dated);
    expect(document.parsedCharacters).toBeLessThan(200);
    const date = dated.indexOf('2024-05-01');
    const trigger150 = validateDocument(document).diagnostics.filter((d) => d.path.startsWith('/triggers/150'));
    expect(trigger150.map((d) => [d.code, d.path, d.range.start.offset, d.range.end.offset])).toEqual([
      ['wrong-type', '/triggers/150/filter', date, date + 10],
    ]);
    expect(differenceFromFresh(document)).toBeNull();
    document = document.update(text);
    expect(document.parsedCharacters).toBeLessThan(200);
    expect(differenceFromFresh(document)).toBeNull();
  });

  it('a header added, renamed or removed makes the whole text parse again, with the error a fresh parse gives', () => {
    const text = largeTomlManifest(30, 10, 2);
    const renamed = text.replace('[agents.agent-4]', '[agents.agent-3]');
    const document = toml(text).update(renamed);
    expect(document.parsedCharacters).toBe(renamed.length);
    const duplicate = validateDocument(document).diagnostics.filter((d) => d.code === 'duplicate-key');
    expect(duplicate).toHaveLength(1);
    // At the second header's last key.
    expect(duplicate[0]!.range.start.offset).toBe(
      renamed.indexOf('[agents.agent-3]', renamed.indexOf('[agents.agent-3]') + 1) + '[agents.'.length,
    );
    expect(differenceFromFresh(document)).toBeNull();
    // Back to the valid text: its blocks are those of the last text without a problem, so only the
    // renamed block is parsed again.
    const fixed = document.update(text);
    expect(fixed.parsedCharacters).toBe(blockAround(text, text.indexOf('[agents.agent-4]')).length);
    expect(differenceFromFresh(fixed)).toBeNull();
    const edited = text.replace('"conn-5"', '"conn-55"');
    const next = fixed.update(edited);
    expect(next.parsedCharacters).toBe(blockAround(edited, edited.indexOf('conn-55')).length);
    expect(differenceFromFresh(next)).toBeNull();
  });

  it('a syntax error typed in one block of a large file re-parses only that block, and is the error a fresh parse gives', () => {
    const text = largeTomlManifest(2000, 20, 4);
    let document = toml(text);
    const at = text.indexOf('slug = "trigger-1000"') + 'slug = '.length;
    // Typing a new value: `"`, then `"a`, then `"ab"` (the old value after it is the error until it is removed).
    const steps = ['"', '"a', '"ab', '"ab"'];
    for (const typed of steps) {
      const edited = text.slice(0, at) + typed + text.slice(at + '"trigger-1000"'.length);
      document = document.update(edited);
      expect(document.parsedCharacters).toBe(document.root ? blockAround(edited, at).length : readForError(edited, at));
      const problem = differenceFromFresh(document);
      if (problem) throw new Error(problem);
      const syntax = validateDocument(document).diagnostics.filter((d) => d.code === 'toml-syntax');
      expect(syntax.map((d) => d.range.start.offset >= at && d.range.start.offset <= at + typed.length + 1)).toEqual(
        typed === '"ab"' ? [] : [true],
      );
    }
  });

  it('a table header typed above another one, key by key, re-reads only the lines around it until it is complete', () => {
    // While a header is unfinished the text has a syntax error; it is the error of the one block
    // that holds it, and the lines after it are read as before (no string or bracket left open).
    const text = largeTomlManifest(2000, 20, 7);
    const at = text.indexOf('[[triggers]]\nslug = "trigger-1000"');
    const header = '[[triggers]]';
    let document = toml(text);
    for (let n = 1; n <= header.length; n++) {
      const edited = text.slice(0, at) + header.slice(0, n) + text.slice(at);
      document = document.update(edited);
      expect(document.root).toBeNull();
      expect(document.parsedCharacters).toBe(readForError(edited, at));
      expect(document.scannedCharacters).toBeLessThan(2000);
      const problem = differenceFromFresh(document);
      if (problem) throw new Error(problem);
    }
    // The line break makes it one more item of the array of tables: still only the lines around it.
    // Then a key typed with its quotes: the open quote leaves the lines after it as they were.
    const typed = `${header}\nslug = "new-one"\n`;
    for (const n of [header.length + 1, header.length + 'slug = "'.length + 1, typed.length]) {
      const edited = text.slice(0, at) + typed.slice(0, n) + text.slice(at);
      document = document.update(edited);
      expect(document.scannedCharacters).toBeLessThan(2000);
      expect(document.parsedCharacters).toBeLessThan(400);
      const problem = differenceFromFresh(document);
      if (problem) throw new Error(problem);
    }
    expect((document.value as { triggers: { slug: string }[] }).triggers.map((t) => t.slug).slice(999, 1002)).toEqual([
      'trigger-999',
      'new-one',
      'trigger-1000',
    ]);
    // And deleted again, character by character, back to the first text: the last one removes an item.
    for (let n = typed.length - 1; n >= 0; n--) {
      const edited = text.slice(0, at) + typed.slice(0, n) + text.slice(at);
      document = document.update(edited);
      expect(document.parsedCharacters).toBeLessThan(400);
      const problem = differenceFromFresh(document);
      if (problem) throw new Error(problem);
    }
    expect(document.text).toBe(text);
  });

  it('a table added to or removed from an array of tables is joined with the others; any other such change parses the whole text', () => {
    const text = largeTomlManifest(300, 20, 8);
    const at = text.indexOf('[[triggers]]\nslug = "trigger-150"');
    const added = document(text, at, '[[triggers]]\nslug = "new"\n');
    expect(added.parsedCharacters).toBeLessThan(200);
    expect(differenceFromFresh(added)).toBeNull();
    // `agents` is a table, not an array of tables: `[[agents]]` redefines it.
    const redefined = document(text, at, '[[agents]]\nname = "x"\n');
    expect(redefined.parsedCharacters).toBe(redefined.text.length);
    expect(validateDocument(redefined).diagnostics.map((d) => d.code)).toEqual(['duplicate-key']);
    expect(differenceFromFresh(redefined)).toBeNull();
    // A key that a header names (`[triggers.filter]` below would extend it) is not a key only this table has.
    const named = document(text, at, '[[triggers]]\nfilter = 1\n');
    expect(named.parsedCharacters).toBe(named.text.length);
    expect(differenceFromFresh(named)).toBeNull();

    // Removed: a whole item is joined; its header alone gives its keys to the item before (a key
    // defined twice there); an item whose sub-table stays would give that sub-table to the item before.
    const item = (t: number) =>
      text.slice(
        text.indexOf(`[[triggers]]\nslug = "trigger-${t}"`),
        text.indexOf(`[[triggers]]\nslug = "trigger-${t + 1}"`),
      );
    const removed = toml(text).update(text.replace(item(150), ''));
    expect(removed.parsedCharacters).toBeLessThan(200);
    expect(differenceFromFresh(removed)).toBeNull();
    expect((removed.value as { triggers: { slug: string }[] }).triggers[150]!.slug).toBe('trigger-151');
    const headerOnly = toml(text).update(text.replace('[[triggers]]\nslug = "trigger-150"', 'slug = "trigger-150"'));
    expect(validateDocument(headerOnly).diagnostics.map((d) => d.code)).toEqual(['duplicate-key']);
    expect(differenceFromFresh(headerOnly)).toBeNull();
    expect(item(148)).toContain('[triggers.filter]');
    const withSubTable = item(148).slice(0, item(148).indexOf('[triggers.filter]'));
    const orphaned = toml(text).update(text.replace(withSubTable, ''));
    expect(orphaned.parsedCharacters).toBe(orphaned.text.length);
    expect(differenceFromFresh(orphaned)).toBeNull();

    function document(base: string, offset: number, insert: string): ManifestDocument {
      return toml(base).update(base.slice(0, offset) + insert + base.slice(offset));
    }
  });

  it('a broken header or an open one-line string does not hide the nesting of the lines after it', () => {
    const deep = `x = ${'['.repeat(200)}${']'.repeat(200)}\n`;
    for (const broken of ['[[triggers\n', '[a.[b\n', 'name = "open\n', "name = 'open\n"]) {
      const document = toml(`svc_version = 2\n${broken}${deep}`);
      expect(document.diagnostics.map((d) => d.code)).toEqual(['too-deep']);
    }
  });

  it('a new key line typed into a large file re-parses only its block, unless a header names the key', () => {
    const text = largeTomlManifest(2000, 20, 5);
    const at = text.indexOf('slug = "trigger-1000"');
    let document = toml(text);
    for (const typed of ['n', 'note', 'note =', 'note = "', 'note = "later"', 'note = "later"\n']) {
      const edited = text.slice(0, at) + typed + text.slice(at);
      document = document.update(edited);
      expect(document.parsedCharacters).toBe(document.root ? blockAround(edited, at).length : readForError(edited, at));
      const problem = differenceFromFresh(document);
      if (problem) throw new Error(problem);
    }
    expect((document.value as { triggers: { note?: string }[] }).triggers[1000]!.note).toBe('later');
    // `sandbox` is a header's key (`[sandbox]`): a root key of that name may conflict, so the whole text is parsed.
    const rootKey = `sandbox = 1\n${text}`;
    const updated = toml(text).update(rootKey);
    expect(updated.parsedCharacters).toBe(rootKey.length);
    expect(validateDocument(updated).diagnostics.map((d) => d.code)).toEqual(['duplicate-key']);
    expect(differenceFromFresh(updated)).toBeNull();
  });

  it('the last document with a tree, kept while the text has an error, is not changed by the updates after it until one has a tree', () => {
    // The language server keeps it for completion and hover while the file does not parse.
    fc.assert(
      fc.property(tomlManifestArb, fc.array(tomlEdits, { minLength: 2, maxLength: 5 }), (t1, steps) => {
        let document = toml(t1);
        let text = t1;
        let lastGood = document;
        let lastGoodTree = treeJson(document.root);
        for (const step of steps) {
          text = applyAll(text, step);
          document = document.update(text);
          if (document.root) {
            lastGood = document;
            lastGoodTree = treeJson(document.root);
          } else {
            expect(treeJson(lastGood.root)).toBe(lastGoodTree);
          }
        }
        expect(treeJson(lastGood.root)).toBe(lastGoodTree);
      }),
      { numRuns: runs(60) },
    );
    const text = largeTomlManifest(30, 10, 6);
    const good = toml(text);
    const tree = treeJson(good.root);
    const trigger = nodeAtPointer(good.root!, '/triggers/5').node;
    const broken = good.update(text.replace('slug = "trigger-20"', 'slug = "trigger-20'));
    expect(broken.root).toBeNull();
    const stillBroken = broken.update(broken.text.replace('slug = "trigger-20', 'slug = "trigger-2'));
    expect(stillBroken.root).toBeNull();
    expect(treeJson(good.root)).toBe(tree);
    // The first text with a tree again takes the last tree's blocks over, moved in place, as an
    // update of that document would: what did not change keeps its nodes (and the results
    // validation kept for them). That document is done with, as the language server drops it.
    const fixed = stillBroken.update(`# a longer first line moves every block\n${text}`);
    expect(fixed.parsedCharacters).toBeLessThan(text.length / 10);
    expect(differenceFromFresh(fixed)).toBeNull();
    expect(nodeAtPointer(fixed.root!, '/triggers/5').node).toBe(trigger);
    // An update of the broken document again, or of the last tree's, reads its text afresh.
    const again = stillBroken.update(`# another first line\n${text}`);
    expect(differenceFromFresh(again)).toBeNull();
    expect(nodeAtPointer(again.root!, '/triggers/5').node).not.toBe(trigger);
    const fromGood = good.update(text.replace('"conn-5"', '"conn-55"'));
    expect(fromGood.parsedCharacters).toBe(fromGood.text.length);
    expect(differenceFromFresh(fromGood)).toBeNull();
    expect(differenceFromFresh(fixed)).toBeNull();
  });

  it('a key that a later header extends, added in another block, is the error a fresh parse gives', () => {
    const text = '[a]\nx = 1\n\n[b]\ny = 2\n\n[a.z]\nw = 3\n';
    const document = toml(text);
    const edited = text.replace('x = 1', 'z = 1');
    const updated = document.update(edited);
    // The key of a statement changed: its block's signature differs, so the whole text is parsed.
    expect(updated.parsedCharacters).toBe(edited.length);
    expect(validateDocument(updated).diagnostics.map((d) => d.code)).toContain('duplicate-key');
    expect(differenceFromFresh(updated)).toBeNull();
  });

  it('a line that starts with a lone carriage return is a statement, refused, and update() says what a fresh parse says', () => {
    // TOML's line breaks are LF and CRLF: the CR is a forbidden character, and the key after it is read.
    const edited = 'x = 1\n\rb = 1\n[b]\n';
    const expected = [
      ['forbidden-character', 6, 7],
      ['duplicate-key', 14, 15],
    ];
    const codes = (document: ManifestDocument) =>
      validateDocument(document).diagnostics.map((d) => [d.code, d.range.start.offset, d.range.end.offset]);
    expect(codes(toml(edited))).toEqual(expected);
    const updated = toml('x = 1\n[b]\n').update(edited);
    expect(codes(updated)).toEqual(expected);
    expect(differenceFromFresh(updated)).toBeNull();
    // The planner alone (a text without forbidden characters never holds one, but it must not read the line as blank).
    expect(planTomlBlocks('svc_version = 2\n\ragents = 1\n[agents.main]\n')!.map((block) => block.signature)).toEqual([
      'svc_version=\nagents=',
      '[agents.main]',
    ]);
  });

  it('two blocks with the same text get trees of their own', () => {
    const item = '[[triggers]]\nslug = "same"\ntype = "cron"\n\n';
    const text = `svc_version = 2\n${item}${item}${item}`;
    const edited = text.replace('svc_version = 2', 'svc_version = 2 # v');
    const updated = toml(text).update(edited);
    expect(updated.parsedCharacters).toBe('svc_version = 2 # v\n'.length);
    expect(differenceFromFresh(updated)).toBeNull();
    const again = updated.update(`${edited}# end\n`);
    expect(differenceFromFresh(again)).toBeNull();
  });
});

describe('the trees after an edit move by groups of 64 blocks', () => {
  // Each block's tree keeps its offsets from a frame, and the frames of 64 consecutive blocks
  // share a group: an edit moves one by one the blocks after it in its own group, and the later
  // groups whole. Lines typed into the blocks around group boundaries, one after another on the
  // same chain of documents, must each leave what a fresh parse of the text gives.
  it('lines added in the blocks on either side of a group boundary, on one chain of documents', () => {
    let text = largeTomlManifest(300, 20, 5);
    const count = planTomlBlocks(text)!.length;
    expect(count).toBeGreaterThan(3 * 64);
    let document = toml(text);
    for (const index of [63, 64, 65, 127, 128, 0, 1, 192, count - 1, 62, 129]) {
      const block = planTomlBlocks(text)![index]!;
      // A comment line after the block's first line: the block's text changes, its keys do not.
      const at = text.indexOf('\n', block.start) + 1;
      text = `${text.slice(0, at)}# note ${index}\n${text.slice(at)}`;
      document = document.update(text);
      expect(document.parsedCharacters, `block ${index}`).toBeLessThan(500);
      expect(differenceFromFresh(document), `block ${index}`).toBeNull();
    }
  });
});
