// The service worker: precaches the site (the vendored runtimes included) under a
// cache named after the build's content hash, and serves it cache-first, so after
// one online visit the game boots and plays offline.
//
// tools/build.py publishes this file as /sw.js (the site root: its scope is the
// whole site), replacing the three placeholders below with the build's version, the
// list of precached files and the files fetched on demand with their content hashes.
// A new build = a new sw.js = a new cache: it installs beside the old one and WAITS;
// the page offers "new version — reload" and only then asks it to take over (never on
// its own under a game in progress; static/js/sw-register.mjs).
//
// ONE BUILD PER PAGE. When a new worker takes over, the browser makes it the
// controller of EVERY page the old one controlled (the Activate algorithm of the
// Service Workers spec; clients.claim() is not even needed for that), not only of
// the tab that asked. Those other tabs still run the old build's code, and load more
// of it later: the UI (ui.json, MicroPython, the .mpy modules, catalog.json) at the
// first tap, transfer.mjs at an import, a value table at a computer's first move. So
// this worker serves every page, and every worker a page starts, from the cache of
// the build that page was loaded with:
//   - a navigation is served from this build's cache, and the new page (its client
//     id, FetchEvent.resultingClientId) is recorded in that cache;
//   - a worker's script request records the worker under its page's build;
//   - every other request is served from the cache of the build recorded for its
//     client (FetchEvent.clientId); a client with no record is this build's;
//   - an older build's cache is deleted only once no page or worker recorded in it is
//     left (tidy(): at activation and whenever a page of the site registers).
// Why not reload the stale tabs instead: the service worker decides at every request,
// so no request can slip through between the takeover and a page's reaction to it
// (controllerchange comes later, in the page's own time); nothing of a tab is lost
// (a half-filled setup form, a dialog, a computer's turn, an import in progress,
// beyond the saved game); a tab in the background is not made to boot Pyodide again;
// and it works offline. The price: an old build's cache (~12 MB) stays while a tab of
// it is open. The tab is still offered the reload, whenever its player wants it.
// The service worker may be stopped and started again at any moment: what it must
// remember is in Cache Storage, in each build's own cache (a later build's worker
// reads it, so keep these formats):
//   ./__sw/client/<client id>?parent=<page's client id>   a page or worker of this build
//                                                         (a worker with its page: kept
//                                                         while that page lives)
//   ./__sw/build.json          {"version", "onDemand": {path: sha256}} of this build
// The memory below (`builds`, `onDemandMaps`) only saves looking them up again.
//
// ON DEMAND. Files listed in ON_DEMAND (the large value tables of the computer players
// and the coach, the standard library of a boot in full: the build lists them with
// the SHA-256 of their bytes) are not precached: the engine worker fetches one when a
// game first needs it, and this service worker keeps it in the page's build's cache
// (only when its bytes are that build's: a server that already holds a newer build
// answers a file the cache must not keep), so from then on it works offline too. A
// new build takes the ones whose bytes did not change from the older caches (at
// install, before an older cache is deleted, and at a request that finds one there):
// an update never costs an offline player the optimal and expert players. A file whose
// bytes changed is fetched again when first needed, and its old bytes go with the old
// cache.
//
// It is registered only once the page can roll (static/js/sw-register.mjs): its
// precache never competes with the boot for bandwidth.

const VERSION = "__GENERALA_VERSION__";
const PRECACHE = ["__GENERALA_PRECACHE__"];
const ON_DEMAND = { "__GENERALA_ON_DEMAND__": "" };
const PREFIX = "generala-";
const CACHE = PREFIX + VERSION;

const here = (path) => new URL(path, self.location.href);
const RECORDS = here("./__sw/client/").pathname;
const BUILD_KEY = here("./__sw/build.json").href;
const recordKey = (id, parent) => here(`./__sw/client/${id}${parent ? `?parent=${parent}` : ""}`).href;

// Paths (not URLs) of the on-demand files -> their SHA-256, for this build.
const onDemand = Object.fromEntries(Object.entries(ON_DEMAND).map(([path, hash]) => [here(path).pathname, hash]));

