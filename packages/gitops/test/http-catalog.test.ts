/**
 * The HTTP catalog against a real server on 127.0.0.1 that serves the marketplace's
 * `items` / `item` / `itemFile` reads.
 */
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { HttpCatalog, install, LOCK_PATH, RefusedError, update, updates, type LockFile } from '../src/index.js';
import { crlf, PDF_V1, PDF_V2, SKILL_V1, SKILL_V2, writeCatalogItem, YAML_LINES } from './support/fixtures.js';
import { applyOptions, cleanupTempDirs, head, makeRepo, show, tempDir } from './support/repos.js';

let server: Server;
let baseUrl: string;
const folder = tempDir();
const requests: string[] = [];

/** Serves a folder catalog over the documented routes. */
beforeAll(async () => {
  server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    requests.push(url.pathname);
    const parts = url.pathname
      .replace(/^\/api\/marketplace\//, '')
      .split('/')
      .map(decodeURIComponent);
    try {
      if (parts[0] === 'items' && parts.length === 1) {
        const ids = ['pdf-tools'];
        const items = await Promise.all(
          ids.map(async (id) => ({ id, ...JSON.parse(await readFile(join(folder, id, 'item.json'), 'utf8')) })),
        );
        response.setHeader('content-type', 'application/json');
        return response.end(JSON.stringify({ items: items.map(({ id, name, version }) => ({ id, name, version })) }));
      }
      if (parts[0] === 'items' && parts.length === 2) {
        response.setHeader('content-type', 'application/json');
        return response.end(await readFile(join(folder, parts[1]!, 'item.json')));
      }
      if (parts[0] === 'items' && parts[2] === 'files') {
        return response.end(await readFile(join(folder, parts[1]!, 'files', ...parts.slice(3))));
      }
    } catch {
      /* fall through to 404 */
    }
    response.statusCode = 404;
    response.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/marketplace`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  cleanupTempDirs();
});

test('items, item and itemFile over HTTP', async () => {
  writeCatalogItem(folder, 'pdf-tools', PDF_V1);
  const catalog = new HttpCatalog(baseUrl);
  expect(await catalog.items()).toEqual([{ id: 'pdf-tools', name: 'pdf-tools', version: '1.0.0' }]);
  expect(await catalog.item('pdf-tools')).toMatchObject({ name: 'pdf-tools', version: '1.0.0' });
  expect(await catalog.item('missing')).toBeNull();
  expect(Buffer.from(await catalog.itemFile('pdf-tools', 'skills/pdf-tools/SKILL.md')).toString()).toBe(SKILL_V1);
});

test('install and update from the HTTP catalog; an unknown id is refused', async () => {
  writeCatalogItem(folder, 'pdf-tools', PDF_V1);
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const options = { ...(await applyOptions()), catalog: baseUrl };
  requests.length = 0;
  const installed = await install(repo, 'pdf-tools', options);
  expect(installed.status).toBe('committed');
  expect(requests).toEqual([
    '/api/marketplace/items/pdf-tools',
    '/api/marketplace/items/pdf-tools/files/skills/pdf-tools/SKILL.md',
    '/api/marketplace/items/pdf-tools/files/skills/pdf-tools/extract.py',
  ]);
  const lock = JSON.parse(show(repo, 'main', LOCK_PATH).toString()) as LockFile;
  expect(lock.items['pdf-tools']).toMatchObject({ id: 'pdf-tools', version: '1.0.0', source: baseUrl });

  writeCatalogItem(folder, 'pdf-tools', PDF_V2);
  expect(await updates(repo, { catalog: baseUrl })).toEqual([
    { name: 'pdf-tools', id: 'pdf-tools', installed: '1.0.0', available: '1.1.0' },
  ]);
  const updated = await update(repo, 'pdf-tools', options);
  expect(updated.status).toBe('committed');
  expect(show(repo, 'main', 'skills/pdf-tools/SKILL.md').toString()).toBe(SKILL_V2);

  const before = head(repo);
  const error = await install(repo, 'nope', options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RefusedError);
  expect((error as RefusedError).message).toBe(`the marketplace at ${baseUrl} has no item 'nope'`);
  expect(head(repo)).toBe(before);
});

test('an item whose content does not match its declared integrity is refused', async () => {
  writeCatalogItem(folder, 'pdf-tools', PDF_V1);
  const descriptor = JSON.parse(await readFile(join(folder, 'pdf-tools', 'item.json'), 'utf8'));
  writeFileSync(join(folder, 'pdf-tools', 'item.json'), JSON.stringify({ ...descriptor, integrity: 'sha256-AAAA' }));
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const error = await install(repo, 'pdf-tools', { ...(await applyOptions()), catalog: baseUrl }).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RefusedError);
  expect((error as RefusedError).code).toBe('invalid-item');
  expect((error as RefusedError).message).toContain('does not match its integrity sha256-AAAA');
});
