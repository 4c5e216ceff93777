/**
 * `marketplace.update(name)`, `updateAll()` and `updates()`. Per file and per manifest
 * entry a three-way decision against the installed (pristine) copy; any conflict refuses
 * the whole item.
 */
import type { Edit, EditPlan } from '../applier.js';
import { RefusedError, type FileReport } from '../errors.js';
import { blobOid } from '../git/object-id.js';
import type { Snapshot } from '../git/snapshot.js';
import { deepEqual } from '../json.js';
import type { ItemCache } from './catalog.js';
import { describeEntry, fragmentEntries } from './fragment.js';
import { compareCodeUnits, compareVersions, type FetchedItem } from './item.js';
import { checkName, SLUG } from '../policy/names.js';
import { LOCK_PATH, lockedItem, MAX_LOCK_BYTES, parseLock, type LockedItem } from './lockfile.js';
import { mergeFile } from './merge.js';
import { describeEntry as describeTreeEntry, isRegularFile } from '../policy/item-paths.js';
import { claimOwned, entryLocation, finish, loadState, lockEntry, type State } from './state.js';

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

export interface AvailableUpdate {
  name: string;
  id: string;
  installed: string;
  available: string;
}

/** Decisions for updating one item; applied to `state` only when there is no conflict. */
async function planUpdate(
  state: State,
  installed: LockedItem,
  item: FetchedItem,
): Promise<{ reports: FileReport[]; apply: () => void; info: UpdateInfo }> {
  const reports: FileReport[] = [];
  const { writes, kept, merged } = await planFileUpdates(state, installed, item, reports);
  const manifestSteps = planManifestUpdates(state, installed, item, reports);
  const info: UpdateInfo = {
    name: item.name,
    from: installed.version,
    to: item.version,
    action: 'updated',
    kept,
    merged,
  };
  const apply = () => {
    for (const [path, content] of writes) state.files.set(path, content);
    for (const step of manifestSteps) step();
    for (const content of item.contents.values()) state.pristine.push(content);
    state.lock.items[item.name] = lockEntry(item, state.oidLength);
  };
  return { reports, apply, info };
}

/**
 * The item's files three ways (the version installed, the repository's, the new one): what to
 * write (null: delete), the paths whose local edits are kept, and those merged; a file that
 * cannot be updated is reported.
 */
async function planFileUpdates(
  state: State,
  installed: LockedItem,
  item: FetchedItem,
  reports: FileReport[],
): Promise<{ writes: Map<string, Uint8Array | null>; kept: string[]; merged: string[] }> {
  const { snapshot, oidLength } = state;
  const writes = new Map<string, Uint8Array | null>();
  const kept: string[] = [];
  const merged: string[] = [];
  const paths = [...new Set([...Object.keys(installed.files), ...item.files])];
  const entries = await snapshot.entries(paths);
  for (const path of paths) {
    // Own keys only: a new upstream file called `constructor` has no base, not an inherited one.
    const baseOid = Object.hasOwn(installed.files, path) ? installed.files[path] : undefined;
    const theirs = item.contents.get(path);
    const theirsOid = theirs ? blobOid(theirs, oidLength) : undefined;
    const current = entries.get(path);
    if (current && !isRegularFile(current)) {
      reports.push({
        path,
        status: 'conflict',
        message: `${path} is now ${describeTreeEntry(current)} in the repository; an item only replaces regular files`,
      });
      continue;
    }
    const oursOid = current?.type === 'blob' ? current.oid : undefined;
    if (baseOid && theirs) {
      if (oursOid === undefined) {
        if (theirsOid !== baseOid)
          reports.push({
            path,
            status: 'deleted-locally',
            message: `${path} was deleted locally but changed upstream`,
          });
      } else if (oursOid === baseOid) {
        if (theirsOid !== oursOid) writes.set(path, theirs);
      } else if (theirsOid === baseOid || theirsOid === oursOid) {
        kept.push(path);
      } else {
        if (!(await state.snapshot.repo.hasObject(baseOid))) {
          throw new RefusedError(
            'invalid-lock',
            `${LOCK_PATH}: items[${JSON.stringify(installed.id)}].files[${JSON.stringify(path)}] names ${baseOid}, which is not in the repository; nothing was written`,
            { file: LOCK_PATH },
          );
        }
        const outcome = await mergeFile(
          await snapshot.readBlob(oursOid),
          await snapshot.readBlob(baseOid),
          theirs,
          path,
        );
        if (outcome.clean) {
          writes.set(path, outcome.content);
          merged.push(path);
        } else {
          reports.push({
            path,
            status: 'conflict',
            message: `${path}: local edits conflict with upstream (${outcome.reason})`,
          });
        }
      }
    } else if (theirs) {
      // Never adopted, not even with identical content (a later remove would delete the user's file).
      if (current)
        reports.push({
          path,
          status: 'exists',
          message: `${path} is new upstream but already exists locally${oursOid === theirsOid ? '' : ' with other content'}`,
        });
      else writes.set(path, theirs);
    } else if (oursOid !== undefined) {
      if (oursOid === baseOid) writes.set(path, null);
      else
        reports.push({
          path,
          status: 'removed-upstream-modified',
          message: `${path} was removed upstream but edited locally`,
        });
    }
  }
  return { writes, kept, merged };
}

