/**
 * The committed record of installed items (`svc.lock.json`, format in README.md).
 * It is what makes re-installs no-ops, local edits detectable and updates mergeable.
 */
import type { Ajv } from 'ajv';
import { ajvClass } from './lazy-ajv.js';
import { RefusedError } from '../errors.js';
import { isPlainObject, jsonDepth, MAX_JSON_DEPTH, type Json } from '../json.js';
import { foldPath, itemPathProblem, LOCK_FILE_PATH } from '../policy/item-paths.js';
import { showPattern, SLUG } from '../policy/names.js';

export const LOCK_PATH = LOCK_FILE_PATH;

/** Largest lock file read (16 MiB: thousands of items). */
export const MAX_LOCK_BYTES = 16 * 1024 * 1024;

export type FragmentSection = 'agents' | 'connectors' | 'triggers';

/** One manifest entry an item added, with the value upstream gave it (the merge base for updates). */
export interface LockedManifestEntry {
  section: FragmentSection;
  name: string;
  value: Json;
}

export interface LockedItem {
  /** Catalog id the item was installed by. */
  id: string;
  version: string;
  /** The catalog it came from (URL, or file: URL of a folder). */
  source: string;
  integrity: string;
  /** Repository path → git blob id of the pristine upstream file. */
  files: Record<string, string>;
  manifest: LockedManifestEntry[];
}

export interface LockFile {
  lockfileVersion: 1;
  items: Record<string, LockedItem>;
}

export function emptyLock(): LockFile {
  return { lockfileVersion: 1, items: Object.create(null) as Record<string, LockedItem> };
}

/**
 * The installed item called `name`, or undefined. Only the lock's own keys count: a name
 * such as `constructor` or `__proto__` never finds something inherited.
 */
export function lockedItem(lock: LockFile, name: string): LockedItem | undefined {
  return Object.prototype.hasOwnProperty.call(lock.items, name) ? lock.items[name] : undefined;
}

/** The lock file's own schema (JSON Schema 2020-12 subset that ajv checks); semantic checks follow in {@link checkLock}. */
export const LOCK_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['lockfileVersion', 'items'],
  properties: {
    lockfileVersion: { const: 1 },
    items: {
      type: 'object',
      propertyNames: { pattern: SLUG.source },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'version', 'source', 'integrity', 'files', 'manifest'],
        properties: {
          id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$' },
          version: { type: 'string', minLength: 1, maxLength: 256, pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f]*$' },
          source: { type: 'string', maxLength: 4096 },
          integrity: { type: 'string', pattern: '^sha256-[A-Za-z0-9+/]+=*$' },
          files: { type: 'object', additionalProperties: { type: 'string', pattern: '^([0-9a-f]{40}|[0-9a-f]{64})$' } },
          manifest: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['section', 'name', 'value'],
              properties: {
                section: { enum: ['agents', 'connectors', 'triggers'] },
                name: { type: 'string', pattern: SLUG.source },
                value: {},
              },
            },
          },
        },
      },
    },
  },
} as const;

type ShapeCheck = ReturnType<Ajv['compile']>;
let compiledShape: ShapeCheck | undefined;

/** The schema check, compiled on first use: operations that never read a lock file do not pay for it. */
function shapeCheck(): ShapeCheck {
  compiledShape ??= new (ajvClass())({ allErrors: false, strict: true }).compile(LOCK_SCHEMA);
  return compiledShape;
}

/** `items["pdf-tools"].files["../x"]` for the JSON pointer `/items/pdf-tools/files/..~1x`. */
function describePointer(pointer: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const shown = parts.map((part, i) => {
    if (i === 0) return part;
    const parent = parts[i - 1];
    if (parent === 'items' || parent === 'files') return `[${JSON.stringify(part)}]`;
    return /^\d+$/.test(part) ? `[${part}]` : `.${part}`;
  });
  return shown.join('') || '(the whole file)';
}

function invalidLock(where: string, why: string): never {
  throw new RefusedError(
    'invalid-lock',
    `${LOCK_PATH}: ${where} ${why}; fix or restore the lock file (nothing was changed)`,
    { file: LOCK_PATH },
  );
}

/**
 * Parses and checks the lock file: its schema, then what the schema cannot say — every
 * file path passes the item path policy (so never the manifest, the lock itself, `..` or
 * `.git`), and no path is claimed by two items or lies inside another item's file.
 * Anything inconsistent is an `invalid-lock` refusal naming the entry: a hand-edited or
 * corrupt lock file can never make an operation delete what it does not own.
 */
