/**
 * Where items come from. A catalog offers the marketplace's three reads — `items()`,
 * `item(id)`, `itemFile(id, path)` — from a local folder or over HTTP. Layouts are in
 * README.md. Everything a catalog returns is untrusted: reads are bounded in size and
 * (over HTTP) in time, a folder catalog never follows a symlink, and every fetch happens
 * before the applier takes the repository's lock (see {@link ItemCache}).
 */
// fs.promises is read at each call: Node loads it on first use, not when this module loads.
import { constants, promises as fsp } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RefusedError } from '../errors.js';
import { isPlainObject } from '../json.js';
import { checkItemPath } from '../policy/item-paths.js';
import {
  compareCodeUnits,
  computeIntegrity,
  parseItemDescriptor,
  type FetchedItem,
  type ItemDescriptor,
} from './item.js';

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
  /** The file's bytes; `maxBytes`, when given, is the most the caller accepts (read no further). */
  itemFile(id: string, path: string, maxBytes?: number): Promise<Uint8Array>;
}

/** Bounds on what is read from a catalog. */
export interface CatalogLimits {
  /** Largest item file (default 4 MiB). */
  maxFileBytes: number;
  /** Largest item: all its files together (default 16 MiB). */
  maxItemBytes: number;
  /** Everything one operation fetches, over all items (default 64 MiB). */
  maxTotalBytes: number;
  /** Largest `item.json` (default 1 MiB). */
  maxDescriptorBytes: number;
  /** Largest `items` listing of an HTTP catalog (default 8 MiB). */
  maxListBytes: number;
  /** Most files one item may list (default 1000). */
  maxFiles: number;
  /** HTTP: time to establish the connection (default 10 s). */
  connectTimeoutMs: number;
  /** HTTP: time for one whole request, headers and body (default 60 s). */
  requestTimeoutMs: number;
  /** All catalog reads of one operation together (default 5 min). */
  totalTimeoutMs: number;
}

export const DEFAULT_CATALOG_LIMITS: Readonly<CatalogLimits> = Object.freeze({
  maxFileBytes: 4 * 1024 * 1024,
  maxItemBytes: 16 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  maxDescriptorBytes: 1024 * 1024,
  maxListBytes: 8 * 1024 * 1024,
  maxFiles: 1000,
  connectTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  totalTimeoutMs: 300_000,
});

