"""The daily challenge's end: the last box filled -> the full result screen, per game
(headless Chromium; not a test).

    python3 bench/daily.py [--dist DIR] [--runs 3] [--day 2026-12-01] [--json]

Builds the site (unless --dist names a build), serves it with the production headers
(tools/serve.py), and for each game and run opens a fresh browser context (nothing saved,
nothing cached: the value table is fetched as on a first challenge) with its clock on
--day, plays that day's challenge with real clicks (roll, fill the first open box) and
measures inside the page, from the click on the last box (the event's timestamp) to the
result card's comparison with perfect play drawn (#daily-result[data-state=ready]): the
engine's reply to the box, the value table fetched, the coach's report, the optimal
player's game on the same stream, the page's drawing. Also how long the page's main
thread was blocked meanwhile (long tasks): the work is the worker's.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from tools.serve import start_server  # noqa: E402

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
GAMES = ("argentine", "puerto-rican", "double", "bulgarian")

PROBE = """() => {
  window.__daily = {click: null, ready: null, blocked: 0};
  document.addEventListener('click', (e) => {
    if (e.target.closest('#sheet button.box, #split-ok, #confirm-ok')) window.__daily.click = e.timeStamp;
  }, true);
  new MutationObserver(() => {
    const r = document.querySelector('#daily-result[data-state=ready]');
    if (r && window.__daily.ready === null) window.__daily.ready = performance.now();
  }).observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-state']});
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (window.__daily.click !== null && window.__daily.ready === null)
      window.__daily.blocked += Math.max(0, e.duration - 50);
  }).observe({type: 'longtask'});
}"""


def play(page, gp):
    """Roll once and fill the first open box (ten dice: the first two, the split proposed)."""
    while not page.is_visible("#over"):
        gp.roll()
        if page.is_visible("#over"):
            return
        boxes = page.eval_on_selector_all("#sheet button.box[data-box]:not([hidden])", "bs => bs.map(b => b.dataset.box)")
        if page.evaluate("document.querySelectorAll('#board .tray [data-die]').length") == 10:
            gp.pick(boxes[0])
            gp.pick(boxes[1])
            page.wait_for_selector("#split-ok:enabled")
            gp._after(lambda: (page.click("#split-ok"),
                               page.is_visible("#confirm") and page.click("#confirm-ok")))
        else:
            gp.score(boxes[0])


def run(browser, url, game, day):
    from e2e_support import boot
    from gamepage import GamePage
    context = browser.new_context(base_url=url, viewport={"width": 1280, "height": 900}, service_workers="block")
    context.clock.install(time=day + "T10:00:00")
    page = context.new_page()
    boot(page)
    gp = GamePage(page)
    page.wait_for_selector("#daily-picker[data-ready]")
    page.evaluate(PROBE)
    gp._after(lambda: page.click("#daily-" + game))
    page.wait_for_selector("#board #daily-badge")
    play(page, gp)
    page.wait_for_selector("#daily-result[data-state=ready]", timeout=120_000)
    got = page.evaluate("window.__daily")
    context.close()
    return {"ms": round(got["ready"] - got["click"]), "blocked_ms": round(got["blocked"])}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dist", type=Path, help="an existing build (default: build into a temp dir)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--day", default="2026-12-01")
    ap.add_argument("--json", action="store_true", help="print JSON only")
    args = ap.parse_args()
    if args.dist:
        dist = args.dist.resolve()
    else:
        from tools import build
        dist = Path(tempfile.mkdtemp()) / "dist"
        build.build(dist, sizes=False)
    from playwright.sync_api import sync_playwright
    url, stop = start_server(dist)
    results = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
            for game in GAMES:
                results[game] = [run(browser, url, game, args.day) for _ in range(args.runs)]
            browser.close()
    finally:
        stop()
    if args.json:
        print(json.dumps(results))
        return 0
    print(f"last box -> full result (perfect play included), {args.runs} fresh contexts each, day {args.day}")
    print(f"{'game':<14}{'median ms':>10}{'max ms':>8}{'main thread blocked ms (max)':>30}")
    for game, rows in results.items():
        ms = [r["ms"] for r in rows]
        print(f"{game:<14}{statistics.median(ms):>10.0f}{max(ms):>8}{max(r['blocked_ms'] for r in rows):>30}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
