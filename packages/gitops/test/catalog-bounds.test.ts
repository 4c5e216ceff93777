/**
 * HTTP catalogs that misbehave, against real servers on 127.0.0.1: one that never
 * completes the connection, one that accepts and never answers, one that streams
 * forever, one that is not there, one that redirects in a loop. Every read is bounded,
 * and a hung catalog never holds the repository's lock.
 */
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { createServer as createHttpServer, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, expect, test } from 'vitest';
import {
  HttpCatalog,
  install,
  RefusedError,
  setDefaultAgent,
  type ApplyOptions,
  type CatalogLimits,
} from '../src/index.js';
import { crlf, YAML_LINES } from './support/fixtures.js';
import { AUTHOR, cleanupTempDirs, git, head, makeRepo } from './support/repos.js';

afterAll(cleanupTempDirs);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function listen(server: HttpServer | NetServer): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api`)),
  );
}

/** Accepts every connection and never sends a byte. `connected` resolves at the first connection. */
async function silentServer(): Promise<{ url: string; sockets: Socket[]; connected: Promise<void> }> {
  const sockets: Socket[] = [];
  let onConnect!: () => void;
  const connected = new Promise<void>((resolve) => (onConnect = resolve));
  const server = createNetServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
    onConnect();
  });
  const url = await listen(server);
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url, sockets, connected };
}

/** An HTTP server whose routes are given by `handle`. */
async function httpServer(handle: (path: string, response: ServerResponse) => void): Promise<string> {
  const server = createHttpServer((request, response) =>
    handle(new URL(request.url ?? '/', 'http://x').pathname, response),
  );
  const url = await listen(server);
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return url;
}

/** Writes 64 KiB chunks for as long as the client reads; resolves `closed` when the client hangs up. */
function streamForever(response: ServerResponse): Promise<number> {
  return new Promise((resolve) => {
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      while (!response.destroyed) {
        sent += chunk.length;
        if (!response.write(chunk)) break;
      }
    };
    response.on('drain', pump);
    response.on('close', () => resolve(sent));
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    pump();
  });
}

const ITEM = JSON.stringify({ name: 'evil', version: '1.0.0', files: ['big.bin'], manifest: {} });

async function run(limits: Partial<CatalogLimits>, catalog: string) {
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const before = git(repo, ['for-each-ref']);
  const options: ApplyOptions & { catalog: string; limits: Partial<CatalogLimits> } = {
    author: AUTHOR,
    catalog,
    limits,
  };
  const error = await install(repo, 'evil', options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RefusedError);
  expect(git(repo, ['for-each-ref'])).toBe(before);
  return error as RefusedError;
}

test('a catalog that accepts the connection and never answers times out', async () => {
  const { url } = await silentServer();
  const error = await run({ requestTimeoutMs: 300 }, url);
  expect(error.code).toBe('catalog-timeout');
  expect(error.message).toBe(
    `the marketplace did not answer ${url}/items/evil within 300 ms (marketplace item 'evil'); nothing was written`,
  );
});

test('a response that streams forever is cut at the size limit, and the connection is closed', async () => {
  let closed: Promise<number> | undefined;
  const url = await httpServer((path, response) => {
    if (path === '/api/items/evil') return response.end(ITEM);
    closed = streamForever(response);
  });
  const error = await run({ maxFileBytes: 200_000 }, url);
  expect(error.code).toBe('too-large');
  expect(error.message).toBe(
    `file 'big.bin' of marketplace item 'evil' at ${url}/items/evil/files/big.bin is larger than the limit of 200000 bytes; nothing was written`,
  );
  // The client hung up: the server's stream ends instead of running forever.
  expect(await closed).toBeGreaterThan(0);
});

test('a descriptor that streams forever', async () => {
  const url = await httpServer((_path, response) => void streamForever(response));
  const descriptor = await run({ maxDescriptorBytes: 100_000 }, url);
  expect(descriptor.code).toBe('too-large');
  expect(descriptor.message).toBe(
    `marketplace item 'evil' at ${url}/items/evil is larger than the limit of 100000 bytes; nothing was written`,
  );
});

test('a declared Content-Length over the limit is refused before the body is read', async () => {
  const url = await httpServer((path, response) => {
    if (path === '/api/items/evil') return response.end(ITEM);
    response.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
    response.write('x');
  });
  const error = await run({}, url);
  expect(error.code).toBe('too-large');
  expect(error.message).toBe(
    `file 'big.bin' of marketplace item 'evil' at ${url}/items/evil/files/big.bin is 10485760 bytes, more than the limit of ${4 * 1024 * 1024}; nothing was written`,
  );
});

test('a catalog that is not there', async () => {
  const probe = createNetServer();
  const url = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  const error = await run({}, url);
  expect(error.code).toBe('catalog-unreachable');
  expect(error.message).toBe(`cannot reach the marketplace at ${url}/items/evil: ECONNREFUSED`);
});

test('a redirect loop, and an error status', async () => {
  const looping = await httpServer((_path, response) => {
    response.writeHead(302, { location: '/api/items/evil' });
    response.end();
  });
  const loop = await run({}, looping);
  expect(loop.code).toBe('catalog-error');
  expect(loop.message).toBe(`the marketplace redirected more than 5 times for ${looping}/items/evil`);
  const failing = await httpServer((_path, response) => {
    response.writeHead(503);
    response.end('busy');
  });
  const status = await run({}, failing);
  expect(status).toMatchObject({
    code: 'catalog-error',
    message: `the marketplace answered 503 for ${failing}/items/evil`,
  });
});

test('a catalog that answers each read slowly is bounded by the total time of the operation', async () => {
  const files = ['a', 'b', 'c', 'd', 'e', 'f'];
  const url = await httpServer((path, response) => {
    setTimeout(() => {
      if (path === '/api/items/evil')
        response.end(JSON.stringify({ name: 'evil', version: '1.0.0', files, manifest: {} }));
      else response.end('x');
    }, 150);
  });
  const error = await run({ requestTimeoutMs: 5_000, totalTimeoutMs: 400 }, url);
  expect(error.code).toBe('catalog-timeout');
});

test('a hung catalog holds no lock: another operation on the same repository commits meanwhile', async () => {
  const { url, sockets, connected } = await silentServer();
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  let settled = false;
  const pending = install(repo, 'evil', { author: AUTHOR, catalog: url, limits: { requestTimeoutMs: 120_000 } }).then(
    (result) => result,
    (error: unknown) => error,
  );
  void pending.then(() => (settled = true));
  await connected;
  // If the install held the repository lock while it waits for the catalog, this would wait two minutes.
  const other = await setDefaultAgent(repo, 'helper', { author: AUTHOR });
  expect(other.status).toBe('committed');
  expect(head(repo)).toBe(other.commit);
  expect(settled).toBe(false);
  for (const socket of sockets) socket.destroy();
  const error = await pending;
  expect(error).toBeInstanceOf(RefusedError);
  expect((error as RefusedError).code).toBe('catalog-unreachable');
  expect(head(repo)).toBe(other.commit);
});

test('a hung catalog times out by itself while another operation proceeds', async () => {
  const { url, connected } = await silentServer();
  const repo = makeRepo({ 'svc.yaml': crlf(YAML_LINES) }, { bare: true });
  const hung = install(repo, 'evil', { author: AUTHOR, catalog: url, limits: { requestTimeoutMs: 1_000 } }).catch(
    (error: unknown) => error,
  );
  await connected;
  const [other, error] = await Promise.all([setDefaultAgent(repo, 'helper', { author: AUTHOR }), hung]);
  expect(other.status).toBe('committed');
  expect((error as RefusedError).code).toBe('catalog-timeout');
  expect(head(repo)).toBe(other.commit);
});

test("the catalog's headers are not sent to another origin it redirects to", async () => {
  const seen: Record<string, string | undefined> = {};
  const elsewhere = createHttpServer((request, response) => {
    seen.elsewhere = request.headers.authorization;
    response.end(ITEM);
  });
  const elsewhereUrl = await listen(elsewhere);
  closers.push(async () => {
    elsewhere.closeAllConnections();
    await new Promise((resolve) => elsewhere.close(resolve));
  });
  const home = createHttpServer((request, response) => {
    seen.home = request.headers.authorization;
    response.writeHead(302, { location: `${elsewhereUrl}/items/evil` });
    response.end();
  });
  const homeUrl = await listen(home);
  closers.push(async () => {
    home.closeAllConnections();
    await new Promise((resolve) => home.close(resolve));
  });
  const catalog = new HttpCatalog(homeUrl, { authorization: 'Bearer catalog-token' });
  expect(await catalog.item('evil')).toMatchObject({ name: 'evil' });
  expect(seen).toEqual({ home: 'Bearer catalog-token', elsewhere: undefined });
});

test('a refusal quoting what a catalog sent never carries terminal control characters', async () => {
  const url = await httpServer((_path, response) => response.end('\u001b]0;pwned\u0007\u001b[2J{'));
  const error = await run({}, url);
  expect(error.code).toBe('invalid-item');
  expect(error.message).toMatch(/^marketplace item 'evil' is not JSON: /);
  expect(error.message).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  expect(error.message).toContain('\\u001b');
});

/**
 * A listening socket that never accepts (python3: `listen(0)`, no `accept`), with its
 * one-connection queue filled: the kernel drops further SYNs, so a connect hangs.
 */
async function unacceptingPort(): Promise<number> {
  const script =
    "import socket,time\ns=socket.socket()\ns.bind(('127.0.0.1',0))\ns.listen(0)\nprint(s.getsockname()[1],flush=True)\ntime.sleep(600)";
  const child = spawn('python3', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
  });
  const filler = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    filler.once('connect', resolve);
    filler.once('error', reject);
  });
  closers.push(async () => {
    filler.destroy();
    child.kill();
  });
  return port;
}

test('a catalog whose connection is never established hits the connect timeout', async () => {
  const port = await unacceptingPort();
  const url = `http://127.0.0.1:${port}/api`;
  const error = await run({ connectTimeoutMs: 300, requestTimeoutMs: 120_000 }, url);
  expect(error.code).toBe('catalog-timeout');
  expect(error.message).toBe(`could not connect to the marketplace at 127.0.0.1:${port} within 300 ms`);
});
