// The Bot lab's sandboxed worker: a classic Worker started from a blob: URL by the hidden
// frame static/bot-sandbox.html, whose header gives it an opaque origin. So a player's bot
// (generala/modes/bots.py), whatever its Python does through Pyodide's `js` module, has no Cache
// Storage, IndexedDB, localStorage, cookies or same-origin fetch, and the frame's
// Content-Security-Policy (netlify.toml) lets it load no script and reach no URL. It
// never sees the page: its messages go through the frame to static/js/bot-lab.mjs, which
// checks each one and believes no figure of it (the engine counts the games from their
// moves). A bot that loops, raises or eats memory stops this worker only: the page
// removes the frame (Stop, or a move past the time limit).
//
// It fetches nothing: the page fetches Pyodide's files and the engine package (its own
// origin's, the service worker's cache offline) and they come in the first message; this
// worker answers Pyodide's loader from them (`fetch` stands in for the boot only), and
// imports Pyodide's two modules from blob: URLs of their bytes. (Classic, not a module
// worker: Chromium starts no module worker from a blob: URL in an opaque origin.)
//
// Protocol (structured clone; docs/bot-api.md, static/js/bot-lab.mjs):
//   frame -> worker  {type: "boot", files: {name: ArrayBuffer | null}}  the files of FILES
//   worker -> page   {type: "need", name}                 a boot in full wants this file too
//   page -> worker   {type: "file", name, bytes}          (bytes: an ArrayBuffer, or null)
//   worker -> page   {type: "ready", examples: {name: source}}           once, after boot
//   worker -> page   {type: "failed", message}                            the boot failed
//   page -> worker   {type: "run", source, game, games, seed, first, replay}
//   worker -> page   {type: "games", done, games, moves}  after each slice of about 0.1 s of
//                                                         games: the moves of the games played
//                                                         since the last one (generala/modes/bots.py)
//   worker -> page   {type: "position", position}         replay only: before each move
//   worker -> page   {type: "error", error}               the bot failed (its error, position)
//   page -> worker   {type: "choose", id, source, state, seat} -> {type: "choosing", id}
//                    (the move begins: the page's watchdog runs from here), then
//                    {type: "move", id, answer} (a saved bot's move in a game: bots.choose;
//                    `state` is JSON text)
"use strict";

// Where Pyodide's loader thinks its files are: answered from memory, never fetched.
const BASE = "https://pyodide.invalid/";
const FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json",
  "python_stdlib.empty.zip", "generala.zip", "generala.snapshot.gz", "snapshot-memory.mjs"];
const ENGINE_DIR = "/home/pyodide/engine";
// Seconds of games between two messages (the page's watchdog hears one at least this
// often, plus one move).
const SLICE = 0.1;

const files = {};
const waiting = new Map(); // a file asked of the page -> its resolve

function fileBytes(name) {
  const bytes = files[name];
  if (!(bytes instanceof ArrayBuffer)) throw new Error(`the page gave no ${name}`);
  return bytes;
}

/** A file the page did not send at boot (the whole standard library, for a boot in full). */
function askFile(name) {
  if (files[name] instanceof ArrayBuffer) return Promise.resolve(files[name]);
  return new Promise((resolve) => {
    waiting.set(name, resolve);
    postMessage({ type: "need", name });
  });
}

/** Pyodide's loader's fetch, for the boot: the files in memory, nothing else. */
function fetchFromMemory(url) {
  const href = String(url);
  const name = href.startsWith(BASE) ? href.slice(BASE.length) : "";
  if (!(files[name] instanceof ArrayBuffer)) return Promise.reject(new TypeError(`${href} is not at hand`));
  const type = name.endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
  return Promise.resolve(new Response(files[name], { headers: { "Content-Type": type } }));
}

async function importBytes(name) {
  const url = URL.createObjectURL(new Blob([fileBytes(name)], { type: "text/javascript" }));
  try {
    return await import(url);
  } finally {
    URL.revokeObjectURL(url);
  }
}