const builds = new Map(); // client id -> cache name (what its record says)
const onDemandMaps = new Map([[CACHE, onDemand]]); // cache name -> its build's onDemand

const ours = (name) => name.startsWith(PREFIX);

async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Record that the client `id` (a page, or a worker of the page `parent`) runs the build
 *  of cache `name`. */
async function remember(id, name, parent) {
  builds.set(id, name);
  const cache = await caches.open(name);
  await cache.put(recordKey(id, parent), new Response(JSON.stringify({ cache: name }), {
    headers: { "Content-Type": "application/json" },
  }));
}

/** The cache of the build the client `id` was loaded with: its record's, else this build's
 *  (a client created while this build is the newest, or one the browser gave no id). */
async function buildOf(id) {
  if (!id) return CACHE;
  let name = builds.get(id);
  if (name === undefined) {
    const record = await caches.match(recordKey(id), { ignoreSearch: true });
    name = record ? (await record.json()).cache : CACHE;
    // A record whose cache is gone (storage evicted) cannot be honoured: this build.
    if (name !== CACHE && !(await caches.has(name))) name = CACHE;
    builds.set(id, name);
  }
  return name;
}

/** The on-demand files of the build of cache `name` ({} for a build that did not say). */
async function onDemandOf(name) {
  let map = onDemandMaps.get(name);
  if (map === undefined) {
    const found = await (await caches.open(name)).match(BUILD_KEY);
    const paths = found ? (await found.json()).onDemand || {} : {};
    map = Object.fromEntries(Object.entries(paths).map(([path, hash]) => [here(path).pathname, hash]));
    onDemandMaps.set(name, map);
  }
  return map;
}

/** The copy of the file at `path` that the cache `name` holds, when its bytes have the
 *  SHA-256 `hash`; else null. */
async function sameBytes(name, path, hash) {
  const found = await (await caches.open(name)).match(here(path).href, { ignoreVary: true });
  return found && (await sha256(await found.clone().arrayBuffer())) === hash ? found : null;
}

/** A copy of the file at `path` with the SHA-256 `hash` in another build's cache, or null. */
async function keptCopy(path, hash, except) {
  for (const name of (await caches.keys()).filter((n) => ours(n) && n !== except)) {
    const found = await sameBytes(name, path, hash);
    if (found) return found;
  }
  return null;
}

/** Take into this build's cache its on-demand files that it lacks and that another build's
 *  cache (`from`, or any) holds with the same bytes. */
async function adopt(from) {
  const cache = await caches.open(CACHE);
  for (const [path, hash] of Object.entries(onDemand)) {
    if (await cache.match(here(path).href, { ignoreVary: true })) continue;
    const found = from ? await sameBytes(from, path, hash) : await keptCopy(path, hash, CACHE);
    if (found) await cache.put(here(path).href, found);
  }
}

/** Forget the pages and workers that are gone; delete each older build's cache that has
 *  none left (after taking from it the on-demand files this build shares). A cache made
 *  after this build's while a newer build installs or waits is that build's: kept. */
