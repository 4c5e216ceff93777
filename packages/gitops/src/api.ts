/**
 * The operations, each bound to a repository path: the project handle's
 * `setDefaultAgent` / `setAgentScope` and the `marketplace.*` reads and writes.
 */
import { applyEdit, type ApplyOptions, type ApplyResult } from './applier.js';
import { setAgentScopeEdit, setDefaultAgentEdit, type AgentChangeInfo, type AgentScope } from './operations/agents.js';
import { RefusedError } from './errors.js';
import { GitRepo } from './git/repo.js';
import { Snapshot } from './git/snapshot.js';
import { ItemCache, openCatalog, type Catalog, type CatalogLimits } from './marketplace/catalog.js';
import { installEdit, type InstallInfo } from './marketplace/install.js';
import { removeEdit, type RemoveInfo } from './marketplace/remove.js';
import { availableUpdates, updateAllEdit, updateEdit, type AvailableUpdate, type UpdateAllInfo, type UpdateInfo } from './marketplace/update.js';

/** `svc.project(id).setDefaultAgent(name)`: the agent must be declared and enabled (svc_version 2). */
export function setDefaultAgent(repo: string, name: string, options?: ApplyOptions): Promise<ApplyResult<AgentChangeInfo>> {
  return applyEdit(repo, setDefaultAgentEdit(name), options);
}

/** `svc.project(id).setAgentScope(name, scope)`: sets the agent's secrets and/or connectors allowlists. */
export function setAgentScope(repo: string, name: string, scope: AgentScope, options?: ApplyOptions): Promise<ApplyResult<AgentChangeInfo>> {
  return applyEdit(repo, setAgentScopeEdit(name, scope), options);
}

export interface CatalogOptions {
  /** A {@link Catalog}, an http(s) URL of the marketplace, or a folder. */
  catalog: Catalog | string;
  /** Size and time bounds on catalog reads (defaults: `DEFAULT_CATALOG_LIMITS`). */
  limits?: Partial<CatalogLimits>;
}

function itemCache(options: CatalogOptions): ItemCache {
  return new ItemCache(typeof options.catalog === 'string' ? openCatalog(options.catalog, options.limits) : options.catalog, options.limits);
}

/** `marketplace.install(id)`: installs a catalog item onto the branch (a no-op when that version is installed). */
export function install(repo: string, id: string, options: ApplyOptions & CatalogOptions): Promise<ApplyResult<InstallInfo>> {
  return applyEdit(repo, installEdit(itemCache(options), id), options);
}

/** `marketplace.updates()`: installed items with a newer version in the catalog. Reads only. */
export async function updates(repo: string, options: CatalogOptions & { branch?: string }): Promise<AvailableUpdate[]> {
  const git = await GitRepo.open(repo);
  const branch = options.branch ?? (await git.headBranch());
  await GitRepo.checkBranchName(branch);
  const head = await git.resolve(`refs/heads/${branch}`);
  if (!head) throw new RefusedError('unknown-branch', `branch '${branch}' does not exist`);
  return availableUpdates(new Snapshot(git, head), itemCache(options));
}

/** `marketplace.update(name)`: updates one item, keeping local edits; refuses the whole item on a conflict. */
export function update(repo: string, name: string, options: ApplyOptions & CatalogOptions): Promise<ApplyResult<UpdateInfo>> {
  return applyEdit(repo, updateEdit(itemCache(options), name), options);
}

/** `marketplace.updateAll()`: updates every item that has a newer version, in one commit. */
export function updateAll(repo: string, options: ApplyOptions & CatalogOptions): Promise<ApplyResult<UpdateAllInfo>> {
  return applyEdit(repo, updateAllEdit(itemCache(options)), options);
}

/** `marketplace.remove(name)`: removes an item; locally edited files or entries only with `force`. */
export function remove(repo: string, name: string, options: ApplyOptions & { force?: boolean } = {}): Promise<ApplyResult<RemoveInfo>> {
  return applyEdit(repo, removeEdit(name, { force: options.force }), options);
}

/** The SDK's `marketplace.*` names, bound to a repository path. */
export const marketplace = { install, updates, update, updateAll, remove };