async function snapshotBytes() {
  const bytes = new Uint8Array(fileBytes("generala.snapshot.gz"));
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function install(pyodide) {
  pyodide.unpackArchive(fileBytes("generala.zip"), "zip", { extractDir: ENGINE_DIR });
  pyodide.runPython(`import sys\nif ${JSON.stringify(ENGINE_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(ENGINE_DIR)})`);
}

async function boot() {
  const { loadPyodide } = await importBytes("pyodide.mjs");
  const { default: createPyodideModule } = await importBytes("pyodide.asm.mjs");
  const options = {
    indexURL: BASE,
    lockFileContents: JSON.parse(new TextDecoder().decode(fileBytes("pyodide-lock.json"))),
    createPyodideModule,
    packages: [],
    stdout: (line) => console.log(`[bot] ${line}`),
    stderr: (line) => console.warn(`[bot] ${line}`),
  };
  let pyodide = null;
  if (files["generala.snapshot.gz"] instanceof ArrayBuffer && files["snapshot-memory.mjs"] instanceof ArrayBuffer
      && typeof DecompressionStream === "function") {
    try {
      // The snapshot as published: Pyodide's initial memory taken out (static/js/snapshot-memory.mjs).
      const { restoringSnapshot } = await importBytes("snapshot-memory.mjs");
      const restoring = restoringSnapshot(createPyodideModule, snapshotBytes());
      pyodide = await loadPyodide({ ...options, stdLibURL: `${BASE}python_stdlib.empty.zip`, ...restoring });
      install(pyodide);
      const same = pyodide.runPython(`
import generala
with open(${JSON.stringify(ENGINE_DIR + "/generala/BUILD")}, encoding="ascii") as f:
    same = f.read().strip() == getattr(generala, "SNAPSHOT_BUILD", None)
if same:
    import random
    random.seed()  # the snapshot's generator was seeded at build time
same`);
      if (!same) throw new Error("the snapshot holds another build of the engine");
    } catch (err) {
      console.warn(`[bot] booting Pyodide in full: ${String((err && err.message) || err)}`);
      pyodide = null;
    }
  }
  if (pyodide === null) {
    const stdlib = await askFile("python_stdlib.zip");
    if (!(stdlib instanceof ArrayBuffer)) throw new Error("the standard library could not be fetched");
    files["python_stdlib.zip"] = stdlib;
    pyodide = await loadPyodide({ ...options, stdLibURL: `${BASE}python_stdlib.zip` });
    install(pyodide);
  }
  return pyodide.runPython(`
import json
from generala.modes import bots

def _start(source, game, games, seed, first, post):
    on_move = (lambda p: post(json.dumps(p))) if post is not None else None
    return json.dumps(bots.start(source, game, games, seed, first, on_move))

def _advance(budget):
    return json.dumps(bots.advance(budget))

def _choose(source, state, seat):
    return json.dumps(bots.choose(source, json.loads(state), seat))

def _examples():
    return json.dumps({name: bots.example_source(name) for name in bots.EXAMPLES})

(_start, _advance, _choose, _examples)`).toJs();
}

/** Boot with the page's files. While Pyodide's loader runs, `fetch` answers from them and
 *  `importScripts` is hidden (the loader refuses a classic worker it can import into; the
 *  frame's policy refuses every import anyway): both are the browser's own again after. */
async function bootWith(given) {
  for (const name of FILES) files[name] = given[name] instanceof ArrayBuffer ? given[name] : null;
  const nativeFetch = self.fetch;
  self.fetch = fetchFromMemory;
  self.importScripts = undefined;
  try {
    return await boot();
  } finally {
    delete self.importScripts;
    self.fetch = nativeFetch;
    for (const name of Object.keys(files)) delete files[name];
  }
}

/** The next task: promises the bot made (a fetch it tried, say) settle between slices. */
function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

async function run([start, advance], msg) {
  // undefined, not null: Pyodide gives Python None for undefined (null is its own jsnull).
  const post = msg.replay ? (text) => postMessage({ type: "position", position: JSON.parse(text) }) : undefined;
  const begun = JSON.parse(start(msg.source, msg.game, msg.games, msg.seed, msg.first || 0, post));
  if (begun.error) {
    postMessage({ type: "error", error: begun.error });
    return;
  }
  postMessage({ type: "games", done: begun.done, games: begun.games, moves: [] });
  for (;;) {
    await nextTask();
    const out = JSON.parse(advance(SLICE));
    if (out.error) {
      postMessage({ type: "error", error: out.error });
      return;
    }
    postMessage({ type: "games", done: out.done, games: out.games, moves: out.moves });
    if (out.done >= out.games) return;
  }
}

let booting = null;

self.onmessage = async (event) => {
  const msg = event.data || {};
  if (msg.type === "boot" && booting === null) {
    booting = bootWith(msg.files || {});
    booting.then(
      ([, , , examples]) => postMessage({ type: "ready", examples: JSON.parse(examples()) }),
      (err) => postMessage({ type: "failed", message: String((err && err.message) || err) }),
    );
    return;
  }
  if (msg.type === "file" && waiting.has(msg.name)) {
    waiting.get(msg.name)(msg.bytes);
    waiting.delete(msg.name);
    return;
  }
  if (booting === null) return;
  const fns = await booting;
  if (msg.type === "run") {
    try {
      await run(fns, msg);
    } catch (err) {
      postMessage({ type: "failed", message: String((err && err.message) || err) });
    }
  } else if (msg.type === "choose") {
    postMessage({ type: "choosing", id: msg.id }); // the move's time runs from here
    let answer;
    try {
      answer = JSON.parse(fns[2](String(msg.source), String(msg.state), String(msg.seat || "")));
    } catch (err) {  // what bots.choose lets through (a SystemExit)
      answer = { error: { kind: "exception", message: String((err && err.message) || err).slice(-2000), trace: "", position: null } };
    }
    postMessage({ type: "move", id: msg.id, answer });
  }
};
