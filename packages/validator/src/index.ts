/**
 * @svc-manifest/validator — located validation of svc.yaml / svc.toml manifests, and the
 * `svc-manifest` command. This file and library.ts are the whole public API: library.ts all of
 * it but the command line (which needs Node's file system and processes).
 */
export * from './library.js';
export { runCli, type CliIo } from './cli.js';
export { unifiedDiff } from './cli-transform.js';
export { processIo } from './process-io.js';
/** For the CLI's own worker threads (cli-workers.ts), which load this bundle: not an API to call. */
export { runValidationWorker } from './cli-workers.js';
export { findPolicyFile, readPolicyFile, PolicyFinder, type PolicyFile } from './policy/config.js';
export { nodeManifestFiles, repositoryRootOf } from './node-files.js';
export {
  findManifestFiles,
  type FindOptions,
  type ManifestFileList,
  type ManifestFile,
} from './inputs/manifest-files.js';
