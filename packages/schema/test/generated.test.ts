/** The committed schemas are exactly what the source builds (CI also runs `npm run gen:check`). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSchemas, schemaForUrl, SCHEMA_URLS } from '@svc-manifest/schema';

const generated = join(import.meta.dirname, '..', 'generated');
const read = (file: string) => JSON.parse(readFileSync(join(generated, file), 'utf8'));

describe('published schemas', () => {
  const built = buildSchemas();
  it.each([
    ['svc.schema.json', built.combined],
    ['svc.v1.schema.json', built.v1],
    ['svc.v2.schema.json', built.v2],
  ])('%s matches the source', (file, schema) => {
    expect(read(file)).toEqual(schema);
  });

  it('every $id sits under the one base address', () => {
    expect(built.combined.$id).toBe(SCHEMA_URLS.combined);
    expect(built.v1.$id).toBe('https://schemas.svc.example/manifest/svc.v1.schema.json');
    expect(buildSchemas('https://mirror.test/s/').v2.$id).toBe('https://mirror.test/s/svc.v2.schema.json');
  });

  it('resolves pinned URLs offline, under any base', () => {
    expect(schemaForUrl(SCHEMA_URLS.v1)?.version).toBe(1);
    expect(schemaForUrl('https://mirror.test/x/svc.v2.schema.json')?.version).toBe(2);
    expect(schemaForUrl('./svc.schema.json')?.version).toBeNull();
    expect(schemaForUrl('https://json.schemastore.org/github-workflow.json')).toBeUndefined();
  });

  it('gives every property a description and a markdownDescription', () => {
    const missing: string[] = [];
    const visit = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object') return;
      const properties = (node as { properties?: Record<string, Record<string, unknown>> }).properties;
      for (const [key, schema] of Object.entries(properties ?? {})) {
        const described = typeof schema.description === 'string' || typeof schema.$ref === 'string';
        if (!described || (typeof schema.$ref !== 'string' && typeof schema.markdownDescription !== 'string')) missing.push(`${path}/${key}`);
      }
      // Conditions (if/then, anyOf, not) restate keys the object declares; only declarations need words.
      const conditional = new Set(['properties', 'allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', 'not']);
      for (const [key, value] of Object.entries(node)) if (!conditional.has(key) && typeof value === 'object') visit(value, `${path}/${key}`);
      for (const [key, value] of Object.entries(properties ?? {})) visit(value, `${path}/properties/${key}`);
    };
    visit(built.combined, '#');
    expect(missing).toEqual([]);
  });
});
