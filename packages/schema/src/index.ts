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
  ruleUrl,
  rulePagePath,
  SCHEMA_DIR,
  siteBaseUrl,
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
 * Which of our schemas a URL names, without building any: `1` or `2` for a version's
 * (`svc.v1.schema.json`, `svc.v2.schema.json`), `null` for the combined one (`svc.schema.json`),
 * `undefined` for a URL that is not ours. Matches by file name under any `{schema_url}`, so a
 * manifest pinned to a mirror still resolves offline.
 */
export function schemaVersionForUrl(url: string): 1 | 2 | null | undefined {
  const match = /(?:^|\/)svc(?:\.v([12]))?\.schema\.json(?:[?#].*)?$/.exec(url.trim());
  if (!match) return undefined;
  return match[1] === '1' ? 1 : match[1] === '2' ? 2 : null;
}

/** The schema a URL names, when it is one of ours ({@link schemaVersionForUrl}), built at the default `{schema_url}`. */
export function schemaForUrl(url: string): { version: 1 | 2 | null; schema: Record<string, unknown> } | undefined {
  const version = schemaVersionForUrl(url);
  if (version === undefined) return undefined;
  const schemas = publishedSchemas();
  return { version, schema: version === 1 ? schemas.v1 : version === 2 ? schemas.v2 : schemas.combined };
}
