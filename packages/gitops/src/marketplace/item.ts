/**
 * The marketplace item format (documented in README.md): a name, a version, files it
 * places in the repository, and a manifest fragment (agents, connectors, triggers) it
 * merges into the project manifest.
 */
import { createHash } from 'node:crypto';
import { RefusedError } from '../errors.js';
import { canonicalJson, isPlainObject, jsonDepth, MAX_JSON_DEPTH, type Json } from '../json.js';
import { itemPathProblem, foldPath } from '../policy/item-paths.js';
import { nameProblem, SLUG } from '../policy/names.js';

export { SLUG };

/** The manifest fragment: keyed like the manifest itself. */
export interface ManifestFragment {
  /** Agents by name, each the v2 agent object (for a v1 manifest it becomes `{ name, ...value }`). */
  agents?: Record<string, Record<string, Json>>;
  /** Connectors, each with its `slug`. */
  connectors?: Record<string, Json>[];
  /** Triggers, each with its `slug`. */
  triggers?: Record<string, Json>[];
}

/** An item as the catalog describes it (`item.json`). */
export interface ItemDescriptor {
  name: string;
  version: string;
  description?: string;
  /** Repository paths of the files the item places. */
  files: string[];
  manifest: ManifestFragment;
  /** Optional `sha256-…` of the item; verified when present. */
  integrity?: string;
}

/** An item with its file contents fetched, ready to install. */
export interface FetchedItem extends ItemDescriptor {
  /** The catalog id it was fetched by. */
  id: string;
  /** Where it came from (catalog URL or folder). */
  source: string;
  contents: Map<string, Uint8Array>;
  /** `sha256-…` over name, version, manifest fragment and every file's content. */
  integrity: string;
}

/** Checks the shape of an `item.json`, refusing with the first problem found. */
export function parseItemDescriptor(id: string, raw: unknown): ItemDescriptor {
  const fail = (why: string): never => {
    throw new RefusedError('invalid-item', `marketplace item '${id}' is invalid: ${why}`);
  };
  if (!isPlainObject(raw)) return fail('item.json is not an object');
  if (jsonDepth(raw) > MAX_JSON_DEPTH) fail(`item.json is nested more than ${MAX_JSON_DEPTH} levels deep`);
  const { name, version, description, files, manifest, integrity } = raw;
  if (typeof name !== 'string' || !SLUG.test(name)) fail(`name must match ${SLUG.source}`);
  const versionProblem = nameProblem(version);
  if (versionProblem) fail(`version ${JSON.stringify(version)} ${versionProblem}`);
  if (description !== undefined && typeof description !== 'string') fail('description must be a string');
  if (integrity !== undefined && (typeof integrity !== 'string' || !integrity.startsWith('sha256-')))
    fail('integrity must be "sha256-…"');
  const fileList = files ?? [];
  if (!Array.isArray(fileList) || fileList.some((path) => typeof path !== 'string'))
    fail('files must be a list of paths');
  const seen = new Map<string, string>();
  for (const path of fileList as string[]) {
    const problem = itemPathProblem(path);
    if (problem)
      throw new RefusedError(
        'unsafe-path',
        `marketplace item '${id}' lists file ${JSON.stringify(path)}, which ${problem}`,
        { file: path },
      );
    const twin = seen.get(foldPath(path));
    if (twin !== undefined)
      fail(
        twin === path
          ? `files lists '${path}' twice`
          : `files lists '${twin}' and '${path}', which differ only in case`,
      );
    seen.set(foldPath(path), path);
  }
  const fragment = manifest ?? {};
  if (!isPlainObject(fragment)) return fail('manifest must be an object');
  for (const key of Object.keys(fragment)) {
    if (!['agents', 'connectors', 'triggers'].includes(key))
      fail(`manifest may only hold agents, connectors and triggers (found '${key}')`);
  }
  if (fragment.agents !== undefined) {
    if (!isPlainObject(fragment.agents)) fail('manifest.agents must be a map of agent name to agent');
    for (const [agent, value] of Object.entries(fragment.agents as object)) {
      if (!SLUG.test(agent)) fail(`agent name '${agent}' must match ${SLUG.source}`);
      if (!isPlainObject(value)) fail(`agent '${agent}' must be an object`);
    }
  }
  for (const section of ['connectors', 'triggers'] as const) {
    const list = fragment[section];
    if (list === undefined) continue;
    if (!Array.isArray(list)) return fail(`manifest.${section} must be a list`);
    const slugs = new Set<string>();
    for (const entry of list) {
      if (!isPlainObject(entry) || typeof entry.slug !== 'string' || !SLUG.test(entry.slug))
        fail(`every manifest.${section} entry needs a slug matching ${SLUG.source}`);
      const slug = (entry as { slug: string }).slug;
      if (slugs.has(slug)) fail(`manifest.${section} lists '${slug}' twice`);
      slugs.add(slug);
    }
  }
  return {
    name: name as string,
    version: version as string,
    ...(description !== undefined ? { description: description as string } : {}),
    files: fileList as string[],
    manifest: fragment,
    ...(integrity !== undefined ? { integrity: integrity as string } : {}),
  };
}

