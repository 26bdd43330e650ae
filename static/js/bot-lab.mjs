// The Bot lab's main-thread side (globalThis.generala.botlab, js.generala.botlab in the
// page's MicroPython): the code editor (CodeMirror, loaded on first use), the lab's
// worker (static/js/bot-worker.mjs: never the game's engine worker) and its watchdog,
// and the worker that answers a saved bot's moves in a game. It keeps no game state and
// touches no storage: static/ui/screens/botlab.py draws what `state` says.
//
// A run: the worker plays slices of games and says where it is at least every 0.1 s
// between moves. A worker silent for WATCHDOG_MS is in a move past the time limit (1 s;
// a move that ends after more than 1 s is caught by the engine itself): it is
// terminated, and the slice it was in is played again in a new worker that posts each
// position before each move, so the position of the move that never ended can be
// shown. Stop terminates the worker at once. Nothing here needs SharedArrayBuffer.
const WORKER_URL = new URL("./bot-worker.mjs", import.meta.url);
const EDITOR_URL = new URL("../../vendor/codemirror/6.0.2/code-editor.mjs", import.meta.url).href;
const WATCHDOG_MS = 1500;
const MOVE_MS = 1000;

const listeners = [];
let notifyQueued = false;
function changed() {
  if (notifyQueued) return;
  notifyQueued = true;
  queueMicrotask(() => {
    notifyQueued = false;
    for (const fn of listeners) {
      try { fn(); } catch (err) { console.error(err); }
    }
  });
}

const state = {
  phase: "idle",   // idle | booting | running | replaying | done | error | stopped | failed
  ready: false,    // the worker has booted (examples known)
  done: 0,
  games: 0,
  results: "",     // JSON text of the results
  error: "",       // JSON text of the bot's error
  examples: "",    // JSON text {name: source}
  message: "",     // a boot failure
};

let worker = null;
let watchdog = 0;
let lastHeard = 0;
let job = null;     // {source, game, games, seed}
let sliceStart = 0; // the first game of the slice being played
let lastPosition = null;
let editor = null;

function set(fields) {
  Object.assign(state, fields);
  changed();
}

function stopWatchdog() {
  if (watchdog) clearInterval(watchdog);
  watchdog = 0;
}

function kill() {
  stopWatchdog();
  if (worker) worker.terminate();
  worker = null;
}

function spawn(onReady) {
  kill();
  const w = new Worker(WORKER_URL, { type: "module" });
  worker = w;
  w.onmessage = (event) => {
    if (w !== worker) return;
    lastHeard = performance.now();
    const msg = event.data;
    if (msg.type === "ready") {
      set({ ready: true, examples: JSON.stringify(msg.examples) });
      if (onReady) onReady();
    } else if (msg.type === "failed") {
      kill();
      set({ phase: "failed", message: msg.message });
    } else if (msg.type === "progress") {
      if (state.phase === "running") {
        sliceStart = msg.done;
        set({ done: msg.done, games: msg.games });
      }
    } else if (msg.type === "position") {
      lastPosition = msg.position;
    } else if (msg.type === "results") {
      kill();
      set({ phase: "done", results: JSON.stringify(msg.results) });
    } else if (msg.type === "error") {
      kill();
      set({ phase: "error", error: JSON.stringify(msg.error) });
    }
  };
  w.onerror = (event) => {
    if (w !== worker) return;
    kill();
    set({ phase: "failed", message: String(event.message || "the bot's worker failed") });
  };
  return w;
}

function watch() {
  stopWatchdog();
  lastHeard = performance.now();
  watchdog = setInterval(() => {
    if (performance.now() - lastHeard > WATCHDOG_MS) late();
  }, 100);
}

/** The worker said nothing for too long: a move past the limit. Play its slice again,
 *  positions told, to say where; then report. */
function late() {
  if (state.phase === "running") {
    lastPosition = null;
    set({ phase: "replaying" });
    const w = spawn(() => {
      w.postMessage({ type: "run", ...job, first: sliceStart, replay: true });
      watch();
    });
    stopWatchdog();  // armed again once the new worker has booted
    return;
  }
  kill();
  const error = {
    kind: "timeout",
    message: `the move took more than ${MOVE_MS / 1000} s (it was stopped)`,
    trace: "",
    position: lastPosition,
  };
  set({ phase: "error", error: JSON.stringify(error) });
}

