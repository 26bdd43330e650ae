// The main thread's handle on the engine worker (static/js/engine-worker.mjs).
//
// Loaded by index.html as a module script *before* PyScript, so the worker (and
// with it Pyodide's boot, ~2 s from the snapshot) starts while MicroPython is still loading.
// MicroPython reaches it as `js.generala.engine`:
//
//   engine.start()              -> the engine (idempotent; starts the worker once)
//   engine.state                -> "starting" | "ready" | "error"
//   engine.version              -> engine version text once ready, else ""
//   engine.error                -> the boot error message, else ""
//   engine.ready()              -> Promise<str>: the version once booted; rejects on boot failure
//   engine.send(request_json)   -> the request's id (a number), at once; its answer goes to
//                                  the callbacks of onReply, later (never during send):
//                                  {id, reply, save, error: null} or {id, reply: null,
//                                  save: null, error: "why"} (the engine did not answer).
//                                  The page's one engine client (static/ui/engine/
//                                  engine_client.py) sends its hot path through this: one
//                                  fixed callback and a table by id, no proxy per request.
//   engine.onReply(callback)    -> callback(answer) for every answer to send(); returns an
//                                  unsubscribe function
//   engine.request(request_json)-> Promise<{reply, save}>: the reply's JSON text without its
//                                  save, and the save's JSON text (or null); rejects on
//                                  failure (engine_client.call)
//   engine.call(request_json)   -> Promise<str>: the whole reply's JSON text (tests,
//                                  benchmarks, embedders); rejects on failure
//   engine.importFile(file, max) -> Promise of the engine's reply to op import, parsed
//                                  (see importFile below); never rejects
//   engine.onState(callback)    -> calls callback(state) now and on every change;
//                                  returns an unsubscribe function
//
// All methods only ever fail through a rejected promise, never by throwing
// synchronously (MicroPython cannot catch a synchronous JS exception).
// On a boot failure this module itself sets <html data-state="error"> and shows
// a visible message, so a failure is reported even if the Python UI never ran.
//
// Every answer is matched to its request by id, and the worker answers requests one at
// a time in the order they were sent.

const WORKER_URL = new URL("./engine-worker.mjs", import.meta.url);

let worker = null;
let state = "starting";
let version = "";
let error = "";
let nextId = 1;
// Sent and not answered: id -> {resolve?, reject?} (send's answers go to onReply's callbacks)
const pending = new Map();
const listeners = new Set();
const replyListeners = new Set();
let readyResolve;
let readyReject;
const readyPromise = new Promise((resolve, reject) => {
  readyResolve = resolve;
  readyReject = reject;
});
readyPromise.catch(() => {}); // failures are reported through the page state

const t0 = performance.now();
export const timings = { workerStart: null, ready: null, worker: null };

function tellAll(set, value, what) {
  for (const cb of [...set]) {
    try {
      cb(value);
    } catch (e) {
      console.error(`engine ${what} listener failed:`, e);
    }
  }
}

function setState(next) {
  state = next;
  tellAll(listeners, next, "state");
}

/** Put the page into its error state with a visible message (text only). */
export function showBootError(message) {
  const text = `The game could not start: ${message}`;
  try {
    document.documentElement.dataset.state = "error";
    let box = document.getElementById("boot-error");
    if (!box) {
      box = document.createElement("div");
      box.id = "boot-error";
      box.setAttribute("role", "alert");
      (document.getElementById("app") || document.body || document.documentElement).prepend(box);
    }
    box.hidden = false;
    box.textContent = text; // never innerHTML: PyScript would run any <script type="py">
  } catch (e) {
    console.error("cannot show the boot error:", e);
  }
  console.error(text);
}

/** An answer to a request sent with send(): to the onReply callbacks (never during send). */
function deliver(id, reply, save, why) {
  const answer = { id, reply, save, error: why };
  tellAll(replyListeners, answer, "reply");
}

/** The request `id` is answered: settle its promise or tell onReply's callbacks. */
function settle(id, entry, reply, save, why) {
  if (entry.resolve) {
    if (why === null) entry.resolve({ reply, save });
    else entry.reject(new Error(why));
  } else {
    deliver(id, reply, save, why);
  }
}

function fail(message) {
  if (state === "error") return;
  error = message;
  setState("error");
  readyReject(new Error(message));
  const answered = [...pending];
  pending.clear();
  for (const [id, entry] of answered) settle(id, entry, null, null, message);
  showBootError(message);
}

function onMessage(event) {
  const msg = event.data || {};
  if (msg.type === "ready") {
    version = msg.version;
    timings.ready = Math.round(performance.now() - t0);
    timings.worker = msg.timings || null;
    setState("ready");
    readyResolve(version);
    return;
  }
  if (msg.type === "error") {
    fail(msg.message || "the engine worker failed");
    return;
  }
  const entry = pending.get(msg.id);
  if (!entry) return;
  pending.delete(msg.id);
  if (typeof msg.error === "string") settle(msg.id, entry, null, null, msg.error);
  else settle(msg.id, entry, msg.reply, msg.save == null ? null : msg.save, null);
}