/**
 * The item's manifest entries three ways, as steps that change the manifest when applied; an
 * entry that cannot be updated is reported.
 */
function planManifestUpdates(
  state: State,
  installed: LockedItem,
  item: FetchedItem,
  reports: FileReport[],
): (() => void)[] {
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
    const conflict = (message: string) =>
      reports.push({ path: where, status: 'conflict', message: `${describeEntry(ref)}: ${message}` });
    if (base && next) {
      if (ours === undefined) {
        if (!deepEqual(next.value, base.value)) conflict('removed locally but changed upstream');
      } else if (deepEqual(ours, base.value)) {
        if (!deepEqual(ours, next.value))
          manifestSteps.push(() => state.plan.replace(ref.section, ref.name, next.value));
      } else if (!deepEqual(next.value, base.value) && !deepEqual(ours, next.value)) {
        conflict('edited locally and changed upstream');
      }
    } else if (next) {
      if (ours === undefined) manifestSteps.push(() => state.plan.add(next));
      else if (!deepEqual(ours, next.value)) conflict(`new upstream but already declared in ${state.manifest.path}`);
    } else if (ours !== undefined) {
      if (!deepEqual(ours, base!.value)) conflict('removed upstream but edited locally');
      else if (ref.section === 'agents' && defaultAgent === ref.name)
        conflict('removed upstream but it is the default_agent');
      else manifestSteps.push(() => state.plan.remove(ref.section, ref.name));
    }
  }
  return manifestSteps;
}

function conflictMessage(name: string, reports: readonly FileReport[]): string {
  return `update of '${name}' refused, nothing was committed:\n${reports.map((r) => `  ${r.message}`).join('\n')}`;
}

/** `marketplace.update(name)`: moves one item to the catalog's version, keeping and merging local edits. */
export function updateEdit(items: ItemCache, name: string): Edit<UpdateInfo> {
  const edit = async (snapshot: Snapshot): Promise<EditPlan<UpdateInfo>> => {
    checkName(name, 'item name', SLUG);
    const state = await loadState(snapshot);
    const installed = lockedItem(state.lock, name);
    if (!installed) throw new RefusedError('not-installed', `'${name}' is not installed (see ${LOCK_PATH})`);
    claimOwned(state, name);
    const item = await items.get(installed.id);
    if (item.name !== name)
      throw new RefusedError(
        'invalid-item',
        `catalog item '${installed.id}' is now named '${item.name}', not '${name}'`,
      );
    if (item.integrity === installed.integrity) {
      return {
        writes: [],
        message: `marketplace: update ${name}`,
        info: { name, from: installed.version, to: item.version, action: 'unchanged', kept: [], merged: [] },
      };
    }
    const { reports, apply, info } = await planUpdate(state, installed, item);
    if (reports.length > 0) throw new RefusedError('conflict', conflictMessage(name, reports), { files: reports });
    apply();
    return finish(state, `marketplace: update ${name} ${installed.version} -> ${item.version}`, info);
  };
  return Object.assign(edit, { fetches: items });
}

/** `marketplace.updateAll()`: every item with a newer catalog version, in one commit; conflicting items are left out and reported. */
export function updateAllEdit(items: ItemCache): Edit<UpdateAllInfo> {
  const edit = async (snapshot: Snapshot): Promise<EditPlan<UpdateAllInfo>> => {
    const state = await loadState(snapshot);
    const result: UpdateAllInfo = { updated: [], refused: [] };
    for (const [name, installed] of Object.entries(state.lock.items).sort(([a], [b]) => compareCodeUnits(a, b))) {
      // Only items with a newer version are fetched with their files.
      const descriptor = await items.descriptor(installed.id);
      if (!descriptor || descriptor.name !== name || compareVersions(descriptor.version, installed.version) <= 0)
        continue;
      const item = await items.get(installed.id);
      const { reports, apply, info } = await planUpdate(state, installed, item);
      if (reports.length > 0) {
        result.refused.push({ name, message: conflictMessage(name, reports), files: reports });
        continue;
      }
      claimOwned(state, name);
      apply();
      result.updated.push(info);
    }
    if (result.updated.length === 0 && result.refused.length > 0) {
      throw new RefusedError('conflict', result.refused.map((r) => r.message).join('\n'), {
        files: result.refused.flatMap((r) => r.files),
      });
    }
    const summary = result.updated.map((u) => `${u.name} ${u.from} -> ${u.to}`).join(', ');
    return finish(state, `marketplace: update ${summary || 'nothing'}`, result);
  };
  return Object.assign(edit, { fetches: items });
}

/** `marketplace.updates()`: installed items whose catalog version is newer. */
export async function availableUpdates(snapshot: Snapshot, items: ItemCache): Promise<AvailableUpdate[]> {
  const lock = parseLock(await snapshot.read(LOCK_PATH, MAX_LOCK_BYTES));
  const updates: AvailableUpdate[] = [];
  // One `item(id)` read per installed item: no need to page through the whole marketplace.
  for (const [name, installed] of Object.entries(lock.items).sort(([a], [b]) => compareCodeUnits(a, b))) {
    const descriptor = await items.descriptor(installed.id);
    if (descriptor && compareVersions(descriptor.version, installed.version) > 0) {
      updates.push({ name, id: installed.id, installed: installed.version, available: descriptor.version });
    }
  }
  return updates;
}
