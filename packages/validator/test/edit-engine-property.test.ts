/**
 * The editing engine on every valid fixture, with random changes at paths that exist: it
 * either refuses with a ManifestEditError or returns a text whose value is exactly the
 * intended one, and everything before and after the one changed region is the input's bytes.
 */
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import {
  applyChanges,
  editManifest,
  ManifestDocument,
  ManifestEditError,
  severityOf,
  TomlDateTime,
  type Json,
  type ManifestChange,
  type PathSegment,
} from '../src/index.js';

const root = join(import.meta.dirname, '..', '..', '..', 'fixtures');
const manifests: { name: string; text: string; format: 'yaml' | 'toml'; value: unknown; paths: PathSegment[][] }[] = [];
for (const folder of readdirSync(root).filter((f) => statSync(join(root, f)).isDirectory())) {
  const dir = join(root, folder, 'valid');
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir).filter((n) => /\.(ya?ml|toml)$/.test(n))) {
    const text = readFileSync(join(dir, name), 'utf8');
    const format = name.endsWith('.toml') ? 'toml' : 'yaml';
    const document = ManifestDocument.parse(text, { format });
    if (document.diagnostics.some((d) => severityOf(d.code) === 'error')) continue;
    const paths: PathSegment[][] = [];
    const walk = (value: unknown, path: PathSegment[]): void => {
      if (path.length > 0) paths.push(path);
      if (path.length > 6 || value instanceof TomlDateTime) return;
      if (Array.isArray(value)) value.forEach((item, i) => walk(item, [...path, i]));
      else if (value !== null && typeof value === 'object')
        for (const [key, child] of Object.entries(value)) walk(child, [...path, key]);
    };
    walk(document.value, []);
    if (paths.length > 0) manifests.push({ name: `${folder}/${name}`, text, format, value: document.value, paths });
  }
}

/** The value with TOML dates and times as their text, which is how `applyChanges` (plain JSON) reads them. */
function datesAsText(value: unknown): unknown {
  if (value instanceof TomlDateTime) return value.text;
  if (Array.isArray(value)) return value.map(datesAsText);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, datesAsText(v)]));
  return value;
}

const scalar: fc.Arbitrary<Json> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.boolean(),
  fc.constantFrom('yes', 'a: b', '# x', "it's", '"q"', ''),
);
const json: fc.Arbitrary<Json> = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(fc.stringMatching(/^[a-z][a-z_ ]{0,6}$/), scalar, { maxKeys: 3 }),
);

test('the fixtures give the property enough to work on', () => {
  expect(manifests.length).toBeGreaterThan(50);
});

test('property: a refusal, or exactly the intended value with the rest of the bytes untouched', () => {
  const arbitrary = fc
    .constantFrom(...manifests)
    .chain((manifest) =>
      fc.tuple(
        fc.constant(manifest),
        fc.array(
          fc.tuple(
            fc.constantFrom(...manifest.paths),
            fc.constantFrom('set', 'delete', 'append', 'insert', 'rename', 'add'),
            json,
            fc.stringMatching(/^[a-z_]{1,8}$/),
          ),
          { minLength: 1, maxLength: 3 },
        ),
      ),
    );
  let made = 0;
  fc.assert(
    fc.property(arbitrary, ([manifest, specs]) => {
      const changes: ManifestChange[] = specs.map(([path, op, value, key]): ManifestChange => {
        switch (op) {
          case 'delete':
            return { op, path };
          case 'rename':
            return { op, path, to: key };
          case 'add':
            return { op: 'set', path: [...path, key], value };
          default:
            return { op, path, value };
        }
      });
      let result;
      try {
        result = editManifest(manifest.text, changes, { format: manifest.format });
      } catch (error) {
        expect(error).toBeInstanceOf(ManifestEditError);
        return;
      }
      made++;
      expect(datesAsText(result.value)).toEqual(applyChanges(manifest.value, changes));
      const [edit] = result.edits;
      if (edit)
        expect(result.text).toBe(manifest.text.slice(0, edit.start) + edit.newText + manifest.text.slice(edit.end));
      else expect(result.text).toBe(manifest.text);
    }),
    { numRuns: 400 },
  );
  // Most random changes apply (the rest are refusals such as deleting a key that is gone).
  expect(made).toBeGreaterThan(80);
});
