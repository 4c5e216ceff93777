/**
 * The files around each document, with the kind of each path a manifest names kept until the
 * client says files were created or deleted (didChangeWatchedFiles). Every keystroke runs the
 * path check again, and asking the file system (a real path per named path, so that no link leads
 * out of the repository) on each one cost more than validating a large manifest. Kept only for a
 * client that watches files for us: any other is answered from the file system every time.
 */
import type { ManifestFiles, PathKind } from '@svc-manifest/validator/library';
import type { FeatureContext } from './feature-context.js';

export class FileLookups {
  private readonly kinds = new Map<string, Map<string, PathKind>>();

  constructor(
    private readonly read: FeatureContext['files'],
    /** Whether the client announces created and deleted files (read when a lookup is made: initialize sets it). */
    private readonly clientWatches: () => boolean,
  ) {}

  /** What the features are given: undefined when the server reads no files (a browser). */
  get files(): FeatureContext['files'] {
    const read = this.read;
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

  /** A file was created or deleted somewhere: every path is looked up again. */
  clear(): void {
    this.kinds.clear();
  }

  forget(uri: string): void {
    this.kinds.delete(uri);
  }
}