export function catalogLimits(overrides: Partial<CatalogLimits> = {}): CatalogLimits {
  const limits = { ...DEFAULT_CATALOG_LIMITS, ...overrides };
  for (const [key, value] of Object.entries(limits)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      throw new TypeError(`catalog limit ${key} must be a positive number`);
  }
  return limits;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function checkId(id: string): void {
  if (!ID.test(id))
    throw new RefusedError('unknown-item', `${JSON.stringify(id)} is not a valid item id (${ID.source})`);
}

function tooLarge(what: string, limit: number): never {
  throw new RefusedError('too-large', `${what} is larger than the limit of ${limit} bytes; nothing was written`);
}

/**
 * A folder with one sub-folder per item id: `<id>/item.json` and `<id>/files/<path>`.
 * Only regular files are read: a symlink anywhere below the folder (the item folder,
 * `item.json`, `files/` or any part of a file's path) is refused, so an item can never
 * make the applier read a file outside the catalog.
 */
export class FolderCatalog implements Catalog {
  readonly root: string;
  readonly location: string;
  private readonly limits: CatalogLimits;

  constructor(root: string, limits: Partial<CatalogLimits> = {}) {
    this.root = resolve(root);
    this.location = pathToFileURL(this.root).href;
    this.limits = catalogLimits(limits);
  }

  async items(): Promise<ItemSummary[]> {
    const summaries: ItemSummary[] = [];
    let entries;
    try {
      entries = await fsp.readdir(this.root, { withFileTypes: true });
    } catch (error) {
      throw new RefusedError(
        'catalog-unreachable',
        `cannot read the catalog folder ${this.root}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    for (const entry of entries.sort((a, b) => compareCodeUnits(a.name, b.name))) {
      if (!entry.isDirectory() || !ID.test(entry.name)) continue;
      const raw = await this.item(entry.name);
      if (!isPlainObject(raw)) continue;
      summaries.push({
        id: entry.name,
        name: String(raw.name),
        version: String(raw.version),
        ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
      });
    }
    return summaries;
  }

  async item(id: string): Promise<unknown | null> {
    checkId(id);
    const root = await fsp.stat(this.root).catch(() => null);
    if (!root) throw new RefusedError('catalog-unreachable', `the catalog folder ${this.root} does not exist`);
    if (!root.isDirectory()) throw new RefusedError('catalog-unreachable', `the catalog ${this.root} is not a folder`);
    const bytes = await this.readRegular(
      id,
      ['item.json'],
      this.limits.maxDescriptorBytes,
      `item.json of marketplace item '${id}'`,
    );
    if (bytes === null) return null;
    try {
      return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch (error) {
      throw new RefusedError(
        'invalid-item',
        `marketplace item '${id}' has an unreadable item.json: ${(error as Error).message}`,
      );
    }
  }

  async itemFile(id: string, path: string, maxBytes = this.limits.maxFileBytes): Promise<Uint8Array> {
    checkId(id);
    checkItemPath(path, `marketplace item '${id}' file`);
    const bytes = await this.readRegular(
      id,
      ['files', ...path.split('/')],
      Math.min(maxBytes, this.limits.maxFileBytes),
      `file '${path}' of marketplace item '${id}'`,
    );
    if (bytes === null)
      throw new RefusedError(
        'invalid-item',
        `marketplace item '${id}' lists '${path}' but the catalog has no such file`,
      );
    return bytes;
  }

  /**
   * Reads `<root>/<id>/<parts…>` when every component below the root is a real directory
   * and the last one a regular file, at most `maxBytes` long. Null when it does not exist.
   */
  private async readRegular(
    id: string,
    parts: readonly string[],
    maxBytes: number,
    what: string,
  ): Promise<Buffer | null> {
    let current = this.root;
    const components = [id, ...parts];
    for (const [index, component] of components.entries()) {
      current = join(current, component);
      const info = await fsp.lstat(current).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
        throw new RefusedError('catalog-unreachable', `cannot read ${current}: ${error.code ?? error.message}`);
      });
      if (!info) return null;
      if (info.isSymbolicLink())
        throw new RefusedError(
          'not-regular-file',
          `${what}: ${current} is a symlink; a catalog may only hold regular files and folders`,
        );
      const last = index === components.length - 1;
      if (!last && !info.isDirectory()) return null;
      if (last && !info.isFile())
        throw new RefusedError('not-regular-file', `${what}: ${current} is not a regular file`);
      if (last && info.size > maxBytes) tooLarge(what, maxBytes);
    }
    // O_NOFOLLOW: a symlink swapped in after the check above is still not followed.
    const handle = await fsp
      .open(current, constants.O_RDONLY | constants.O_NOFOLLOW)
      .catch((error: NodeJS.ErrnoException) => {
        throw new RefusedError(
          'not-regular-file',
          `${what}: cannot open ${current} as a regular file (${error.code ?? error.message})`,
        );
      });
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new RefusedError('not-regular-file', `${what}: ${current} is not a regular file`);
      if (info.size > maxBytes) tooLarge(what, maxBytes);
      const buffer = Buffer.alloc(info.size);
      let offset = 0;
      while (offset < buffer.length) {
        const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, offset);
        if (bytesRead === 0) break;
        offset += bytesRead;
      }
      return buffer.subarray(0, offset);
    } finally {
      await handle.close();
    }
  }
}

/** How one HTTP request is bounded. */
interface RequestBounds {
  connectTimeoutMs: number;
  timeoutMs: number;
  maxBytes: number;
}

const MAX_REDIRECTS = 5;

/**
 * The marketplace over HTTP: `GET {base}/items`, `GET {base}/items/{id}`,
 * `GET {base}/items/{id}/files/{path}`. Every request has a connect timeout, a total
 * timeout and a response size limit; redirects are followed (at most 5, never from
 * https to http).
 */
export class HttpCatalog implements Catalog {
  readonly location: string;
  private readonly limits: CatalogLimits;
  /** When set (by {@link ItemCache}), no request may run past this time (ms since epoch). */
  deadline: number | undefined;

  constructor(
    baseUrl: string,
    private readonly headers: Record<string, string> = {},
    limits: Partial<CatalogLimits> = {},
  ) {
    this.location = baseUrl.replace(/\/+$/, '');
    this.limits = catalogLimits(limits);
  }

  private async get(path: string, maxBytes: number, what: string): Promise<Buffer | null> {
    const url = `${this.location}${path}`;
    const remaining = this.deadline === undefined ? Infinity : this.deadline - Date.now();
    if (remaining <= 0)
      throw new RefusedError(
        'catalog-timeout',
        `the marketplace reads took longer than ${this.limits.totalTimeoutMs} ms in all; gave up before ${url}`,
      );
    const bounds = {
      connectTimeoutMs: this.limits.connectTimeoutMs,
      timeoutMs: Math.min(this.limits.requestTimeoutMs, remaining),
      maxBytes,
    };
    const origin = new URL(url).origin;
    let current = new URL(url);
    for (let redirects = 0; ; redirects++) {
      // The catalog's headers (e.g. an authorization token) go to the catalog's own origin only, never to where it redirects.
      const response = await httpGet(current, current.origin === origin ? this.headers : {}, bounds, what);
      if (response.status >= 300 && response.status < 400 && response.location) {
        const next = new URL(response.location, current);
        if (redirects >= MAX_REDIRECTS)
          throw new RefusedError(
            'catalog-error',
            `the marketplace redirected more than ${MAX_REDIRECTS} times for ${url}`,
          );
        if (current.protocol === 'https:' && next.protocol !== 'https:') {
          throw new RefusedError(
            'catalog-error',
            `the marketplace redirected ${current.href} to ${next.href}, which is not https; refused`,
          );
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:')
          throw new RefusedError(
            'catalog-error',
            `the marketplace redirected to ${next.href}; only http(s) is followed`,
          );
        current = next;
        continue;
      }
      if (response.status === 404) return null;
      if (response.status < 200 || response.status >= 300)
        throw new RefusedError('catalog-error', `the marketplace answered ${response.status} for ${current.href}`);
      return response.body;
    }
  }

  private async json(path: string, what: string, maxBytes = this.limits.maxDescriptorBytes): Promise<unknown | null> {
    const body = await this.get(path, maxBytes, what);
    if (body === null) return null;
    try {
      return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
    } catch (error) {
      throw new RefusedError('invalid-item', `${what} is not JSON: ${(error as Error).message}`);
    }
  }

  async items(): Promise<ItemSummary[]> {
    const body =
      (await this.json('/items', `the marketplace's item list at ${this.location}/items`, this.limits.maxListBytes)) ??
      [];
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
    return this.json(`/items/${encodeURIComponent(id)}`, `marketplace item '${id}'`);
  }

  async itemFile(id: string, path: string, maxBytes = this.limits.maxFileBytes): Promise<Uint8Array> {
    checkId(id);
    checkItemPath(path, `marketplace item '${id}' file`);
    const encoded = path.split('/').map(encodeURIComponent).join('/');
    const body = await this.get(
      `/items/${encodeURIComponent(id)}/files/${encoded}`,
      Math.min(maxBytes, this.limits.maxFileBytes),
      `file '${path}' of marketplace item '${id}'`,
    );
    if (!body)
      throw new RefusedError(
        'invalid-item',
        `marketplace item '${id}' lists '${path}' but the catalog has no such file`,
      );
    return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  }
}

/** One GET with the bounds enforced: connect timeout, total timeout, body size. */
async function httpGet(
  url: URL,
  headers: Record<string, string>,
  bounds: RequestBounds,
  what: string,
): Promise<HttpAnswer> {
  // Loaded on first use: an operation without an HTTP catalog never pays for the HTTP and TLS stacks.
  const { request: send } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise((resolvePromise, reject) => {
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = (error: Error | null, value?: HttpAnswer) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      if (error) {
        request.destroy();
        reject(error);
      } else resolvePromise(value!);
    };
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      reject(new RefusedError('catalog-error', `${url.href} is not an http(s) URL`));
      return;
    }
    const request = send(url, {
      method: 'GET',
      headers: { accept: 'application/json, */*', ...headers },
      agent: false,
    });
    timers.push(
      setTimeout(
        () =>
          finish(
            new RefusedError(
              'catalog-timeout',
              `the marketplace did not answer ${url.href} within ${Math.round(bounds.timeoutMs)} ms (${what}); nothing was written`,
            ),
          ),
        bounds.timeoutMs,
      ),
    );
    request.on('socket', (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(
        () =>
          finish(
            new RefusedError(
              'catalog-timeout',
              `could not connect to the marketplace at ${url.host} within ${bounds.connectTimeoutMs} ms`,
            ),
          ),
        bounds.connectTimeoutMs,
      );
      timers.push(timer);
      socket.once('connect', () => clearTimeout(timer));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      finish(
        new RefusedError(
          'catalog-unreachable',
          `cannot reach the marketplace at ${url.href}: ${error.code ?? error.message}`,
        ),
      );
    });
    request.on('response', (response: IncomingMessage) => readResponse(response, url, bounds, what, finish));
    request.end();
  });
}

/** What an HTTP GET answered: a redirect's or a refusal's status with no body, or a body read whole. */
interface HttpAnswer {
  status: number;
  location?: string;
  body: Buffer;
}

/**
 * Reads a response to `finish`: any status but success at once, without its body; a body past
 * `bounds.maxBytes`, as declared or as it arrives, is refused.
 */
function readResponse(
  response: IncomingMessage,
  url: URL,
  bounds: RequestBounds,
  what: string,
  finish: (error: Error | null, value?: HttpAnswer) => void,
): void {
  const status = response.statusCode ?? 0;
  const location = typeof response.headers.location === 'string' ? response.headers.location : undefined;
  if ((status >= 300 && status < 400) || status === 404 || status < 200 || status >= 300) {
    response.resume();
    finish(null, { status, ...(location ? { location } : {}), body: Buffer.alloc(0) });
    return;
  }
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > bounds.maxBytes) {
    finish(
      new RefusedError(
        'too-large',
        `${what} at ${url.href} is ${declared} bytes, more than the limit of ${bounds.maxBytes}; nothing was written`,
      ),
    );
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  response.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > bounds.maxBytes) {
      finish(
        new RefusedError(
          'too-large',
          `${what} at ${url.href} is larger than the limit of ${bounds.maxBytes} bytes; nothing was written`,
        ),
      );
      return;
    }
    chunks.push(chunk);
  });
  response.on('end', () => finish(null, { status, body: Buffer.concat(chunks) }));
  response.on('error', (error) =>
    finish(
      new RefusedError('catalog-unreachable', `the marketplace connection for ${url.href} failed: ${error.message}`),
    ),
  );
  response.on('aborted', () =>
    finish(new RefusedError('catalog-unreachable', `the marketplace closed the connection for ${url.href} early`)),
  );
}

