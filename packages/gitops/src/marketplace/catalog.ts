/**
 * Where items come from. A catalog offers the marketplace's three reads — `items()`,
 * `item(id)`, `itemFile(id, path)` — from a local folder or over HTTP. Layouts are in
 * README.md.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RefusedError } from '../errors.js';
import { isPlainObject } from '../json.js';
import { computeIntegrity, parseItemDescriptor, unsafePath, type FetchedItem, type ItemDescriptor } from './item.js';

/** One row of `items()`. */
export interface ItemSummary {
  id: string;
  name: string;
  version: string;
  description?: string;
}

export interface Catalog {
  /** A stable description of the catalog, recorded as an item's `source`. */
  readonly location: string;
  items(): Promise<ItemSummary[]>;
  /** The item's descriptor, or null when the catalog has no such item. */
  item(id: string): Promise<unknown | null>;
  itemFile(id: string, path: string): Promise<Uint8Array>;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function checkId(id: string): void {
  if (!ID.test(id)) throw new RefusedError('unknown-item', `'${id}' is not a valid item id`);
}

/** A folder with one sub-folder per item id: `<id>/item.json` and `<id>/files/<path>`. */
export class FolderCatalog implements Catalog {
  readonly root: string;
  readonly location: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.location = pathToFileURL(this.root).href;
  }

  async items(): Promise<ItemSummary[]> {
    const summaries: ItemSummary[] = [];
    for (const entry of (await readdir(this.root, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      if (!entry.isDirectory() || !ID.test(entry.name)) continue;
      const raw = await this.item(entry.name);
      if (!isPlainObject(raw)) continue;
      summaries.push({ id: entry.name, name: String(raw.name), version: String(raw.version), ...(typeof raw.description === 'string' ? { description: raw.description } : {}) });
    }
    return summaries;
  }

  async item(id: string): Promise<unknown | null> {
    checkId(id);
    const file = join(this.root, id, 'item.json');
    if (!(await stat(file).catch(() => null))?.isFile()) return null;
    try {
      return JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new RefusedError('invalid-item', `marketplace item '${id}' has an unreadable item.json: ${(error as Error).message}`);
    }
  }

  async itemFile(id: string, path: string): Promise<Uint8Array> {
    checkId(id);
    if (unsafePath(path)) throw new RefusedError('invalid-item', `marketplace item '${id}' names an unsafe file '${path}'`);
    try {
      return await readFile(join(this.root, id, 'files', ...path.split('/')));
    } catch {
      throw new RefusedError('invalid-item', `marketplace item '${id}' lists '${path}' but the catalog has no such file`);
    }
  }
}

/**
 * The marketplace over HTTP: `GET {base}/items`, `GET {base}/items/{id}`,
 * `GET {base}/items/{id}/files/{path}`.
 */
export class HttpCatalog implements Catalog {
  readonly location: string;

  constructor(
    baseUrl: string,
    private readonly headers: Record<string, string> = {},
  ) {
    this.location = baseUrl.replace(/\/+$/, '');
  }

  private async get(path: string): Promise<Response | null> {
    const url = `${this.location}${path}`;
    let response: Response;
    try {
      response = await fetch(url, { headers: this.headers });
    } catch (error) {
      throw new Error(`cannot reach the marketplace at ${url}: ${(error as Error).message}`);
    }
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`the marketplace answered ${response.status} for ${url}`);
    return response;
  }

  async items(): Promise<ItemSummary[]> {
    const response = await this.get('/items');
    const body: unknown = response ? await response.json() : [];
    const list = Array.isArray(body) ? body : isPlainObject(body) && Array.isArray(body.items) ? body.items : [];
    return list.filter(isPlainObject).map((row) => ({
      id: String(row.id),
      name: String(row.name),
      version: String(row.version),
      ...(typeof row.description === 'string' ? { description: row.description } : {}),
    }));
  }

  async item(id: string): Promise<unknown | null> {
    checkId(id);
    const response = await this.get(`/items/${encodeURIComponent(id)}`);
    if (!response) return null;
    try {
      return await response.json();
    } catch (error) {
      throw new RefusedError('invalid-item', `marketplace item '${id}' is not JSON: ${(error as Error).message}`);
    }
  }

  async itemFile(id: string, path: string): Promise<Uint8Array> {
    checkId(id);
    if (unsafePath(path)) throw new RefusedError('invalid-item', `marketplace item '${id}' names an unsafe file '${path}'`);
    const encoded = path.split('/').map(encodeURIComponent).join('/');
    const response = await this.get(`/items/${encodeURIComponent(id)}/files/${encoded}`);
    if (!response) throw new RefusedError('invalid-item', `marketplace item '${id}' lists '${path}' but the catalog has no such file`);
    return new Uint8Array(await response.arrayBuffer());
  }
}

/** A catalog from a command-line value: an http(s) URL, or a folder. */
export function openCatalog(spec: string): Catalog {
  return /^https?:\/\//i.test(spec) ? new HttpCatalog(spec) : new FolderCatalog(spec);
}

/**
 * Fetches an item and all its files, checks its shape and (when declared) integrity.
 * Refuses with `unknown-item` when the catalog does not have it.
 */
export async function fetchItem(catalog: Catalog, id: string): Promise<FetchedItem> {
  const raw = await catalog.item(id);
  if (raw === null) throw new RefusedError('unknown-item', `the marketplace at ${catalog.location} has no item '${id}'`);
  const descriptor: ItemDescriptor = parseItemDescriptor(id, raw);
  const contents = new Map<string, Uint8Array>();
  for (const path of descriptor.files) contents.set(path, await catalog.itemFile(id, path));
  const integrity = computeIntegrity(descriptor, contents);
  if (descriptor.integrity && descriptor.integrity !== integrity) {
    throw new RefusedError('invalid-item', `marketplace item '${id}' does not match its integrity ${descriptor.integrity} (computed ${integrity})`);
  }
  return { ...descriptor, id, source: catalog.location, contents, integrity };
}

/** Remembers fetched items, so an edit re-run after a lost race does not fetch again. */
export class ItemCache {
  private readonly fetched = new Map<string, Promise<FetchedItem>>();
  private readonly described = new Map<string, Promise<ItemDescriptor | null>>();

  constructor(readonly catalog: Catalog) {}

  /** The item's checked descriptor without its files (null when the catalog has no such item). */
  descriptor(id: string): Promise<ItemDescriptor | null> {
    let descriptor = this.described.get(id);
    if (!descriptor) {
      descriptor = this.catalog.item(id).then((raw) => (raw === null ? null : parseItemDescriptor(id, raw)));
      this.described.set(id, descriptor);
    }
    return descriptor;
  }

  /** The item with all its files (see {@link fetchItem}). */
  get(id: string): Promise<FetchedItem> {
    let item = this.fetched.get(id);
    if (!item) {
      item = fetchItem(this.catalog, id);
      this.fetched.set(id, item);
    }
    return item;
  }
}
