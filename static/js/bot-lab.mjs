// The Bot lab's main-thread side (globalThis.generala.botlab, js.generala.botlab in the
// page's MicroPython): the code editor (CodeMirror, loaded on first use), the bots'
// sandboxes and their watchdog, and the count of a run by the game's engine. It keeps no
// game state and touches no storage: static/ui/screens/botlab.py draws what `state` says.
//
// A SANDBOX. A player's bot is someone's Python: it never runs in this page's origin. Each
// sandbox is a hidden frame, static/bot-sandbox.html, whose header (netlify.toml) gives it
// an opaque origin and a policy that lets it load no script and reach no URL; the frame
// starts the bot's worker (static/js/bot-worker.js) from a blob: URL. So the bot has no
// Cache Storage, IndexedDB, localStorage, cookies or fetch of this site, and cannot reach
// this page but by messages. The frame is controlled by no service worker: the files
// it needs (Pyodide's, the engine package, the snapshot) are fetched here (this origin's:
// the service worker's cache offline) and handed to it. Every message from it is checked
// (the frame's window, an opaque origin, then its shape): one that is not what the
// protocol says stops the run. Stop and the time limit remove the frame, and every
// worker of it with it.
//
// A RUN. The sandbox plays slices of games and says where it is at least every 0.1 s
// between moves, with the moves of each game played. Its figures are never asked for:
// the game's engine (generala.engine, op lab_games) plays each game again from its seed
// with those moves, refusing any that is not legal, and counts; op lab_results sums the
// count up (generala/modes/bots.py). A sandbox silent for WATCHDOG_MS is in a move past the time
// limit (1 s; a move that ends after more than 1 s is caught by the sandbox itself): it
// is removed, and the slice it was in is played again in a new one that posts each
// position before each move, so the position of the move that never ended can be shown.
// Stop removes the sandbox at once. Nothing here needs SharedArrayBuffer.
const SANDBOX_URL = new URL("../bot-sandbox.html", import.meta.url).href;
const WORKER_SOURCE_URL = new URL("./bot-worker.js", import.meta.url).href;
const PYODIDE_DIR = new URL("../../vendor/pyodide/314.0.7/", import.meta.url).href;
const SITE = new URL("../../", import.meta.url).href;
const EDITOR_URL = new URL("../../vendor/codemirror/6.0.2/code-editor.mjs", import.meta.url).href;
// What the sandbox's worker boots with (static/js/bot-worker.js FILES); the snapshot may
// be missing (the worker then boots in full and asks for the standard library).
const RUNTIME = {
  "pyodide.mjs": `${PYODIDE_DIR}pyodide.mjs`,
  "pyodide.asm.mjs": `${PYODIDE_DIR}pyodide.asm.mjs`,
  "pyodide.asm.wasm": `${PYODIDE_DIR}pyodide.asm.wasm`,
  "pyodide-lock.json": `${PYODIDE_DIR}pyodide-lock.json`,
  "python_stdlib.empty.zip": `${SITE}python_stdlib.empty.zip`,
  "generala.zip": `${SITE}generala.zip`,
  "generala.snapshot.gz": `${SITE}generala.snapshot.gz`,
  "snapshot-memory.mjs": new URL("./snapshot-memory.mjs", import.meta.url).href,
};
const OPTIONAL = new Set(["generala.snapshot.gz", "snapshot-memory.mjs"]);
const ON_REQUEST = { "python_stdlib.zip": `${SITE}python_stdlib.zip` };
const WATCHDOG_MS = 1500;
const MOVE_MS = 1000;
// A seat's sandbox that has not begun a move asked of it this long after (busy or lost).
const QUEUED_MS = 10000;
const HELLO_MS = 10000; // the frame loaded and said nothing: it is not the sandbox
// Bounds of what a sandbox may say (a message past them is refused, not cut).
const KINDS = ["exception", "illegal", "timeout", "load"];
const TEXT_MAX = 40000;
const GAME_MOVES_MAX = 2000; // characters of one game's moves (at most ~45 tokens of 9)

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
  phase: "idle",   // idle | booting | running | replaying | counting | done | error | stopped | failed
  ready: false,    // a sandbox has booted (examples known)
  done: 0,
  games: 0,
  results: "",     // JSON text of the results (the engine's)
  error: "",       // JSON text of the bot's error
  examples: "",    // JSON text {name: source}
  failure: "",     // failed: "boot" (the sandbox did not start) or "count" (the engine did not count)
  message: "",     // failed: what went wrong (English, for the console and the status line)
};

