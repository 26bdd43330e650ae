// The main thread's handle on the engine worker (static/js/engine-worker.mjs).
//
// Loaded by index.html as a module script before the UI (ui-start.mjs), so the worker (and
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
//   engine.request(request_json)-> Promise<{reply, save, ok, kind}>: the reply's JSON text
//                                  without its save, the save's JSON text (or null), and
//                                  the engine's facts about it (done; a refusal's kind);
//                                  rejects on failure (engine_client.call)
//   engine.call(request_json)   -> Promise<str>: the whole reply's JSON text (tests,
//                                  benchmarks, embedders); rejects on failure
//   engine.importFile(file, max) -> Promise of the engine's reply to op import, its games'
//                                  documents as JSON texts (see importFile below); never
//                                  rejects
//   engine.onState(callback)    -> calls callback(state) now and on every change;
//                                  returns an unsubscribe function
//   engine.onRestart(callback)  -> callback({reason}) when a lost worker was replaced (below);
//                                  returns an unsubscribe function
//   engine.onFailure(callback)  -> callback({reason}) when the engine fails for good after it
//                                  was ready (workers keep dying): the page words it in the
//                                  player's language, the English goes to the console only
//                                  (with no callback, the error box shows it); returns an
//                                  unsubscribe function
//   engine.restarts, engine.lifeline -> how many workers replaced a lost one; how the
//                                  current one's end is watched: "lock", "ping" or ""
//
// All methods only ever fail through a rejected promise, never by throwing
// synchronously (MicroPython cannot catch a synchronous JS exception).
//
// On a boot failure this module itself sets <html data-state="error"> and shows
// index.html's error box, in the page's language (the English reason on the console), so
// a failure is reported even if the Python UI never ran.
//
// Every answer is matched to its request by id, and the worker answers requests one at
// a time in the order they were sent. What the engine says about an answer comes as fields
// of the worker's message (ok, kind, changed, local, coach, replay: engine-worker.mjs):
// nothing here searches or parses a reply's text, and JSON goes through as text
// (JavaScript's numbers would round an integer above 2**53, such as a 64-bit seed).
//
// A worker that dies (closes itself, is killed for memory, crashes, is reclaimed by the
// browser) fires no event here. Its end is watched (lifeline): the worker holds a Web
// Lock and the page asks for the same lock, granted once it is gone (the lock is let go
// while the page may be left: letGo below); where Web Locks are refused (a
// storage-denied cross-site iframe), the page pings it while answers are awaited and
// takes PINGS_LOST missed pings in a row (PINGS_LOST_BUSY while it is inside a call into
// the engine, which it says with "busy", or still booting: a long computation answers no
// ping) for its end.
// Then a new worker takes its place with what the old one held, restored from what the
// engine said with each answer: the game (the last answer that `changed` it carries its
// save, sent as load; a game by link: its record, `local`, sent as link_load), the coach
// switch (`coach`; and the coach's value table), a replay being viewed (`replay`: the
// request that opens it again); then every request still unanswered is sent again,
// in order, with its own id (a roll sent again gives the same dice: the roller is in the
// save, or, by link, drawn from the record's secrets). onRestart's callbacks are told
// once for each replacement; the details go to console.warn. A worker lost before it is
// ready, or within RESTART_WINDOW_MS of the last replacement, is not replaced: the
// engine fails (the error state, as a boot failure).

const WORKER_URL = new URL("./engine-worker.mjs", import.meta.url);
const RESTART_WINDOW_MS = 60_000;
const PING_MS = 1000;
const PINGS_LOST = 8;
// Measured (docs/ARCHITECTURE.md): the longest calls take seconds (an import of 400 games:
// 2.7 s, 8.6 s under 4x CPU throttling).
const PINGS_LOST_BUSY = 60;

