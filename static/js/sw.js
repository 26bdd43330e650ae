// The service worker: precaches the site (the vendored runtimes included) under a
// cache named after the build's content hash, and serves it cache-first, every file
// checked against the SHA-256 the build published (ONLY WHAT THE BUILD PUBLISHED), so
// after one online visit the game boots and plays offline.
//
// tools/build.py publishes this file as /sw.js (the site root: its scope is the
// whole site), replacing the placeholders below with the build's version, every file it
// publishes with the SHA-256 of its bytes and its headers, and the files fetched on
// demand.
// A new build = a new sw.js = a new cache: it installs beside the old one and WAITS;
// the page offers "new version — reload" and only then asks it to take over (never on
// its own under a game in progress; static/js/sw-register.mjs).
//
// ONE BUILD PER PAGE. When a new worker takes over, the browser makes it the
// controller of EVERY page the old one controlled (the Activate algorithm of the
// Service Workers spec; clients.claim() is not even needed for that), not only of
// the tab that asked. Those other tabs still run the old build's code, and load more
// of it later: the UI (PyScript, pyscript.json, MicroPython, the UI's bytecode, catalog.json) at the
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
//   ./__sw/build.json          {"version", "onDemand": {path: sha256}, "files": {path:
//                              sha256}} of this build (every file it may serve)
// The memory below (`builds`, `lists`) only saves looking them up again.
//
// ONLY WHAT THE BUILD PUBLISHED. Cache Storage is the whole origin's: any script of the
// site, a worker included, can put any response under any URL in these caches, and a
// response put by a script carries only the headers it was given (no
// Content-Security-Policy). So nothing is served as it lies in a cache:
//   - A file is served from a cache only when the build of that cache lists its path, and
//     only once the SHA-256 of the cached bytes is the one that build listed. A copy that
//     is not is dropped from the cache (a warning in the console) and the file is taken
//     again: from another build's cache that holds the same bytes, else from the network.
//     Bytes from the network that are the build's are kept; bytes that are not (the
//     server holds another build now) are answered as the server sent them, with the
//     server's own headers, and not kept: what the browser would get with no service
//     worker at all, never a copy out of the cache.
//   - What it serves carries the headers the site's server sends for that path (HEADERS:
//     netlify.toml's [[headers]] rules and the file's Content-Type, derived by the build
//     with tools/serve.py's code), whoever put the copy in the cache and with whatever
//     headers: the cached response itself when it is exactly that (status 200, those
//     headers and no other: Chromium then reuses the code it compiled from it before, a
//     new response has none), else a new response made from the checked bytes, which
//     also takes its place in the cache.
//   - A path the build did not publish is never answered from the cache (a copy there is
//     dropped): the network answers it. The records under ./__sw/ are never served.
//   - The precache at install is checked too: a file whose bytes are not this build's
//     (fetched once more past the HTTP cache) fails the install, and its cache goes (the
//     server holds a newer build: the browser finds its sw.js at the next update check).
// This build's list (FILES) and headers come with this file from the server. An older
// build's list, for the tabs still open on it, is the one its cache's __sw/build.json
// holds: it lies in Cache Storage like the records, so a script that rewrites both could
// choose what such a tab loads next. A new page, and every page of this build, is served
// only this build's checked files. A cache of a build that published no list (from before
// this check) is not used: its tabs are served this build's files. The headers are always
// this build's (for a path it does not publish: those of a file of that type,
// HEADERS_OTHER).
// The cost: every file served is read and hashed (crypto.subtle.digest, native) once per
// request, before any of it is served; docs/saves-and-offline.md has the figures.
//
// READ AHEAD. A page's boot asks for a few large files (the engine's runtime and
// snapshot, the UI's interpreter and bytecode: READ_AHEAD, chosen by the build by size)
// some 0.3 s after its navigation. Read and checked only when asked for, they would keep
// the boot waiting for that work; so the navigation starts it, and the request takes the
// checked response when it comes (a copy found not to be the build's was dropped: the
// file is taken again as above). What was read ahead and not asked for within
// READ_AHEAD_MS is let go.
//
// ON DEMAND. Files listed in ON_DEMAND (the large value tables of the computer players
// and the coach, the standard library of a boot in full) are not precached: the engine
// worker fetches one when a game first needs it, and this service worker keeps it in the
// page's build's cache (only when its bytes are that build's: a server that already holds
// a newer build answers a file the cache must not keep), so from then on it works offline
// too. A new build takes the ones whose bytes did not change from the older caches (at
// install, before an older cache is deleted, and at a request that finds one there): an
// update never costs an offline player the optimal and expert players. A file whose bytes
// changed is fetched again when first needed, and its old bytes go with the old cache.
//
// It is registered only once the page can roll (static/js/sw-register.mjs): its
// precache never competes with the boot for bandwidth.

