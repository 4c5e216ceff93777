/** The committed schemas are exactly what the source builds (CI also runs `npm run gen:check`). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildSchemas,
  ruleUrl,
  schemaForUrl,
  schemaVersionForUrl,
  SCHEMA_URLS,
  siteBaseUrl,
} from '@svc-manifest/schema';

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
    expect(schemaForUrl('https://mirror.test/x/svc.v2.schema.json')?.schema.$id).toBe(SCHEMA_URLS.v2);
    expect(schemaForUrl('./svc.schema.json')?.schema.$id).toBe(SCHEMA_URLS.combined);
    // The version alone, as the language server asks it of a pin.
    expect(
      [
        'https://mirror.test/x/svc.v1.schema.json?x',
        './svc.schema.json#a',
        'svc.v3.schema.json',
        'notsvc.schema.json',
      ].map(schemaVersionForUrl),
    ).toEqual([1, null, undefined, undefined]);
  });

  it('gives every property a description and a markdownDescription', () => {
    const missing: string[] = [];
    const visit = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object') return;
      const properties = (node as { properties?: Record<string, Record<string, unknown>> }).properties;
      for (const [key, schema] of Object.entries(properties ?? {})) {
        const described = typeof schema.description === 'string' || typeof schema.$ref === 'string';
        if (!described || (typeof schema.$ref !== 'string' && typeof schema.markdownDescription !== 'string'))
          missing.push(`${path}/${key}`);
      }
      // Conditions (if/then, anyOf, not) restate keys the object declares; only declarations need words.
      const conditional = new Set(['properties', 'allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', 'not']);
      for (const [key, value] of Object.entries(node))
        if (!conditional.has(key) && typeof value === 'object') visit(value, `${path}/${key}`);
      for (const [key, value] of Object.entries(properties ?? {})) visit(value, `${path}/properties/${key}`);
    };
    visit(built.combined, '#');
    expect(missing).toEqual([]);
  });
});

/** Every value of `keyword` anywhere in a schema. */
function valuesOf(node: unknown, keyword: string, found: unknown[] = []): unknown[] {
  if (Array.isArray(node)) node.forEach((item) => valuesOf(item, keyword, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === keyword) found.push(value);
      valuesOf(value, keyword, found);
    }
  }
  return found;
}

describe('rule links', () => {
  it('names the site above the schemas, with or without a version folder', () => {
    expect(siteBaseUrl()).toBe('https://schemas.svc.example/');
    expect(siteBaseUrl('https://example.org/svc/manifest/0.1.0/')).toBe('https://example.org/svc/');
    expect(siteBaseUrl('https://example.org/svc/manifest')).toBe('https://example.org/svc/');
    expect(ruleUrl('unknown-key')).toBe('https://schemas.svc.example/rules/unknown-key.html');
  });

  // Taplo's links in the committed schemas are the helper's URLs, under the host of the schemas' own $id.
  it.each(['svc.schema.json', 'svc.v1.schema.json', 'svc.v2.schema.json'])(
    '%s links each rule key to ruleUrl()',
    (file) => {
      const schema = read(file) as Record<string, unknown>;
      const rules = new Set(valuesOf(schema, 'x-svc-rule') as string[]);
      const links = (valuesOf(schema, 'x-taplo') as { links?: { key?: string } }[]).flatMap((taplo) =>
        taplo.links ? [taplo.links.key] : [],
      );
      expect(links.length).toBeGreaterThan(10);
      const expected = new Set([...rules].map((rule) => ruleUrl(rule, schema.$id as string)));
      for (const link of links) {
        expect(expected, String(link)).toContain(link);
        expect(link).toMatch(
          new RegExp(`^${new URL('/', schema.$id as string).href.replace(/\./g, '\\.')}rules/[a-z0-9-]+\\.html$`),
        );
      }
    },
  );

  it('follows the base the schemas are built for', () => {
    const links = valuesOf(buildSchemas('https://example.org/svc/manifest/0.1.0').v2, 'x-taplo') as {
      links?: { key?: string };
    }[];
    expect(links.flatMap((taplo) => (taplo.links ? [taplo.links.key] : []))).toContain(
      'https://example.org/svc/rules/alias-conflict.html',
    );
  });
});
