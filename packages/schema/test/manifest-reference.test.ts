/**
 * docs/manifest.md, the manifest reference: it is exactly what the generator makes from the
 * schema source (CI also runs `npm run gen:check`), it covers every key of both versions (found
 * here by an independent walk of the published schemas), each key's examples put the key where
 * its path says, and its links lead somewhere.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { buildSchemas, dereference } from '@svc-manifest/schema';
import { renderManifestReference } from '../scripts/manifest-reference.js';

const DOCS = join(import.meta.dirname, '..', '..', '..', 'docs');
const committed = readFileSync(join(DOCS, 'manifest.md'), 'utf8');

type Schema = Record<string, unknown>;

/** Every property path of a schema, `[]` for list items and `<name>` for map entries. */
function keyPaths(schema: Schema, prefix = ''): string[] {
  const paths: string[] = [];
  const join = (key: string) => (prefix ? `${prefix}.${key}` : key);
  for (const [key, value] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    paths.push(join(key));
    paths.push(...childPaths(value, join(key)));
  }
  return paths;
}

function childPaths(value: Schema, path: string): string[] {
  if (value.properties) return keyPaths(value, path);
  if (value.type === 'array' && value.items) return keyPaths(value.items as Schema, `${path}[]`);
  if (value.additionalProperties && typeof value.additionalProperties === 'object')
    return keyPaths(value.additionalProperties as Schema, `${path}.<name>`);
  return [];
}

/** The sections `### \`path\`` of the reference with their text. */
function keySections(markdown: string): Map<string, string> {
  const sections = new Map<string, string>();
  const parts = markdown.split(/^### `([^`]+)`$/m);
  for (let i = 1; i < parts.length; i += 2) sections.set(parts[i]!, parts[i + 1]!.split(/^## /m)[0]!);
  return sections;
}

describe('docs/manifest.md', () => {
  it('is what `npm run gen` makes from the schema source', () => {
    expect(renderManifestReference()).toBe(committed);
  });

  // Keys as the source writes them: the published shape moves objects' rules beside their references.
  const schemas = buildSchemas(undefined, { shape: 'validation' });
  const sections = keySections(committed);

  it.each([
    [1, schemas.v1],
    [2, schemas.v2],
  ] as const)('has a section for every key of svc_version %i, marked with that version', (version, schema) => {
    const paths = keyPaths(dereference(schema));
    expect(paths.length).toBeGreaterThan(80);
    const missing = paths.filter((path) => !sections.has(path));
    expect(missing).toEqual([]);
    const unmarked = paths.filter(
      (path) =>
        !new RegExp(`^\\*svc_version (${version}( and \\d)?|\\d and ${version})( only)?\\*$`, 'm').test(
          sections.get(path)!,
        ),
    );
    expect(unmarked).toEqual([]);
    for (const path of paths) expect(sections.get(path), path).toMatch(/^- Type: .+$/m);
  });

  it('documents no key that the schemas do not have', () => {
    const known = new Set([...keyPaths(dereference(schemas.v1)), ...keyPaths(dereference(schemas.v2))]);
    expect([...sections.keys()].filter((path) => !known.has(path))).toEqual([]);
  });

  it("puts each example's value at the key's path", () => {
    let examples = 0;
    for (const [path, text] of sections) {
      for (const match of text.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)) {
        let node: unknown = parseYaml(match[1]!);
        for (const segment of path
          .split('.')
          .flatMap((part) => (part.endsWith('[]') ? [part.slice(0, -2), '[]'] : [part]))) {
          if (segment === '[]') {
            expect(Array.isArray(node), `${path}: a list`).toBe(true);
            node = (node as unknown[])[0];
          } else if (segment === '<name>') {
            const entries = Object.values(node as object);
            expect(entries, `${path}: one map entry`).toHaveLength(1);
            node = entries[0];
          } else {
            expect(Object.keys(node as object), path).toContain(segment);
            node = (node as Record<string, unknown>)[segment];
          }
        }
        examples++;
      }
    }
    // Every key but the forbidden ones has an example.
    const forbidden = [...sections.values()].filter((text) => /^- Type: not allowed$/m.test(text)).length;
    expect(examples).toBeGreaterThanOrEqual(sections.size - forbidden);
  });

  it('states the conditional rules with links to their rule pages', () => {
    expect(committed).toContain(
      '- When `type` is `webhook`: needs `secret_env` or `secretEnv` ([trigger-webhook-secret](rules/trigger-webhook-secret.md)).',
    );
    expect(committed).toContain(
      '- When `provider` is `mcp`: needs `url` ([connector-provider-fields](rules/connector-provider-fields.md)).',
    );
    expect(sections.get('triggers[].session_mode')).toContain('- Not together with `sessionMode`');
    expect(sections.get('apps.<name>.port')).toContain('- From 1 to 65535.');
    expect(sections.get('apps.<name>.port')).toContain('- Ports 7331 and 8080 are reserved by the platform.');
    expect(sections.get('agents.<name>.connectors_personal')).toContain(
      '- Deprecated: use `connectors_required` instead',
    );
  });

  it('links only to rule pages that exist and to anchors it defines', () => {
    const anchors = new Set([...committed.matchAll(/<a id="([^"]+)"><\/a>/g)].map((match) => match[1]!));
    const links = [...committed.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(100);
    for (const link of links) {
      if (link.startsWith('#')) expect(anchors.has(link.slice(1)), link).toBe(true);
      else expect(existsSync(join(DOCS, link)), link).toBe(true);
    }
  });
});