/** A catalog from a command-line value: an http(s) URL, or a folder. */
export function openCatalog(spec: string, limits: Partial<CatalogLimits> = {}): Catalog {
  return /^https?:\/\//i.test(spec) ? new HttpCatalog(spec, {}, limits) : new FolderCatalog(spec, limits);
}

/**
 * Fetches an item and all its files, checks its shape, paths and sizes and (when
 * declared) integrity. Refuses with `unknown-item` when the catalog does not have it.
 */
export async function fetchItem(
  catalog: Catalog,
  id: string,
  budget: FetchBudget = new FetchBudget(catalogLimits()),
  descriptorRead: Promise<unknown | null> = catalog.item(id),
): Promise<FetchedItem> {
  const raw = await descriptorRead;
  if (raw === null)
    throw new RefusedError('unknown-item', `the marketplace at ${catalog.location} has no item '${id}'`);
  const descriptor: ItemDescriptor = parseItemDescriptor(id, raw);
  if (descriptor.files.length > budget.limits.maxFiles) {
    throw new RefusedError(
      'too-large',
      `marketplace item '${id}' lists ${descriptor.files.length} files, more than the limit of ${budget.limits.maxFiles}`,
    );
  }
  const contents = new Map<string, Uint8Array>();
  let itemBytes = 0;
  for (const path of descriptor.files) {
    const allowed = Math.min(budget.limits.maxFileBytes, budget.limits.maxItemBytes - itemBytes, budget.remaining);
    const what = `file '${path}' of marketplace item '${id}'`;
    const content = await catalog.itemFile(id, path, Math.max(0, allowed));
    // A custom catalog may ignore maxBytes: the bounds are checked again on what it returned.
    if (content.byteLength > budget.limits.maxFileBytes) refuseSize(what, 'file', budget.limits.maxFileBytes);
    if (itemBytes + content.byteLength > budget.limits.maxItemBytes)
      refuseSize(`marketplace item '${id}'`, 'item', budget.limits.maxItemBytes);
    if (content.byteLength > budget.remaining)
      refuseSize(`the items this operation fetches`, 'total', budget.limits.maxTotalBytes);
    itemBytes += content.byteLength;
    budget.spend(content.byteLength);
    contents.set(path, content);
  }
  const integrity = computeIntegrity(descriptor, contents);
  if (descriptor.integrity && descriptor.integrity !== integrity) {
    throw new RefusedError(
      'invalid-item',
      `marketplace item '${id}' does not match its integrity ${descriptor.integrity} (computed ${integrity})`,
    );
  }
  return { ...descriptor, id, source: catalog.location, contents, integrity };
}

