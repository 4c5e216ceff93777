/**
 * Marketplace install / update / update-all / remove as edits, plus the read-only
 * `updates()` listing. Each edit reads the manifest and lock file at the branch head,
 * decides everything before writing anything, and refuses a whole item on a conflict.
 */
import type { Edit, EditPlan, FileWrite } from '../applier.js';
import { RefusedError, type FileReport } from '../errors.js';
import { blobOid } from '../git/object-id.js';
import type { Snapshot } from '../git/snapshot.js';
import { deepEqual, type Json } from '../json.js';
import type { ManifestFile } from '../manifest/manifest-file.js';
import { editManifest, readManifest } from '../operations/manifest-access.js';
import type { ItemCache } from './catalog.js';
import { describeEntry, fragmentEntries, ManifestPlan } from './fragment.js';
import { compareVersions, type FetchedItem } from './item.js';
import { emptyLock, LOCK_PATH, parseLock, serializeLock, type LockedItem, type LockedManifestEntry, type LockFile } from './lockfile.js';
import { mergeFile } from './merge.js';

export interface InstallInfo {
  name: string;
  version: string;
  /** `installed`, or `unchanged` when that exact version was already installed. */
  action: 'installed' | 'unchanged';
}

export interface UpdateInfo {
  name: string;
  from: string;
  to: string;
  /** `updated`, or `unchanged` when already at the catalog's version. */
  action: 'updated' | 'unchanged';
  /** Files whose local edits were kept as they were, or merged with upstream's change. */
  kept: string[];
  merged: string[];
}

export interface UpdateAllInfo {
  updated: UpdateInfo[];
  /** Items refused because of conflicts (the others are committed). */
  refused: { name: string; message: string; files: FileReport[] }[];
}

export interface RemoveInfo {
  name: string;
  version: string;
  removedFiles: string[];
}

export interface AvailableUpdate {
  name: string;
  id: string;
  installed: string;
  available: string;
}

/** What every marketplace edit starts from. */
interface State {
  snapshot: Snapshot;
  manifest: ManifestFile;
  plan: ManifestPlan;
  lock: LockFile;
  lockExisted: boolean;
  oidLength: number;
  files: Map<string, Uint8Array | null>;
  pristine: Uint8Array[];
}

async function loadState(snapshot: Snapshot): Promise<State> {
  const manifest = await readManifest(snapshot);
  const lockBytes = await snapshot.read(LOCK_PATH);
  return {
    snapshot,
    manifest,
    plan: new ManifestPlan(manifest.value),
    lock: lockBytes ? parseLock(lockBytes) : emptyLock(),
    lockExisted: lockBytes !== null,
    oidLength: snapshot.commit.length,
    files: new Map(),
    pristine: [],
  };
}

/** The writes for the state's file changes, manifest changes and lock file. */
function finish<T>(state: State, message: string, info: T): EditPlan<T> {
  const writes: FileWrite[] = [...state.files].map(([path, content]) => ({ path, content }));
  writes.push(...editManifest(state.manifest, state.plan.changes));
  const empty = Object.keys(state.lock.items).length === 0;
  if (!empty) writes.push({ path: LOCK_PATH, content: serializeLock(state.lock) });
  else if (state.lockExisted) writes.push({ path: LOCK_PATH, content: null });
  return { writes, message, pristine: state.pristine, info };
}

function lockEntry(item: FetchedItem, oidLength: number): LockedItem {
  const files: Record<string, string> = {};
  for (const path of item.files) files[path] = blobOid(item.contents.get(path)!, oidLength);
  return { id: item.id, version: item.version, source: item.source, integrity: item.integrity, files, manifest: fragmentEntries(item.manifest) };
}

function entryLocation(state: State, entry: { section: LockedManifestEntry['section']; name: string }): string {
  return `${state.manifest.path}: ${describeEntry(entry)}`;
}

