#!/usr/bin/env python3
"""Bot benchmark (not a test): games per second of a simple bot in the browser and in CPython.

    python3 bench/bots.py [--dist DIR] [--games 1000] [--bot lazy|chase|planner ...] [--game argentine ...]

For each bot (generala/bot_examples/) and game, the same run (the same file, seed 0)
is timed in CPython (this interpreter, generala.bots.run) and in the page's Bot lab
(headless Debian chromium: the bot's sandbox, static/js/bot-lab.mjs, Pyodide in a worker
of its own), where the time is the run's (the results' `seconds`: the games played, not
the boot). In the page, also: Run pressed -> the figures shown (the sandbox booted
already), and the time the game's engine spent counting the games from their moves (its
lab_games and lab_results requests, one after the other while the sandbox plays; 0 for a
build from before the engine counted). The two means are printed too: the same file with
the same seed gives the same games. A build from before the sandbox (--dist) runs too.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from playwright.sync_api import sync_playwright  # noqa: E402

from e2e_support import wake  # noqa: E402
from gamepage import open_botlab  # noqa: E402
from generala.modes import bots  # noqa: E402
from tools import build  # noqa: E402
from tools.serve import start_server  # noqa: E402


# The time the engine spends on the lab's requests (static/js/bot-lab.mjs asks them one
# after the other: their times add up to the engine's share of a run).
COUNT_TIME = """() => {
  const engine = window.generala.engine;
  if (engine.__labMs !== undefined) return;
  const call = engine.call.bind(engine);
  engine.__labMs = 0;
  engine.call = async (request) => {
    const t = performance.now();
    try { return await call(request); }
    finally { if (request.includes('"op": "lab_') || request.includes('"op":"lab_')) engine.__labMs += performance.now() - t; }
  };
}"""


def in_page(page, source, game, games):
    """The run's results (parsed), with ``wall`` (Run -> figures, s) and ``counting`` (the
    engine's time on the lab's requests, s)."""
    page.evaluate(COUNT_TIME)
    page.evaluate("() => { window.generala.engine.__labMs = 0; }")
    page.evaluate("t => window.generala.botlab.setCode(t)", source)
    page.select_option("#lab-game", game)
    page.fill("#lab-games", str(games))
    t = time.perf_counter()
    page.click("#lab-run")
    page.wait_for_selector("#botlab[data-state=done]", timeout=900_000)
    wall = time.perf_counter() - t
    results = page.evaluate("() => JSON.parse(window.generala.botlab.state.results)")
    return {**results, "wall": wall, "counting": page.evaluate("() => window.generala.engine.__labMs") / 1000}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dist", type=Path)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--bot", nargs="*", default=["lazy", "chase"])
    ap.add_argument("--game", nargs="*", default=["argentine", "double"])
    args = ap.parse_args(argv)
    dist = args.dist.resolve() if args.dist else Path(tempfile.mkdtemp()) / "dist"
    if not args.dist:
        build.build(dist, sizes=False)
    rows = []
    url, stop = start_server(dist)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium")
            page = browser.new_page(base_url=url, service_workers="block")
            page.goto("/")
            wake(page)
            page.wait_for_selector("html[data-state=ready]", state="attached", timeout=120_000)
            open_botlab(page)
            for name in args.bot:
                source = bots.example_source(name)
                for game in args.game:
                    t = time.perf_counter()
                    c = bots.run(source, game, args.games, seed=0)
                    c_seconds = time.perf_counter() - t
                    b = in_page(page, source, game, args.games)
                    rows.append((name, game, args.games / c_seconds, b["games_per_second"],
                                 c["mean"], b["mean"], b["wall"], b["counting"]))
            browser.close()
    finally:
        stop()
    print(f"| bot | game | CPython {sys.version.split()[0]} (games/s) | browser (games/s) | "
          "browser / CPython | mean (CPython) | mean (browser) | Run -> figures (s) | engine counting (s) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, game, c, b, cm, bm, wall, counting in rows:
        print(f"| `{name}` | {game} | {c:,.0f} | {b:,.0f} | {b / c:.2f} | {cm:.2f} | {bm:.2f} | {wall:.1f} | "
              f"{counting:.1f} |")


if __name__ == "__main__":
    main()