let worker = null; // the current worker: {w, booted, lifeline, ...} (see spawn)
let state = "starting";
let version = "";
let error = "";
let nextId = 1;
let restarts = 0;
let lastRestart = -Infinity;
let leaving = false; // the page is being hidden or unloaded: a worker's end is not a loss
let lostWhileAway = null;
// Sent and not answered, in the order sent: id -> {request, op, resolve?, reject?, internal?}
const pending = new Map();
// What the worker holds, to put back into a new one (requests, as JSON text).
const held = { game: null, coach: false, replay: null };
const listeners = new Set();
const replyListeners = new Set();
const restartListeners = new Set();
const failureListeners = new Set();
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

// The error box's sentences (index.html #boot-error: one a case, in the four languages,
// shown in the page's by CSS) and their English for the console.
const BOOT_ERRORS = {
  start: "The game could not start",
  page: "The page could not start",
  stopped: "The game engine stopped",
};

/** Put the page into its error state with a visible message: `what` ("start", "page" or
 *  "stopped") chooses index.html's sentence, in the player's language; `detail` (English:
 *  why) goes to the console only. */
export function showBootError(detail, what = "start") {
  const key = what in BOOT_ERRORS ? what : "start";
  try {
    document.documentElement.dataset.state = "error";
    let box = document.getElementById("boot-error");
    if (!box) {  // a page without the box (never index.html): the English sentence alone
      box = document.createElement("div");
      box.id = "boot-error";
      box.setAttribute("role", "alert");
      box.textContent = BOOT_ERRORS[key] + ".";
      (document.getElementById("app") || document.body || document.documentElement).prepend(box);
    }
    for (const p of box.querySelectorAll("[data-boot]")) p.hidden = p.dataset.boot !== key;
    box.hidden = false;
  } catch (e) {
    console.error("cannot show the boot error:", e);
  }
  console.error(`${BOOT_ERRORS[key]}: ${detail}`);
}

/** An answer to a request sent with send(): to the onReply callbacks (never during send). */
function deliver(id, reply, save, why) {
  const answer = { id, reply, save, error: why };
  tellAll(replyListeners, answer, "reply");
}

/** The request `id` is answered (`msg`: the worker's message), or not (`why`): settle its
 *  promise or tell onReply's callbacks. */
function settle(id, entry, msg, why) {
  if (entry.internal) {
    // A hint only loads the coach's table again: whatever it answers but NeedTable is fine.
    const fine = why === null && (msg.ok || (entry.op === "hint" && msg.kind !== "NeedTable"));
    if (!fine) console.warn(`engine worker: restoring with ${entry.op} failed: ${why === null ? msg.reply.slice(0, 300) : why}`);
    return;
  }
  if (entry.resolve) {
    if (why === null) entry.resolve({ reply: msg.reply, save: msg.save, ok: msg.ok, kind: msg.kind });
    else entry.reject(new Error(why));
  } else if (why === null) {
    deliver(id, msg.reply, msg.save, null);
  } else {
    deliver(id, null, null, why);
  }
}

function fail(message) {
  if (state === "error") return;
  const wasReady = state === "ready";
  error = message;
  setState("error");
  readyReject(new Error(message));
  const answered = [...pending];
  pending.clear();
  stopPings();
  if (worker) {
    try {
      worker.w.terminate();
    } catch {}
    worker = null;
  }
  for (const [id, entry] of answered) settle(id, entry, null, message);
  if (wasReady && failureListeners.size) {
    document.documentElement.dataset.state = "error";
    console.error(`${BOOT_ERRORS.stopped}: ${message}`);
    tellAll(failureListeners, { reason: message }, "failure");
  } else showBootError(message, wasReady ? "stopped" : "start");
}

/** What the worker now holds, after an answer (the engine's facts, `msg`): kept to restore a
 *  new worker. The game: the save of the last answer that changed it, or a game by link's
 *  record (`local`); every answer says the coach switch; a replay opened comes with the
 *  request that opens it again. Texts only: put together, never parsed. */
function track(msg) {
  if (msg.changed === true) {
    if (typeof msg.local === "string") held.game = `{"op": "link_load", "local": ${msg.local}}`;
    else if (typeof msg.save === "string") held.game = `{"op": "load", "save": ${msg.save}}`;
  }
  if (typeof msg.coach === "boolean") held.coach = msg.coach;
  if (typeof msg.replay === "string") held.replay = msg.replay;
}

