/**
 * What the server reads on disk for each document, kept until the client says files were created,
 * changed or deleted (didChangeWatchedFiles): the kind of each path a manifest names, and its
 * policy file. Every keystroke validates again, and asking the file system each time (a real path
 * per named path, so that no link leads out of the repository; a `stat` or two per folder up to
 * the repository root for the policy file) cost more than validating a large manifest. Kept only
 * for a client that watches files for us: any other is answered from the file system every time.
 */
import type { ManifestFiles, PathKind } from '@svc-manifest/validator/library';
import type { DocumentPolicy, FeatureContext } from './feature-context.js';

export class FileLookups {
  private readonly kinds = new Map<string, Map<string, PathKind>>();
  private readonly policies = new Map<string, DocumentPolicy | undefined>();

  constructor(
    /** The injected readers (the Node entry's; none in a browser). */
    private readonly disk: Pick<FeatureContext, 'files' | 'policy'>,
    /** Whether the client announces changed files (read when a lookup is made: initialize sets it). */
    private readonly clientWatches: () => boolean,
  ) {}

  /** What the features are given: undefined when the server reads no files (a browser). */
  get files(): FeatureContext['files'] {
    const read = this.disk.files;
    if (!read) return undefined;
    return (uri) => {
      const files = read(uri);
      if (!files || !this.clientWatches()) return files;
      let kinds = this.kinds.get(uri);
      if (!kinds) this.kinds.set(uri, (kinds = new Map()));
      const known = kinds;
      return {
        stat: (relative) => {
          let kind = known.get(relative);
          if (kind === undefined) known.set(relative, (kind = files.stat(relative)));
          return kind;
        },
      } satisfies ManifestFiles;
    };
  }

  /** The policy file of a document: undefined when the server reads none (a browser). */
  get policy(): FeatureContext['policy'] {
    const read = this.disk.policy;
    if (!read) return undefined;
    return (uri) => {
      if (!this.clientWatches()) return read(uri);
      if (!this.policies.has(uri)) this.policies.set(uri, read(uri));
      return this.policies.get(uri);
    };
  }

  /** A file was created, changed or deleted somewhere: everything is looked up again. */
  clear(): void {
    this.kinds.clear();
    this.policies.clear();
  }

  forget(uri: string): void {
    this.kinds.delete(uri);
    this.policies.delete(uri);
  }
}