function set(fields) {
  Object.assign(state, fields);
  changed();
}

// --- checking what a sandbox says --------------------------------------------------

const plain = (v) => v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype;
const whole = (v, lo, hi) => Number.isSafeInteger(v) && v >= lo && v <= hi;
const text = (v, max = TEXT_MAX) => typeof v === "string" && v.length <= max;

/** A bot's error as generala/modes/bots.py BotError.to_json writes it, rebuilt from what was
 *  checked; null when it is not one. */
function botError(e) {
  if (!plain(e) || !KINDS.includes(e.kind) || !text(e.message) || !text(e.trace || "")) return null;
  const position = e.position == null ? null : botPosition(e.position);
  if (position === undefined) return null;
  return { kind: e.kind, message: e.message, trace: e.trace || "", position };
}

/** A position (generala/modes/bots.py position), rebuilt from what was checked; undefined when
 *  it is not one. */
function botPosition(p) {
  if (!plain(p)) return undefined;
  const out = {};
  for (const key of ["game", "seed", "turn", "roll"]) {
    if (p[key] == null) continue;
    if (!whole(p[key], 0, Number.MAX_SAFE_INTEGER)) return undefined;
    out[key] = p[key];
  }
  if (p.variant != null) {
    if (!text(p.variant, 40)) return undefined;
    out.variant = p.variant;
  }
  if (p.dice != null) {
    if (!Array.isArray(p.dice) || p.dice.length > 10 || !p.dice.every((d) => whole(d, 1, 6))) return undefined;
    out.dice = [...p.dice];
  }
  if (p.sheet != null) {
    const boxes = plain(p.sheet) ? Object.entries(p.sheet) : null;
    if (!boxes || boxes.length > 20 || !boxes.every(([b, v]) => text(b, 40) && (v === null || whole(v, -10000, 10000)))) {
      return undefined;
    }
    out.sheet = Object.fromEntries(boxes);
  }
  if (p.returned != null) {
    if (!text(p.returned, 400)) return undefined;
    out.returned = p.returned;
  }
  return out;
}

/** The example bots a sandbox's worker read from the engine package: {name: source}. */
function examplesOf(e) {
  if (!plain(e)) return null;
  const entries = Object.entries(e);
  return entries.length <= 10 && entries.every(([n, s]) => text(n, 40) && text(s, 200000)) ? e : null;
}

/** The error the page reports when a sandbox says what the protocol does not (kind
 *  "sandbox": only the page gives it). */
function tampered(what) {
  return { kind: "sandbox", message: `the bot's sandbox sent ${what}: the page accepts none, the run was stopped`, trace: "", position: null };
}

// --- a sandbox ---------------------------------------------------------------------

async function fetchBytes(url) {
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(`${resp.status} for ${url}`);
  return resp.arrayBuffer();
}

async function runtimeFiles() {
  const entries = await Promise.all(Object.entries(RUNTIME).map(async ([name, url]) => {
    try {
      return [name, await fetchBytes(url)];
    } catch (err) {
      if (OPTIONAL.has(name)) return [name, null];
      throw err;
    }
  }));
  return Object.fromEntries(entries);
}

/** A bot's sandbox: the hidden frame, its worker booted with the files fetched here.
 *  `handlers.message(msg)` gets each message of its worker once it is known to be the
 *  sandbox's (its frame's window, an opaque origin); `handlers.failed(why)` once, when it
 *  could not start. `end()` removes the frame (its worker with it). */
class Sandbox {
  constructor(handlers) {
    this.handlers = handlers;
    this.ended = false;
    this.greeted = false;
    this.asked = false;
    this.listener = (event) => this.received(event);
    window.addEventListener("message", this.listener);
    const frame = document.createElement("iframe");
    frame.hidden = true;
    frame.tabIndex = -1;
    frame.setAttribute("aria-hidden", "true");
    frame.className = "bot-sandbox";
    frame.addEventListener("load", () => {
      setTimeout(() => {
        if (!this.greeted) this.fail("the bot's sandbox did not start (its frame said nothing)");
      }, HELLO_MS);
    });
    frame.src = SANDBOX_URL;
    this.frame = frame;
    document.body.appendChild(frame);
  }

