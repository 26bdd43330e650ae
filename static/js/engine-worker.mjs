// The engine worker: a plain module Worker that boots
// Pyodide with `loadPyodide` and answers the page's requests by calling
// `generala.app.handle_parts(request_json)`: the reply's JSON text, its save's apart, and the
// facts the page reads as fields.
//
// It opens no IndexedDB (a cross-site iframe whose storage is denied still runs
// it), and touches no DOM and no storage.
//
// It boots from the engine's memory snapshot (generala.snapshot.gz, made by the build:
// tools/make_snapshot.mjs): Pyodide restores an interpreter that has already started
// and imported the engine, ~2 s instead of ~5.5 s here. The snapshot is ~4 MB more
// to download on a first visit, so a worker told that the link is slow (3G or less)
// or that data is to be saved uses it only once the service worker has it cached.
// The snapshot is published with Pyodide's initial memory taken out of it
// (static/js/snapshot-memory.mjs: ~1.5 MB less to download); Pyodide's own instance puts
// it back. Anything wrong with the snapshot (missing, unreadable, of another Pyodide or
// another engine build, an initial memory not the one it was made against, no
// DecompressionStream) is told on the console and the
// worker boots Pyodide in full. timings.boot says which: "snapshot" or "full".
//
// Protocol (structured-clone messages; docs/ARCHITECTURE.md "Messages between page and
// worker"). The engine's facts about a reply come as fields (generala.app.handle_parts):
// the page never searches or parses a reply's text, and JSON crosses as text (JavaScript's
// numbers would round a 64-bit seed).
//   worker -> page  {type: "alive", lock}                     once, at start: the name of the
//                                                             Web Lock this worker holds for its
//                                                             life, or null (no Web Locks here)
//   worker -> page  {type: "ready", version, timings}        once, after boot
//   worker -> page  {type: "error", message}                  boot failed
//   page -> worker  {id, request}                             request = JSON text
//   worker -> page  {id, reply, save, ok, kind, changed,     reply = JSON text of the reply
//                    local, coach, replay}                    without its save; save = the
//                                                             save's JSON text, or null; ok,
//                                                             kind (a refusal's, or null);
//                                                             changed: the request changed the
//                                                             game held (save and local rebuild
//                                                             it); local: a game by link's
//                                                             record as JSON text, or null;
//                                                             coach: the coach switch now;
//                                                             replay: the JSON text of the
//                                                             request that opens again the
//                                                             replay this one opened, or null
//   worker -> page  {id, error}                               the call raised
//   page -> worker  {type: "ping", n} -> {type: "pong", n}    answered at once (not queued)
//   worker -> page  {type: "busy", id}                        a call into the engine for request
//                                                             id starts (no message until it ends)
//   page -> worker  {type: "release"}, {type: "hold"}         let the lock go (the page may be
//                                                             left), take a new one (-> "alive")
// Requests are answered strictly one after the other, in the order they came: one that
// waits (for the boot, for a value table's download) holds up the ones behind it, so
// the game never sees a later request before an earlier one.

// The vendored runtime lives under a versioned path (immutable caching);
// tools/build.py checks this path against the installed npm version.
import { loadPyodide } from "../../vendor/pyodide/314.0.7/pyodide.mjs";
import { restoringSnapshot } from "./snapshot-memory.mjs";

const PYODIDE_URL = new URL("../../vendor/pyodide/314.0.7/", import.meta.url).href;
// The engine's files: the whole package for a boot in full; for a worker restored from the
// snapshot, only what the snapshot has not imported (tools/build.py, lazy_engine_zip).
const ENGINE_ZIP_URL = new URL("../../generala.zip", import.meta.url).href;
const LAZY_ZIP_URL = new URL("../../generala.lazy.zip", import.meta.url).href;
const SNAPSHOT_URL = new URL("../../generala.snapshot.gz", import.meta.url).href;
// The standard library: only the modules Pyodide's start-up and the engine import
// (tools/build.py traces them). The snapshot has imported every one of them, so a
// restored interpreter gets an empty zip and the 0.85 MB one is fetched only for a
// boot in full.
const STDLIB_URL = new URL("../../python_stdlib.zip", import.meta.url).href;
const NO_STDLIB_URL = new URL("../../python_stdlib.empty.zip", import.meta.url).href;
const ENGINE_DIR = "/home/pyodide/engine";

