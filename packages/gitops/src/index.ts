/**
 * @svc-manifest/gitops — the git-side applier: project manifest operations as minimal,
 * comment-preserving, atomic commits on a branch of a bare or non-bare repository.
 */
export {
  setDefaultAgent,
  setAgentScope,
  list,
  install,
  updates,
  update,
  updateAll,
  remove,
  marketplace,
  registry,
  project,
  OPERATIONS,
  installedItems,
  type CatalogOptions,
  type InstalledItem,
  type Operation,
  type Project,
  type ReadOptions,
  type WriteOptions,
} from './api.js';
export { runGitCli, type CliIo } from './cli/run-git-cli.js';
export { applyEdit } from './remote/target.js';
export { DEFAULT_IDENTITY } from './applier.js';
export { DEFAULT_NETWORK_TIMEOUT_MS, type RemoteOptions } from './remote/apply-remote.js';
export { defaultCacheRoot } from './remote/cache.js';
export { redactUrl } from './remote/url.js';
export type { ApplyOptions, ApplyResult, Edit, EditPlan, FetchGate, FileWrite, Identity } from './applier.js';
export { RefusedError, EditError, GitCommandError } from './errors.js';
export type { FileReport, ManifestDiagnostic, RefusalCode } from './errors.js';
export type { AgentScope, Allowlist, AgentChangeInfo } from './operations/agents.js';
export { ManifestFile, MANIFEST_CANDIDATES, type ManifestFormat } from './manifest/manifest-file.js';
export { applyChanges, type ManifestChange, type PathSegment } from './manifest/changes.js';
export { PRISTINE_REF } from './pristine.js';
export type { ValidateFn, ValidationOutcome } from './validation.js';

export {
  FolderCatalog,
  HttpCatalog,
  openCatalog,
  fetchItem,
  DEFAULT_CATALOG_LIMITS,
  type Catalog,
  type CatalogLimits,
  type ItemSummary,
} from './marketplace/catalog.js';
export { itemPathProblem, RESERVED_PATHS } from './policy/item-paths.js';
export {
  compareVersions,
  computeIntegrity,
  parseItemDescriptor,
  type ItemDescriptor,
  type ManifestFragment,
} from './marketplace/item.js';
export { LOCK_PATH, type LockFile, type LockedItem, type LockedManifestEntry } from './marketplace/lockfile.js';
export type { InstallInfo } from './marketplace/install.js';
export type { AvailableUpdate, UpdateAllInfo, UpdateInfo } from './marketplace/update.js';
export type { RemoveInfo } from './marketplace/remove.js';