/** `marketplace.install(id)`: places the item's files, merges its manifest fragment, records it in the lock file. */
export function installEdit(items: ItemCache, id: string): Edit<InstallInfo> {
  return async (snapshot) => {
    const item = await items.get(id);
    const state = await loadState(snapshot);
    const installed = state.lock.items[item.name];
    const info: InstallInfo = { name: item.name, version: item.version, action: 'installed' };
    if (installed) {
      if (installed.version === item.version && installed.integrity === item.integrity) {
        return { writes: [], message: `marketplace: install ${item.name}@${item.version}`, info: { ...info, action: 'unchanged' } };
      }
      throw new RefusedError('already-installed', `'${item.name}' is already installed at version ${installed.version}; use update to move to ${item.version}`);
    }
    const reports: FileReport[] = [];
    const entries = await snapshot.entries(item.files);
    for (const path of item.files) {
      const existing = entries.get(path);
      const content = item.contents.get(path)!;
      if (existing && (existing.type !== 'blob' || existing.oid !== blobOid(content, state.oidLength))) {
        reports.push({ path, status: 'exists', message: `${path} already exists in the repository with other content` });
      }
      state.files.set(path, content);
      state.pristine.push(content);
    }
    for (const entry of fragmentEntries(item.manifest)) {
      if (state.plan.find(entry.section, entry.name)) {
        reports.push({ path: entryLocation(state, entry), status: 'exists', message: `${describeEntry(entry)} already exists in ${state.manifest.path}` });
      } else {
        state.plan.add(entry);
      }
    }
    if (reports.length > 0) {
      throw new RefusedError('conflict', `cannot install '${item.name}':\n${reports.map((r) => `  ${r.message}`).join('\n')}`, { files: reports });
    }
    state.lock.items[item.name] = lockEntry(item, state.oidLength);
    return finish(state, `marketplace: install ${item.name}@${item.version}`, info);
  };
}

