// The service worker: precaches the site (the vendored runtimes included) under a
// cache named after the build's content hash, and serves it cache-first, so after
// one online visit the game boots and plays offline.
//
// Files listed in ON_DEMAND (the large value tables of the computer players and the
// coach: the build lists them) are not precached: the worker fetches one when a
// game first needs it, and this service worker keeps the answer in the same cache,
// so from then on it works offline too.
//
// It is registered only once the page can roll (static/js/sw-register.mjs): its
// precache never competes with the boot for bandwidth.
//
// tools/build.py publishes this file as /sw.js (the site root: its scope is the
// whole site), replacing the two placeholders below with the build's version and
// the list of published files. A new build = a new sw.js = a new cache: it installs
// beside the old one and WAITS; the page offers "new version — reload" and only
// then asks it to take over (never on its own under a game in progress). On
// activation it deletes the caches of older builds.

const VERSION = "__GENERALA_VERSION__";
const PRECACHE = ["__GENERALA_PRECACHE__"];
const ON_DEMAND = ["__GENERALA_ON_DEMAND__"];
const PREFIX = "generala-";
const CACHE = PREFIX + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Vendored runtimes live under versioned, immutable URLs: the HTTP cache may
      // answer (the page usually just downloaded them). Everything else revalidates.
      await cache.addAll(
        PRECACHE.map((path) => new Request(path, { cache: path.startsWith("./vendor/") ? "default" : "no-cache" })),
      );
    })(),
  );
  // No skipWaiting() here: the page decides (see static/js/sw-register.mjs).
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)));
      // First install: control the open page at once (nothing older to displace).
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") self.skipWaiting();
  if (event.data && event.data.type === "VERSION") event.source?.postMessage({ type: "VERSION", version: VERSION });
});

const onDemand = new Set(ON_DEMAND.map((path) => new URL(path, self.location.href).pathname));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      let key = request;
      if (request.mode === "navigate") {
        // Pages: the precached page whatever the query (?variant=..., ?seed=...);
        // a folder means its index.html.
        const page = new URL(request.url);
        page.search = "";
        page.hash = "";
        if (page.pathname.endsWith("/")) page.pathname += "index.html";
        key = page.href;
      }
      const hit = await cache.match(key);
      if (hit) return hit;
      const response = await fetch(request);
      if (response.ok && onDemand.has(url.pathname)) await cache.put(key, response.clone());
      return response;
    })(),
  );
});
