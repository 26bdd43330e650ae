"""Frame times while the dice tumble and while a celebration plays, in headless Chromium
(not a test).

    python3 bench/frames.py [--dist DIR] [--rolls 24] [--celebrations 3] [--width 1280] [--json]

Builds the site (unless --dist names an existing build), serves it with the
production headers (tools/serve.py) and boots the app, motion on. Then:

  roll         a seeded two-side Generala game played with real clicks: roll, roll
               again with the first die held, score the first open box. Each roll is
               measured from the click until every animation on the page has ended
               (the tumble, ~0.65-0.8 s).
  celebration  Double General with seed 12: five alike on the first roll, so the roll's
               tumble is followed by the celebration (card, confetti on a canvas). Measured
               from the click until the confetti is gone (~2.4 s). A new game each time.
  roll, motion off
               the same rolls with the board's motion switch off: the page's own drawing
               of the reply and the engine's, without animation (for comparison).
  tumble alone / confetti alone
               the same motion started from a script (no click, no engine, no Python on
               the page): what the dice module and the confetti cost by themselves.
  idle         one second with nothing happening: the machine's own frame jitter.

Inside the page a requestAnimationFrame loop records the time between frames, and a
PerformanceObserver counts long tasks (main-thread tasks over 50 ms). Prints the
median, p95 and worst frame per phase and the long tasks. Targets: p95 frame <= 20 ms,
no long task over 50 ms.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.serve import start_server  # noqa: E402

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]

PROBE = """() => {
  window.__frames = null;
  window.__long = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push({start: e.startTime, ms: e.duration});
  }).observe({type: 'longtask', buffered: false});
  window.__record = () => {
    const rec = {t0: performance.now(), deltas: [], last: null, on: true};
    window.__frames = rec;
    const step = (now) => {
      if (!rec.on) return;
      if (rec.last !== null) rec.deltas.push(now - rec.last);
      rec.last = now;
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  };
  window.__stop = () => {
    const rec = window.__frames;
    rec.on = false;
    const longs = window.__long.filter(l => l.start >= rec.t0).map(l => l.ms);
    return {deltas: rec.deltas, longs};
  };
}"""

# Every animation has ended and no confetti is left.
STILL = ("() => document.getAnimations().length === 0 && !document.querySelector('canvas.confetti')"
         " && !document.getElementById('board').hasAttribute('aria-busy')")


def pct(values, q):
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(q * (len(values) - 1))))
    return values[k]


def start_game(page, variant, seed, names=("Ana", "Beto"), moving=True):
    if page.is_visible("#board"):  # back home through the board's menu
        page.click("#board-menu-btn")
        page.click('#board-menu [data-action="home"]')
    page.wait_for_selector("#home", state="visible")
    if page.get_attribute("#home", "data-panel") != "setup":
        page.click("#play-custom")  # the home screen's Custom game: the whole setup form
    page.check(f'input[data-variant="{variant}"]')
    rows = page.locator("#sides > li")
    while rows.count() < len(names):
        page.click("#add-side")
    for i, name in enumerate(names):
        rows.nth(i).locator(".side-name").fill(name)
    if not page.is_visible("#seed"):
        page.click(".seed summary")
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#board", state="visible")
    page.wait_for_selector("#roll:enabled")
    if (page.get_attribute("#motion", "aria-checked") == "true") != moving:
        page.click("#board-menu-btn")  # motion on (or off) for the measurement: the menu's switch
        page.click("#motion")
        page.keyboard.press("Escape")


def measured(page, action, moving=True):
    page.wait_for_function(STILL, timeout=20_000)
    page.evaluate("window.__record()")
    if moving:
        action()
        page.wait_for_function("() => document.getAnimations().length > 0 || !!document.querySelector('canvas.confetti')",
                               timeout=10_000)
        page.wait_for_function(STILL, timeout=20_000)
    else:  # motion off: as long as a roll's tumble would take
        action()
        page.wait_for_timeout(800)
    page.wait_for_timeout(50)
    return page.evaluate("window.__stop()")


def play_rolls(page, rolls, phase, out, moving=True):
    """Roll, hold the first die, roll, score the first open box; each roll measured."""
    done = 0
    while done < rolls:
        if page.is_visible("#over"):
            start_game(page, "argentine", 7 + done, moving=moving)
        r = measured(page, lambda: page.click("#roll"), moving)
        out[phase]["deltas"] += r["deltas"]
        out[phase]["longs"] += r["longs"]
        out[phase]["n"] += 1
        done += 1
        if page.is_visible("#over"):
            continue
        if done % 2 == 1 and page.is_enabled("#roll"):
            page.click('#board .tray [data-die="0"]')  # hold one, roll the rest next
            continue
        page.locator("#sheet button.box:visible").first.click()
        if page.is_visible("#confirm"):
            page.click("#confirm-ok")
        page.wait_for_function(STILL, timeout=20_000)
        if page.is_visible("#board .moment"):
            page.keyboard.press("Shift")  # the hand-over card


def run(base_url: str, rolls: int, celebrations: int, width: int) -> dict:
    from playwright.sync_api import sync_playwright

    out = {phase: {"deltas": [], "longs": [], "n": 0}
           for phase in ("roll", "celebration", "roll, motion off", "tumble alone", "confetti alone", "idle")}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": width, "height": 900}, reduced_motion="no-preference")
        page.goto(base_url + "/")
        page.mouse.move(2, 2)  # a person arrives: the UI starts at the first input, if not by itself yet (ui-start.mjs)
        page.wait_for_selector("html[data-state=ready]", state="attached", timeout=90_000)
        page.evaluate(PROBE)

        start_game(page, "argentine", 7)
        play_rolls(page, rolls, "roll", out)
        # The same rolls with the board's motion switch off: what the page's own drawing
        # (and the engine's reply) costs without any animation.
        start_game(page, "argentine", 7, moving=False)
        play_rolls(page, rolls // 2, "roll, motion off", out, moving=False)

        # The same motion without the click, the engine or the page's Python: the dice
        # module and the confetti alone (static/js/dice-motion.mjs, moments.mjs), and idle
        # frames for comparison (the machine's own jitter).
        start_game(page, "argentine", 7)
        page.click("#roll")
        for k in range(rolls // 2):
            r = measured(page, lambda: page.evaluate(
                "() => { const faces = [...document.querySelectorAll('#board .tray [data-die]')]"
                ".map(d => +d.dataset.face || 1); const all = faces.map((_, i) => i);"
                " generala.dice.toss(JSON.stringify(all));"
                " generala.dice.land(JSON.stringify({dice: all, faces})); }"))
            for key in ("deltas", "longs"):
                out["tumble alone"][key] += r[key]
            out["tumble alone"]["n"] += 1
        for k in range(celebrations):
            r = measured(page, lambda: page.evaluate(
                "() => generala.moments.celebrate(JSON.stringify({kind: 'five', title: 'Five alike!', line: '', text: ''}))"))
            for key in ("deltas", "longs"):
                out["confetti alone"][key] += r[key]
            out["confetti alone"]["n"] += 1
            page.keyboard.press("Shift")
        for k in range(3):
            page.evaluate("window.__record()")
            page.wait_for_timeout(1000)
            r = page.evaluate("window.__stop()")
            for key in ("deltas", "longs"):
                out["idle"][key] += r[key]
            out["idle"]["n"] += 1

        for k in range(celebrations):
            start_game(page, "double", 12)
            r = measured(page, lambda: page.click("#roll"))
            if not page.evaluate("document.querySelector('#announce').textContent.includes('Five alike')"):
                raise SystemExit("no celebration: seed 12 no longer rolls five alike first")
            out["celebration"]["deltas"] += r["deltas"]
            out["celebration"]["longs"] += r["longs"]
            out["celebration"]["n"] += 1
        browser.close()

    result = {}
    for phase, data in out.items():
        d = data["deltas"]
        result[phase] = {
            "samples": data["n"],
            "frames": len(d),
            "median_ms": round(statistics.median(d), 1) if d else None,
            "p95_ms": round(pct(d, 0.95), 1) if d else None,
            "worst_ms": round(max(d), 1) if d else None,
            "long_tasks": len(data["longs"]),
            "longest_task_ms": round(max(data["longs"]), 1) if data["longs"] else 0,
        }
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dist", type=Path, help="an existing build (default: build into a temp dir)")
    ap.add_argument("--rolls", type=int, default=24)
    ap.add_argument("--celebrations", type=int, default=3)
    ap.add_argument("--width", type=int, default=1280, help="viewport width (375: a phone)")
    ap.add_argument("--json", action="store_true", help="print JSON only")
    args = ap.parse_args()
    if args.dist:
        dist = args.dist
    else:
        from tools import build

        dist = Path(tempfile.mkdtemp()) / "dist"
        build.build(dist, sizes=False)
    base_url, stop = start_server(dist)
    try:
        result = run(base_url, args.rolls, args.celebrations, args.width)
    finally:
        stop()
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"frame times (ms) during a roll's tumble and a celebration, headless Chromium, {args.width} px wide")
    try:
        load = " ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"load average: {load} on {os.cpu_count()} CPUs")
    except OSError:
        pass
    print(f"{'phase':<16}{'samples':>8}{'frames':>8}{'median':>8}{'p95':>7}{'worst':>7}{'long tasks':>12}{'longest':>9}")
    for phase, s in result.items():
        print(f"{phase:<16}{s['samples']:>8}{s['frames']:>8}{s['median_ms']:>8}{s['p95_ms']:>7}{s['worst_ms']:>7}"
              f"{s['long_tasks']:>12}{s['longest_task_ms']:>9}")
    p95 = max(result[k]["p95_ms"] or 0 for k in ("roll", "celebration"))
    longs = sum(result[k]["long_tasks"] for k in ("roll", "celebration"))
    print(f"target p95 frame <= 20 ms: {'met' if p95 <= 20 else 'NOT met'} ({p95} ms);"
          f" long tasks over 50 ms: {longs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