  received(event) {
    if (this.ended || event.source !== this.frame.contentWindow) return;
    if (event.origin !== "null") {
      this.fail("the bot's frame has this site's origin (it was served without its sandbox header): no bot runs there");
      return;
    }
    const msg = event.data;
    if (!this.greeted) {
      if (plain(msg) && msg.type === "hello") {
        this.greeted = true;
        this.boot();
      } else this.fail("the bot's sandbox did not start as it should");
      return;
    }
    if (plain(msg) && msg.type === "need" && Object.hasOwn(ON_REQUEST, msg.name) && !this.asked) {
      this.asked = true; // once: a boot in full asks before the sandbox is ready
      fetchBytes(ON_REQUEST[msg.name]).then(
        (bytes) => this.post({ type: "file", name: msg.name, bytes }, [bytes]),
        (err) => {
          console.warn(`[bot] ${msg.name}: ${String((err && err.message) || err)}`);
          this.post({ type: "file", name: msg.name, bytes: null });
        },
      );
      return;
    }
    this.handlers.message(plain(msg) ? msg : { type: null });
  }

  async boot() {
    try {
      const [files, source] = await Promise.all([runtimeFiles(), fetchBytes(WORKER_SOURCE_URL)]);
      const transfer = Object.values(files).filter((f) => f instanceof ArrayBuffer);
      this.post({ type: "boot", source: new TextDecoder().decode(source), files }, transfer);
    } catch (err) {
      this.fail(`the bot's Python could not be fetched: ${String((err && err.message) || err)}`);
    }
  }

  post(msg, transfer = []) {
    if (!this.ended) this.frame.contentWindow.postMessage(msg, "*", transfer);
  }

  end() {
    if (this.ended) return;
    this.post({ type: "stop" });
    this.ended = true;
    window.removeEventListener("message", this.listener);
    this.frame.remove();
  }

  fail(why) {
    if (this.ended) return;
    this.end();
    console.warn(`[bot] ${why}`);
    this.handlers.failed(why);
  }
}

// --- the lab's runs ----------------------------------------------------------------

let lab = null;       // the lab's sandbox: {sandbox, ready, onReady, used (a run was given it)}
let job = null;       // the run: {source, game, games, seed, received, tally, counting, started}
let watchdog = 0;
let lastHeard = 0;
let sliceStart = 0;   // the first game of the slice being played
let lastPosition = null;
let editor = null;

function stopWatchdog() {
  if (watchdog) clearInterval(watchdog);
  watchdog = 0;
}

function endLab() {
  stopWatchdog();
  if (lab) lab.sandbox.end();
  lab = null;
}

function spawnLab(onReady) {
  endLab();
  const mine = { sandbox: null, ready: false, onReady };
  mine.sandbox = new Sandbox({
    message: (msg) => { if (lab === mine) labMessage(mine, msg); },
    failed: (why) => {
      if (lab !== mine) return;
      lab = null;
      stopWatchdog();
      if (job) job.over = true;
      set({ phase: "failed", failure: "boot", message: why, ready: false });
    },
  });
  lab = mine;
}

function fail(error) {
  endLab();
  if (job) job.over = true;
  set({ phase: "error", error: JSON.stringify(error) });
}

function labMessage(mine, msg) {
  lastHeard = performance.now();
  const phase = state.phase;
  if (msg.type === "ready" && !mine.ready) {
    const examples = examplesOf(msg.examples);
    if (examples === null) {
      fail(tampered("examples it should not"));
      return;
    }
    mine.ready = true;
    set({ ready: true, examples: JSON.stringify(examples) });
    if (mine.onReady) mine.onReady();
    return;
  }
  if (msg.type === "failed" && !mine.ready && text(msg.message)) {
    endLab();
    if (job) job.over = true;
    set({ phase: "failed", failure: "boot", message: msg.message, ready: false });
    return;
  }
  if (!mine.ready || job === null || job.over || !["running", "replaying"].includes(phase)) {
    // Nothing was asked of this sandbox: whatever it says now is the bot's doing.
    fail(tampered(`a message (${String(msg.type).slice(0, 40)}) when none was asked for`));
    return;
  }
  if (msg.type === "games") gamesPlayed(msg);
  else if (msg.type === "position" && phase === "replaying") {
    const position = botPosition(msg.position);
    if (position === undefined) fail(tampered("a position that is none"));
    else lastPosition = position;
  } else if (msg.type === "error") {
    const error = botError(msg.error);
    fail(error || tampered("an error that is none"));
  } else if (msg.type === "failed" && text(msg.message)) {
    // The worker itself stopped with the bot running (a SystemExit, memory): the bot's failure.
    fail({ kind: "exception", message: msg.message, trace: "", position: null });
  } else fail(tampered(`a message the lab does not take (${String(msg.type).slice(0, 40)})`));
}

