// When the page's UI (static/ui/: MicroPython, started by PyScript) starts.
//
// The home screen is plain HTML, drawn at the first paint in the page's language, and
// the engine worker boots behind it (engine.mjs). The UI costs the page's thread about
// a second of work on a phone (PyScript and MicroPython starting, the UI's modules, the
// page's parts), done in slices of one browser task each where it is ours (static/ui/
// main.py), so it never holds up the page for long; and a person who came to play must
// not wait for it at the first tap. Two steps:
// - load(): PyScript's core is imported. It reads the page's config (pyscript.json, from
//   pyscript.toml), loads MicroPython, unpacks the UI's bytecode into its file system and
//   runs index.html's <script type="mpy">, whose main.run() then waits for start();
// - start(why): main.run() goes on: the UI's modules are imported and the page is built.
// It starts:
// - at once (after the first paint) when there is something only it can draw: a game
//   in progress or saved games in storage, or a URL that carries a game (?variant=,
//   ?seed=, a link's #hash);
// - else by itself: PyScript is loaded once the page has loaded and is idle, and the
//   UI's own work starts once the engine is ready and the page is idle again
//   (requestIdleCallback; a short timer where there is none), so the two do not compete
//   for a phone's cores and the first roll's engine comes first; or, on a phone whose
//   engine is slower, one second after the load at the latest, so that a person who taps
//   two seconds after the load finds the page ready (bench/boot.py, "first tap"). Only
//   the modules the board needs are imported then; the other screens are built once the
//   page is ready (static/ui/screens/features.py). A person's first input
//   (a pointer moving or pressed, a key, a focus, a wheel, a scroll, a click, a change)
//   starts it at once. What is tapped or picked before the UI is ready is kept
//   (first-tap.mjs) and played once it is; the one-tap game is prepared meanwhile
//   (static/ui/page/first_game.py).
// An embedded game (?embed=1) starts by itself only once it is on the reader's screen
// (IntersectionObserver): a reader who scrolls past it does not pay for the UI. Until
// then, once the engine is ready, the UI's files are fetched into the HTTP cache at low
// priority, so a late first tap waits for start-up work, not the network.
// <html data-ui="starting" data-ui-start="page|idle|input"> says that it started and why.
//
// PyScript and the Content-Security-Policy: PyScript's core builds one function from a
// string (`Function()`: the glue of the hooks it passes to PyScript *workers*) as soon as
// it sets up its types, which the site's policy ('wasm-unsafe-eval', no 'unsafe-eval')
// refuses. The page starts no PyScript worker, so that hook's one callback is removed right
// after the import, before MicroPython has loaded (PyScript reads its hooks only then):
// nothing is built from a string, and the policy stays as strict (docs/deploy.md).
//
// PyScript's own package: PyScript writes it into MicroPython's files as source at start
// and imports it (MicroPython would compile it on the page's thread). pyscript.toml's
// [files] also writes it as bytecode into PYSCRIPT_BYTECODE (the build compiles it from the
// same sources), and PyScript's main onReady hook, which runs before PyScript's own
// Python, puts that folder first on sys.path: the import finds the bytecode (main.py takes
// it off again once that import is done).
//
// Each import looks for its module in the folders of sys.path, and each file not found is
// an exception in MicroPython's file system (Emscripten's FS.ErrnoError). That class
// extends Error, so every miss captured a stack trace and looked up the error's text: the
// page's imports at start spent ~55 ms of a 1x CPU's time (over 200 ms at 4x) making
// errors no one reads. The same hook gives that interpreter's FS a plain class with the
// same name and errno (what Emscripten's system calls read from it to answer ENOENT).
// (Before that hook, PyScript's writes of its [files] make such errors too, one for each
// folder that exists already: ~14 ms at 1x, left as they are.)
import engine from "./engine.mjs";
import storage from "./storage.mjs";

