/**
 * What every marketplace edit starts from (manifest, lock file, running manifest plan)
 * and how it ends (the file writes, the lock file, the pristine copies to keep).
 */
import type { EditPlan, FileWrite } from '../applier.js';
import { blobOid } from '../git/object-id.js';
import type { Snapshot } from '../git/snapshot.js';
import type { ManifestFile } from '../manifest/manifest-file.js';
import { editManifest, readManifest } from '../operations/manifest-access.js';
import { describeEntry, fragmentEntries, ManifestPlan } from './fragment.js';
import type { FetchedItem } from './item.js';
import { RefusedError } from '../errors.js';
import { foldPath } from '../policy/item-paths.js';
import {
  checkLock,
  emptyLock,
  lockedItem,
  LOCK_PATH,
  MAX_LOCK_BYTES,
  parseLock,
  serializeLock,
  type LockedItem,
  type LockedManifestEntry,
  type LockFile,
} from './lockfile.js';

/** What every marketplace edit starts from. */
export interface State {
  snapshot: Snapshot;
  manifest: ManifestFile;
  plan: ManifestPlan;
  lock: LockFile;
  lockExisted: boolean;
  oidLength: number;
  files: Map<string, Uint8Array | null>;
  pristine: Uint8Array[];
  /** Paths the items this edit works on own per the lock it started from: the only tracked files it may replace or delete. */
  owned: Set<string>;
}

/** Reads the manifest (refusing when there is none) and the lock file (empty when absent) at the snapshot. */
export async function loadState(snapshot: Snapshot): Promise<State> {
  const manifest = await readManifest(snapshot);
  const lockBytes = await snapshot.read(LOCK_PATH, MAX_LOCK_BYTES);
  return {
    snapshot,
    manifest,
    plan: new ManifestPlan(manifest.value),
    lock: lockBytes ? parseLock(lockBytes) : emptyLock(),
    lockExisted: lockBytes !== null,
    oidLength: snapshot.commit.length,
    files: new Map(),
    pristine: [],
    owned: new Set(),
  };
}

/** Records that the edit works on installed item `name`: its files (per the lock) are the edit's to change. */
export function claimOwned(state: State, name: string): void {
  for (const path of Object.keys(lockedItem(state.lock, name)?.files ?? {})) state.owned.add(path);
}

/** The writes for the state's file changes, manifest changes and lock file. */
export function finish<T>(state: State, message: string, info: T): EditPlan<T> {
  // No file may end up claimed by two items (e.g. a new upstream file that another item owns but that was deleted locally).
  const claims = new Map<string, { path: string; name: string }>();
  for (const [name, item] of Object.entries(state.lock.items)) {
    for (const path of Object.keys(item.files)) {
      const other = claims.get(foldPath(path));
      if (other !== undefined) {
        throw new RefusedError(
          'path-conflict',
          `item file '${path}' would belong to both '${other.name}' and '${name}'; nothing was written`,
          { file: path },
        );
      }
      claims.set(foldPath(path), { path, name });
    }
  }
  for (const [key, { path, name }] of claims) {
    const parts = key.split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = claims.get(parts.slice(0, i).join('/'));
      if (!parent) continue;
      const whose = parent.name === name ? 'also an item file' : `a file of item '${parent.name}'`;
      throw new RefusedError(
        'path-conflict',
        `item file '${path}' is inside '${parent.path}', ${whose}; nothing was written`,
        { file: path },
      );
    }
  }
  checkLock(JSON.parse(Buffer.from(serializeLock(state.lock)).toString('utf8')));
  const writes: FileWrite[] = [...state.files].map(([path, content]) => ({ path, content }));
  writes.push(...editManifest(state.manifest, state.plan.changes));
  const empty = Object.keys(state.lock.items).length === 0;
  if (!empty) writes.push({ path: LOCK_PATH, content: serializeLock(state.lock) });
  else if (state.lockExisted) writes.push({ path: LOCK_PATH, content: null });
  return { writes, message, pristine: state.pristine, info, ownedPaths: [...state.owned] };
}

/** The lock file record of a fetched item: upstream blob ids and manifest entries. */
export function lockEntry(item: FetchedItem, oidLength: number): LockedItem {
  // Null prototype: a file may be called `__proto__` (or `constructor`); it is an entry like any other.
  const files: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const path of item.files) files[path] = blobOid(item.contents.get(path)!, oidLength);
  return {
    id: item.id,
    version: item.version,
    source: item.source,
    integrity: item.integrity,
    files,
    manifest: fragmentEntries(item.manifest),
  };
}

/** `svc.yaml: agent 'pdf'`, for reports. */
export function entryLocation(state: State, entry: { section: LockedManifestEntry['section']; name: string }): string {
  return `${state.manifest.path}: ${describeEntry(entry)}`;
}