/** The sandbox played games: their moves go to the engine to be counted. */
function gamesPlayed(msg) {
  const run = job;
  const moves = msg.moves;
  if (!whole(msg.done, 0, run.games) || msg.games !== run.games || !Array.isArray(moves)
      || !moves.every((m) => text(m, GAME_MOVES_MAX))) {
    fail(tampered("games that are not the run's"));
    return;
  }
  if (state.phase === "replaying") {
    // The slice played again to the end without a move past the limit: that move is still
    // the one that never returned (a bot whose time depends on the clock).
    if (msg.done >= run.games) late();
    return;
  }
  if (msg.done - moves.length !== run.received) {
    fail(tampered("games out of their order"));
    return;
  }
  if (run.started === null) run.started = performance.now();
  run.received = msg.done;
  sliceStart = msg.done;
  set({ done: msg.done });
  if (moves.length) count(run, moves);
  if (run.received === run.games) {
    endLab();
    run.seconds = (performance.now() - run.started) / 1000;
    set({ phase: "counting" });
    sumUp(run);
  }
}

/** The engine's answer to one of the lab's requests, parsed; a refusal or no answer is the
 *  run's failure to be counted (the English reason to the console). */
async function ask(run, request) {
  let reply = null;
  try {
    reply = JSON.parse(await globalThis.generala.engine.call(JSON.stringify(request)));
  } catch (err) {
    reply = { ok: false, error: String((err && err.message) || err) };
  }
  if (reply.ok) return reply;
  if (job === run && !run.over) {
    console.error(`[bot] the engine did not count the run: ${reply.error || reply.code}`);
    endLab();
    run.over = true;
    set({ phase: "failed", failure: "count", message: String(reply.error || reply.code || "") });
  }
  return null;
}

/** Count the next games of `run` (in order, one request after the other). */
function count(run, moves) {
  run.counting = run.counting.then(async () => {
    if (job !== run || run.over) return;
    const reply = await ask(run, { op: "lab_games", game: run.game, seed: run.seed, moves, tally: run.tally });
    if (reply === null || job !== run || run.over) return;
    if (reply.error) {
      const error = botError(reply.error);
      fail(error || tampered("moves the engine refused"));
      return;
    }
    run.tally = reply.tally;
  });
}

/** Every game counted: the run's figures, the engine's. */
function sumUp(run) {
  run.counting = run.counting.then(async () => {
    if (job !== run || run.over) return;
    const seconds = Math.round(run.seconds * 1000) / 1000;
    const reply = await ask(run, { op: "lab_results", tally: run.tally, games: run.games, seconds });
    if (reply === null || job !== run || run.over) return;
    run.over = true;
    set({ phase: "done", results: reply.results });
  });
}

function watch() {
  stopWatchdog();
  lastHeard = performance.now();
  watchdog = setInterval(() => {
    if (performance.now() - lastHeard > WATCHDOG_MS) late();
  }, 100);
}

/** The sandbox said nothing for too long: a move past the limit. Play its slice again,
 *  positions told, to say where; then report. */
function late() {
  if (state.phase === "running") {
    lastPosition = null;
    set({ phase: "replaying" });
    spawnLab(() => {
      lab.sandbox.post({ type: "run", source: job.source, game: job.game, games: job.games, seed: job.seed,
        first: sliceStart, replay: true });
      watch();
    });
    lab.used = true;
    return;
  }
  fail({
    kind: "timeout",
    message: `the move took more than ${MOVE_MS / 1000} s (it was stopped)`,
    trace: "",
    position: lastPosition,
  });
}