const t0 = performance.now();
const timings = {};
const PYODIDE_OPTIONS = {
  indexURL: PYODIDE_URL,
  stdLibURL: STDLIB_URL,
  packages: [],
  stdout: (line) => console.log(`[engine] ${line}`),
  stderr: (line) => console.warn(`[engine] ${line}`),
};

/** The engine's zip at `url` (fetching starts now; a failure is reported when awaited). */
function fetchEngine(url) {
  const zip = (async () => {
    const resp = await fetch(url);
    if (!resp.ok) throw new Error(`cannot fetch the engine (${resp.status} ${url})`);
    return resp.arrayBuffer();
  })();
  zip.catch(() => {});
  return zip;
}

/** The snapshot's memory image. Read whole, then unzipped: a host that sent it with
 *  Content-Encoding: gzip has already unzipped it (no gzip magic number then). */
async function fetchSnapshot() {
  const resp = await fetch(SNAPSHOT_URL);
  if (!resp.ok) throw new Error(`${resp.status} for ${SNAPSHOT_URL}`);
  // Unzipped as it arrives (not once it is all here): a slow link's last byte is then
  // followed by little more than the last chunk's inflation. A host that sent the file
  // with Content-Encoding: gzip has had the browser unzip it already: the first bytes say.
  const reader = resp.body.getReader();
  let first = await reader.read();
  while (!first.done && first.value.length < 2) {  // a first chunk of one byte: join the next
    const next = await reader.read();
    if (next.done) break;
    const joined = new Uint8Array(first.value.length + next.value.length);
    joined.set(first.value);
    joined.set(next.value, first.value.length);
    first = { done: false, value: joined };
  }
  const body = new ReadableStream({
    start(controller) {
      if (!first.done) controller.enqueue(first.value);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const head = first.done ? new Uint8Array(0) : first.value;
  if (head[0] !== 0x1f || head[1] !== 0x8b) return new Uint8Array(await new Response(body).arrayBuffer());
  if (typeof DecompressionStream !== "function") throw new Error("this browser has no DecompressionStream");
  return new Uint8Array(await new Response(body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
}

const SLOW_LINKS = ["slow-2g", "2g", "3g"];  // navigator.connection.effectiveType

/** Boot from the snapshot? Yes when it is at hand (the service worker's cache);
 *  otherwise unless the browser says the link is slow or data is to be saved: at
 *  3G speeds, downloading it costs more time than restoring it saves. */
async function snapshotWanted() {
  const link = self.navigator.connection;  // Chromium only; elsewhere assume a fair link
  if (!link || (!link.saveData && !SLOW_LINKS.includes(link.effectiveType))) return true;
  try {
    return Boolean(await caches.match(SNAPSHOT_URL));
  } catch {
    return false;  // no Cache Storage here (a storage-denied iframe)
  }
}

function installEngine(pyodide, zip) {
  pyodide.unpackArchive(zip, "zip", { extractDir: ENGINE_DIR });
  pyodide.runPython(`import sys\nif ${JSON.stringify(ENGINE_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(ENGINE_DIR)})`);
}

/** Pyodide restored from the snapshot, with the engine build of `zip`; throws if not. */
async function bootFromSnapshot(zipPromise) {
  // Pyodide's module script, imported here (loadPyodide would import it itself) so that its
  // WebAssembly instance's initial memory can be read: its download starts now, beside the
  // snapshot's and the WebAssembly's (loadPyodide starts that one).
  const asm = import(`${PYODIDE_URL}pyodide.asm.mjs`);
  asm.catch(() => {});  // awaited when loadPyodide instantiates; a failure is reported there
  const restoring = restoringSnapshot(async (settings) => (await asm).default(settings), fetchSnapshot());
  const pyodide = await loadPyodide({ ...PYODIDE_OPTIONS, stdLibURL: NO_STDLIB_URL, ...restoring });
  installEngine(pyodide, await zipPromise);  // the files, for modules imported later
  const same = pyodide.runPython(`
import generala
with open(${JSON.stringify(ENGINE_DIR + "/generala/BUILD")}, encoding="ascii") as f:
    same = f.read().strip() == getattr(generala, "SNAPSHOT_BUILD", None)
if same:
    import random
    random.seed()  # the snapshot's generator was seeded at build time: reseed from the OS
same`);
  if (!same) throw new Error("it holds another build of the engine");
  return pyodide;
}

async function bootInFull(zipPromise) {
  const [pyodide, zip] = await Promise.all([loadPyodide(PYODIDE_OPTIONS), zipPromise]);
  installEngine(pyodide, zip);
  return pyodide;
}

async function boot() {
  // The engine's files download while Pyodide boots; a failure to fetch them fails the boot.
  let pyodide = null;
  if (await snapshotWanted()) {
    const lazy = fetchEngine(LAZY_ZIP_URL);
    try {
      pyodide = await bootFromSnapshot(lazy);
      timings.boot = "snapshot";
    } catch (err) {
      await lazy;  // no engine at all: that is the boot's failure, not the snapshot's
      console.warn(`[engine] booting Pyodide in full, not from the snapshot: ${String((err && err.message) || err)}`);
    }
  }
  if (pyodide === null) {
    pyodide = await bootInFull(fetchEngine(ENGINE_ZIP_URL));
    timings.boot = "full";
  }
  timings.pyodide = Math.round(performance.now() - t0);
  const app = pyodide.pyimport("generala.app");
  const handleParts = app.handle_parts;
  const version = pyodide.pyimport("generala").__version__;
  timings.engine = Math.round(performance.now() - t0);
  return { pyodide, handleParts, version };
}

// Value tables of the computer players and the coach load only when first needed:
// the engine answers NeedTable with the file's name and where it reads it from.
// catalog.json (from the build) lists the shipped tables: no request is made for
// one that is not there (house options), the page then asks the engine to solve.
const TABLES_URL = new URL("../tables/", import.meta.url).href;
const CATALOG_URL = new URL("../../catalog.json", import.meta.url).href;
let shippedTables = null;

async function fetchTable(pyodide, needed) {
  let resp;
  try {
    if (shippedTables === null) {
      const listed = await fetch(CATALOG_URL);
      const catalog = listed.ok ? await listed.json() : {};
      shippedTables = new Set(Object.values(catalog.variants || {}).flatMap((v) => v.tables || []));
    }
    if (!shippedTables.has(needed.table)) return false;
    resp = await fetch(TABLES_URL + needed.table);
  } catch (_err) {
    return false;  // offline, the file not kept yet: the engine's NeedTable goes to the page
  }
  if (!resp.ok) return false;  // not shipped (house options): the page asks the engine to solve
  const dir = needed.path.slice(0, needed.path.lastIndexOf("/"));
  pyodide.FS.mkdirTree(dir);
  pyodide.FS.writeFile(needed.path, new Uint8Array(await resp.arrayBuffer()));
  return true;
}

/** The engine's answer to one request, in its parts (generala.app.handle_parts: texts,
 *  true/false and null only, never a number): {reply: the reply's JSON text without its
 *  save, save, ok, kind, changed, local, coach, replay, table, path}. */
function answer(engine, request) {
  const parts = engine.handleParts(request);
  try {
    const got = parts.toJs({ dict_converter: Object.fromEntries });
    const text = (v) => (v == null ? null : String(v));
    return { reply: String(got.reply), save: text(got.save), ok: got.ok === true, kind: text(got.kind),
      changed: got.changed === true, local: text(got.local), coach: got.coach === true, replay: text(got.replay),
      table: text(got.table), path: text(got.path) };
  } finally {
    parts.destroy();
  }
}

// The worker's life, for the page (static/js/engine.mjs): a worker that closes itself,
// is killed for memory or crashes fires no event on the page. So this worker holds a
// Web Lock of a name of its own and tells the page the name; the page asks for the same
// lock, which it is granted only once this worker is gone (measured: Chromium, Firefox
// ESR and WebKitGTK grant it 5-25 ms after self.close() or terminate(), and never while
// the worker computes). Where Web Locks are refused (a cross-site iframe whose storage
// is denied: the request rejects with SecurityError) it says lock: null, and the page
// pings it instead while it waits for replies.
// Firefox keeps no page in its back/forward cache while its worker holds a lock: the page
// says {type: "release"} as it may be left (beforeunload) and {type: "hold"} to take a
// new lock when it stays or comes back.
let lifeLock = null; // {name, release}: the lock held now

function holdLife() {
  if (lifeLock !== null) return;
  const alive = (lock, why) => postMessage(why ? { type: "alive", lock, why } : { type: "alive", lock });
  const why = (err) => `${(err && err.name) || "Error"}: ${(err && err.message) || err}`;
  try {
    const locks = self.navigator.locks;
    if (!locks || typeof locks.request !== "function") {
      alive(null, "no Web Locks in this browser");
      return;
    }
    const id = typeof crypto.randomUUID === "function" ? crypto.randomUUID()
      : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    const name = `generala-engine-worker-${id}`;
    const held = { name, release: null, released: false };
    lifeLock = held;
    locks.request(name, () => {
      if (held.released) return undefined; // let go before it was granted
      alive(name);
      return new Promise((resolve) => {
        held.release = resolve; // else held until this worker is gone
      });
    }).catch((err) => {
      if (lifeLock === held) lifeLock = null;
      alive(null, why(err));
    });
  } catch (err) {
    lifeLock = null;
    alive(null, why(err));
  }
}

function releaseLife() {
  const held = lifeLock;
  lifeLock = null;
  if (held === null) return;
  held.released = true;
  if (held.release) held.release();
}

holdLife();
const booting = boot();

booting.then(
  ({ version }) => postMessage({ type: "ready", version: String(version), timings }),
  (err) => postMessage({ type: "error", message: String((err && err.message) || err) }),
);

/** Answer one request (never throws: every failure is posted as {id, error}). */
async function serve(id, request) {
  let engine;
  try {
    engine = await booting;
  } catch (err) {
    postMessage({ id, error: `engine failed to start: ${String((err && err.message) || err)}` });
    return;
  }
  try {
    postMessage({ type: "busy", id }); // the page's pings go unanswered until it is done
    let parts = answer(engine, String(request));
    // ask again once the file is in place: a request may need two (the win chances: the
    // value table, then its laws file)
    for (let fetched = 0; fetched < 3 && parts.kind === "NeedTable" && (await fetchTable(engine.pyodide, parts)); fetched++) {
      postMessage({ type: "busy", id });
      parts = answer(engine, String(request));
    }
    const { reply, save, ok, kind, changed, local, coach, replay } = parts;
    postMessage({ id, reply, save, ok, kind, changed, local, coach, replay });
  } catch (err) {
    postMessage({ id, error: String((err && err.message) || err) });
  }
}

// One request at a time, in the order they came (see the protocol above).
let queue = Promise.resolve();

self.onmessage = (event) => {
  const data = event.data || {};
  if (data.type === "ping") {
    postMessage({ type: "pong", n: data.n });
    return;
  }
  if (data.type === "release") {
    releaseLife();
    return;
  }
  if (data.type === "hold") {
    holdLife();
    return;
  }
  const { id, request } = data;
  queue = queue.then(() => serve(id, request));
};