export function start() {
  if (worker !== null || state === "error") return engine;
  try {
    worker = new Worker(WORKER_URL, { type: "module", name: "generala-engine" });
    timings.workerStart = Math.round(performance.now() - t0);
    worker.addEventListener("message", onMessage);
    // A module that fails to load or throws at top level lands here.
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      fail(event.message || "the engine worker could not be loaded");
    });
    worker.addEventListener("messageerror", () => fail("unreadable message from the engine"));
  } catch (e) {
    fail(String((e && e.message) || e));
  }
  return engine;
}

// --- requests -----------------------------------------------------------------------

/** Send one request (`entry`: how its answer is given). Returns its id. */
function enqueue(requestJson, entry) {
  start();
  const id = nextId++;
  if (state === "error") {
    queueMicrotask(() => settle(id, entry, null, null, error));
    return id;
  }
  try {
    pending.set(id, entry);
    worker.postMessage({ id, request: String(requestJson) });
  } catch (e) {
    pending.delete(id);
    const why = String((e && e.message) || e);
    queueMicrotask(() => settle(id, entry, null, null, why));
  }
  return id;
}

export function ready() {
  start();
  return readyPromise;
}

export function send(requestJson) {
  return enqueue(requestJson, {});
}

export function request(requestJson) {
  return new Promise((resolve, reject) => {
    enqueue(requestJson, { resolve, reject });
  });
}

export function onReply(callback) {
  replyListeners.add(callback);
  return () => replyListeners.delete(callback);
}

/** The whole reply's JSON text: the save put back in as a field of the reply. */
export function call(requestJson) {
  return request(requestJson).then(({ reply, save }) =>
    save === null ? reply : `{"save": ${save}, ${reply.slice(1)}`);
}

/** Check an export file of saved games with the engine (op import) without routing the
 *  whole file through MicroPython: its heap failed to take one string of 2 MB
 *  (MemoryError, measured with a 400-game file), and an export of a full localStorage
 *  is about 3 MB. The file is read, sent and its reply parsed here; MicroPython then
 *  takes the games one at a time. Resolves to
 *      {ok: true, games: [{id, when, whenMs, finished, save, view}, ...]}
 *      {ok: false, error, kind}    kind "TooLarge" (refused unread), "ReadError" (the file
 *                                  could not be read: static/js/transfer.mjs), "NoAnswer"
 *                                  (the engine failed or never started), or the engine's
 *                                  own (SaveError names the problem in the file)
 *  A file chosen while the engine boots is read at once and waits for it. Never rejects. */
export async function importFile(file, maxBytes) {
  // Loaded on first use: no module import holds up the worker's start at boot.
  const { readFile } = await import("./transfer.mjs");
  const read = await readFile(file, maxBytes);
  if (!read.ok) return read;
  try {
    await ready();
    const { reply: text } = await request(JSON.stringify({ op: "import", text: read.text }));
    const reply = JSON.parse(text);
    // When each game was last played, in ms as text (MicroPython's FFI would cut the
    // number to 32 bits): the lists show that time, not the import's.
    for (const game of reply.games || []) {
      const ms = game.when ? Date.parse(game.when) : NaN;
      game.whenMs = Number.isFinite(ms) ? String(ms) : null;
    }
    return reply;
  } catch (e) {
    return { ok: false, kind: "NoAnswer", error: String((e && e.message) || e) };
  }
}

export function onState(callback) {
  listeners.add(callback);
  try {
    callback(state);
  } catch (e) {
    console.error("engine state listener failed:", e);
  }
  return () => listeners.delete(callback);
}

export const engine = {
  start,
  ready,
  send,
  onReply,
  request,
  call,
  importFile,
  onState,
  showBootError,
  timings,
  get state() {
    return state;
  },
  get version() {
    return version;
  },
  get error() {
    return error;
  },
};

(globalThis.generala ||= {}).engine = engine;

// Anything that breaks before the page is ready (PyScript failing to load its
// interpreter or config, a missing file) is a boot failure: say so visibly.
addEventListener("error", (event) => {
  const s = document.documentElement.dataset.state;
  if (s === "loading" || s === "ui-ready") showBootError(event.message || "script error");
});
addEventListener("unhandledrejection", (event) => {
  const s = document.documentElement.dataset.state;
  if (s === "loading" || s === "ui-ready") {
    const r = event.reason;
    showBootError(String((r && r.message) || r || "unhandled rejection"));
  }
});

// The worker (and its 5 MB snapshot) starts once the first screen is painted: the
// page's own files come first. A hidden tab paints no frame: the timer starts it then
// (a visible page whose first frame is slow waits for it, up to 2 s).
// Any call or ready() starts it at once.
requestAnimationFrame(() => setTimeout(start, 0));
setTimeout(start, document.visibilityState === "hidden" ? 250 : 2000);
export default engine;