function onMessage(life, event) {
  if (life !== worker) return; // a worker given up: whatever it still says is not heard
  const msg = event.data || {};
  heard(life, msg);
  if (msg.type === "alive") {
    watchLife(life, msg.lock, msg.why);
    return;
  }
  if (msg.type === "pong" || msg.type === "busy") return;
  if (msg.type === "ready") {
    life.booted = true;
    if (life.replacing) {
      console.warn(`engine worker: the new worker is ready ${Math.round(performance.now() - life.started)} ms after it was started`);
      return;
    }
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
  if (!pending.size) stopPings();
  if (typeof msg.error === "string") {
    settle(msg.id, entry, null, msg.error);
    return;
  }
  const answer = { reply: String(msg.reply), save: typeof msg.save === "string" ? msg.save : null,
    ok: msg.ok === true, kind: typeof msg.kind === "string" ? msg.kind : null, changed: msg.changed === true,
    local: typeof msg.local === "string" ? msg.local : null, coach: msg.coach, replay: msg.replay };
  if (!entry.internal) track(answer);
  settle(msg.id, entry, answer, null);
}

/** A new worker; `replacing`: the reason it replaces a lost one. */
function spawn(replacing) {
  const w = new Worker(WORKER_URL, { type: "module", name: "generala-engine" });
  const life = { w, booted: false, lifeline: "", letGo: null, holding: false, replacing,
    started: performance.now(), pinging: null, pingN: 0, ponged: 0, missed: 0, busy: false };
  worker = life;
  w.addEventListener("message", (event) => onMessage(life, event));
  // A module that fails to load or throws at top level lands here.
  w.addEventListener("error", (event) => {
    event.preventDefault();
    if (life === worker) fail(event.message || "the engine worker could not be loaded");
  });
  w.addEventListener("messageerror", () => {
    if (life === worker) fail("unreadable message from the engine");
  });
  return life;
}

export function start() {
  if (worker !== null || state === "error") return engine;
  try {
    spawn(null);
    timings.workerStart = Math.round(performance.now() - t0);
  } catch (e) {
    fail(String((e && e.message) || e));
  }
  return engine;
}

// --- the worker's end ---------------------------------------------------------------

/** The worker says how its end can be seen: `lock`, the name of the Web Lock it holds, or
 *  null (then pings). */
function watchLife(life, lock, why) {
  life.holding = false;
  if (lock) {
    try {
      const letGo = new AbortController();
      navigator.locks.request(lock, { signal: letGo.signal }, () => lost(life, "its Web Lock was released")).then(
        () => {},
        (err) => {
          if (err && err.name === "AbortError") return; // let go on purpose (letGo below)
          pingInstead(life, `the page's Web Lock request failed: ${(err && err.name) || ""} ${(err && err.message) || err}`);
        },
      );
      life.lifeline = "lock";
      life.letGo = letGo;
      stopPings();
      return;
    } catch (err) {
      why = `the page's Web Lock request threw: ${(err && err.message) || err}`;
    }
  }
  pingInstead(life, why);
}

function pingInstead(life, why) {
  if (life !== worker) return;
  life.lifeline = "ping";
  console.warn(`engine worker: its end is watched by pings (${why || "no Web Locks"})`);
  if (pending.size) startPings();
}

// Firefox keeps no page in its back/forward cache while a worker of it holds a Web Lock
// (measured; Chromium and WebKitGTK do keep it). So when the page may be left
// (beforeunload: a link followed, an address typed) the page stops waiting for the lock
// and the worker lets it go; pings watch the worker meanwhile. It takes a new one
// RETAKE_MS later if the page is still here (the navigation did not happen), or when the
// page comes back from that cache. (Left by the Back button, Firefox still did not keep
// the page: measured.)
const RETAKE_MS = 2000;
let retake = null;

function letGo() {
  const life = worker;
  if (!life || life.lifeline !== "lock") return;
  life.letGo.abort();
  life.letGo = null;
  life.lifeline = "";
  life.w.postMessage({ type: "release" });
  if (pending.size) startPings();
  clearTimeout(retake);
  retake = setTimeout(holdAgain, RETAKE_MS);
}

function holdAgain() {
  clearTimeout(retake);
  retake = null;
  const life = worker;
  if (!life || life.lifeline !== "" || life.holding || state === "error") return;
  life.holding = true;
  life.w.postMessage({ type: "hold" }); // answered by "alive" with the new lock's name
}

/** Anything the worker says shows it is alive; "busy": it is inside a call into the engine. */
function heard(life, msg) {
  if (msg.type === "alive") life.holding = false;
  life.busy = msg.type === "busy";
  if (msg.type === "pong") life.ponged = Math.max(life.ponged, msg.n);
  else life.ponged = life.pingN;
  life.missed = 0;
}

/** Pings while answers are awaited, unless the worker's Web Lock watches it (also before the
 *  worker has said how: it may die while it starts). */
function startPings() {
  const life = worker;
  if (!life || life.lifeline === "lock" || life.pinging !== null) return;
  const tick = () => {
    life.pinging = null;
    if (life !== worker || life.lifeline === "lock" || !pending.size) return;
    if (life.ponged < life.pingN) life.missed += 1; // the last ping had a whole period to be answered
    const limit = life.busy || !life.booted ? PINGS_LOST_BUSY : PINGS_LOST; // a boot has long steps too
    if (life.missed >= limit) {
      lost(life, `${life.missed} pings in a row unanswered${life.busy ? ", inside a call into the engine" : ""}`);
      return;
    }
    life.pingN += 1;
    life.w.postMessage({ type: "ping", n: life.pingN });
    life.pinging = setTimeout(tick, PING_MS);
  };
  life.pinging = setTimeout(tick, PING_MS);
}

function stopPings() {
  if (worker && worker.pinging !== null) {
    clearTimeout(worker.pinging);
    worker.pinging = null;
  }
}

/** The worker `life` is gone: replace it, or fail when workers keep dying. */
function lost(life, how) {
  if (life !== worker || state === "error") return;
  if (leaving) {
    lostWhileAway = { life, how };
    return;
  }
  stopPings();
  try {
    life.w.terminate();
  } catch {}
  const now = performance.now();
  const waiting = [...pending.values()].filter((e) => !e.internal).map((e) => e.op);
  const details = `the engine worker stopped (${how}) with ${waiting.length} request(s) unanswered` +
    (waiting.length ? ` (${waiting.join(", ")})` : "");
  if (!life.booted) {
    worker = null;
    console.warn(`${details}, before it was ready: not started again`);
    fail("the engine worker stopped while it was starting");
    return;
  }
  if (now - lastRestart < RESTART_WINDOW_MS) {
    worker = null;
    console.warn(`${details}, ${Math.round((now - lastRestart) / 1000)} s after the last one was replaced: not started again`);
    fail("the engine worker stopped again");
    return;
  }
  lastRestart = now;
  restarts += 1;
  console.warn(`${details}: a new worker takes its place, with the game, coach and replay it held; ` +
    `the unanswered requests are sent again`);
  replace(how);
}

/** A new worker with what the old one held; then the unanswered requests, in order. */
function replace(how) {
  const again = [...pending].filter(([, e]) => !e.internal);
  pending.clear();
  let life;
  try {
    life = spawn(how);
  } catch (e) {
    fail(String((e && e.message) || e));
    return;
  }
  const restore = [];  // [op, request]: the op for the console, and a hint's answer
  if (held.game) restore.push(["game", held.game]);
  if (held.coach) {
    restore.push(["coach", '{"op": "coach", "on": true}']);
    // The coach prices each move with the rules' value table, which the old worker had
    // loaded: a hint loads it again (its NeedTable path), so the next move has its cost.
    if (held.game) restore.push(["hint", '{"op": "hint", "top": 1}']);
  }
  if (held.replay) restore.push(["replay", held.replay]);
  for (const [op, request] of restore) post(life, nextId++, { request, op, internal: true });
  for (const [id, entry] of again) post(life, id, entry);
  tellAll(restartListeners, { reason: how }, "restart");
}

function post(life, id, entry) {
  pending.set(id, entry);
  life.w.postMessage({ id, request: entry.request });
  if (life.lifeline !== "lock") startPings();
}

addEventListener("beforeunload", letGo);
addEventListener("pagehide", () => {
  leaving = true;
  clearTimeout(retake);
  retake = null;
});
addEventListener("pageshow", (event) => {
  leaving = false;
  const away = lostWhileAway;
  lostWhileAway = null;
  if (away) lost(away.life, away.how);
  else if (event.persisted) holdAgain();
});

// --- requests -----------------------------------------------------------------------

function opOf(text) {
  try {
    const req = JSON.parse(text);
    return req && typeof req.op === "string" ? req.op : null;
  } catch {
    return null;
  }
}

/** Send one request; `entry` gets its op and text. Returns its id. */
function enqueue(requestJson, entry) {
  start();
  const id = nextId++;
  entry.request = String(requestJson);
  entry.op = opOf(entry.request);
  if (state === "error" || worker === null) {
    const why = error || "the engine is not running";
    queueMicrotask(() => settle(id, entry, null, why));
    return id;
  }
  try {
    post(worker, id, entry);
  } catch (e) {
    pending.delete(id);
    const why = String((e && e.message) || e);
    queueMicrotask(() => settle(id, entry, null, why));
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

export function onRestart(callback) {
  restartListeners.add(callback);
  return () => restartListeners.delete(callback);
}

export function onFailure(callback) {
  failureListeners.add(callback);
  return () => failureListeners.delete(callback);
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
 *  takes the games one at a time. The engine answers each game's documents as JSON texts
 *  (its save, or a game by link's record and status, and its view): this parse meets no
 *  number of a game, which JavaScript would round above 2**53 (a 64-bit seed). Resolves to
 *      {ok: true, games: [{id, when, whenMs, finished, save, view, link?, status?}, ...]}
 *      {ok: false, error, kind, refusal?}  kind "TooLarge" (refused unread), "ReadError" (the
 *                                  file could not be read: static/js/transfer.mjs),
 *                                  "NoAnswer" (the engine failed or never started), or the
 *                                  engine's own (SaveError names the problem in the file),
 *                                  whose reply is `refusal`, as JSON text
 *  A file chosen while the engine boots is read at once and waits for it. Never rejects. */
export async function importFile(file, maxBytes) {
  // Loaded on first use: no module import holds up the worker's start at boot.
  const { readFile } = await import("./transfer.mjs");
  const read = await readFile(file, maxBytes);
  if (!read.ok) return read;
  try {
    await ready();
    const answer = await request(JSON.stringify({ op: "import", text: read.text }));
    if (!answer.ok) return { ok: false, kind: answer.kind, error: "", refusal: answer.reply };
    const reply = JSON.parse(answer.reply);
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
  onRestart,
  onFailure,
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
  get restarts() {
    return restarts;
  },
  get lifeline() {
    return worker ? worker.lifeline : "";
  },
};

(globalThis.generala ||= {}).engine = engine;

// Anything that breaks before the page is ready (PyScript or MicroPython failing to load,
// the UI's config or modules missing) is a boot failure: say so visibly. Once every
// listener has had the event: one that knows the error is harmless claims it with
// preventDefault() (ui-start.mjs: PyScript's storage refused in an embedded frame).
function bootFailure(event, text) {
  setTimeout(() => {
    const s = document.documentElement.dataset.state;
    if (!event.defaultPrevented && (s === "loading" || s === "ui-ready")) showBootError(text);
  }, 0);
}
addEventListener("error", (event) => bootFailure(event, event.message || "script error"));
addEventListener("unhandledrejection", (event) => {
  const r = event.reason;
  bootFailure(event, String((r && r.message) || r || "unhandled rejection"));
});

// The worker (and its 3.6 MB snapshot) starts once the first screen is painted: the
// page's own files come first. A hidden tab paints no frame: the timer starts it then
// (a visible page whose first frame is slow waits for it, up to 2 s).
// Any call or ready() starts it at once.
requestAnimationFrame(() => setTimeout(start, 0));
setTimeout(start, document.visibilityState === "hidden" ? 250 : 2000);
export default engine;
