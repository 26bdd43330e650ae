"""Win chances in the page: the engine's reply times in Pyodide (its worker), tables loaded.

    python3 bench/chances_page.py [--dist DIR] [--positions 30] [--variants argentine,...]
                                  [--sides 2,3] [--stories 8]

Builds the site (unless --dist names a build), serves it with the production headers
(tools/serve.py) and boots the page in headless Chromium (Debian's /usr/bin/chromium).
Random mid-game positions of each game (bench/chances.py's: seeded games of optimal
players stopped between a fifth and four fifths of their turns) are opened in the page's
engine ({"op": "load"}), and two requests are timed in the page, from the request to its
reply (the worker's round trip: what the page waits for):

  update    {"op": "chances"} at the start of a turn: the win-chance update the board
            shows after a box filled (every move that fills a box carries it)
  decision  {"op": "ai"}, the side to play a champion (plays to win) at a random roll of
            its turn: one play-to-win decision, the move made and its view built
  story     {"op": "story"} of a finished game of people (seeded games of optimal play,
            --stories of them): the game-over card's story, every box's chances and each
            person's boxes weighed for the win

The first request of each game fetches and loads its table and laws; it is left out
(the figures are "tables loaded"). Prints p50 / p95 / max per game and side count.
Targets: update <= 200 ms p95, decision <= 500 ms p95, at 1x CPU. (Chromium's CPU
throttling, DevTools' "4x slowdown", does not reach a worker: measured, the figures stay
the same; a slow phone is not emulated here.)
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from chances import position  # noqa: E402
from generala import Game, variant  # noqa: E402
from generala.ai.players import OptimalPlayer  # noqa: E402
from generala.rules.sides import Side  # noqa: E402
from tools.serve import start_server  # noqa: E402

VARIANTS = ["argentine", "puerto-rican", "double", "bulgarian"]
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMED = """async ([reqs]) => {
  const out = [];
  for (const r of reqs) {
    const t0 = performance.now();
    const parts = await generala.engine.request(r);
    const ms = performance.now() - t0;
    const reply = JSON.parse(parts.reply);
    out.push({ms, ok: reply.ok, kind: reply.kind || null, code: reply.code || null});
  }
  return out;
}"""


def champions(game: Game, sides: int) -> dict:
    """The position's save with every side a champion (the engine plays the one to play)."""
    save = game.to_json()
    save = json.loads(json.dumps(save))
    for side in save["sides"]:
        side["player"] = "ai:champion"
    return save


def positions(name: str, sides: int, count: int, seed: int, turn_start: bool) -> list[dict]:
    rules = variant(name)
    player = OptimalPlayer(rules)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = position(rules, sides, rng, player)
        if turn_start and game.rolls:
            continue  # an update comes after a box: the next turn not begun
        if not turn_start and not game.rolls:
            game.roll()  # a decision: a roll of the turn to weigh
            if game.over or game.win_offered:
                continue
        out.append(champions(game, sides))
    return out


def finished(name: str, sides: int, count: int, seed: int) -> list[dict]:
    """Whole games of people (played here by the optimal player), as saves."""
    from generala.ai.players import step
    from generala.rules.roller import SeededRoller
    rules = variant(name)
    player = OptimalPlayer(rules)
    out = []
    for k in range(count):
        game = Game(rules, [Side(f"P{i + 1}") for i in range(sides)], SeededRoller(seed * 1000 + k))
        while not game.over:
            step(game, player)
        out.append(game.to_json())
    return out


def quantiles(values):
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    return statistics.median(values), p95, values[-1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dist", help="a built site (default: build one)")
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--stories", type=int, default=8)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--sides", default="2,3")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    dist = args.dist
    if dist is None:
        import subprocess
        dist = tempfile.mkdtemp(prefix="generala-dist-")
        subprocess.run([sys.executable, str(ROOT / "tools" / "build.py"), "--out", dist], check=True)
    from playwright.sync_api import sync_playwright
    base, stop = start_server(dist)
    rows = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
            page = browser.new_page(base_url=base, service_workers="block")
            page.goto("/")
            page.wait_for_function("() => document.documentElement.dataset.state === 'ready'", timeout=120_000)
            for name in args.variants.split(","):
                for sides in (int(s) for s in args.sides.split(",")):
                    figures = {}
                    for kind, op, start in (("update", "chances", True), ("decision", "ai", False),
                                            ("story", "story", None)):
                        saves = (finished(name, sides, args.stories + 1, args.seed) if start is None
                                 else positions(name, sides, args.positions, args.seed, start))
                        reqs = []
                        for save in saves:
                            reqs.append(json.dumps({"op": "load", "save": save}))
                            reqs.append(json.dumps({"op": op}))
                        got = page.evaluate(TIMED, [reqs])
                        timed = got[1::2]
                        bad = [g for g in got if not g["ok"]]
                        if bad:
                            raise SystemExit(f"{name} {sides} {kind}: refused {bad[:3]}")
                        figures[kind] = quantiles([g["ms"] for g in timed[1:]])  # the first loads the files
                    rows.append((name, sides, figures))
                    u, d, s = figures["update"], figures["decision"], figures["story"]
                    print(f"{name:13} {sides} sides  update p50 {u[0]:6.1f}  p95 {u[1]:6.1f}  max {u[2]:6.1f} ms"
                          f"   decision p50 {d[0]:6.1f}  p95 {d[1]:6.1f}  max {d[2]:6.1f} ms"
                          f"   story p50 {s[0]:6.0f}  max {s[2]:6.0f} ms", flush=True)
            browser.close()
    finally:
        stop()
    worst_u = max(r[2]["update"][1] for r in rows)
    worst_d = max(r[2]["decision"][1] for r in rows)
    print(f"worst p95: update {worst_u:.1f} ms (target 200), decision {worst_d:.1f} ms (target 500), "
          f"{args.positions} positions each")
    return 0


if __name__ == "__main__":
    sys.exit(main())