async function tidy() {
  const alive = new Set((await self.clients.matchAll({ includeUncontrolled: true, type: "all" })).map((c) => c.id));
  const names = (await caches.keys()).filter(ours);
  const newer = Boolean(self.registration.installing || self.registration.waiting);
  const mine = names.indexOf(CACHE);
  for (const [at, name] of names.entries()) {
    const cache = await caches.open(name);
    const records = (await cache.keys()).map((r) => new URL(r.url)).filter((u) => u.pathname.startsWith(RECORDS));
    let live = 0;
    for (const url of records) {
      const id = url.pathname.slice(RECORDS.length);
      const parent = url.searchParams.get("parent");
      // A page's worker lives no longer than its page (and may linger a moment after it).
      if (alive.has(parent || id)) live += 1;
      else {
        await cache.delete(url.href);
        builds.delete(id);
      }
    }
    if (name === CACHE || live > 0 || (newer && at > mine)) continue;
    await adopt(name);
    await caches.delete(name);
    onDemandMaps.delete(name);
    for (const [id, n] of builds) if (n === name) builds.delete(id);
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Vendored runtimes live under versioned, immutable URLs: the HTTP cache may
      // answer (the page usually just downloaded them). Everything else revalidates.
      await cache.addAll(
        PRECACHE.map((path) => new Request(path, { cache: path.startsWith("./vendor/") ? "default" : "no-cache" })),
      );
      await cache.put(BUILD_KEY, new Response(JSON.stringify({ version: VERSION, onDemand: ON_DEMAND }), {
        headers: { "Content-Type": "application/json" },
      }));
      await adopt(null);
    })(),
  );
  // No skipWaiting() here: the page decides (see static/js/sw-register.mjs).
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = (await caches.keys()).filter(ours);  // in the order they were made
      const older = names.slice(0, names.indexOf(CACHE));
      const open = (await self.clients.matchAll({ includeUncontrolled: true, type: "all" }))
        .filter((c) => c.type === "window" || c.type === "worker");
      // The pages open now were loaded before this build took over: of the build before
      // it, whose worker recorded them (a worker from before this scheme did not: they
      // are recorded here, under the newest older cache). On a first install there is
      // no older build: they came from the network with this one, and this worker takes
      // control of them at once (nothing older to displace).
      const before = older.length ? older[older.length - 1] : CACHE;
      for (const client of open) {
        if (!(await caches.match(recordKey(client.id), { ignoreSearch: true }))) await remember(client.id, before);
      }
      if (!older.length) await self.clients.claim();
      await tidy();
    })(),
  );
});

self.addEventListener("message", (event) => {
  const type = event.data && event.data.type;
  if (type === "SKIP_WAITING") self.skipWaiting();
  // The build the asking page runs (its cache's), and this worker's.
  if (type === "VERSION" && event.source) {
    event.waitUntil(buildOf(event.source.id).then((name) =>
      event.source.postMessage({ type: "VERSION", version: name.slice(PREFIX.length), worker: VERSION })));
  }
  // A page of the site has started: the pages gone since may free an older build.
  if (type === "TIDY") event.waitUntil(tidy());
});

/** The request's answer from the cache `name` (a build's), or from the network: an
 *  on-demand file of that build is then kept there, or taken from another build's
 *  cache when it holds the same bytes. */
async function answer(request, url, key, name) {
  const cache = await caches.open(name);
  const hit = await cache.match(key);
  if (hit) return hit;
  const hash = (await onDemandOf(name))[url.pathname];
  if (!hash) return fetch(request);
  const kept = await keptCopy(url.pathname, hash, name);
  if (kept) {
    await keep(cache, url, kept.clone());
    return kept;
  }
  const response = await fetch(request);
  if (!response.ok) return response;
  if ((await sha256(await response.clone().arrayBuffer())) !== hash) {
    // The server holds another build now: answer what it has, keep none of it.
    console.warn(`service worker: ${url.pathname} is not the bytes of build ${name.slice(PREFIX.length)}: not kept`);
    return response;
  }
  await keep(cache, url, response.clone());
  return response;
}

/** Keep an on-demand file; storage that refuses (full) costs the offline copy, not the answer. */
async function keep(cache, url, response) {
  try {
    await cache.put(here(url.pathname).href, response);
  } catch (e) {
    console.warn(`service worker: ${url.pathname} not kept for offline use: ${(e && e.message) || e}`);
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // A page: this build, whatever the page it replaces ran. The precached page whatever
    // the query (?variant=..., ?seed=...); a folder means its index.html.
    if (event.resultingClientId) event.waitUntil(remember(event.resultingClientId, CACHE));
    const page = new URL(request.url);
    page.search = "";
    page.hash = "";
    if (page.pathname.endsWith("/")) page.pathname += "index.html";
    event.respondWith(answer(request, url, page.href, CACHE));
    return;
  }
  event.respondWith(
    (async () => {
      const name = await buildOf(event.clientId);
      // A worker starting (the engine's): it runs its page's build.
      if (event.resultingClientId) await remember(event.resultingClientId, name, event.clientId);
      return answer(request, url, request, name);
    })(),
  );
});