function refuseSize(what: string, kind: 'file' | 'item' | 'total', limit: number): never {
  throw new RefusedError(
    'too-large',
    `${what} is larger than the ${kind} limit of ${limit} bytes; nothing was written`,
  );
}

/** Bytes one operation may still fetch. */
export class FetchBudget {
  private spent = 0;
  constructor(readonly limits: CatalogLimits) {}
  get remaining(): number {
    return this.limits.maxTotalBytes - this.spent;
  }
  spend(bytes: number): void {
    this.spent += bytes;
  }
}

/** Thrown by a sealed {@link ItemCache} for a read it has not done yet: the applier fetches it outside the lock and tries again. */
export class FetchNeeded extends Error {
  override name = 'FetchNeeded';
}

/**
 * Remembers fetched items, so an edit re-run after a lost race does not fetch again.
 * It is also the gate that keeps catalog reads outside the repository lock: the applier
 * runs an edit once with the cache open (fetching what it needs), then seals it and runs
 * the edit again under the lock; a sealed cache serves only what it already has.
 */
export class ItemCache {
  private readonly fetched = new Map<string, Promise<FetchedItem>>();
  private readonly described = new Map<string, Promise<ItemDescriptor | null>>();
  private readonly raws = new Map<string, Promise<unknown | null>>();
  private sealed = false;
  private readonly budget: FetchBudget;
  private deadline: number | undefined;