/** Decisions for updating one item; applied to `state` only when there is no conflict. */
async function planUpdate(state: State, installed: LockedItem, item: FetchedItem): Promise<{ reports: FileReport[]; apply: () => void; info: UpdateInfo }> {
  const { snapshot, oidLength } = state;
  const reports: FileReport[] = [];
  const writes = new Map<string, Uint8Array | null>();
  const kept: string[] = [];
  const merged: string[] = [];
  const paths = [...new Set([...Object.keys(installed.files), ...item.files])];
  const entries = await snapshot.entries(paths);
  for (const path of paths) {
    const baseOid = installed.files[path];
    const theirs = item.contents.get(path);
    const theirsOid = theirs ? blobOid(theirs, oidLength) : undefined;
    const current = entries.get(path);
    const oursOid = current?.type === 'blob' ? current.oid : undefined;
    if (baseOid && theirs) {
      if (oursOid === undefined) {
        if (theirsOid !== baseOid) reports.push({ path, status: 'deleted-locally', message: `${path} was deleted locally but changed upstream` });
      } else if (oursOid === baseOid) {
        if (theirsOid !== oursOid) writes.set(path, theirs);
      } else if (theirsOid === baseOid || theirsOid === oursOid) {
        kept.push(path);
      } else {
        if (!(await state.snapshot.repo.hasObject(baseOid))) throw new Error(`the installed copy of ${path} (${baseOid}) is missing from the repository`);
        const outcome = await mergeFile(await snapshot.readBlob(oursOid), await snapshot.readBlob(baseOid), theirs, path);
        if (outcome.clean) {
          writes.set(path, outcome.content);
          merged.push(path);
        } else {
          reports.push({ path, status: 'conflict', message: `${path}: local edits conflict with upstream (${outcome.reason})` });
        }
      }
    } else if (theirs) {
      if (oursOid !== undefined && oursOid !== theirsOid) reports.push({ path, status: 'exists', message: `${path} is new upstream but already exists locally with other content` });
      else if (oursOid === undefined) writes.set(path, theirs);
    } else if (oursOid !== undefined) {
      if (oursOid === baseOid) writes.set(path, null);
      else reports.push({ path, status: 'removed-upstream-modified', message: `${path} was removed upstream but edited locally` });
    }
  }

  const manifestSteps: (() => void)[] = [];
  const oldEntries = new Map(installed.manifest.map((entry) => [`${entry.section}/${entry.name}`, entry]));
  const newEntries = new Map(fragmentEntries(item.manifest).map((entry) => [`${entry.section}/${entry.name}`, entry]));
  const defaultAgent = (state.plan.document as { default_agent?: unknown })?.default_agent;
  for (const key of new Set([...oldEntries.keys(), ...newEntries.keys()])) {
    const base = oldEntries.get(key);
    const next = newEntries.get(key);
    const ref = (base ?? next)!;
    const ours = state.plan.find(ref.section, ref.name)?.value;
    const where = entryLocation(state, ref);
    const conflict = (message: string) => reports.push({ path: where, status: 'conflict', message: `${describeEntry(ref)}: ${message}` });
    if (base && next) {
      if (ours === undefined) {
        if (!deepEqual(next.value, base.value)) conflict('removed locally but changed upstream');
      } else if (deepEqual(ours, base.value)) {
        if (!deepEqual(ours, next.value)) manifestSteps.push(() => state.plan.replace(ref.section, ref.name, next.value));
      } else if (!deepEqual(next.value, base.value) && !deepEqual(ours, next.value)) {
        conflict('edited locally and changed upstream');
      }
    } else if (next) {
      if (ours === undefined) manifestSteps.push(() => state.plan.add(next));
      else if (!deepEqual(ours, next.value)) conflict(`new upstream but already declared in ${state.manifest.path}`);
    } else if (ours !== undefined) {
      if (!deepEqual(ours, base!.value)) conflict('removed upstream but edited locally');
      else if (ref.section === 'agents' && defaultAgent === ref.name) conflict('removed upstream but it is the default_agent');
      else manifestSteps.push(() => state.plan.remove(ref.section, ref.name));
    }
  }

  const info: UpdateInfo = { name: item.name, from: installed.version, to: item.version, action: 'updated', kept, merged };
  const apply = () => {
    for (const [path, content] of writes) state.files.set(path, content);
    for (const step of manifestSteps) step();
    for (const content of item.contents.values()) state.pristine.push(content);
    state.lock.items[item.name] = lockEntry(item, oidLength);
  };
  return { reports, apply, info };
}

function conflictMessage(name: string, reports: readonly FileReport[]): string {
  return `update of '${name}' refused, nothing was committed:\n${reports.map((r) => `  ${r.message}`).join('\n')}`;
}

/** `marketplace.update(name)`: moves one item to the catalog's version, keeping and merging local edits. */
export function updateEdit(items: ItemCache, name: string): Edit<UpdateInfo> {
  return async (snapshot) => {
    const state = await loadState(snapshot);
    const installed = state.lock.items[name];
    if (!installed) throw new RefusedError('not-installed', `'${name}' is not installed (see ${LOCK_PATH})`);
    const item = await items.get(installed.id);
    if (item.name !== name) throw new RefusedError('invalid-item', `catalog item '${installed.id}' is now named '${item.name}', not '${name}'`);
    if (item.integrity === installed.integrity) {
      return { writes: [], message: `marketplace: update ${name}`, info: { name, from: installed.version, to: item.version, action: 'unchanged', kept: [], merged: [] } };
    }
    const { reports, apply, info } = await planUpdate(state, installed, item);
    if (reports.length > 0) throw new RefusedError('conflict', conflictMessage(name, reports), { files: reports });
    apply();
    return finish(state, `marketplace: update ${name} ${installed.version} -> ${item.version}`, info);
  };
}

