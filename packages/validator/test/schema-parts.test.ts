/**
 * The generated validators check a value part by part (src/schema-parts.ts); they must report
 * exactly what ajv's validator of the whole schema reports: the same errors, in the same order,
 * with the same paths. The whole-schema validator is compiled here, with the generator's options,
 * which needs code generation: under `--disallow-code-generation-from-strings` (the suite's
 * second CI run) this file has nothing to compare with and is skipped.
 */
import Ajv from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManifestDocument } from '@svc-manifest/validator';
import { loadExamples, loadFixtures } from '../../../test/support/fixtures.js';
import { AJV_OPTIONS, COMPILED, planParts } from '../scripts/validator-parts.js';
import { partsV2, validateV2 } from '../src/generated/validators-v2.js';
import { partsV1, validateV1 } from '../src/generated/validators-v1.js';
import { walkParts, type PartErrors, type PartWork, type SchemaPart } from '../src/schema-parts.js';
import type { SchemaError } from '../src/rules/rule.js';
import { applyAll, largeManifest, largeTomlManifest, mutations } from './support/manifest-arbitraries.js';

const FLAG = '--disallow-code-generation-from-strings';
/** Whether this process may compile a schema (ajv generates code): not in the suite's run under the flag. */
const codegen = !process.execArgv.includes(FLAG) && !(process.env.NODE_OPTIONS ?? '').includes(FLAG);

type Validator = ((value: unknown) => boolean) & { errors?: SchemaError[] | null };
const whole = (version: 1 | 2): Validator => {
  const ajv = new Ajv.default({ ...AJV_OPTIONS, keywords: [...AJV_OPTIONS.keywords] });
  return ajv.compile(COMPILED[version]) as Validator;
};
const parts: Record<1 | 2, Validator> = { 1: validateV1 as Validator, 2: validateV2 as Validator };

describe.skipIf(!codegen)('validation by parts equals the whole-schema validator', () => {
  // Compiled when a test runs: a skipped block's body still runs to collect its tests.
  let compiled: Record<1 | 2, Validator> | undefined;
  const reference = (version: 1 | 2): Validator => (compiled ??= { 1: whole(1), 2: whole(2) })[version];
  const same = (value: unknown): void => {
    for (const version of [1, 2] as const) {
      const expected = reference(version)(value) ? [] : reference(version).errors;
      const actual = parts[version](value) ? [] : parts[version].errors;
      expect(actual).toEqual(expected);
    }
  };
  const texts = [...loadFixtures(), ...loadExamples()];

  it('on every fixture and example, under both versions', () => {
    let invalid = 0;
    for (const fixture of texts) {
      const document = ManifestDocument.parse(fixture.text, { format: fixture.format });
      if (document.schemaValue === undefined) continue;
      if (!reference(2)(document.schemaValue)) invalid++;
      same(document.schemaValue);
    }
    expect(invalid).toBeGreaterThan(100);
  });

  it('on large manifests, and on values that are not manifests at all', () => {
    for (const text of [largeManifest(1, 40, 12, 1), largeManifest(2, 40, 12, 2)])
      same(ManifestDocument.parse(text, { format: 'yaml' }).schemaValue);
    same(ManifestDocument.parse(largeTomlManifest(30, 10, 3), { format: 'toml' }).schemaValue);
    for (const value of [
      null,
      1,
      'x',
      [],
      [{}],
      {},
      { agents: [] },
      { agents: { A: 1, b: {} } },
      { triggers: {}, connectors: [1, null] },
      { sandbox: { templates: 'x' } },
    ])
      same(value);
  });

  it('on randomly edited fixtures', () => {
    const pool = texts.filter((f) => f.folder === 'invalid' || f.rule === 'realistic');
    fc.assert(
      fc.property(fc.nat(pool.length - 1), mutations, (index, list) => {
        const fixture = pool[index]!;
        const document = ManifestDocument.parse(applyAll(fixture.text, list), { format: fixture.format });
        if (document.schemaValue !== undefined) same(document.schemaValue);
      }),
      { numRuns: 300, seed: 17 },
    );
  });
});

