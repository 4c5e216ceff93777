/**
 * @svc-manifest/schema — the svc manifest's shape, from one source (src/source.ts).
 *
 * The published JSON Schemas live in `generated/` (made by `npm run gen`); this module
 * builds the same objects in memory so tools resolve a pinned schema URL offline.
 */
import { buildSchemas, DEFAULT_SCHEMA_URL, schemaUrls, type PublishedSchemas } from './build.js';

export {
  buildSchemas,
  dereference,
  DEFAULT_SCHEMA_URL,
  DEFAULT_RULE_DOCS_URL,
  EDITOR_ONLY_KEYWORDS,
  schemaUrls,
  GENERATED_NOTE,
  type BuildOptions,
  type PublishedSchemas,
  type SchemaShape,
} from './build.js';
export { definitions, manifestRoot, type JsonSchema } from './source.js';
export * from './patterns.js';
export type * from './generated/types.js';

let published: PublishedSchemas | undefined;

/** The published schemas at the default `{schema_url}`, built once. */
export function publishedSchemas(): PublishedSchemas {
  return (published ??= buildSchemas(DEFAULT_SCHEMA_URL));
}

/** Published schema URLs at the default `{schema_url}`. */
export const SCHEMA_URLS = schemaUrls(DEFAULT_SCHEMA_URL);

/**
 * The schema a URL names, when it is one of ours: the combined one (`svc.schema.json`) or a
 * version's (`svc.v1.schema.json`, `svc.v2.schema.json`). Matches by file name under any
 * `{schema_url}`, so a manifest pinned to a mirror still resolves offline.
 */
export function schemaForUrl(url: string): { version: 1 | 2 | null; schema: Record<string, unknown> } | undefined {
  const match = /(?:^|\/)svc(?:\.v([12]))?\.schema\.json(?:[?#].*)?$/.exec(url.trim());
  if (!match) return undefined;
  const schemas = publishedSchemas();
  if (match[1] === '1') return { version: 1, schema: schemas.v1 };
  if (match[1] === '2') return { version: 2, schema: schemas.v2 };
  return { version: null, schema: schemas.combined };
}