/** `marketplace.updateAll()`: every item with a newer catalog version, in one commit; conflicting items are left out and reported. */
export function updateAllEdit(items: ItemCache): Edit<UpdateAllInfo> {
  return async (snapshot) => {
    const state = await loadState(snapshot);
    const result: UpdateAllInfo = { updated: [], refused: [] };
    for (const [name, installed] of Object.entries(state.lock.items).sort(([a], [b]) => a.localeCompare(b))) {
      const item = await items.get(installed.id).catch((error: unknown) => {
        if (error instanceof RefusedError && error.code === 'unknown-item') return null;
        throw error;
      });
      if (!item || item.name !== name || compareVersions(item.version, installed.version) <= 0) continue;
      const { reports, apply, info } = await planUpdate(state, installed, item);
      if (reports.length > 0) {
        result.refused.push({ name, message: conflictMessage(name, reports), files: reports });
        continue;
      }
      apply();
      result.updated.push(info);
    }
    if (result.updated.length === 0 && result.refused.length > 0) {
      throw new RefusedError('conflict', result.refused.map((r) => r.message).join('\n'), { files: result.refused.flatMap((r) => r.files) });
    }
    const summary = result.updated.map((u) => `${u.name} ${u.from} -> ${u.to}`).join(', ');
    return finish(state, `marketplace: update ${summary || 'nothing'}`, result);
  };
}

/** `marketplace.remove(name)`: deletes the item's files and manifest entries; locally edited ones only with `force`. */
export function removeEdit(name: string, options: { force?: boolean } = {}): Edit<RemoveInfo> {
  return async (snapshot) => {
    const state = await loadState(snapshot);
    const installed = state.lock.items[name];
    if (!installed) throw new RefusedError('not-installed', `'${name}' is not installed (see ${LOCK_PATH})`);
    const reports: FileReport[] = [];
    const removedFiles: string[] = [];
    const entries = await snapshot.entries(Object.keys(installed.files));
    for (const [path, oid] of Object.entries(installed.files)) {
      const current = entries.get(path);
      if (!current) continue;
      if (current.oid !== oid && !options.force) {
        reports.push({ path, status: 'modified', message: `${path} was edited locally (use --force to delete it anyway)` });
        continue;
      }
      state.files.set(path, null);
      removedFiles.push(path);
    }
    const defaultAgent = (state.plan.document as { default_agent?: unknown })?.default_agent;
    for (const entry of installed.manifest) {
      const ours = state.plan.find(entry.section, entry.name);
      if (!ours) continue;
      if (entry.section === 'agents' && defaultAgent === entry.name) {
        throw new RefusedError('in-use', `agent '${entry.name}' from '${name}' is the default_agent; set another default agent first`);
      }
      if (!deepEqual(ours.value, entry.value as Json) && !options.force) {
        reports.push({ path: entryLocation(state, entry), status: 'modified', message: `${describeEntry(entry)} was edited locally (use --force to remove it anyway)` });
        continue;
      }
      state.plan.remove(entry.section, entry.name);
    }
    if (reports.length > 0) {
      throw new RefusedError('locally-modified', `remove of '${name}' refused, nothing was committed:\n${reports.map((r) => `  ${r.message}`).join('\n')}`, { files: reports });
    }
    delete state.lock.items[name];
    return finish(state, `marketplace: remove ${name}@${installed.version}`, { name, version: installed.version, removedFiles });
  };
}

/** `marketplace.updates()`: installed items whose catalog version is newer. */
export async function availableUpdates(snapshot: Snapshot, items: ItemCache): Promise<AvailableUpdate[]> {
  const lock = parseLock(await snapshot.read(LOCK_PATH));
  const updates: AvailableUpdate[] = [];
  const summaries = new Map((await items.catalog.items()).map((summary) => [summary.id, summary]));
  for (const [name, installed] of Object.entries(lock.items).sort(([a], [b]) => a.localeCompare(b))) {
    const summary = summaries.get(installed.id);
    if (summary && compareVersions(summary.version, installed.version) > 0) {
      updates.push({ name, id: installed.id, installed: installed.version, available: summary.version });
    }
  }
  return updates;
}