export function parseLock(bytes: Uint8Array | null): LockFile {
  if (!bytes) return emptyLock();
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    throw new RefusedError('invalid-lock', `${LOCK_PATH} is not valid UTF-8 JSON: ${(error as Error).message}`, {
      file: LOCK_PATH,
    });
  }
  checkLock(raw);
  return raw;
}

/** The checks of {@link parseLock} on an already-parsed value. */
/** A value the lock's schema has just accepted, typed as what it is (the compiler cannot see ajv's verdict). */
function schemaChecked(value: unknown): LockFile {
  return value as LockFile;
}

export function checkLock(raw: unknown): asserts raw is LockFile {
  if (jsonDepth(raw) > MAX_JSON_DEPTH)
    invalidLock('(the whole file)', `is nested more than ${MAX_JSON_DEPTH} levels deep`);
  const validateShape = shapeCheck();
  if (!validateShape(raw)) {
    const error = validateShape.errors![0]!;
    const where = describePointer(error.instancePath);
    const propertyName = (error as { propertyName?: string }).propertyName ?? error.params.propertyName;
    const detail =
      error.keyword === 'additionalProperties'
        ? `has an unknown key ${JSON.stringify(error.params.additionalProperty)}`
        : propertyName !== undefined
          ? `has an item name ${JSON.stringify(propertyName)} that does not match ${showPattern(SLUG)}`
          : error.keyword === 'required'
            ? `is missing '${String(error.params.missingProperty)}'`
            : error.keyword === 'pattern'
              ? `${JSON.stringify(describeValue(raw, error.instancePath))} does not match ${String(error.params.pattern)}`
              : (error.message ?? 'is invalid');
    invalidLock(where, detail);
  }
  const lock = schemaChecked(raw);
  const claimed = new Map<string, string>();
  for (const [name, item] of Object.entries(lock.items)) {
    const seenEntries = new Set<string>();
    for (const [index, entry] of item.manifest.entries()) {
      const key = `${entry.section}/${entry.name}`;
      if (seenEntries.has(key))
        invalidLock(
          `items[${JSON.stringify(name)}].manifest[${index}]`,
          `lists ${entry.section} '${entry.name}' twice`,
        );
      seenEntries.add(key);
    }
    for (const path of Object.keys(item.files)) {
      const where = `items[${JSON.stringify(name)}].files[${JSON.stringify(path)}]`;
      const problem = itemPathProblem(path);
      if (problem) invalidLock(where, `is not a file an item may own: the path ${problem}`);
      const key = foldPath(path);
      const owner = claimed.get(key);
      if (owner !== undefined) invalidLock(where, `is also claimed by item '${owner}'`);
      claimed.set(key, name);
    }
  }
  for (const [key, owner] of claimed) {
    const parts = key.split('/');
    for (let i = 1; i < parts.length; i++) {
      const parentOwner = claimed.get(parts.slice(0, i).join('/'));
      if (parentOwner !== undefined)
        invalidLock(
          `items[${JSON.stringify(owner)}].files`,
          `has a path inside '${parts.slice(0, i).join('/')}', a file of item '${parentOwner}'`,
        );
    }
  }
}

function describeValue(root: unknown, pointer: string): unknown {
  let value: unknown = root;
  for (const part of pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    value = isPlainObject(value) ? value[part] : Array.isArray(value) ? value[Number(part)] : undefined;
  }
  return value;
}

/** Stable text: items and file paths sorted, two-space indent, final newline (small, reviewable diffs). */
export function serializeLock(lock: LockFile): Uint8Array {
  // Null prototypes: file paths such as `__proto__` are written as keys like any other.
  const items: Record<string, LockedItem> = Object.create(null) as Record<string, LockedItem>;
  for (const name of Object.keys(lock.items).sort()) {
    const item = lock.items[name]!;
    const files: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const path of Object.keys(item.files).sort()) files[path] = item.files[path]!;
    items[name] = {
      id: item.id,
      version: item.version,
      source: item.source,
      integrity: item.integrity,
      files,
      manifest: item.manifest,
    };
  }
  return Buffer.from(`${JSON.stringify({ lockfileVersion: 1, items }, null, 2)}\n`, 'utf8');
}
