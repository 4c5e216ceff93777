/**
 * The SchemaStore submission in packages/schema/generated/schemastore (made by `npm run gen`): a
 * catalog entry for our file names with the published URLs and one URL per `svc_version`, and
 * test files that are our fixtures, each under SchemaStore's positive (`src/test`) or negative
 * (`src/negative_test`) folder by its stated verdict, which the published schema gives it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { SCHEMA_URLS } from '@svc-manifest/schema';
import { SCHEMA_DIR, loadExamples, loadFixtures, parseYamlFixture } from './support/fixtures.js';

const STORE = join(SCHEMA_DIR, 'schemastore');
const positive = readdirSync(join(STORE, 'src/test/svc')).sort();
const negative = readdirSync(join(STORE, 'src/negative_test/svc')).sort();
const fixtures = [...loadFixtures(), ...loadExamples()];
/** The fixture a SchemaStore test file was made from (`<rule>-<folder>-<file>` or `example-<file>`). */
const source = (file: string) =>
  fixtures.find(
    (fixture) =>
      (fixture.name.startsWith('examples/')
        ? `example-${fixture.name.slice('examples/'.length)}`
        : `${fixture.rule}-${fixture.folder}-${fixture.name.split('/').pop()}`) === file,
  );

describe('the SchemaStore submission', () => {
  it('has a catalog entry for svc.yaml, svc.yml and svc.toml, with a URL per version', () => {
    expect(JSON.parse(readFileSync(join(STORE, 'catalog-entry.json'), 'utf8'))).toEqual({
      name: 'svc manifest',
      description: expect.any(String),
      fileMatch: ['svc.yaml', 'svc.yml', 'svc.toml'],
      url: SCHEMA_URLS.combined,
      versions: { '1': SCHEMA_URLS.v1, '2': SCHEMA_URLS.v2 },
    });
  });

  it('has positive and negative files in both formats', () => {
    for (const files of [positive, negative]) {
      expect(files.filter((file) => file.endsWith('.yaml')).length).toBeGreaterThan(40);
      expect(files.filter((file) => file.endsWith('.toml')).length).toBeGreaterThan(10);
    }
  });

  it('takes each file from a fixture, by its verdict', () => {
    const misplaced = [
      ...positive.filter((file) => source(file)?.verdict !== 'valid'),
      ...negative.filter((file) => source(file)?.verdict !== 'invalid'),
    ];
    expect(misplaced).toEqual([]);
    const changed = [...positive.map((f) => ['test', f]), ...negative.map((f) => ['negative_test', f])].filter(
      ([folder, file]) => readFileSync(join(STORE, 'src', folder!, 'svc', file!), 'utf8') !== source(file!)!.text,
    );
    expect(changed).toEqual([]);
  });

  it('gets its verdict from the published schema (YAML files, with ajv)', () => {
    const validate = new Ajv({ strict: false }).compile(
      JSON.parse(readFileSync(join(SCHEMA_DIR, 'svc.schema.json'), 'utf8')) as object,
    );
    const wrong = [
      ...positive.filter((file) => file.endsWith('.yaml') && !validate(parseYamlFixture(source(file)!))),
      ...negative.filter((file) => file.endsWith('.yaml') && validate(parseYamlFixture(source(file)!))),
    ];
    expect(wrong).toEqual([]);
  });

  it('keeps out what a SchemaStore parser may read otherwise (merge keys, byte-order marks)', () => {
    const all = [...positive, ...negative].map((file) => source(file)!.text);
    expect(all.filter((text) => text.startsWith('\uFEFF') || /^\s*<<\s*:/m.test(text))).toEqual([]);
  });
});