const botlab = {
  state,
  /** Call `fn()` after every change of `state` (one fixed callback of the page). */
  listen(fn) { listeners.push(fn); },
  /** Boot a sandbox ahead of a run (the screen is opened). */
  warm() {
    if (lab === null && !state.ready && state.phase !== "booting") {
      set({ phase: "booting" });
      spawnLab(() => { if (state.phase === "booting") set({ phase: "idle" }); });
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
    if (job) job.over = true;
    job = { source: editor ? editor.value : "", game: String(game), games, seed, received: 0, tally: null,
      counting: Promise.resolve(), started: null, seconds: 0, over: false };
    sliceStart = 0;
    set({ phase: "running", done: 0, games, results: "", error: "", failure: "", message: "" });
    const start = () => {
      lab.sandbox.post({ type: "run", source: job.source, game: job.game, games: job.games, seed: job.seed,
        first: 0, replay: false });
      watch();
    };
    // A sandbox in which no bot has run yet (booted or booting), else a new one: nothing of
    // a bot outlives its run.
    if (lab !== null && !lab.used) {
      lab.used = true;
      if (lab.ready) start();
      else lab.onReady = start;
    } else {
      spawnLab(start);
      lab.used = true;
    }
  },
  /** Stop removes the sandbox, whatever it is doing. */
  stop() {
    if (!["running", "replaying", "counting", "booting"].includes(state.phase)) return;
    endLab();
    if (job) job.over = true;
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

// --- a saved bot's seat in a game: one move at a time, in a sandbox of its own ----------

let seat = null;       // {sandbox, ready: Promise, pending: Map id -> {begun, resolve}}
let seatCalls = 0;

const seatError = (kind, message) => ({ error: { kind, message, trace: "", position: null } });

/** End a seat's sandbox; its unanswered moves answer `answer`. */
function dropSeat(s, answer) {
  s.sandbox.end();
  if (seat === s) seat = null;
  for (const { resolve } of s.pending.values()) resolve(answer);
  s.pending.clear();
}

function seatSandbox() {
  if (seat === null) {
    const s = { sandbox: null, booted: false, pending: new Map() };
    let booted;
    let refused;
    s.ready = new Promise((resolve, reject) => { booted = resolve; refused = reject; });
    s.ready.catch(() => {});
    s.sandbox = new Sandbox({
      message(msg) {
        if (msg.type === "ready" && !s.booted) {
          s.booted = true;
          booted();
          return;
        }
        if (msg.type === "failed" && text(msg.message)) {
          // before its boot: Python did not start; after: the worker itself stopped (memory)
          refused(new Error(msg.message));
          dropSeat(s, seatError(s.booted ? "exception" : "load", msg.message));
          return;
        }
        if (msg.type === "choosing" && s.pending.has(msg.id)) {
          s.pending.get(msg.id).begun();
          return;
        }
        const answer = msg.type === "move" && s.pending.has(msg.id) ? seatAnswer(msg.answer) : null;
        if (answer === null) {
          // Not an answer to a move asked: the bot's doing. Nothing of it is believed.
          const why = tampered(`a message (${String(msg.type).slice(0, 40)}) that answers no move`).message;
          refused(new Error(why));
          dropSeat(s, seatError("sandbox", why));
          return;
        }
        s.pending.get(msg.id).resolve(answer);
        s.pending.delete(msg.id);
      },
      failed(why) {
        refused(new Error(why));
        dropSeat(s, seatError("load", why));
      },
    });
    seat = s;
  }
  return seat;
}

/** A seat's answer (generala/modes/bots.py choose): {move} (the engine checks it) or {error}. */
function seatAnswer(answer) {
  if (!plain(answer)) return null;
  if (plain(answer.move)) {
    const move = JSON.stringify(answer.move);
    return move.length <= 2000 ? { move: JSON.parse(move) } : null;
  }
  const error = botError(answer.error);
  return error ? { error } : null;
}

/** Boot the seat's sandbox ahead of a bot's first move (a game with a bot's side is shown). */
botlab.warmSeat = function warmSeat() { seatSandbox(); };

/** A saved bot's move: resolves to JSON text {move} or {error}; a move past the limit
 *  (no answer WATCHDOG_MS after the sandbox said it began it, or QUEUED_MS after it was
 *  asked when it never began) removes that sandbox and answers a timeout. The state
 *  is the engine's (op bot's `ask`), as JSON text; `seat` names the game's seat (a class
 *  Bot is made once for it). A sandbox that fails to boot answers an error too. */
botlab.choose = async function choose(source, stateJson, seatName) {
  const s = seatSandbox();
  try {
    await s.ready;
  } catch (err) {
    if (seat === s) seat = null;
    return JSON.stringify(seatError("load", String((err && err.message) || err)));
  }
  if (s.sandbox.ended) return JSON.stringify(seatError("load", "the bot's sandbox was stopped"));
  const id = ++seatCalls;
  return new Promise((resolve) => {
    let timer = 0;
    const arm = (ms) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        s.pending.delete(id);
        const late = seatError("timeout", "the move took more than 1 s");
        dropSeat(s, late);
        resolve(JSON.stringify(late));
      }, ms);
    };
    arm(QUEUED_MS);
    s.pending.set(id, {
      begun: () => arm(WATCHDOG_MS),
      resolve: (answer) => {
        clearTimeout(timer);
        resolve(JSON.stringify(answer));
      },
    });
    s.sandbox.post({ type: "choose", id, source: String(source), state: String(stateJson), seat: String(seatName || "") });
  });
};

globalThis.generala = globalThis.generala || {};
globalThis.generala.botlab = botlab;
export default botlab;