const VERSION = "__GENERALA_VERSION__";
// "./path" -> [SHA-256 of its bytes, its headers: an index in HEADERS], for every file of
// this build that this worker may serve (the precached ones and those fetched on demand).
const FILES = { "__GENERALA_FILES__": ["", 0] };
// The sets of headers the site's server sends ({name: value}).
const HEADERS = [{ "__GENERALA_HEADERS__": "" }];
// A path this build does not publish (an older build's file): the headers of a file of
// its type, by the extension of its name ("" for any other).
const HEADERS_OTHER = { "__GENERALA_HEADERS_OTHER__": 0 };
const ON_DEMAND = ["__GENERALA_ON_DEMAND__"];
// The large files a page loads as it boots, read ahead at its navigation (see READ AHEAD).
const READ_AHEAD = ["__GENERALA_READ_AHEAD__"];
const READ_AHEAD_MS = 30_000;  // bytes read ahead and not asked for are let go then
const PREFIX = "generala-";
const CACHE = PREFIX + VERSION;

const here = (path) => new URL(path, self.location.href);
const OWN = here("./__sw/").pathname;  // the worker's records: never a site file
const RECORDS = here("./__sw/client/").pathname;
const BUILD_KEY = here("./__sw/build.json").href;
const recordKey = (id, parent) => here(`./__sw/client/${id}${parent ? `?parent=${parent}` : ""}`).href;

/** {"./path": sha256} -> {pathname: sha256}. */
const byPathname = (list) => Object.fromEntries(Object.entries(list).map(([path, hash]) => [here(path).pathname, hash]));

const hashes = Object.fromEntries(Object.entries(FILES).map(([path, [hash]]) => [path, hash]));
const onDemand = Object.fromEntries(ON_DEMAND.map((path) => [path, hashes[path]]));
const PRECACHE = Object.keys(FILES).filter((path) => !(path in onDemand));
const headerSets = Object.fromEntries(Object.entries(FILES).map(([path, [, set]]) => [here(path).pathname, set]));

const builds = new Map(); // client id -> cache name (what its record says)
const ahead = new Map(); // pathname -> this build's file read and checked at a navigation (a promise)
const lists = new Map([[CACHE, byPathname(hashes)]]); // cache name -> its build's {pathname: sha256}

const ours = (name) => name.startsWith(PREFIX);

async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The headers the site's server sends with the file at `pathname`: an index in HEADERS. */
function headersOf(pathname) {
  const set = headerSets[pathname];
  if (set !== undefined) return set;
  const ext = /(\.[^./]*)?$/.exec(pathname)[0].toLowerCase();
  return HEADERS_OTHER[ext] ?? HEADERS_OTHER[""];
}

/** The file at `pathname` as the site's server sends it: `body` (checked) with its headers. */
const fresh = (pathname, body) => new Response(body, { status: 200, statusText: "OK", headers: HEADERS[headersOf(pathname)] });

const lowerCase = HEADERS.map((set) => new Map(Object.entries(set).map(([name, value]) => [name.toLowerCase(), value])));

/** Whether `response` (its bytes checked) is as fresh() makes the file at `pathname`. */
function asServed(response, pathname) {
  if (response.status !== 200 || response.statusText !== "OK" || response.redirected || response.type !== "default") return false;
  const want = lowerCase[headersOf(pathname)];
  let n = 0;
  for (const [name, value] of response.headers) {
    if (want.get(name) !== value) return false;
    n += 1;
  }
  return n === want.size;
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
    try {
      name = record ? (await record.json()).cache : CACHE;
    } catch (_e) {
      name = CACHE;  // not a record this worker wrote
    }
    // A record whose cache is gone (storage evicted), or whose build published no list
    // of its files, cannot be honoured: this build.
    if (name !== CACHE && !(typeof name === "string" && ours(name) && (await listOf(name)))) name = CACHE;
    builds.set(id, name);
  }
  return name;
}

/** The files of the build of cache `name`, {pathname: sha256}; null for a cache that is
 *  gone or whose build did not say. */