/** `sha256-<base64>` of the item: its descriptor (without integrity) and every file's sha256. */
export function computeIntegrity(item: ItemDescriptor, contents: ReadonlyMap<string, Uint8Array>): string {
  const files = [...item.files].sort().map((path) => ({
    path,
    sha256: createHash('sha256')
      .update(contents.get(path) ?? new Uint8Array())
      .digest('hex'),
  }));
  const digest = createHash('sha256')
    .update(canonicalJson({ name: item.name, version: item.version, manifest: item.manifest, files }))
    .digest('base64');
  return `sha256-${digest}`;
}

/** Orders strings by UTF-16 code units (as git orders names by bytes): unlike `localeCompare`, the same on every machine, and no ICU collator to load. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const DIGITS = /^\d+$/;

/** Two strings of digits by their value, exactly (no 2^53 limit); leading zeros do not count. */
function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+/, '');
  const y = b.replace(/^0+/, '');
  return Math.sign(x.length - y.length) || compareCodeUnits(x, y);
}

/**
 * Orders versions by SemVer 2.0.0 precedence: core dot parts of digits compared as numbers
 * (other parts by code units, a missing part counts as 0), a pre-release (`1.0.0-beta`) before
 * its release, pre-releases compared identifier by identifier; a leading `v` and build
 * metadata (`+…`) are ignored.
 */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = '', pre] = v.replace(/^v/, '').split('+')[0]!.split(/-(.*)/s);
    return { parts: core.split('.'), pre };
  };
  const left = parse(a);
  const right = parse(b);
  const length = Math.max(left.parts.length, right.parts.length);
  for (let i = 0; i < length; i++) {
    const x = left.parts[i] ?? '0';
    const y = right.parts[i] ?? '0';
    const diff = DIGITS.test(x) && DIGITS.test(y) ? compareDigits(x, y) : compareCodeUnits(x, y);
    if (diff !== 0) return diff;
  }
  if (left.pre === right.pre) return 0;
  if (left.pre === undefined) return 1;
  if (right.pre === undefined) return -1;
  return comparePreReleases(left.pre, right.pre);
}

/**
 * SemVer 2.0.0 item 11: dot-separated identifiers compared in turn; identifiers of digits
 * numerically and below alphanumeric ones, alphanumeric ones by ASCII (code-unit) order; when
 * all compared identifiers are equal, the longer list is the greater.
 */
function comparePreReleases(a: string, b: string): number {
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i]!;
    const y = right[i]!;
    const xDigits = DIGITS.test(x);
    const yDigits = DIGITS.test(y);
    const diff =
      xDigits && yDigits ? compareDigits(x, y) : xDigits !== yDigits ? (xDigits ? -1 : 1) : compareCodeUnits(x, y);
    if (diff !== 0) return diff;
  }
  return Math.sign(left.length - right.length);
}