describe('the part tree', () => {
  it('is the plan the generator makes: root and collections split, every item its own part', () => {
    const shape = (part: SchemaPart): unknown =>
      part.validate
        ? part.at
        : {
            at: part.at,
            properties: part.properties?.map(([name, child]) => [name, shape(child)]),
            additional: part.additional && shape(part.additional),
            items: part.items && shape(part.items),
          };
    const planned = (version: 1 | 2): unknown => {
      const plan = planParts(COMPILED[version]);
      const walk = (p: ReturnType<typeof planParts>): unknown =>
        p.kind === 'leaf'
          ? p.at
          : {
              at: p.at,
              properties: p.properties.map(([name, child]) => [name, walk(child)]),
              additional: p.additional && walk(p.additional),
              items: p.items && walk(p.items),
            };
      return walk(plan);
    };
    expect(shape(partsV2 as SchemaPart)).toEqual(planned(2));
    expect(shape(partsV1 as SchemaPart)).toEqual(planned(1));
    const v2 = partsV2 as SchemaPart;
    const child = (name: string) => v2.properties!.find(([n]) => n === name)![1];
    expect(child('triggers').items?.at).toBe('/properties/triggers/items');
    expect(child('connectors').items?.at).toBe('/properties/connectors/items');
    expect(child('agents').additional?.at).toBe('/properties/agents/additionalProperties');
    expect(child('sandbox').properties!.find(([n]) => n === 'templates')![1].items?.at).toBe(
      '/properties/sandbox/properties/templates/items',
    );
  });

  it('validates again only the parts whose value object is new', () => {
    const text = largeManifest(2, 30, 8, 4);
    let document = ManifestDocument.parse(text, { format: 'yaml' });
    const first = { validated: [] as string[] } satisfies PartWork;
    walkParts(partsV2 as SchemaPart, document.schemaValue, '', () => {}, first);
    expect(first.validated).toContain('/triggers/12');
    expect(first.validated.length).toBeGreaterThan(30 + 8);
    // One character more in trigger 12's prompt.
    const at = text.indexOf('prompt: ', text.indexOf('slug: trigger-12')) + 'prompt: '.length + 1;
    document = document.update(text.slice(0, at) + 'x' + text.slice(at));
    const second = { validated: [] as string[] } satisfies PartWork;
    walkParts(partsV2 as SchemaPart, document.schemaValue, '', () => {}, second);
    expect(second.validated).toEqual(['', '/triggers', '/triggers/12']);
  });

  it('hands on the same error object for a kept member whose pointer and errors are the same, and a new one otherwise', () => {
    // Triggers 3 and 20 have an unknown trigger type; the edits go to trigger 12, between them.
    const text = largeManifest(2, 30, 8, 4).replace(/(slug: trigger-(?:3|20)\n(?: {4}.*\n)*? {4}type: )\w+/g, '$1nope');
    const walk = (document: ManifestDocument) => {
      const found = new Map<string, PartErrors>();
      walkParts(partsV2 as SchemaPart, document.schemaValue, '', (errors) => found.set(errors.pointer, errors), {
        validated: [],
      });
      return found;
    };
    let document = ManifestDocument.parse(text, { format: 'yaml' });
    const first = walk(document);
    expect([...first.keys()]).toEqual(expect.arrayContaining(['/triggers/3', '/triggers/20']));
    const at = text.indexOf('prompt: ', text.indexOf('slug: trigger-12')) + 'prompt: '.length + 1;
    const typed = text.slice(0, at) + 'x' + text.slice(at);
    document = document.update(typed);
    const second = walk(document);
    expect(second.get('/triggers/3')).toBe(first.get('/triggers/3'));
    expect(second.get('/triggers/20')).toBe(first.get('/triggers/20'));
    // Trigger 12 removed: trigger 20 is now at index 19, a new pointer.
    const start = typed.indexOf('  - slug: trigger-12');
    const end = typed.indexOf('  - slug: trigger-13');
    document = document.update(typed.slice(0, start) + typed.slice(end));
    const third = walk(document);
    expect(third.get('/triggers/3')).toBe(first.get('/triggers/3'));
    expect(third.get('/triggers/19')).not.toBe(first.get('/triggers/20'));
    expect(third.get('/triggers/19')!.errors).toBe(first.get('/triggers/20')!.errors);
  });
});