async function listOf(name) {
  let list = lists.get(name);
  if (list === undefined) {
    if (!(await caches.has(name))) return null;
    const found = await (await caches.open(name)).match(BUILD_KEY);
    let files = null;
    try {
      files = found ? (await found.json()).files : null;
    } catch (_e) { /* not JSON: no list */ }
    if (!files || typeof files !== "object") return null;
    list = byPathname(Object.fromEntries(Object.entries(files).filter(([, h]) => /^[0-9a-f]{64}$/.test(h))));
    lists.set(name, list);
  }
  return list;
}

/** The bytes of the file at `pathname` that the cache `name` holds, when their SHA-256 is
 *  `hash`; else null. */
async function sameBytes(name, pathname, hash) {
  const found = await (await caches.open(name)).match(here(pathname).href, { ignoreVary: true });
  if (!found) return null;
  const body = await found.arrayBuffer();
  return (await sha256(body)) === hash ? body : null;
}

/** The bytes of the file at `pathname` with the SHA-256 `hash` from another build's cache,
 *  or null. */
async function keptCopy(pathname, hash, except) {
  for (const name of (await caches.keys()).filter((n) => ours(n) && n !== except)) {
    const body = await sameBytes(name, pathname, hash);
    if (body) return body;
  }
  return null;
}

/** Take into this build's cache its on-demand files that it lacks and that another build's
 *  cache (`from`, or any) holds with the same bytes. */
async function adopt(from) {
  const cache = await caches.open(CACHE);
  for (const [path, hash] of Object.entries(onDemand)) {
    const pathname = here(path).pathname;
    if (await sameBytes(CACHE, pathname, hash)) continue;
    const body = from ? await sameBytes(from, pathname, hash) : await keptCopy(pathname, hash, CACHE);
    if (body) await keep(cache, pathname, fresh(pathname, body));
  }
}

/** Forget the pages and workers that are gone; drop from each build's cache what that build
 *  did not publish; delete each older build's cache that has no page or worker left (after
 *  taking from it the on-demand files this build shares). A cache made after this build's
 *  while a newer build installs or waits is that build's: left alone. */
async function tidy() {
  const alive = new Set((await self.clients.matchAll({ includeUncontrolled: true, type: "all" })).map((c) => c.id));
  const names = (await caches.keys()).filter(ours);
  const newer = Boolean(self.registration.installing || self.registration.waiting);
  const mine = names.indexOf(CACHE);
  for (const [at, name] of names.entries()) {
    if (newer && at > mine) continue;
    const cache = await caches.open(name);
    const list = await listOf(name);
    let live = 0;
    for (const request of await cache.keys()) {
      const url = new URL(request.url);
      if (url.pathname.startsWith(RECORDS)) {
        const id = url.pathname.slice(RECORDS.length);
        const parent = url.searchParams.get("parent");
        // A page's worker lives no longer than its page (and may linger a moment after it).
        if (alive.has(parent || id)) live += 1;
        else {
          await cache.delete(request);
          builds.delete(id);
        }
      } else if (list && url.href !== BUILD_KEY && (url.search || !(url.pathname in list))) {
        await cache.delete(request);  // not a file of that build: never served, not kept
      }
    }
    if (name === CACHE || live > 0) continue;
    await adopt(name);
    await caches.delete(name);
    lists.delete(name);
    for (const [id, n] of builds) if (n === name) builds.delete(id);
  }
}

/** Fetch the file at `path` and keep it in `cache` when its bytes are this build's; else
 *  throw. Vendored runtimes live under versioned, immutable URLs: the HTTP cache may answer
 *  (the page usually just downloaded them). Everything else revalidates. Bytes that are
 *  not this build's are fetched once more past the HTTP cache. */