const botlab = {
  state,
  /** Call `fn()` after every change of `state` (one fixed callback of the page). */
  listen(fn) { listeners.push(fn); },
  /** Boot the lab's worker ahead of a run (the screen is opened). */
  warm() {
    if (worker === null && !state.ready && state.phase !== "booting") {
      set({ phase: "booting" });
      spawn(() => { if (state.phase === "booting") set({ phase: "idle" }); });
    }
  },
  /** The code editor in `parent` (loaded on first use). */
  async editor(parent, text, label) {
    const { createEditor } = await import(EDITOR_URL);
    if (editor) editor.destroy();
    editor = createEditor(parent, text, label, null);
    return true;
  },
  code() { return editor ? editor.value : ""; },
  setCode(text) { if (editor) editor.value = text; },
  setLabel(text) { if (editor) editor.setLabel(text); },
  focusEditor() { if (editor) editor.focus(); },
  run(game, games, seed) {
    job = { source: editor ? editor.value : "", game, games, seed };
    sliceStart = 0;
    set({ phase: "running", done: 0, games, results: "", error: "" });
    const start = () => {
      worker.postMessage({ type: "run", ...job, first: 0, replay: false });
      watch();
    };
    if (worker !== null && state.ready) start();
    else spawn(start);
  },
  /** Stop terminates the worker, whatever it is doing. */
  stop() {
    if (!["running", "replaying", "booting"].includes(state.phase)) return;
    kill();
    set({ phase: "stopped", ready: false });
  },
};

/** A bot's file for the player to keep: a download of `text` named `name`. */
botlab.download = function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/x-python" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};

/** The text of a file the player chose, or null (larger than `maxBytes`, unreadable). */
botlab.readText = async function readText(file, maxBytes) {
  if (!file || file.size > maxBytes) return null;
  try {
    return await file.text();
  } catch {
    return null;
  }
};

// --- a saved bot's seat in a game: one move at a time, in a worker of its own -------

let seat = null;       // {worker, ready: Promise}
let seatCalls = 0;

function seatWorker() {
  if (seat === null) {
    const w = new Worker(WORKER_URL, { type: "module" });
    const pending = new Map();
    const ready = new Promise((resolve, reject) => {
      w.addEventListener("message", (event) => {
        const msg = event.data;
        if (msg.type === "ready") resolve();
        else if (msg.type === "failed") reject(new Error(msg.message));
        else if (msg.type === "move" && pending.has(msg.id)) {
          pending.get(msg.id)(msg.answer);
          pending.delete(msg.id);
        }
      });
    });
    ready.catch(() => {});
    seat = { worker: w, ready, pending };
  }
  return seat;
}

/** Boot the seat's worker ahead of a bot's first move (a game with a bot's side is shown). */
botlab.warmSeat = function warmSeat() { seatWorker(); };

/** A saved bot's move: resolves to JSON text {move} or {error}; a move past the limit
 *  (the worker silent for longer than it) ends that worker and answers a timeout. The
 *  state is the engine's (op bot's `ask`); `seat` names the game's seat (a class Bot is
 *  made once for it). A worker that fails to boot answers an error too. */
botlab.choose = async function choose(source, stateJson, seatName) {
  const s = seatWorker();
  try {
    await s.ready;
  } catch (err) {
    if (seat === s) seat = null;
    return JSON.stringify({ error: { kind: "load", message: String((err && err.message) || err), trace: "", position: null } });
  }
  const id = ++seatCalls;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      s.worker.terminate();
      if (seat === s) seat = null;
      resolve(JSON.stringify({ error: { kind: "timeout", message: "the move took more than 1 s", trace: "", position: null } }));
    }, WATCHDOG_MS);
    s.pending.set(id, (answer) => {
      clearTimeout(timer);
      resolve(JSON.stringify(answer));
    });
    s.worker.postMessage({ type: "choose", id, source, state: JSON.parse(stateJson), seat: String(seatName || "") });
  });
};

globalThis.generala = globalThis.generala || {};
globalThis.generala.botlab = botlab;
export default botlab;
