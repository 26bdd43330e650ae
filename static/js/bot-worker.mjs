// The Bot lab's worker: a plain module Worker of its own (never the game's engine
// worker) that boots Pyodide and the engine package the way static/js/engine-worker.mjs
// does (from the engine's memory snapshot when it is of this build, else in full) and
// runs a player's bot (generala/bots.py). A bot that loops, raises or eats memory
// stops this worker only: the page terminates it (Stop, or a move past the time limit).
//
// Protocol (structured clone; docs/bot-api.md, static/js/bot-lab.mjs):
//   worker -> page  {type: "ready", examples: {name: source}}       once, after boot
//   worker -> page  {type: "failed", message}                        the boot failed
//   page -> worker  {type: "run", source, game, games, seed, first, replay}
//   worker -> page  {type: "progress", done, games}                  at least every 0.1 s
//                                                                    between moves
//   worker -> page  {type: "position", position}                     replay only: before
//                                                                    each move
//   worker -> page  {type: "results", results} | {type: "error", error}
//   page -> worker  {type: "choose", id, source, state, seat} -> {type: "move", id, answer}
//                   (a saved bot's move in a game: bots.choose; `seat` names the game's seat)
import { loadPyodide } from "../../vendor/pyodide/314.0.7/pyodide.mjs";

const PYODIDE_URL = new URL("../../vendor/pyodide/314.0.7/", import.meta.url).href;
const ENGINE_ZIP_URL = new URL("../../generala.zip", import.meta.url).href;
const SNAPSHOT_URL = new URL("../../generala.snapshot.gz", import.meta.url).href;
const STDLIB_URL = new URL("../../python_stdlib.zip", import.meta.url).href;
const NO_STDLIB_URL = new URL("../../python_stdlib.empty.zip", import.meta.url).href;
const ENGINE_DIR = "/home/pyodide/engine";
// Seconds of games between two progress messages (the page's watchdog hears one at
// least this often, plus one move).
const SLICE = 0.1;

const OPTIONS = {
  indexURL: PYODIDE_URL,
  stdLibURL: STDLIB_URL,
  packages: [],
  stdout: (line) => console.log(`[bot] ${line}`),
  stderr: (line) => console.warn(`[bot] ${line}`),
};

async function fetchBytes(url) {
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(`${resp.status} for ${url}`);
  return new Uint8Array(await resp.arrayBuffer());
}

async function snapshot() {
  const bytes = await fetchBytes(SNAPSHOT_URL);
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function install(pyodide, zip) {
  pyodide.unpackArchive(zip, "zip", { extractDir: ENGINE_DIR });
  pyodide.runPython(`import sys\nif ${JSON.stringify(ENGINE_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(ENGINE_DIR)})`);
}

async function boot() {
  const zip = fetchBytes(ENGINE_ZIP_URL);
  zip.catch(() => {});
  let pyodide = null;
  if (typeof DecompressionStream === "function") {
    try {
      pyodide = await loadPyodide({ ...OPTIONS, stdLibURL: NO_STDLIB_URL, _loadSnapshot: snapshot() });
      install(pyodide, await zip);
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
      await zip;
      console.warn(`[bot] booting Pyodide in full: ${String((err && err.message) || err)}`);
      pyodide = null;
    }
  }
  if (pyodide === null) {
    pyodide = await loadPyodide(OPTIONS);
    install(pyodide, await zip);
  }
  return pyodide.runPython(`
import json
from generala import bots

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

const booting = boot();
booting.then(
  ([, , , examples]) => postMessage({ type: "ready", examples: JSON.parse(examples()) }),
  (err) => postMessage({ type: "failed", message: String((err && err.message) || err) }),
);

function run([start, advance], msg) {
  // undefined, not null: Pyodide gives Python None for undefined (null is its own jsnull).
  const post = msg.replay ? (text) => postMessage({ type: "position", position: JSON.parse(text) }) : undefined;
  const begun = JSON.parse(start(msg.source, msg.game, msg.games, msg.seed, msg.first || 0, post));
  if (begun.error) {
    postMessage({ type: "error", error: begun.error });
    return;
  }
  postMessage({ type: "progress", done: begun.done, games: begun.games });
  for (;;) {
    const out = JSON.parse(advance(SLICE));
    if (out.error) {
      postMessage({ type: "error", error: out.error, done: out.done });
      return;
    }
    postMessage({ type: "progress", done: out.done, games: out.games });
    if (out.results) {
      postMessage({ type: "results", results: out.results });
      return;
    }
  }
}

self.onmessage = async (event) => {
  const msg = event.data;
  const fns = await booting;
  if (msg.type === "run") {
    try {
      run(fns, msg);
    } catch (err) {
      postMessage({ type: "failed", message: String((err && err.message) || err) });
    }
  }
  else if (msg.type === "choose") {
    const answer = JSON.parse(fns[2](msg.source, JSON.stringify(msg.state), String(msg.seat || "")));
    postMessage({ type: "move", id: msg.id, answer });
  }
};