async function precache(cache, path) {
  let problem = "";
  for (const mode of [path.startsWith("./vendor/") ? "default" : "no-cache", "reload"]) {
    const response = await fetch(new Request(path, { cache: mode }));
    if (!response.ok) {
      problem = `answered ${response.status}`;
      continue;
    }
    const body = await response.arrayBuffer();
    if ((await sha256(body)) === hashes[path]) return cache.put(here(path).href, fresh(here(path).pathname, body));
    problem = `is not the bytes of build ${VERSION}`;
  }
  throw new Error(`service worker: ${path} ${problem}: not installed`);
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const made = !(await caches.has(CACHE));
      const cache = await caches.open(CACHE);
      try {
        await Promise.all(PRECACHE.map((path) => precache(cache, path)));
      } catch (e) {
        // The server holds other bytes (a newer build: the browser finds its sw.js at the
        // next update check). The install fails; so does its cache.
        if (made) await caches.delete(CACHE);
        throw e;
      }
      await cache.put(BUILD_KEY, new Response(JSON.stringify({ version: VERSION, onDemand, files: hashes }), {
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

/** The answer to `request` for the file at `pathname` of the build of cache `name`: its
 *  checked bytes from that cache, else from another build's cache that holds the same
 *  bytes, else from the network (kept when they are that build's). A path the build did
 *  not publish: the network's answer. */
async function answer(request, pathname, name) {
  const early = name === CACHE && ahead.get(pathname);
  if (early) {
    ahead.delete(pathname);
    const response = await early;
    if (response) return response;
  }
  let list = await listOf(name);
  if (!list) {  // its cache went meanwhile (storage evicted): this build
    name = CACHE;
    list = lists.get(CACHE);
  }
  const hash = list[pathname];
  const cache = await caches.open(name);
  if (hash === undefined) {
    // A copy in the cache of a file the build did not publish is never served (the
    // worker's own records stay: they are never served either).
    if (!pathname.startsWith(OWN)) await cache.delete(here(pathname).href, { ignoreSearch: true, ignoreVary: true });
    return fetch(request);
  }
  const hit = early ? null : await cached(name, pathname, hash);
  if (hit) return hit;
  const kept = await keptCopy(pathname, hash, name);
  if (kept) {
    await keep(cache, pathname, fresh(pathname, kept));
    return fresh(pathname, kept);
  }
  const response = await fetch(request);
  if (!response.ok) return response;
  const body = await response.clone().arrayBuffer();
  if ((await sha256(body)) !== hash) {
    // The server holds another build now: answer what it sent, keep none of it.
    console.warn(`service worker: ${pathname} is not the bytes of build ${name.slice(PREFIX.length)}: not kept`);
    return response;
  }
  await keep(cache, pathname, fresh(pathname, body));
  return fresh(pathname, body);
}

/** The file at `pathname` from the cache `name`, when the SHA-256 of its bytes there is
 *  `hash`: the cached response itself when it is as the site's server sends it (status
 *  200, its headers and no other: the code compiled from it is reused), else one made
 *  anew from its bytes (and kept in its place). Null when the cache
 *  holds no copy, or one whose bytes are not those (dropped). */
async function cached(name, pathname, hash) {
  const cache = await caches.open(name);
  const key = here(pathname).href;
  const hit = await cache.match(key, { ignoreVary: true });
  if (!hit) return null;
  const body = await hit.clone().arrayBuffer();
  if ((await sha256(body)) !== hash) {
    console.warn(`service worker: the cached ${pathname} is not the bytes of build ${name.slice(PREFIX.length)}: dropped`);
    await cache.delete(key, { ignoreVary: true });
    return null;
  }
  if (asServed(hit, pathname)) return hit;
  await keep(cache, pathname, fresh(pathname, body));
  return fresh(pathname, body);
}

/** Read and check this build's READ_AHEAD files, for the page that is starting. */
function readAhead() {
  for (const path of READ_AHEAD) {
    const pathname = here(path).pathname;
    if (ahead.has(pathname)) continue;  // another page's, not asked for yet
    const early = cached(CACHE, pathname, hashes[path]).catch(() => null);
    ahead.set(pathname, early);
    setTimeout(() => ahead.get(pathname) === early && ahead.delete(pathname), READ_AHEAD_MS);
  }
}

/** Keep a file's checked copy; storage that refuses (full) costs the offline copy, not the
 *  answer. */
async function keep(cache, pathname, response) {
  try {
    await cache.put(here(pathname).href, response);
  } catch (e) {
    console.warn(`service worker: ${pathname} not kept for offline use: ${(e && e.message) || e}`);
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // A page: this build, whatever the page it replaces ran. The page's file whatever the
    // query (?variant=..., ?seed=...); a folder means its index.html.
    if (event.resultingClientId) event.waitUntil(remember(event.resultingClientId, CACHE));
    const pathname = url.pathname.endsWith("/") ? `${url.pathname}index.html` : url.pathname;
    const page = answer(request, pathname, CACHE);
    event.respondWith(page);
    event.waitUntil(page.then(readAhead, () => {}));
    return;
  }
  event.respondWith(
    (async () => {
      const name = await buildOf(event.clientId);
      // A worker starting (the engine's): it runs its page's build.
      if (event.resultingClientId) await remember(event.resultingClientId, name, event.clientId);
      return answer(request, url.pathname, name);
    })(),
  );
});
