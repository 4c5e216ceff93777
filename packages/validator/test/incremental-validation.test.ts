/**
 * Validation after an edit reuses what the last validation found for every part the edit did
 * not touch (src/incremental.ts, src/schema-parts.ts, the declarations index). It must give
 * exactly what a fresh validation of the new text gives: the same diagnostics, codes, messages,
 * ranges, related places and fixes, after every edit of a chain, in YAML and TOML, version 1
 * and 2, valid and invalid, including edits that add, remove or rename declared names and
 * edits that break the syntax and repair it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  declarationsOf,
  ManifestDocument,
  nodeAtPointer,
  PieceText,
  validateDocument,
  validateManifest,
  type Declaration,
  type Diagnostic,
  type MapNode,
  type SeqNode,
} from '../src/index.js';
import { loadExamples, loadFixtures, type Fixture } from '../../../test/support/fixtures.js';
import type { ValidationWork } from '../src/validate.js';

/** A probe for `validateDocument`: what the validation computed afresh. */
const newProbe = (): ValidationWork => ({ schemaParts: [], checked: [] });
import { locatedList, ResultCache } from '../src/incremental.js';
import { anchorFinder } from '../src/validate.js';
import { ManifestLocator } from '../src/locator.js';
import type { PartErrors } from '../src/schema-parts.js';
import type { RawDiagnostic } from '../src/diagnostic.js';
import { CODE_RULES } from '../src/rules/index.js';
import type { RuleContext } from '../src/rules/rule.js';
import {
  largeManifest,
  largeTomlManifest,
  mutation,
  structuralEdit,
  tomlEdit,
  type Mutation,
} from './support/manifest-arbitraries.js';

const fixtures = [...loadFixtures(), ...loadExamples()].filter((f) => f.rule !== 'too-large' && f.rule !== 'too-deep');

/** Renames every occurrence of one declared name (or just one occurrence): references appear, break and come back. */
const renameEdit: fc.Arbitrary<Mutation> = fc
  .tuple(
    fc.nat(),
    fc.constantFrom('agent', 'conn', 'trigger', 'tpl', 'main', 'reviewer', 'github'),
    fc.constantFrom('x', '', '-2', 'agent-0', 'Bad Name'),
    fc.boolean(),
  )
  .map(([n, stem, replacement, all]) => (text: string) => {
    const names = [...text.matchAll(new RegExp(`\\b${stem}(-\\d+)?\\b`, 'g'))];
    if (names.length === 0) return text;
    const picked = names[n % names.length]!;
    const name = picked[0];
    const renamed = replacement.startsWith(stem) || replacement === 'Bad Name' ? replacement : name + replacement;
    if (all) return text.split(name).join(renamed);
    return text.slice(0, picked.index) + renamed + text.slice(picked.index + name.length);
  });

const yamlEdit = fc.oneof(
  { weight: 4, arbitrary: structuralEdit },
  { weight: 2, arbitrary: renameEdit },
  { weight: 1, arbitrary: mutation },
);
const tomlEditArb = fc.oneof(
  { weight: 4, arbitrary: tomlEdit },
  { weight: 2, arbitrary: renameEdit },
  { weight: 1, arbitrary: mutation },
);

/** Applies the edits one by one through `update()`, comparing with a fresh validation after each. */
function checkChain(text: string, format: 'yaml' | 'toml', edits: Mutation[]): void {
  let document = ManifestDocument.parse(text, { format });
  expect(validateDocument(document).diagnostics).toEqual(validateManifest(text, { format }).diagnostics);
  for (const edit of edits) {
    text = edit(text);
    document = document.update(text);
    const incremental = validateDocument(document);
    const fresh = validateManifest(text, { format });
    expect(incremental.diagnostics).toEqual(fresh.diagnostics);
    expect(incremental.ok).toBe(fresh.ok);
    expect(incremental.version).toBe(fresh.version);
  }
}

const pick = (list: Fixture[]) => fc.nat(list.length - 1).map((i) => list[i]!);

