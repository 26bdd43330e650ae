// Which files of Python's standard library the engine uses, traced in Pyodide.
//
//   node tools/trace_stdlib.mjs ENGINE_ZIP TABLES_DIR OUT_JSON
//
// Boots the Pyodide the site publishes (its start-up imports are recorded too),
// imports every module of the engine and every standard-library module named in an
// import statement of the engine's sources (lazy imports inside functions included),
// then plays through the worker protocol (generala.app.Session): every variant with
// computer players of every level to the end, a person's game with hints, the coach,
// undo, share, replay, records, save and load, the report, score-sheet mode, and the
// solver on house options with no shipped table. Then writes the stdlib zip's file
// names of every module in sys.modules (and the packages above them) to OUT_JSON.
// tools/build.py publishes a python_stdlib.zip of those files only.
import { loadPyodide } from "pyodide";
import fs from "node:fs";
import path from "node:path";

const [zipPath, tablesDir, outPath] = process.argv.slice(2);
if (!zipPath || !tablesDir || !outPath) {
  console.error("usage: node tools/trace_stdlib.mjs ENGINE_ZIP TABLES_DIR OUT_JSON");
  process.exit(2);
}

const py = await loadPyodide({ stdout: () => {}, stderr: (line) => console.error(line) });
py.unpackArchive(new Uint8Array(fs.readFileSync(zipPath)), "zip", { extractDir: "/home/pyodide/engine" });
py.FS.mkdirTree("/tables");
for (const name of fs.readdirSync(tablesDir)) {
  py.FS.writeFile(`/tables/${name}`, new Uint8Array(fs.readFileSync(path.join(tablesDir, name))));
}

