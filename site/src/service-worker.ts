/**
 * The playground's service worker (built as playground/sw.js, so its scope is the playground):
 * it keeps the files the playground page needs in a cache, so a page loaded once works offline.
 *
 * The build writes the file list and a version (a digest of those files' bytes) into this
 * script, so every build that changes a file changes the script: the browser then installs the
 * new worker, which fills a cache of its own and deletes the old one when it takes over. Until
 * then the old worker answers from the old cache, whole, so a page never mixes two builds.
 *
 * Only the listed same-origin files are answered from the cache; every other request (the
 * rule pages, the schemas, anything another origin) goes to the network as if there were no
 * worker.
 */

/** Paths relative to this script, and the version: set by the build (site/scripts/build.ts). */
declare const SVC_PRECACHE: { version: string; paths: string[] };

// The DOM library has no service worker types (they live in the WebWorker library, which
// conflicts with it); what this file uses, declared.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface ServiceWorkerScope {
  readonly location: Location;
  readonly registration: { readonly scope: string };
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
}
const scope = self as unknown as ServiceWorkerScope;

const CACHE_PREFIX = 'svc-playground-';
const cacheName = `${CACHE_PREFIX}${SVC_PRECACHE.version}`;
const precached = new Set(SVC_PRECACHE.paths.map((path) => new URL(path, scope.location.href).href));
/** The playground's folder: a link to it is answered with its index.html. */
const indexPage = new URL('index.html', scope.registration.scope).href;

scope.addEventListener('install', (event) => {
  // `no-cache`: asked of the server again, so an older build's copy in the HTTP cache is not kept under
  // this build's name, but answered "not modified" (no body) for the files the page has just loaded.
  const requests = [...precached].map((url) => new Request(url, { cache: 'no-cache' }));
  event.waitUntil(
    caches
      .open(cacheName)
      .then((cache) => cache.addAll(requests))
      .then(() => scope.skipWaiting()),
  );
});

scope.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith(CACHE_PREFIX) && name !== cacheName)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => scope.clients.claim()),
  );
});

scope.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  url.hash = '';
  const key = url.href === scope.registration.scope ? indexPage : url.href;
  if (!precached.has(key)) return;
  event.respondWith(
    caches
      .open(cacheName)
      .then((cache) => cache.match(key))
      .then((cached) => cached ?? fetch(request)),
  );
});
