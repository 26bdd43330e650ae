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
    const reply = engine.handle(String(request));
    postMessage({ id, reply: String(reply) });
  } catch (err) {
    postMessage({ id, error: String((err && err.message) || err) });
  }
};
