/**
 * The committed record of installed items (`svc.lock.json`, format in README.md).
 * It is what makes re-installs no-ops, local edits detectable and updates mergeable.
 */
import { RefusedError } from '../errors.js';
import { isPlainObject, type Json } from '../json.js';

export const LOCK_PATH = 'svc.lock.json';

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
  return { lockfileVersion: 1, items: {} };
}

export function parseLock(bytes: Uint8Array | null): LockFile {
  if (!bytes) return emptyLock();
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (error) {
    throw new RefusedError('manifest-unparsable', `${LOCK_PATH} is not valid JSON: ${(error as Error).message}`, { file: LOCK_PATH });
  }
  if (!isPlainObject(raw) || raw.lockfileVersion !== 1 || !isPlainObject(raw.items)) {
    throw new RefusedError('manifest-unparsable', `${LOCK_PATH} is not a version 1 lock file`, { file: LOCK_PATH });
  }
  return raw as unknown as LockFile;
}

/** Stable text: items and file paths sorted, two-space indent, final newline (small, reviewable diffs). */
export function serializeLock(lock: LockFile): Uint8Array {
  const items: Record<string, LockedItem> = {};
  for (const name of Object.keys(lock.items).sort()) {
    const item = lock.items[name]!;
    const files: Record<string, string> = {};
    for (const path of Object.keys(item.files).sort()) files[path] = item.files[path]!;
    items[name] = { id: item.id, version: item.version, source: item.source, integrity: item.integrity, files, manifest: item.manifest };
  }
  return Buffer.from(`${JSON.stringify({ lockfileVersion: 1, items }, null, 2)}\n`, 'utf8');
}
