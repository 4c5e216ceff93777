/**
 * A read-only view of one commit: what an edit sees. Reads go through the repository's
 * long-lived `cat-file --batch` (only the directories on a path are read) and are cached,
 * so an edit may ask for the same file many times.
 */
import { RefusedError } from '../errors.js';
import type { GitRepo, TreeEntry } from './repo.js';

export class Snapshot {
  private readonly entryCache = new Map<string, TreeEntry | null>();
  private readonly blobCache = new Map<string, Buffer>();
  private treeCache: Promise<Map<string, TreeEntry>> | undefined;

  constructor(
    readonly repo: GitRepo,
    /** The commit this snapshot shows. */
    readonly commit: string,
  ) {}

  /** The file (or submodule) entry at each path, or null when the path is absent or a directory. */
  async entries(paths: readonly string[]): Promise<Map<string, TreeEntry | null>> {
    const missing = paths.filter((path) => !this.entryCache.has(path));
    if (missing.length > 0) {
      const found = await this.repo.entriesAt(this.commit, missing);
      for (const path of missing) {
        const entry = found.get(path) ?? null;
        this.entryCache.set(path, entry?.type === 'tree' ? null : entry);
      }
    }
    return new Map(paths.map((path) => [path, this.entryCache.get(path) ?? null]));
  }

  async entry(path: string): Promise<TreeEntry | null> {
    return (await this.entries([path])).get(path) ?? null;
  }

  /**
   * The file's bytes, or null when it does not exist (or is a directory or submodule).
   * A symlink is refused (`not-regular-file`): its target is never read as the file's text.
   * With `maxBytes`, a larger file is refused (`too-large`) without being read.
   */
  async read(path: string, maxBytes?: number): Promise<Buffer | null> {
    const entry = await this.entry(path);
    if (!entry || entry.type !== 'blob') return null;
    if (entry.mode === '120000') {
      throw new RefusedError(
        'not-regular-file',
        `${path} is a symlink in the repository; the applier only reads and edits regular files`,
        { file: path },
      );
    }
    if (maxBytes !== undefined && !this.blobCache.has(entry.oid)) {
      // A larger blob's bytes are skipped as git sends them, never held.
      const object = await this.repo.readObject(entry.oid, maxBytes);
      if (object && !object.content)
        throw new RefusedError(
          'too-large',
          `${path} is ${object.size} bytes, more than the limit of ${maxBytes}; it is not read`,
          { file: path },
        );
      if (object?.type === 'blob' && object.content) this.blobCache.set(entry.oid, object.content);
    }
    return this.readBlob(entry.oid);
  }

  /** Every path of the commit's tree, directories included. */
  async tree(): Promise<Map<string, TreeEntry>> {
    this.treeCache ??= this.repo.lsTree(this.commit, [], { trees: true });
    return this.treeCache;
  }

  async readBlob(oid: string): Promise<Buffer> {
    let blob = this.blobCache.get(oid);
    if (!blob) {
      blob = await this.repo.readBlob(oid);
      this.blobCache.set(oid, blob);
    }
    return blob;
  }
}