const root = document.documentElement;
// PyScript (vendored by tools/build.py from npm's @pyscript/core) and its config for the page.
const PYSCRIPT = new URL("../../vendor/pyscript/0.7.31/core.js", import.meta.url);
const CONFIG = new URL("../../pyscript.json", import.meta.url);
const PYSCRIPT_BYTECODE = "/pyscript-mpy";
// Every file of the config's [files] (the UI's bytecode, PyScript's package as bytecode)
// in one gzip download, written by tools/build.py (write_files_pack): readPack().
const FILES_PACK = new URL("../../pyscript-files.gz", import.meta.url);
// Stored values that only set preferences (no screen lists them). generala.quick (the
// last one-tap game and level) is not one of them: the UI shows it in the lists.
const PREFERENCES = new Set(["generala.lang", "generala.motion", "generala.sound", "generala.sound.embed", "generala.coach"]);
// URL parameters the plain page answers itself (page-lang.js, embed.mjs).
const PAGE_PARAMS = new Set(["lang", "embed"]);
// A click and a change come without a pointer or a key from a screen reader's browse
// mode (it activates the button itself), so they count too.
const INTENT = ["pointerdown", "pointermove", "keydown", "touchstart", "focusin", "wheel", "scroll", "click", "change"];
// The longest an idle start waits for the browser to be idle after the first paint.
const IDLE_WAIT_MS = 1000;
// The UI starts by itself once the engine is ready, or this long after the load event
// if the engine is not ready by then (a slow phone's engine boots in 1-2 s).
const UI_LATEST_MS = 1000;
// A page that paints no frame (a tab opened in the background) starts this much later.
const UNPAINTED_MS = 3000;
const embedded = new URLSearchParams(location.search).get("embed") === "1";

let started = false;
// PyScript's requests for its files while it loads them (paceRequests()).
const REQUESTS_PER_TASK = 8;
let unpace = () => {};
let loading = null;  // PyScript's import, once
let go;  // resolves the promise main.run() awaits: the UI's own work may start
const going = new Promise((resolve) => { go = resolve; });

/** The UI failed before the page was ready: said on the page (engine.mjs's boot error). */
function failed(error) {
  const text = String((error && error.message) || error);
  console.error(`the page's UI failed: ${text}`);
  const state = root.dataset.state;
  if (state === "loading" || state === "ui-ready") engine.showBootError(text.trim().split("\n").pop(), "page");
}

(globalThis.generala ||= {}).ui = {
  /** Awaited by static/ui/main.py's run() before the UI's own work. */
  go: going,
  /** main.run() says its start failed. */
  failed,
};

function start(why) {
  if (started) return;
  started = true;
  for (const type of INTENT) removeEventListener(type, onInput, true);
  root.setAttribute("data-ui", "starting");
  root.setAttribute("data-ui-start", why);
  load();
  go();
}

/** PyScript's core opens an IndexedDB database as it is imported (IDBMap "@pyscript.fs",
 * for its `pyscript.fs` module, which the page does not use). Where the browser denies the
 * page storage (a cross-site frame with third-party storage blocked: an embedded game),
 * that library reports the refusal as an uncaught error (it dispatches the request's
 * error event again from its own handler: InvalidStateError) and an unhandled rejection
 * (the refused request's error event): engine.mjs would take either for a failed boot.
 * Exactly these two are claimed here, with preventDefault() (the page plays on, its
 * storage in memory as storage.mjs says); any other error goes on as before. */
function claimPyScriptStorage() {
  const ours = (url) => typeof url === "string" && url.startsWith(new URL("./", PYSCRIPT).href);
  addEventListener("error", (event) => {
    const error = event.error;
    if (ours(event.filename) && error && error.name === "InvalidStateError") {
      event.preventDefault();
      console.warn(`PyScript could not open its IndexedDB database (storage denied): ${error.message}`);
    }
  });
  addEventListener("unhandledrejection", (event) => {
    const reason = event.reason;
    const request = reason && reason.target;
    if (typeof IDBOpenDBRequest === "function" && request instanceof IDBOpenDBRequest && reason.type === "error") {
      event.preventDefault();
    }
  });
}

/** What MicroPython's file system throws when a path is missing or exists (see above). */
class FileSystemError {
  constructor(errno) {
    this.name = "ErrnoError";
    this.errno = errno;
  }
}