describe('a rule that reuses a result it should recompute', () => {
  /**
   * `trigger-agent-declared` with its `depends` dropped: its per-trigger results are then reused
   * after an agent is renamed, though they read the declared names. The comparison with a fresh
   * validation, which every incremental test makes, must see that; here the real rule is wrapped
   * for the length of the test.
   */
  it('is caught by the comparison with a fresh validation (here: a reference rule that drops its depends)', () => {
    const rule = CODE_RULES.find((candidate) => candidate.id === 'trigger-agent-declared')!;
    // The rule's own check, kept as its property descriptor to be put back as it was.
    const original = Object.getOwnPropertyDescriptor(rule, 'check')!;
    const check = original.value as (this: unknown, context: RuleContext) => void;
    const text = largeManifest(2, 20, 18, 8);
    const offset = text.indexOf('  agent-5:\n') + '  agent-5'.length - 1;
    const renamed = text.slice(0, offset) + 'x' + text.slice(offset);
    const compare = () => {
      const document = ManifestDocument.parse(text);
      validateDocument(document);
      return {
        incremental: validateDocument(document.update(renamed)).diagnostics,
        fresh: validateManifest(renamed).diagnostics,
      };
    };
    // The real rule: equal.
    const honest = compare();
    expect(honest.incremental).toEqual(honest.fresh);
    rule.check = function (context) {
      const forEachItem: RuleContext['forEachItem'] = (name, items, item, each) =>
        context.forEachItem(name, items, item, each);
      return check.call(this, Object.assign(Object.create(context) as RuleContext, { forEachItem }));
    };
    try {
      const stale = compare();
      expect(stale.incremental).not.toEqual(stale.fresh);
      // The triggers that name the renamed agent keep their old (empty) result.
      const codes = (list: { code: string }[]) => list.filter((d) => d.code === 'trigger-agent-declared').length;
      expect(codes(stale.incremental)).toBeLessThan(codes(stale.fresh));
    } finally {
      Object.defineProperty(rule, 'check', original);
    }
  });
});

describe('incremental validation equals a fresh validation', () => {
  it('on YAML fixtures (v1 and v2, valid and invalid) after chains of edits', () => {
    fc.assert(
      fc.property(
        pick(fixtures.filter((f) => f.format === 'yaml')),
        fc.array(yamlEdit, { minLength: 1, maxLength: 6 }),
        (fixture, edits) => checkChain(fixture.text, 'yaml', edits),
      ),
      { numRuns: 250, seed: 1701 },
    );
  });

  it('on TOML fixtures after chains of edits', () => {
    fc.assert(
      fc.property(
        pick(fixtures.filter((f) => f.format === 'toml')),
        fc.array(tomlEditArb, { minLength: 1, maxLength: 6 }),
        (fixture, edits) => checkChain(fixture.text, 'toml', edits),
      ),
      { numRuns: 200, seed: 1702 },
    );
  });

  it('on large manifests split item by item, with injected errors', () => {
    const large = fc
      .record({
        version: fc.constantFrom(1 as const, 2 as const),
        triggers: fc.integer({ min: 12, max: 30 }),
        agents: fc.integer({ min: 17, max: 25 }),
        seed: fc.nat(500),
      })
      .map(({ version, triggers, agents, seed }) =>
        // Some mistakes from the start: an unknown agent, a typo'd key, a wrong type.
        largeManifest(version, triggers, agents, seed)
          .replace('agent: agent-3', 'agent: agnet-3')
          .replace('    type: cron', '    tpye: cron')
          .replace('provider: mcp', 'provider: 7'),
      );
    fc.assert(
      fc.property(large, fc.array(yamlEdit, { minLength: 1, maxLength: 8 }), (text, edits) =>
        checkChain(text, 'yaml', edits),
      ),
      { numRuns: 80, seed: 1703 },
    );
  });

  it('on large TOML manifests', () => {
    const large = fc
      .record({
        triggers: fc.integer({ min: 15, max: 40 }),
        agents: fc.integer({ min: 8, max: 20 }),
        seed: fc.nat(500),
      })
      .map(({ triggers, agents, seed }) =>
        largeTomlManifest(triggers, agents, seed).replace('agent = "agent-1"', 'agent = "agnet-1"'),
      );
    fc.assert(
      fc.property(large, fc.array(tomlEditArb, { minLength: 1, maxLength: 8 }), (text, edits) =>
        checkChain(text, 'toml', edits),
      ),
      { numRuns: 60, seed: 1704 },
    );
  });
});

describe('a one-shot validation (`once`, as the CLI validates its files)', () => {
  it('gives what a kept validation gives, on every fixture, and leaves nothing that an update could reuse wrongly', () => {
    for (const fixture of fixtures) {
      const once = ManifestDocument.parse(fixture.text, { format: fixture.format });
      const kept = ManifestDocument.parse(fixture.text, { format: fixture.format });
      const onceResult = validateDocument(once, { once: true });
      const keptResult = validateDocument(kept);
      expect(onceResult.diagnostics, fixture.name).toEqual(keptResult.diagnostics);
      expect(onceResult.ok, fixture.name).toBe(keptResult.ok);
      expect(onceResult.version, fixture.name).toBe(keptResult.version);
      // An edit after a one-shot validation: computed anew, as a fresh validation of the new text.
      const edited = `${fixture.text}\n`;
      expect(validateDocument(once.update(edited)).diagnostics, fixture.name).toEqual(
        validateManifest(edited, { format: fixture.format }).diagnostics,
      );
    }
  });
});

