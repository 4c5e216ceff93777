/** A catalog held in memory: item descriptors and file bytes exactly as given (paths no file system could hold included). */
import type { Catalog, ItemSummary } from '../../src/index.js';

export interface MemoryItem {
  name?: string;
  version?: string;
  files: Record<string, string | Uint8Array>;
  manifest?: Record<string, unknown>;
  /** Overrides the `files` list of item.json (default: the keys of `files`). */
  list?: unknown;
}

export class MemoryCatalog implements Catalog {
  readonly location = 'memory://catalog';
  readonly reads: string[] = [];

  constructor(private readonly entries: Record<string, MemoryItem>) {}

  async items(): Promise<ItemSummary[]> {
    return Object.entries(this.entries).map(([id, item]) => ({
      id,
      name: item.name ?? id,
      version: item.version ?? '1.0.0',
    }));
  }

  async item(id: string): Promise<unknown | null> {
    this.reads.push(`item ${id}`);
    const item = this.entries[id];
    if (!item) return null;
    return {
      name: item.name ?? id,
      version: item.version ?? '1.0.0',
      files: item.list ?? Object.keys(item.files),
      manifest: item.manifest ?? {},
    };
  }

  async itemFile(id: string, path: string): Promise<Uint8Array> {
    this.reads.push(`file ${id} ${path}`);
    const content = this.entries[id]?.files[path];
    if (content === undefined) throw new Error(`no file ${path}`);
    return typeof content === 'string' ? Buffer.from(content) : content;
  }
}
