// The engine worker: a PLAIN module Worker (not a PyScript worker) that boots
// Pyodide with `loadPyodide` and answers the page's requests by calling
// `generala.app.handle(request_json) -> reply_json`.
//
// Why plain: PyScript's Pyodide loader always opens IndexedDB, so a PyScript
// worker never starts in a cross-site iframe whose storage is denied; this one
// does. It touches no DOM and no storage.
//
// Protocol (structured-clone messages):
//   worker -> page  {type: "ready", version, timings}        once, after boot
//   worker -> page  {type: "error", message}                  boot failed
//   page -> worker  {id, request}                             request = JSON text
//   worker -> page  {id, reply}                               reply = JSON text
//   worker -> page  {id, error}                               the call raised
// Requests sent before "ready" are queued behind the boot.

// The vendored runtime lives under a versioned path (immutable caching);
// tools/build.py checks this path against the installed npm version.
import { loadPyodide } from "../../vendor/pyodide/314.0.7/pyodide.mjs";

const PYODIDE_URL = new URL("../../vendor/pyodide/314.0.7/", import.meta.url).href;
const ENGINE_ZIP_URL = new URL("../../generala.zip", import.meta.url).href;
const ENGINE_DIR = "/home/pyodide/engine";

const t0 = performance.now();
const timings = {};

async function fetchEngine() {
  const resp = await fetch(ENGINE_ZIP_URL);
  if (!resp.ok) throw new Error(`cannot fetch the engine (${resp.status} ${ENGINE_ZIP_URL})`);
  return resp.arrayBuffer();
}

async function boot() {
  // Download the engine package while Pyodide boots; fail as soon as either fails.
  const [pyodide, zip] = await Promise.all([
    loadPyodide({
      indexURL: PYODIDE_URL,
      packages: [],
      stdout: (line) => console.log(`[engine] ${line}`),
      stderr: (line) => console.warn(`[engine] ${line}`),
    }).then((py) => {
      timings.pyodide = Math.round(performance.now() - t0);
      return py;
    }),
    fetchEngine(),
  ]);
  pyodide.unpackArchive(zip, "zip", { extractDir: ENGINE_DIR });
  pyodide.runPython(`import sys\nif ${JSON.stringify(ENGINE_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(ENGINE_DIR)})`);
  const app = pyodide.pyimport("generala.app");
  const handle = app.handle;
  const version = pyodide.pyimport("generala").__version__;
  timings.engine = Math.round(performance.now() - t0);
  return { pyodide, handle, version };
}

// Value tables of the computer players and the coach load only when first needed:
// the engine answers NeedTable with the file's name and where it reads it from.
// catalog.json (from the build) lists the shipped tables: no request is made for
// one that is not there (house options), the page then asks the engine to solve.
const TABLES_URL = new URL("../tables/", import.meta.url).href;
const CATALOG_URL = new URL("../../catalog.json", import.meta.url).href;
let shippedTables = null;

async function fetchTable(pyodide, reply) {
  if (!reply || reply.kind !== "NeedTable") return false;
  if (shippedTables === null) {
    const resp = await fetch(CATALOG_URL);
    const catalog = resp.ok ? await resp.json() : {};
    shippedTables = new Set(Object.values(catalog).flatMap((v) => v.tables || []));
  }
  if (!shippedTables.has(reply.table)) return false;
  const resp = await fetch(TABLES_URL + reply.table);
  if (!resp.ok) return false;  // not shipped (house options): the page asks the engine to solve
  const dir = reply.path.slice(0, reply.path.lastIndexOf("/"));
  pyodide.FS.mkdirTree(dir);
  pyodide.FS.writeFile(reply.path, new Uint8Array(await resp.arrayBuffer()));
  return true;
}

const booting = boot();

booting.then(
  ({ version }) => postMessage({ type: "ready", version: String(version), timings }),
  (err) => postMessage({ type: "error", message: String((err && err.message) || err) }),
);

self.onmessage = async (event) => {
  const { id, request } = event.data || {};
  let engine;
  try {
    engine = await booting;
  } catch (err) {
    postMessage({ id, error: `engine failed to start: ${String((err && err.message) || err)}` });
    return;
  }
  try {
    let reply = String(engine.handle(String(request)));
    if (reply.includes('"NeedTable"') && (await fetchTable(engine.pyodide, JSON.parse(reply)))) {
      reply = String(engine.handle(String(request)));  // ask again, the table is in place
    }
    postMessage({ id, reply });
  } catch (err) {
    postMessage({ id, error: String((err && err.message) || err) });
  }
};