describe('what an edit validates again', () => {
  it("rules give forEachItem anchor functions made once (a list's anchors are kept per function)", () => {
    const dir = join(import.meta.dirname, '..', 'src', 'rules');
    const inline = readdirSync(dir)
      // rule.ts declares the parameter's type; the rules pass the functions.
      .filter((name) => name.endsWith('.ts') && name !== 'rule.ts')
      .flatMap((name) =>
        readFileSync(join(dir, name), 'utf8')
          .split('\n')
          .filter((line) => /anchor:\s*\(/.test(line))
          .map((line) => `${name}: ${line.trim()}`),
      );
    expect(inline).toEqual([]);
  });

  it("rules hand forEachItem a sequence's node, not its items (the node carries the ends an edit kept)", () => {
    const dir = join(import.meta.dirname, '..', 'src', 'rules');
    const calls = readdirSync(dir)
      .filter((name) => name.endsWith('.ts') && name !== 'rule.ts')
      .flatMap((name) =>
        [...readFileSync(join(dir, name), 'utf8').matchAll(/forEachItem\(\s*[^,]+,\s*([^,]+?)\s*,/g)].map(
          (call) => `${name}: ${call[1]}`,
        ),
      );
    expect(calls.filter((call) => call.endsWith('.items'))).toEqual([]);
    // The triggers (three rules) and a sequence possible-typo walks: the check has something to check.
    expect(calls.filter((call) => / (triggers|resolved)$/.test(call)).length).toBeGreaterThanOrEqual(4);
  });
  /** Schema parts below a collection (an item), leaving out the root and the collections themselves, which are new objects after any edit. */
  const items = (pointers: string[]) => pointers.filter((p) => p.split('/').length > 2);
  const at = (text: string, marker: string, after: string) => text.indexOf(after, text.indexOf(marker)) + after.length;

  it('a one-line edit in one trigger validates that trigger and checks it again, and nothing of the others', () => {
    const text = largeManifest(2, 40, 20, 7);
    let document = ManifestDocument.parse(text, { format: 'yaml' });
    const opened = newProbe();
    validateDocument(document, { probe: opened });
    expect(opened.schemaParts.length).toBeGreaterThan(60);
    const offset = at(text, 'slug: trigger-17\n', "prompt: '") + 3;
    const edited = text.slice(0, offset) + 'x' + text.slice(offset);
    document = document.update(edited);
    const work = newProbe();
    expect(validateDocument(document, { probe: work }).diagnostics).toEqual(validateManifest(edited).diagnostics);
    expect(items(work.schemaParts)).toEqual(['/triggers/17']);
    const checked = work.checked.filter((c) => /\/(triggers|agents|connectors)\/[^/ ]+$/.test(c));
    expect(checked.sort()).toEqual([
      'cron-syntax@2:triggers /triggers/17',
      'possible-typo@2:/triggers /triggers/17',
      'trigger-agent-declared@2:triggers /triggers/17',
      'unknown-timezone@2:triggers /triggers/17',
    ]);
  });

  it('renaming an agent checks again the items that refer to agents, and only the renamed agent itself', () => {
    const text = largeManifest(2, 20, 18, 8);
    let document = ManifestDocument.parse(text, { format: 'yaml' });
    validateDocument(document);
    const offset = at(text, '  agent-5:\n', '  agent-5') - 1;
    const edited = text.slice(0, offset) + 'x' + text.slice(offset);
    document = document.update(edited);
    const work = newProbe();
    const result = validateDocument(document, { probe: work });
    expect(result.diagnostics).toEqual(validateManifest(edited).diagnostics);
    expect(items(work.schemaParts)).toEqual(['/agents/agent-x5']);
    expect(work.checked.filter((c) => c.startsWith('agent-connector-declared'))).toEqual([
      'agent-connector-declared@2:agents /agents/agent-x5',
    ]);
    // Triggers name agents: each is checked again for trigger-agent-declared; no trigger is validated again.
    expect(work.checked.filter((c) => c.startsWith('trigger-agent-declared')).length).toBe(20);
    expect(work.checked.filter((c) => c.startsWith('possible-typo') && c.includes('/triggers/'))).toEqual([]);
    expect(result.diagnostics.map((d) => d.code)).toContain('trigger-agent-declared');
  });

  it('a TOML edit inside one [[triggers]] table, the first after opening the file, validates again only the triggers whose value is new', () => {
    const text = largeTomlManifest(30, 10, 9);
    let document = ManifestDocument.parse(text, { format: 'toml' });
    validateDocument(document);
    const before = (document.schemaValue as { triggers: object[] }).triggers;
    const offset = at(text, 'slug = "trigger-20"', 'slug = "trigger-20"');
    const edited = text.slice(0, offset) + '\nnote = "x"' + text.slice(offset);
    document = document.update(edited);
    const work = newProbe();
    expect(validateDocument(document, { probe: work }).diagnostics).toEqual(
      validateManifest(edited, { format: 'toml' }).diagnostics,
    );
    // The tables were joined at the open as an edit joins them, so the values made anew are the
    // edited trigger's and those of the triggers a `[triggers.filter]` header extends (joining
    // the triggers again copies those tables): 4, 13 and 22 of this file.
    const after = (document.schemaValue as { triggers: object[] }).triggers;
    const made = after.flatMap((trigger, index) => (trigger === before[index] ? [] : [`/triggers/${index}`]));
    expect(made).toEqual(['/triggers/4', '/triggers/13', '/triggers/20', '/triggers/22']);
    expect(items(work.schemaParts).filter((p) => p.startsWith('/triggers/'))).toEqual(made);
    // No agent or connector is validated again, nor checked again by a rule.
    expect(items(work.schemaParts).filter((p) => !p.startsWith('/triggers/'))).toEqual([]);
    expect(work.checked.filter((c) => !c.startsWith('explain ') && /\/(agents|connectors)\/[^/ ]+$/.test(c))).toEqual(
      [],
    );
  });
});

describe('a [[triggers]] table typed into a large TOML file', () => {
  const items = (pointers: string[]) => pointers.filter((p) => p.split('/').length > 2);

  it('validates again only the new table and the one it was typed in front of, though the texts between had an error', () => {
    const table = (t: number) =>
      `[[triggers]]\nslug = "trigger-${t}"\ntype = "cron"\nagent = "main"\ncron = "0 ${t % 24} * * *"\nprompt = "Run ${t}"\n\n`;
    const text = `svc_version = 2\ndefault_agent = "main"\n\n[agents.main]\nconnectors = []\n\n${Array.from({ length: 300 }, (_, t) => table(t)).join('')}`;
    let document = ManifestDocument.parse(text, { format: 'toml' });
    validateDocument(document);
    const tablesBefore = (nodeAtPointer(document.root!, '/triggers').node as SeqNode).items;
    const at = text.indexOf('[[triggers]]\nslug = "trigger-150"');
    // An unfinished header first: the text has an error and no tree.
    document = document.update(`${text.slice(0, at)}[[trig${text.slice(at)}`);
    expect(document.root).toBeNull();
    validateDocument(document);
    const edited = `${text.slice(0, at)}${table(1000)}${text.slice(at)}`;
    document = document.update(edited);
    expect(document.parsedCharacters).toBeLessThan(300);
    const work = newProbe();
    expect(validateDocument(document, { probe: work }).diagnostics).toEqual(
      validateManifest(edited, { format: 'toml' }).diagnostics,
    );
    expect(JSON.stringify(document.root)).toBe(JSON.stringify(ManifestDocument.parse(edited, { format: 'toml' }).root));
    // The array of tables is spliced, not joined table by table, and says which ends it kept.
    const triggers = nodeAtPointer(document.root!, '/triggers').node as SeqNode;
    const tables = triggers.items;
    expect(tables).toHaveLength(301);
    expect(triggers.kept).toMatchObject({ from: tablesBefore, prefix: 150, suffix: 149 });
    // The new table, and the one it was typed in front of: the unfinished header shared that
    // table's block, so its text was read again. No other trigger, agent or connector.
    expect(items(work.schemaParts)).toEqual(['/triggers/150', '/triggers/151']);
    expect(work.checked.filter((c) => /\/(triggers|agents|connectors)\/[^/ ]+$/.test(c)).sort()).toEqual([
      'cron-syntax@2:triggers /triggers/150',
      'cron-syntax@2:triggers /triggers/151',
      'possible-typo@2:/triggers /triggers/150',
      'possible-typo@2:/triggers /triggers/151',
      'trigger-agent-declared@2:triggers /triggers/150',
      'trigger-agent-declared@2:triggers /triggers/151',
      'unknown-timezone@2:triggers /triggers/150',
      'unknown-timezone@2:triggers /triggers/151',
    ]);
    // Deleted again: the array loses that one table, and keeps all the others.
    const tablesWithNew = tables;
    document = document.update(text);
    expect(document.parsedCharacters).toBeLessThan(300);
    expect(JSON.stringify(document.root)).toBe(JSON.stringify(ManifestDocument.parse(text, { format: 'toml' }).root));
    expect(validateDocument(document).diagnostics).toEqual(validateManifest(text, { format: 'toml' }).diagnostics);
    expect((nodeAtPointer(document.root!, '/triggers').node as SeqNode).kept).toMatchObject({
      from: tablesWithNew,
      prefix: 150,
      suffix: 150,
    });
  });
});

describe('kept quick fixes follow the file’s habits', () => {
  it('a fix kept from before is made again when the file starts using CRLF line ends', () => {
    // Trigger 5 has no `type`: its missing-key fix inserts a line, with the file's line end.
    const text = largeManifest(2, 20, 18, 3).replace(/( {2}- slug: trigger-5\n) {4}type: \w+\n/, '$1');
    let document = ManifestDocument.parse(text);
    const fixText = (
      diagnostics: readonly { code: string; path: string; fixes?: { edits: { newText: string }[] }[] }[],
    ) =>
      diagnostics.find((d) => d.code === 'missing-key' && d.path.startsWith('/triggers/5'))?.fixes?.[0]?.edits[0]
        ?.newText;
    expect(fixText(validateDocument(document).diagnostics)).toMatch(/^[^\r]*\n/);
    // Far from trigger 5: the first line ends with CRLF now.
    const edited = text.replace('\n', '\r\n');
    document = document.update(edited);
    const incremental = validateDocument(document).diagnostics;
    expect(incremental).toEqual(validateManifest(edited).diagnostics);
    expect(fixText(incremental)).toContain('\r\n');
  });
});

describe('kept diagnostics', () => {
  it("moves a diagnostic once when both an item's kept result and its collection's hold it", () => {
    // possible-typo keeps a result per trigger and one for the whole `triggers` entry, which
    // holds the triggers' diagnostics too. Kept results move their diagnostics in place.
    const text = largeManifest(2, 40, 10, 1).replace(/( {2}- slug: trigger-0\n {4})type:/, '$1tpye:');
    let document = ManifestDocument.parse(text);
    const typo = (diagnostics: readonly { code: string; range: { start: { offset: number } } }[]) =>
      diagnostics.find((d) => d.code === 'possible-typo')?.range.start.offset;
    const before = typo(validateDocument(document).diagnostics)!;
    // 1. An edit above `triggers`: the whole entry's kept result moves its diagnostics.
    const moved = text.replace('name: Project 1\n', 'name: Project 100\n');
    document = document.update(moved);
    expect(typo(validateDocument(document).diagnostics)).toBe(before + 2);
    // 2. An edit in trigger 30: the entry is checked again, and trigger 0's own kept result is used.
    const edited = moved.replace(/(- slug: trigger-30\n(?: {4}.*\n)*? {4}prompt: ')/, '$1x');
    expect(edited).not.toBe(moved);
    document = document.update(edited);
    const incremental = validateDocument(document).diagnostics;
    expect(typo(incremental)).toBe(before + 2);
    expect(incremental).toEqual(validateManifest(edited).diagnostics);
  });

  it('keeps the located form of a diagnostic the edit did not move, and locates again one whose line changed at the same offset', () => {
    // Unknown keys in trigger 2 and trigger 30; comment lines between them.
    const text = largeManifest(2, 40, 10, 1)
      .replace(/( {2}- slug: trigger-2\n {4})type:/, '$1tpye:')
      .replace(/( {2}- slug: trigger-30\n)/, '  # one\n  # two\n$1')
      .replace(/( {2}- slug: trigger-30\n {4})type:/, '$1tpye:');
    let document = ManifestDocument.parse(text);
    const typos = (diagnostics: readonly Diagnostic[]) => diagnostics.filter((d) => d.code === 'possible-typo');
    const [early, late] = typos(validateDocument(document).diagnostics);
    expect(late!.range.start.line).toBeGreaterThan(early!.range.start.line);
    // Typing in trigger 20: the typo above it did not move, the one below moved by a character.
    const typed = text.replace(/(- slug: trigger-20\n(?: {4}.*\n)*? {4}prompt: ')/, '$1x');
    document = document.update(typed);
    let now = typos(validateDocument(document).diagnostics);
    expect(now[0]).toBe(early);
    expect(now[1]).not.toBe(late);
    expect(now[1]!.range.start).toEqual({ ...late!.range.start, offset: late!.range.start.offset + 1 });
    expect(validateDocument(document).diagnostics).toEqual(validateManifest(typed).diagnostics);
    // Two comment lines made one of the same length: the typo below is at the same offset, a line up.
    const joined = typed.replace('  # one\n  # two\n', '  # one   # two\n');
    expect(joined.length).toBe(typed.length);
    const before = now[1]!;
    document = document.update(joined);
    now = typos(validateDocument(document).diagnostics);
    expect(now[0]).toBe(early);
    expect(now[1]!.range.start).toEqual({ ...before.range.start, line: before.range.start.line - 1 });
    expect(validateDocument(document).diagnostics).toEqual(validateManifest(joined).diagnostics);
  });

  it('moves the located form of a diagnostic past the edited lines, and keeps it when nothing after them moved', () => {
    const text = largeManifest(2, 40, 10, 1).replace(/( {2}- slug: trigger-30\n {4})type:/, '$1tpye:');
    let document = ManifestDocument.parse(text);
    const typo = (diagnostics: readonly Diagnostic[]) => diagnostics.find((d) => d.code === 'possible-typo')!;
    const first = typo(validateDocument(document).diagnostics);
    expect(first.fixes?.length).toBeGreaterThan(0);
    // A character replaced by another in trigger 20: no offset and no line after it changed.
    const swapped = text.replace(/(- slug: trigger-20\n(?: {4}.*\n)*? {4}prompt: ')./, '$1#');
    expect(swapped).not.toBe(text);
    document = document.update(swapped);
    expect(typo(validateDocument(document).diagnostics)).toBe(first);
    // A line added in trigger 20: the typo is a line down, at the same column, and so are its fix's edits.
    const added = swapped.replace(/(- slug: trigger-20\n)/, '$1    # a note\n');
    document = document.update(added);
    const result = validateDocument(document);
    const moved = typo(result.diagnostics);
    const shift = '    # a note\n'.length;
    expect(moved.range).toEqual({
      start: { ...first.range.start, line: first.range.start.line + 1, offset: first.range.start.offset + shift },
      end: { ...first.range.end, line: first.range.end.line + 1, offset: first.range.end.offset + shift },
    });
    expect(moved.fixes![0]!.edits[0]!.range.start.line).toBe(first.fixes![0]!.edits[0]!.range.start.line + 1);
    // The result says which form it was moved from, at the same index.
    expect(result.movedFrom?.[result.diagnostics.indexOf(moved)]).toBe(first);
    expect(validateDocument(document).diagnostics).toEqual(validateManifest(added).diagnostics);
    // Two lines removed above it, one of them partly: still what a fresh validation finds.
    const removed = added.replace(/(- slug: trigger-20\n) {4}# a note\n(.*\n)/, '$1');
    document = document.update(removed);
    expect(validateDocument(document).diagnostics).toEqual(validateManifest(removed).diagnostics);
  });
});

describe('kept schema parts', () => {
  const text = [
    'svc_version: 2',
    'project:',
    '  name: p',
    'default_agent: a',
    'agents:',
    '  a: {}',
    'triggers:',
    '  - &t',
    '    slug: one',
    '    schedule: "0 0 * * *"',
    '    agent: a',
    '    prompt: hi',
    '  - *t',
    '',
  ].join('\n');

  it('an alias item edited: its diagnostics are a fresh validation’s', () => {
    // Trigger 1 is an alias of trigger 0: the same value, so the same errors, at another pointer.
    let document = ManifestDocument.parse(text);
    const missing = (diagnostics: readonly Diagnostic[]) =>
      diagnostics.find((d) => d.code === 'missing-key' && d.path === '/triggers/1')!;
    expect(missing(validateDocument(document).diagnostics).range.start).toMatchObject({ line: 13, column: 5 });
    const edited = text.replace('  - *t', '  -  *t');
    document = document.update(edited);
    expect(missing(validateDocument(document).diagnostics).range.start).toMatchObject({ line: 13, column: 6 });
    expect(validateDocument(document).diagnostics).toEqual(validateManifest(edited).diagnostics);
  });

  it('takes a part’s anchor from the last validation only while it is still the node at the part’s place', () => {
    const finderFor = (document: ManifestDocument) =>
      anchorFinder(new ManifestLocator(document, document.root as MapNode));
    const found: PartErrors = { pointer: '/triggers/0', at: '/properties/triggers/items', errors: [] };
    const first = ManifestDocument.parse(text);
    const firstItem = (first.root as MapNode).entries.find((e) => e.key === 'triggers')!.value as SeqNode;
    expect(finderFor(first)(found)).toBe(firstItem.items[0]);
    expect(finderFor(first)(found)).toBe(firstItem.items[0]);
    // The same part's errors handed on for another tree: its own node, not the one found before.
    const second = ManifestDocument.parse(text);
    const secondItem = (second.root as MapNode).entries.find((e) => e.key === 'triggers')!.value as SeqNode;
    expect(secondItem.items[0]).not.toBe(firstItem.items[0]);
    expect(finderFor(second)(found)).toBe(secondItem.items[0]);
  });
});

describe('located lists (locatedList)', () => {
  const warning = () => 'warning' as const;
  const text = 'svc_version: 2\nproject:\n  name: a\n  note: b\n';
  const note = text.indexOf('note');
  /** Line 3 made two characters longer: every offset after it moves by 2, and no line is added. */
  const longer = text.replace('  name: a\n', '  name: abc\n');
  /** Every offset of a raw diagnostic moved by `by`, as a kept result moves it (`shiftDiagnosticInPlace`). */
  const move = (raw: RawDiagnostic, by: number) => {
    raw.start += by;
    raw.end += by;
    for (const place of [...(raw.related ?? []), ...(raw.fixes ?? []).flatMap((fix) => fix.edits)]) {
      place.start += by;
      place.end += by;
    }
  };

  it('keeps the form of a diagnostic wholly before the edited lines, and moves one wholly after them', () => {
    const above: RawDiagnostic = { code: 'possible-typo', message: 'above', path: '', start: 0, end: 3 };
    const below: RawDiagnostic = { code: 'possible-typo', message: 'below', path: '', start: note, end: note + 4 };
    const first = ManifestDocument.parse(text);
    const [keptAbove, keptBelow] = locatedList(first, [above, below], warning).diagnostics;
    // Line 3 made longer and a line added after it.
    const edited = text.replace('  name: a\n', '  name: abc\n  owner: b\n');
    const second = first.update(edited);
    move(below, edited.length - text.length);
    const [nowAbove, nowBelow] = locatedList(second, [above, below], warning).diagnostics;
    expect(nowAbove).toBe(keptAbove);
    expect(nowBelow).toEqual(second.lines.locate(below, 'warning'));
    expect(nowBelow!.range.start).toEqual({
      offset: below.start,
      line: keptBelow!.range.start.line + 1,
      column: keptBelow!.range.start.column,
    });
  });

  it('locates again a kept diagnostic that starts before the edited lines and reaches past them', () => {
    // Its fix edits the key below the line edited next; the offsets of the raw object stay.
    const raw: RawDiagnostic = {
      code: 'possible-typo',
      message: 'm',
      path: '',
      start: 0,
      end: 3,
      fixes: [{ title: 't', edits: [{ start: note, end: note + 4, newText: 'x' }] }],
    };
    const first = ManifestDocument.parse(text);
    const [before] = locatedList(first, [raw], warning).diagnostics;
    const second = first.update(longer);
    const [after] = locatedList(second, [raw], warning).diagnostics;
    expect(after).toEqual(second.lines.locate(raw, 'warning'));
    expect(after!.fixes![0]!.edits[0]!.range.start.column).toBe(before!.fixes![0]!.edits[0]!.range.start.column - 2);
  });

  it('locates again a diagnostic at the end of a text whose last line the edit changed', () => {
    // No line break at the end: the changed region runs to the text's end, where a column is not kept.
    const last = 'svc_version: 2\nproject:\n  name: a';
    const raw: RawDiagnostic = { code: 'possible-typo', message: 'm', path: '', start: last.length, end: last.length };
    const first = ManifestDocument.parse(last);
    const [before] = locatedList(first, [raw], warning).diagnostics;
    const second = first.update(last.replace('name: a', 'name: abc'));
    move(raw, 2);
    const [after] = locatedList(second, [raw], warning).diagnostics;
    expect(after).toEqual(second.lines.locate(raw, 'warning'));
    expect(after!.range.start.column).toBe(before!.range.start.column + 2);
  });

  it('locates again a moved diagnostic that starts after the edited lines and reaches before them', () => {
    // A related place on line 1; the raw object moved whole by the edit's two characters.
    const raw: RawDiagnostic = {
      code: 'possible-typo',
      message: 'm',
      path: '',
      start: note,
      end: note + 4,
      related: [{ message: 'r', start: 0, end: 3 }],
    };
    const first = ManifestDocument.parse(text);
    const [before] = locatedList(first, [raw], warning).diagnostics;
    const second = first.update(longer);
    move(raw, 2);
    const [after] = locatedList(second, [raw], warning).diagnostics;
    expect(after).toEqual(second.lines.locate(raw, 'warning'));
    expect(after!.related![0]!.range.start.column).toBe(before!.related![0]!.range.start.column + 2);
  });
});

describe('kept item results (ResultCache.each)', () => {
  /** An item's stand-in: what `each` reads of an anchor is its offsets. */
  const node = (start: number, end: number) => ({
    kind: 'scalar' as const,
    value: null,
    style: 'plain' as const,
    start,
    end,
  });
  const diagnostic = (start: number, end: number) => ({
    code: 'unknown-key' as const,
    message: 'm',
    path: '',
    start,
    end,
  });
  const document = ManifestDocument.parse('svc_version: 2\n');

  it('computes again, every time, an item whose diagnostic reaches outside it, and no other unchanged item', () => {
    const anchors = [node(0, 10), node(10, 20), node(20, 30), node(30, 40)];
    const [, pointing, flagged, last] = anchors;
    /** The anchors `compute` was called for, by their first offsets when called. */
    const calls: number[] = [];
    const run = (list: typeof anchors) =>
      new ResultCache(document, { schemaParts: [], checked: [] })
        .each('slot', list, String, (index) => {
          const anchor = list[index]!;
          calls.push(anchor.start);
          // `pointing` points at `last`'s text: that result cannot move with `pointing` alone.
          if (anchor === pointing) return [diagnostic(last!.start + 2, last!.start + 3)];
          if (anchor === flagged) return [diagnostic(anchor.start + 1, anchor.start + 2)];
          return [];
        })
        .map((d) => [d.start, d.end]);
    expect(run(anchors)).toEqual([
      [32, 33],
      [21, 22],
    ]);
    expect(calls).toEqual([0, 10, 20, 30]);
    calls.length = 0;
    // The very same list: only the item without a kept result.
    expect(run(anchors)).toEqual([
      [32, 33],
      [21, 22],
    ]);
    expect(calls).toEqual([10]);
    calls.length = 0;
    // The first item replaced by a longer one (the others move by 5): it, and `pointing` again; `flagged`'s diagnostic moves with it.
    for (const anchor of anchors.slice(1)) Object.assign(anchor, { start: anchor.start + 5, end: anchor.end + 5 });
    const edited = [node(0, 15), ...anchors.slice(1)];
    expect(run(edited)).toEqual([
      [37, 38],
      [26, 27],
    ]);
    expect(calls).toEqual([0, 15]);
    calls.length = 0;
    // The first item removed: `flagged`'s diagnostic names its index, so it is computed again, with `pointing`.
    expect(run(edited.slice(1))).toEqual([
      [37, 38],
      [26, 27],
    ]);
    expect(calls).toEqual([15, 25]);
  });
});

describe('an edit of a text held in pieces reads ranges only', () => {
  // A v2 manifest of ~10k lines, with a mistake in many agents (so fixes and habits are read too).
  const text = largeManifest(2, 1500, 300, 11).replace(/connectors: \[/g, 'connectors: [ghost, ');
  // A TOML manifest of ~9k lines, a table per agent and trigger, with an undeclared agent.
  const toml = largeTomlManifest(900, 500, 5).replace('agent = "agent-1"', 'agent = "agnet-1"');

  it.each([
    {
      format: 'yaml' as const,
      text,
      spots: [text.indexOf("prompt: 'Handle trigger 700:") + 8, text.indexOf('agents:') - 1, text.length - 2],
    },
    {
      format: 'toml' as const,
      text: toml,
      // Inside strings (in the middle, the first table, the last line): each edit leaves the file valid TOML.
      spots: [
        toml.indexOf('"', toml.indexOf('[[triggers]]', toml.length >> 1)) + 1,
        toml.indexOf('"', toml.indexOf('[agents.agent-0]')) + 1,
        toml.lastIndexOf('"', toml.length - 3),
      ],
    },
  ])(
    '$format: updates, validates and locates without making the whole text, and reads declarations as a fresh parse does',
    ({ format, text, spots }) => {
      let source = PieceText.from(text);
      let document = ManifestDocument.parse(text, { format });
      expect(validateDocument(document).diagnostics.length).toBeGreaterThan(0);
      for (const [i, at] of spots.entries()) {
        const typed = `x${i}`;
        source = source.edit(at, at, typed);
        document = document.update(source, [{ start: at, end: at, newLength: typed.length }]);
        const result = validateDocument(document);
        const located = result.diagnostics.map((d) => [
          d.code,
          d.range.start.line,
          d.range.start.column,
          d.range.end.line,
          d.range.end.column,
        ]);
        const index = declarationsOf(document);
        const read = (d: Declaration) => [
          d.kind,
          d.name,
          d.path,
          d.start,
          d.end,
          d.nameStart,
          d.nameEnd,
          d.spanStart,
          d.spanEnd,
        ];
        const declared = [...index.agents, ...index.connectors, ...index.triggers].map(read);
        const references = index.references.map((r) => [r.kind, r.name, r.start, r.end, r.nameStart, r.nameEnd]);
        // Nothing above needed the text as one string.
        expect(source.isMaterialized).toBe(false);

        const fresh = ManifestDocument.parse(source.toString(), { format });
        const freshIndex = declarationsOf(fresh);
        expect(located).toEqual(
          validateDocument(fresh).diagnostics.map((d) => [
            d.code,
            d.range.start.line,
            d.range.start.column,
            d.range.end.line,
            d.range.end.column,
          ]),
        );
        expect(declared).toEqual([...freshIndex.agents, ...freshIndex.connectors, ...freshIndex.triggers].map(read));
        expect(references).toEqual(
          freshIndex.references.map((r) => [r.kind, r.name, r.start, r.end, r.nameStart, r.nameEnd]),
        );
        expect(JSON.stringify(document.root)).toBe(JSON.stringify(fresh.root));
      }
    },
  );

  it('locates diagnostics after an edit without making the whole text, though the document it came from never made its line index', () => {
    // Parsed, never validated: no line index to splice.
    const document = ManifestDocument.parse(text);
    const at = text.indexOf("prompt: 'Handle trigger 700:") + 8;
    const source = PieceText.from(text).edit(at, at, 'x');
    const next = document.update(source, [{ start: at, end: at, newLength: 1 }]);
    const located = (d: ManifestDocument) =>
      validateDocument(d).diagnostics.map((x) => [
        x.code,
        x.range.start.line,
        x.range.start.column,
        x.range.end.line,
        x.range.end.column,
      ]);
    const diagnostics = located(next);
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(source.isMaterialized).toBe(false);
    expect(diagnostics).toEqual(located(ManifestDocument.parse(source.toString())));
  });

  it('keeps the declarations of a collection the edit did not reach, as they were', () => {
    const document = ManifestDocument.parse(text);
    const agents = declarationsOf(document).agents;
    const at = text.indexOf("prompt: 'Handle trigger 700:") + 8;
    const next = document.update(PieceText.from(text).edit(at, at, 'x'), [{ start: at, end: at, newLength: 1 }]);
    expect(declarationsOf(next).agents).toBe(agents);
  });
});