/** The next browser task: scheduler.yield() where the browser has it, else a timer. */
function nextTask() {
  if (globalThis.scheduler && typeof scheduler.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** {URL: bytes} of every file in FILES_PACK, or null where the pack cannot be read (no
 * DecompressionStream, a failed download): PyScript then fetches each file itself. The
 * pack is a line of JSON, {"path from the site's root": [offset, length]}, then the
 * files' bytes, all gzipped; a host that sends it with Content-Encoding: gzip hands it
 * over unzipped, which its first bytes tell. */
async function readPack() {
  try {
    const response = await fetch(FILES_PACK);
    if (!response.ok) throw new Error(`[${response.status}] ${FILES_PACK.pathname}`);
    let bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
      if (typeof DecompressionStream !== "function") throw new Error("this browser has no DecompressionStream");
      const unzipped = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      bytes = new Uint8Array(await new Response(unzipped).arrayBuffer());
    }
    const end = bytes.indexOf(10);
    const index = JSON.parse(new TextDecoder().decode(bytes.subarray(0, end)));
    const files = new Map();
    for (const [path, [offset, length]] of Object.entries(index)) {
      const start = end + 1 + offset;
      files.set(new URL(path, CONFIG).href, bytes.subarray(start, start + length));
    }
    return files;
  } catch (error) {
    console.warn(`the UI's files in one download failed (${error}): PyScript fetches them one by one`);
    return null;
  }
}

/** PyScript's requests for its [files], answered from FILES_PACK (one download instead of
 * about seventy, each of which cost the page's thread and the network, bytecode being sent
 * uncompressed), and all its requests answered at most `perTask` per browser task, until
 * the returned function is called. PyScript requests every file of its config's [files]
 * at once, as soon as MicroPython has loaded, in the task that loaded it, with the global
 * `fetch`, looked up at each call, and writes each file into MicroPython's file system as
 * its answer comes. Seventy requests to the network ran for 127 ms at 1x in one task
 * (508 ms at 4x) before they were paced (eight a task; four measured no better in
 * Lighthouse); seventy answers at once from the pack would have PyScript write every
 * file in one task: they are paced the same way. */
function paceRequests(perTask) {
  const request = globalThis.fetch;
  const pack = readPack();
  let sent = 0;
  let turn = null;
  const paced = async function (...args) {
    const input = args[0];
    const url = typeof input === "string" || input instanceof URL ? new URL(String(input), CONFIG).href : "";
    const files = url.endsWith(".mpy") ? await pack : null;
    while (sent >= perTask) {
      turn ||= nextTask().then(() => {
        sent = 0;
        turn = null;
      });
      await turn;
    }
    sent += 1;
    // PyScript writes each file as its answer comes: a few a task, from the pack too
    const bytes = files && files.get(url);
    if (bytes) return new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } });
    return request.apply(this, args);
  };
  globalThis.fetch = paced;
  return () => {
    if (globalThis.fetch === paced) globalThis.fetch = request;
  };
}

/** PyScript loaded: it loads MicroPython and the UI's bytecode and runs the page's mpy
 * script, which waits for start() (once). The promise settles when PyScript's core has
 * been imported; a failure is reported on the page. */
function load() {
  if (!loading) claimPyScriptStorage();
  if (!loading) unpace = paceRequests(REQUESTS_PER_TASK);
  loading ||= import(PYSCRIPT.href).then(
    (core) => {
      core.hooks.worker.onBeforeRunAsync.clear();
      // PyScript awaits its main hooks, so each `await nextTask()` here ends a browser
      // task: its start is one chain of promises that would otherwise run from the last
      // [files] write to the page's script in one long task.
      core.hooks.main.onReady.add(async (wrap) => {
        unpace();  // PyScript has its files
        const { interpreter } = wrap;
        const FS = interpreter.FS;
        if (FS && typeof FS.ErrnoError === "function") FS.ErrnoError = FileSystemError;
        interpreter.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(PYSCRIPT_BYTECODE)})`);
        await nextTask();
        // PyScript's own package, from its bytecode, in a task of its own: PyScript's
        // bootstrap (before the page's script) then finds it imported and only writes
        // the package's sources.
        try {
          interpreter.runPython("import pyscript");
        } catch (error) {  // PyScript's bootstrap imports it again, and says why it fails
          console.warn(`PyScript's package: ${error}`);
        }
        await nextTask();
      });
      core.hooks.main.onBeforeRunAsync.add(nextTask);
    },
    (error) => {
      unpace();
      failed(error);
    },
  );
  return loading;
}

/** PyScript loaded (as load() does), then the UI starts. */
function loadThenStart() {
  if (!started) load().then(() => start("idle"));
}

function onInput() {
  start("input");
}

/** True when storage or the URL holds something only the UI can draw. */
function needed() {
  // Key names only (storage.mjs: denied storage has none); no value is read.
  if (storage.keys("generala.").some((key) => !PREFERENCES.has(key))) return true;
  if (location.hash.length > 1) return true;
  for (const name of new URLSearchParams(location.search).keys()) {
    if (!PAGE_PARAMS.has(name)) return true;
  }
  return false;
}