const files = py.runPython(String.raw`
import ast, importlib, json, os, pkgutil, sys
sys.path.insert(0, "/home/pyodide/engine")
import generala
from generala import app

# Every engine module, and every stdlib module its sources name (lazy imports too).
names = set()
for info in pkgutil.walk_packages(generala.__path__, "generala."):
    if info.name.endswith(".__main__"):  # the command line: it would run
        continue
    mod = importlib.import_module(info.name)
    tree = ast.parse(open(mod.__file__, encoding="utf-8").read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
for name in sorted(names):
    if not name.startswith("generala"):
        importlib.import_module(name)

def table_path_hook(reply):
    """The worker's part of NeedTable: the table file where the engine reads it."""
    if reply.get("kind") != "NeedTable":
        return False
    src = "/tables/" + reply["table"]
    if not os.path.exists(src):
        return False
    os.makedirs(os.path.dirname(reply["path"]), exist_ok=True)
    with open(src, "rb") as f, open(reply["path"], "wb") as g:
        g.write(f.read())
    return True

def call(session, req):
    reply = session.handle(req)
    if table_path_hook(reply):
        reply = session.handle(req)
    return reply

def must(session, req):
    reply = call(session, req)
    assert reply.get("ok"), (req, reply)
    return reply

def solve_until_done(session, req):
    for solves in range(10_000):
        reply = call(session, req)
        if reply.get("kind") != "NeedTable":
            assert reply["ok"] and solves > 0, reply
            return reply
        must(session, {"op": "solve", "budget_ms": 2000})
    raise RuntimeError("the solver did not finish")

def as_request(action):
    """A hint's action as a protocol request."""
    if "roll" in action:
        return {"op": "roll"}
    if "hold" in action:
        return {"op": "hold", "dice": action["hold"]}
    req = {"op": "score", **{k: v for k, v in action.items() if k != "score"}}
    req["boxes" if isinstance(action["score"], list) else "box"] = action["score"]
    return req

catalog = must(app.Session(), {"op": "catalog"})["catalog"]["variants"]
first_variant = next(iter(catalog))
from generala.ai.players import LEVELS
levels = [f"ai:{level}" for level in LEVELS]
for variant in catalog:
    s = app.Session()
    must(s, {"op": "new", "variant": variant, "seed": 1,
             "sides": [{"name": f"Bot {i}", "player": lvl} for i, lvl in enumerate(levels)]})
    for _ in range(20_000):
        reply = must(s, {"op": "ai"})
        if reply["view"]["over"]:
            break
    save = reply["save"]
    must(s, {"op": "report"})
    link = must(s, {"op": "share"})
    must(s, {"op": "replay", "save": save})
    must(s, {"op": "replay_at", "step": 3})
    call(s, {"op": "replay", "link": link.get("link", "")})
    must(s, {"op": "records", "entries": [{"save": save, "when": "2026-01-01T00:00:00Z"}]})
    must(s, {"op": "load", "save": save})
    must(s, {"op": "again"})

    # A person, with the coach, hints, holds and undo, to the end.
    p = app.Session()
    must(p, {"op": "new", "variant": variant, "sides": ["Ana"], "seed": 2})
    must(p, {"op": "coach", "on": True})
    for _ in range(1_000):
        view = must(p, {"op": "view"})["view"]
        if view["over"]:
            break
        if view["rolls"] == 0:
            must(p, {"op": "roll"})
        call(p, {"op": "toggle", "die": 0})
        call(p, {"op": "undo"})
        hint = must(p, {"op": "hint", "top": 1})["hint"][0]
        must(p, as_request(hint["action"]))
    must(p, {"op": "report"})
    call(p, {"op": "import", "text": "not an export"})
    call(p, {"op": "load", "save": {"bad": True}})

    # Score-sheet mode, a split, requests that are refused.
    sh = app.Session()
    call(sh, {"op": "new", "variant": variant, "sides": ["Ana", "Ben"], "sheet": True})
    call(sh, {"op": "enter", "dice": [4, 4, 1, 2, 6] * (2 if catalog[variant]["dice"] == 10 else 1), "at": 1})
    call(sh, {"op": "split", "boxes": ["ones", "fives"]})
    app.handle("not json")
    app.handle('{"op": "nonsense"}')

# A game by link between two sessions, as two devices: new, read, join, open, moves, send.
ana, beto = app.Session(), app.Session()
sides = [{"name": "Ana", "player": "human"}, {"name": None, "player": "human"}]
made = must(ana, {"op": "link_new", "variant": first_variant, "sides": sides, "entropy": "01" * 48})
invitation = made["invitations"][0]["token"]
must(beto, {"op": "link_read", "token": invitation})
joined = must(beto, {"op": "link_join", "token": invitation, "name": "Beto", "entropy": "02" * 32})
local = {0: made["local"], 1: joined["local"]}
opened = must(ana, {"op": "link_open", "token": joined["link"], "local": local[0]})
local[0], devices, device = opened["local"], {0: ana, 1: beto}, 0
for _ in range(6):
    session = devices[device]
    if app.link_status(session.link)["mine"]:
        view = must(session, {"op": "roll"})["view"]
        cell = next(c for row in view["rows"] for c in [row["cells"][device]] if c.get("playable"))
        local[device] = must(session, cell["request"])["local"]
    sent = must(session, {"op": "link_send"})
    local[device], device = sent["local"], 1 - device
    local[device] = must(devices[device], {"op": "link_open", "token": sent["link"], "local": local[device]})["local"]
call(beto, {"op": "link_open", "token": sent["link"][:-3], "local": local[1]})

# The solver: house options of the first variant (no shipped table).
first = next(iter(catalog))
opts = {o["name"]: o["values"][1] for o in catalog[first]["options"] if o["type"] == "choice"}
h = app.Session()
must(h, {"op": "new", "variant": first, "options": opts, "seed": 4, "sides": ["Ana"]})
must(h, {"op": "roll"})
solve_until_done(h, {"op": "hint", "top": 1})

stdlib = "/lib/python314.zip/"
files = set()
for name, mod in list(sys.modules.items()):
    f = getattr(mod, "__file__", None) or ""
    if f.startswith(stdlib):
        files.add(f[len(stdlib):])  # a package's parents are in sys.modules too
json.dumps(sorted(files))
`);
fs.writeFileSync(outPath, files + "\n");
console.log(`${JSON.parse(files).length} stdlib files in use`);
