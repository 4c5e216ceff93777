/**
 * @svc-manifest/gitops — the git-side applier: project manifest operations as minimal,
 * comment-preserving, atomic commits on a branch of a bare or non-bare repository.
 */
import { applyEdit, type ApplyOptions, type ApplyResult } from './applier.js';
import { setAgentScopeEdit, setDefaultAgentEdit, type AgentChangeInfo, type AgentScope } from './operations/agents.js';

export { applyEdit, DEFAULT_IDENTITY } from './applier.js';
export type { ApplyOptions, ApplyResult, Edit, EditPlan, FileWrite, Identity } from './applier.js';
export { RefusedError, EditError, GitCommandError } from './errors.js';
export type { FileReport, ManifestDiagnostic, RefusalCode } from './errors.js';
export type { AgentScope, Allowlist, AgentChangeInfo } from './operations/agents.js';
export { ManifestFile, MANIFEST_CANDIDATES, type ManifestFormat } from './manifest/manifest-file.js';
export { applyChanges, type ManifestChange, type PathSegment } from './manifest/changes.js';
export { PRISTINE_REF } from './pristine.js';
export type { ValidateFn, ValidationOutcome } from './validation.js';

/** `svc.project(id).setDefaultAgent(name)`: the agent must be declared and enabled (svc_version 2). */
export function setDefaultAgent(repo: string, name: string, options?: ApplyOptions): Promise<ApplyResult<AgentChangeInfo>> {
  return applyEdit(repo, setDefaultAgentEdit(name), options);
}

/** `svc.project(id).setAgentScope(name, scope)`: sets the agent's secrets and/or connectors allowlists. */
export function setAgentScope(repo: string, name: string, scope: AgentScope, options?: ApplyOptions): Promise<ApplyResult<AgentChangeInfo>> {
  return applyEdit(repo, setAgentScopeEdit(name, scope), options);
}