/** `run` once the page has loaded, painted a frame since, and the browser is idle (or
 * IDLE_WAIT_MS later at most); UNPAINTED_MS later when no frame comes. */
function whenIdle(run) {
  let asked = false;
  const idle = () => {
    if (asked) return;
    asked = true;
    if (typeof requestIdleCallback === "function") requestIdleCallback(run, { timeout: IDLE_WAIT_MS });
    else setTimeout(run, 50);
  };
  const loaded = () => {
    requestAnimationFrame(() => setTimeout(idle, 0));
    setTimeout(idle, UNPAINTED_MS);
  };
  if (document.readyState === "complete") loaded();
  else addEventListener("load", loaded, { once: true });
}

/** `run` once the page is on the reader's screen (at once where it cannot be known). */
function whenSeen(run) {
  if (typeof IntersectionObserver !== "function" || !document.body) {
    run();
    return;
  }
  const seen = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    seen.disconnect();
    run();
  });
  seen.observe(document.body);
}

/** The files the UI's start fetches (PyScript's core, its config, and what the config
 * names: MicroPython, the UI's bytecode in its pack) into the HTTP cache, at low priority and a few at
 * a time: the player's own requests come first. Stops when the UI starts (PyScript
 * fetches the rest itself). */
async function warm() {
  let list;
  try {
    const config = await (await fetch(CONFIG, { priority: "low" })).json();
    const named = [config.interpreter, config.interpreter.replace(/\.mjs$/, ".wasm")];
    list = [PYSCRIPT.href, ...named.map((path) => new URL(path, CONFIG).href), FILES_PACK.href, new URL("../../catalog.json", import.meta.url).href];
  } catch (_e) {
    return;  // a prefetch only: the UI fetches what it needs when it starts
  }
  const next = async () => {
    while (list.length && !started) {
      try {
        await (await fetch(list.shift(), { priority: "low" })).arrayBuffer();
      } catch (_e) { /* the same */ }
    }
  };
  await Promise.all([next(), next(), next(), next()]);
}

/** A promise resolved when the browser is next idle (at most `timeout` ms later): the
 * UI waits on it for work that may wait (static/ui/page/first_game.py). */
function idle(timeout = IDLE_WAIT_MS) {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === "function") requestIdleCallback(() => resolve(), { timeout });
    else setTimeout(resolve, 50);
  });
}
(globalThis.generala ||= {}).idle = idle;

// Whether the page opened with something only the UI can draw: it then builds all its
// screens before its first one (static/ui/screens/features.py), else the board's first.
globalThis.generala.uiNeeded = needed();
if (globalThis.generala.uiNeeded) {
  // After the first paint, as the engine worker: the first screen comes first. A
  // hidden tab paints no frame: the timer starts it then.
  requestAnimationFrame(() => setTimeout(() => start("page"), 0));
  setTimeout(() => start("page"), document.visibilityState === "hidden" ? 250 : 2000);
} else {
  for (const type of INTENT) addEventListener(type, onInput, { capture: true, passive: true });
  if (!embedded) {
    whenIdle(load);
    // A slow engine does not hold the UI back: it starts UI_LATEST_MS after the load
    // event at the latest (once MicroPython has loaded and the page is idle).
    const latest = () => setTimeout(() => whenIdle(loadThenStart), UI_LATEST_MS);
    if (document.readyState === "complete") latest();
    else addEventListener("load", latest, { once: true });
  }
  // onState, not ready(): ready() would start the worker before the first paint.
  const stop = engine.onState((state) => {
    if (state !== "ready" && state !== "error") return;
    queueMicrotask(() => stop());
    const idleStart = () => start("idle");
    whenIdle(embedded ? () => whenSeen(idleStart) : idleStart);
    if (state !== "ready" || root.getAttribute("data-state") !== "loading") return;
    // The status line goes quiet while the UI is still on its way, and the footer names
    // the engine (as static/ui/page/page_boot.py does once it runs).
    const status = document.getElementById("engine-status");
    if (status) status.textContent = "";
    const version = document.getElementById("engine-version");
    if (version) version.textContent = engine.version;
    if (embedded && !started) warm();  // an embedded game not yet on screen
  });
}
