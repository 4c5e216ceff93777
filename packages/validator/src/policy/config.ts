/**
 * The policy file on disk, `.svc-manifest.yaml` (Node's part; its text is read by policy.ts,
 * which the library shares with browsers). A manifest's policy is the nearest file up from its
 * folder, stopping at the repository root (the folder that holds `.git`), as Prettier and Ruff
 * find theirs; the nearest file wins whole (no merging), so what applies is always one file a
 * person can read. Its `ignore` globs are relative to its folder.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { globMatcher } from '../inputs/walk.js';
import {
  MAX_POLICY_BYTES,
  parsePolicy,
  POLICY_FILE_NAME,
  PolicyError,
  type ManifestPolicy,
  type PolicyFormat,
  type PolicyRules,
} from './policy.js';

export interface PolicyFile {
  /** The policy file's absolute path. */
  file: string;
  rules: PolicyRules;
  /** Its `format` settings, for `svc-manifest fmt` and the language server's formatting. */
  format?: PolicyFormat;
  /** Whether a file (absolute path) is one the `ignore` globs leave out of walks. */
  ignores(absolutePath: string): boolean;
}

/**
 * The policy file that applies to a manifest (absolute path): the nearest `.svc-manifest.yaml`
 * from its folder up to the repository root, or undefined when there is none.
 */
export function findPolicyFile(absolutePath: string): string | undefined {
  for (let folder = dirname(absolutePath); ; folder = dirname(folder)) {
    const file = join(folder, POLICY_FILE_NAME);
    if (isFile(file)) return file;
    if (exists(join(folder, '.git')) || dirname(folder) === folder) return undefined;
  }
}

/** A policy file read and checked; throws {@link PolicyError} naming the file and what is wrong. */
export function readPolicyFile(file: string): PolicyFile {
  let bytes: Uint8Array;
  try {
    if (statSync(file).size > MAX_POLICY_BYTES) throw new PolicyError(`${file}: larger than ${MAX_POLICY_BYTES} bytes`);
    bytes = readFileSync(file);
  } catch (error) {
    if (error instanceof PolicyError) throw error;
    throw new PolicyError(
      `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  try {
    const parsed = parsePolicy(bytes);
    const policy: PolicyFile = { file, rules: parsed.rules, ignores: ignoring(file, parsed.ignore) };
    if (parsed.format) policy.format = parsed.format;
    return policy;
  } catch (error) {
    if (error instanceof PolicyError) throw new PolicyError(`${file}: ${error.message}`);
    throw error;
  }
}

/** What a manifest is validated under: the file's rules (if any), and its comments honoured, as everywhere in the CLI. */
export function manifestPolicyOf(policy: PolicyFile | undefined): ManifestPolicy {
  return policy === undefined ? { inlineSuppressions: true } : { rules: policy.rules, inlineSuppressions: true };
}

/** Finds and reads policy files, each folder and file once per run. */
export class PolicyFinder {
  private readonly byFolder = new Map<string, PolicyFile | undefined>();
  private readonly byFile = new Map<string, PolicyFile>();

  /**
   * `listings`: the names folders held when a walk listed them (`ManifestFileList.listings`);
   * a name a folder's listing lacks is not looked for there. Other folders are asked the file system.
   */
  constructor(private readonly listings?: ReadonlyMap<string, readonly string[]>) {}

  /** The policy of a manifest (absolute path), or undefined when no folder up to the repository root has one. */
  policyFor(absolutePath: string): PolicyFile | undefined {
    return this.policyOfFolder(dirname(absolutePath));
  }

  /**
   * Whether a file a command was given stays in: a policy's ignore globs leave out what folder
   * walks and globs found, never a file named as an argument (`validate` and `fmt` alike).
   */
  keeps(file: { absolutePath: string; named?: boolean }): boolean {
    return file.named === true || !this.policyFor(file.absolutePath)?.ignores(file.absolutePath);
  }

  private policyOfFolder(folder: string): PolicyFile | undefined {
    if (this.byFolder.has(folder)) return this.byFolder.get(folder);
    let policy: PolicyFile | undefined;
    const listed = this.listings?.get(folder);
    const mayHold = (name: string) => listed === undefined || listed.includes(name);
    const file = join(folder, POLICY_FILE_NAME);
    if (mayHold(POLICY_FILE_NAME) && isFile(file)) policy = this.read(file);
    else if (!(mayHold('.git') && exists(join(folder, '.git'))) && dirname(folder) !== folder)
      policy = this.policyOfFolder(dirname(folder));
    this.byFolder.set(folder, policy);
    return policy;
  }

  private read(file: string): PolicyFile {
    const known = this.byFile.get(file);
    if (known) return known;
    const policy = readPolicyFile(file);
    this.byFile.set(file, policy);
    return policy;
  }
}

function ignoring(file: string, ignore: readonly string[]): (absolutePath: string) => boolean {
  if (ignore.length === 0) return () => false;
  const folder = dirname(file);
  const matches = globMatcher([...ignore]);
  return (absolutePath) => {
    const path = relative(folder, absolutePath).split(sep).join('/');
    return !path.startsWith('../') && matches(path);
  };
}

// Most folders have neither file: `throwIfNoEntry: false` answers a missing one without building
// an exception (two per manifest on a tree where each has its own folder).
function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