  constructor(
    readonly catalog: Catalog,
    limits: Partial<CatalogLimits> = {},
  ) {
    this.budget = new FetchBudget(catalogLimits(limits));
  }

  /** Allows fetching (outside the lock). The operation's total time budget starts at the first call. */
  open(): void {
    this.sealed = false;
    this.deadline ??= Date.now() + this.budget.limits.totalTimeoutMs;
    if (this.catalog instanceof HttpCatalog) this.catalog.deadline = this.deadline;
  }

  /** Forbids fetching (under the lock): a read not done yet throws {@link FetchNeeded}. */
  seal(): void {
    this.sealed = true;
  }

  private gate(id: string): void {
    if (this.sealed)
      throw new FetchNeeded(`marketplace item '${id}' was not fetched before the repository lock was taken`);
  }

  /** `item(id)` read once per operation: the descriptor that decided to fetch is the one fetched. */
  private raw(id: string): Promise<unknown | null> {
    let raw = this.raws.get(id);
    if (!raw) {
      this.gate(id);
      raw = this.catalog.item(id);
      this.raws.set(id, raw);
    }
    return raw;
  }

  /** The item's checked descriptor without its files (null when the catalog has no such item). */
  descriptor(id: string): Promise<ItemDescriptor | null> {
    let descriptor = this.described.get(id);
    if (!descriptor) {
      descriptor = this.raw(id).then((raw) => (raw === null ? null : parseItemDescriptor(id, raw)));
      this.described.set(id, descriptor);
    }
    return descriptor;
  }

  /** The item with all its files (see {@link fetchItem}). */
  get(id: string): Promise<FetchedItem> {
    let item = this.fetched.get(id);
    if (!item) {
      const raw = this.raw(id);
      this.gate(id);
      item = fetchItem(this.catalog, id, this.budget, raw);
      this.fetched.set(id, item);
    }
    return item;
  }
}
