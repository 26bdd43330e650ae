"""The trimmed standard library (tools/build.py publishes only the modules that
Pyodide's start-up and the engine import, and the snapshot has them all imported):
in the browser, booted from the snapshot (with no library files) and booted in full, every variant plays to the end with computer players of every
level, a person plays with the coach and hints, the report is made, and the solver
computes a table for house options. Results are the same as CPython's."""
import json

import pytest
from e2e_support import boot, first_game_prepared

from generala import app
from generala.ai.players import LEVELS

# The dice land at once and a computer plays at once (the board's motion switch off: conftest
# STILL_DICE): what is under test here is not the motion (test_table_motion.py).
pytestmark = pytest.mark.still_dice

VARIANTS = list(app.Session().handle({"op": "catalog"})["catalog"]["variants"])
LEVEL_NAMES = [f"ai:{level}" for level in LEVELS]

# Runs in the page: the protocol through the page's engine module (the worker).
PLAY = """async ({variant, levels}) => {
  const call = async (r) => JSON.parse(await generala.engine.call(JSON.stringify(r)));
  const out = {};
  let reply = await call({op: "new", variant, seed: 7,
                          sides: levels.map((player, i) => ({name: `Bot ${i}`, player}))});
  for (let i = 0; i < 5000 && reply.ok && !reply.view.over; i++) reply = await call({op: "ai"});
  out.bots = {ok: reply.ok, over: reply.ok && reply.view.over, error: reply.error || null,
              totals: reply.ok ? reply.view.sides.map((s) => s.total) : null};
  out.report = (await call({op: "report"})).ok;
  out.share = (await call({op: "share"})).ok;

  reply = await call({op: "new", variant, seed: 8, sides: ["Ana"]});
  await call({op: "coach", on: true});
  let costs = 0;
  for (let i = 0; i < 500 && reply.ok && !reply.view.over; i++) {
    if (reply.view.rolls === 0) reply = await call({op: "roll"});
    const hint = await call({op: "hint", top: 1});
    if (!hint.ok) { reply = hint; break; }
    const a = hint.hint[0].action;
    let req;
    if ("roll" in a) req = {op: "roll"};
    else if ("hold" in a) req = {op: "hold", dice: a.hold};
    else {
      req = {op: "score", ...a};
      delete req.score;
      req[Array.isArray(a.score) ? "boxes" : "box"] = a.score;
    }
    reply = await call(req);
    if ("cost" in reply) costs++;
  }
  out.person = {ok: reply.ok, over: reply.ok && reply.view.over, error: reply.error || null,
                total: reply.ok ? reply.view.sides[0].total : null, costs};
  return out;
}"""

SOLVE = """async ({variant, options}) => {
  const call = async (r) => JSON.parse(await generala.engine.call(JSON.stringify(r)));
  let reply = await call({op: "new", variant, options, seed: 4, sides: ["Ana"]});
  await call({op: "roll"});
  let solves = 0;
  for (let i = 0; i < 2000; i++) {
    reply = await call({op: "hint", top: 1});
    if (reply.kind !== "NeedTable") break;
    const step = await call({op: "solve", budget_ms: 500});
    if (!step.ok) return {ok: false, error: step.error};
    solves++;
  }
  return {ok: reply.ok, error: reply.error || null, solves, hint: reply.ok && reply.hint.length > 0};
}"""


def cpython_play(variant):
    """The same games in CPython: the computer players' totals and the person's."""
    s = app.Session()
    reply = s.handle({"op": "new", "variant": variant, "seed": 7,
                      "sides": [{"name": f"Bot {i}", "player": p} for i, p in enumerate(LEVEL_NAMES)]})
    while reply["ok"] and not reply["view"]["over"]:
        reply = s.handle({"op": "ai"})
    return [side["total"] for side in reply["view"]["sides"]]


@pytest.mark.parametrize("how", ["snapshot", "full"])
def test_every_variant_the_computer_the_coach_and_the_solver_run_on_the_trimmed_stdlib(page, guard, how):
    if how == "full":
        guard.allow(r"generala\.snapshot\.gz|Failed to load resource")
        page.context.route("**/generala.snapshot.gz", lambda route: route.fulfill(status=404, body="gone"))
    requests = []
    page.context.on("request", lambda r: requests.append(r.url.rsplit("/", 1)[-1]))
    boot(page)
    first_game_prepared(page)  # the page's own `new` done: the engine's game is the test's now
    assert page.evaluate("generala.engine.timings.worker.boot") == how
    # Restored from the snapshot (which imported every module the engine uses), the
    # worker loads an empty library; booted in full (after trying the snapshot), the
    # trimmed one.
    libraries = [r for r in requests if r.startswith("python_stdlib")]
    assert libraries == (["python_stdlib.empty.zip"] if how == "snapshot"
                         else ["python_stdlib.empty.zip", "python_stdlib.zip"])
    for variant in VARIANTS:
        out = page.evaluate(PLAY, {"variant": variant, "levels": LEVEL_NAMES})
        assert out["bots"]["ok"] and out["bots"]["over"], (variant, out)
        assert out["bots"]["totals"] == cpython_play(variant), variant
        assert out["report"] and out["share"], (variant, out)
        assert out["person"]["ok"] and out["person"]["over"], (variant, out)
        assert out["person"]["costs"] > 0, (variant, out)  # the coach priced the decisions
    catalog = app.Session().handle({"op": "catalog"})["catalog"]["variants"]
    first = VARIANTS[0]
    options = {o["name"]: o["values"][1] for o in catalog[first]["options"] if o["type"] == "choice"}
    solved = page.evaluate(SOLVE, {"variant": first, "options": options})
    assert solved["ok"] and solved["hint"] and solved["solves"] > 0, solved
    assert json.loads(page.evaluate("generala.engine.call(JSON.stringify({op: 'ping'}))"))["ok"]
