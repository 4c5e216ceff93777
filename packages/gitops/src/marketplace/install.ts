/** `marketplace.install(id)` as an edit. */
import type { Edit, EditPlan } from '../applier.js';
import { RefusedError, type FileReport } from '../errors.js';
import { blobOid } from '../git/object-id.js';
import type { Snapshot } from '../git/snapshot.js';
import type { ItemCache } from './catalog.js';
import { describeEntry, fragmentEntries } from './fragment.js';
import { lockedItem } from './lockfile.js';
import { entryLocation, finish, loadState, lockEntry } from './state.js';

export interface InstallInfo {
  name: string;
  version: string;
  /** `installed`, or `unchanged` when that exact version was already installed. */
  action: 'installed' | 'unchanged';
}

/** `marketplace.install(id)`: places the item's files, merges its manifest fragment, records it in the lock file. */
export function installEdit(items: ItemCache, id: string): Edit<InstallInfo> {
  const edit = async (snapshot: Snapshot): Promise<EditPlan<InstallInfo>> => {
    const item = await items.get(id);
    const state = await loadState(snapshot);
    const installed = lockedItem(state.lock, item.name);
    const info: InstallInfo = { name: item.name, version: item.version, action: 'installed' };
    if (installed) {
      if (installed.version === item.version && installed.integrity === item.integrity) {
        return {
          writes: [],
          message: `marketplace: install ${item.name}@${item.version}`,
          info: { ...info, action: 'unchanged' },
        };
      }
      throw new RefusedError(
        'already-installed',
        `'${item.name}' is already installed at version ${installed.version}; use update to move to ${item.version}`,
      );
    }
    const reports: FileReport[] = [];
    const entries = await snapshot.entries(item.files);
    for (const path of item.files) {
      const existing = entries.get(path);
      const content = item.contents.get(path)!;
      // A tracked path is never adopted, not even with identical content: removing the item later would delete the user's file.
      if (existing) {
        const same = existing.type === 'blob' && existing.oid === blobOid(content, state.oidLength);
        reports.push({
          path,
          status: 'exists',
          message: `${path} already exists in the repository${same ? '' : ' with other content'} and is not the item's`,
        });
      }
      state.files.set(path, content);
      state.pristine.push(content);
    }
    for (const entry of fragmentEntries(item.manifest)) {
      if (state.plan.find(entry.section, entry.name)) {
        reports.push({
          path: entryLocation(state, entry),
          status: 'exists',
          message: `${describeEntry(entry)} already exists in ${state.manifest.path}`,
        });
      } else {
        state.plan.add(entry);
      }
    }
    if (reports.length > 0) {
      throw new RefusedError(
        'conflict',
        `cannot install '${item.name}':\n${reports.map((r) => `  ${r.message}`).join('\n')}`,
        { files: reports },
      );
    }
    state.lock.items[item.name] = lockEntry(item, state.oidLength);
    return finish(state, `marketplace: install ${item.name}@${item.version}`, info);
  };
  return Object.assign(edit, { fetches: items });
}
