/** `marketplace.remove(name)` as an edit. */
import type { Edit } from '../applier.js';
import { RefusedError, type FileReport } from '../errors.js';
import { deepEqual } from '../json.js';
import { describeEntry } from './fragment.js';
import { checkName, SLUG } from '../policy/names.js';
import { LOCK_PATH, lockedItem } from './lockfile.js';
import { claimOwned, entryLocation, finish, loadState } from './state.js';

export interface RemoveInfo {
  name: string;
  version: string;
  removedFiles: string[];
}

/** `marketplace.remove(name)`: deletes the item's files and manifest entries; locally edited ones only with `force`. */
export function removeEdit(name: string, options: { force?: boolean } = {}): Edit<RemoveInfo> {
  return async (snapshot) => {
    checkName(name, 'item name', SLUG);
    const state = await loadState(snapshot);
    const installed = lockedItem(state.lock, name);
    if (!installed) throw new RefusedError('not-installed', `'${name}' is not installed (see ${LOCK_PATH})`);
    claimOwned(state, name);
    const reports: FileReport[] = [];
    const removedFiles: string[] = [];
    const entries = await snapshot.entries(Object.keys(installed.files));
    for (const [path, oid] of Object.entries(installed.files)) {
      const current = entries.get(path);
      if (!current) continue;
      if (current.oid !== oid && !options.force) {
        reports.push({
          path,
          status: 'modified',
          message: `${path} was edited locally (use --force to delete it anyway)`,
        });
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
        throw new RefusedError(
          'in-use',
          `agent '${entry.name}' from '${name}' is the default_agent; set another default agent first`,
        );
      }
      if (!deepEqual(ours.value, entry.value) && !options.force) {
        reports.push({
          path: entryLocation(state, entry),
          status: 'modified',
          message: `${describeEntry(entry)} was edited locally (use --force to remove it anyway)`,
        });
        continue;
      }
      state.plan.remove(entry.section, entry.name);
    }
    if (reports.length > 0) {
      throw new RefusedError(
        'locally-modified',
        `remove of '${name}' refused, nothing was committed:\n${reports.map((r) => `  ${r.message}`).join('\n')}`,
        {
          files: reports,
        },
      );
    }
    delete state.lock.items[name];
    return finish(state, `marketplace: remove ${name}@${installed.version}`, {
      name,
      version: installed.version,
      removedFiles,
    });
  };
}
