"""Hint and computer-decision times in the browser (not a test).

    python3 bench/ai_browser.py [--dist DIR] [--samples 100] [--variants argentine,double] [--json]

Builds the site (unless --dist names an existing build), serves it with the
production headers, boots the app in headless Chromium and, from the page, calls
the engine worker (generala.engine.call: the path the UI takes, worker round trip
included) on seeded games of each variant:

- hint: {"op": "hint", "top": 5} at every point of a game (holds or boxes);
- decision: {"op": "ai"}, one step of a computer side (roll, hold or score),
  for the optimal player (solo) and the expert (two expert sides: plays to win).

The first hint of a variant fetches and loads its value table: that time is
printed apart ("table load"), every later sample has the table loaded. Prints
median and p95 per variant. Targets: 5-dice variants <= 50 ms, double <= 500 ms.
A variant whose table is not shipped (e.g. house options) is reported as such.
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
VARIANTS = ["argentine", "puerto-rican", "double", "bulgarian"]
TARGET_MS = {"double": 500}
DEFAULT_TARGET_MS = 50

MEASURE = """async ({variant, level, nsides, samples, seed, withHint}) => {
  const call = async (req) => JSON.parse(await generala.engine.call(JSON.stringify(req)));
  const sides = Array.from({length: nsides}, (_, i) => ({name: "Bot " + (i + 1), player: "ai:" + level}));
  const hint = [], decide = [], kinds = {};
  let tableLoad = null, firstDecision = null, game = 0;
  while (decide.length < samples) {
    const made = await call({op: "new", variant, sides, seed: seed + game});
    if (!made.ok) return {error: made.error};
    game += 1;
    for (;;) {
      if (withHint && hint.length < samples) {
        const t = performance.now();
        const r = await call({op: "hint", top: 5});
        const dt = performance.now() - t;
        if (!r.ok) return {error: r.error, kind: r.kind};
        if (tableLoad === null) tableLoad = dt; else hint.push(dt);
      }
      const t = performance.now();
      const r = await call({op: "ai"});
      const dt = performance.now() - t;
      if (!r.ok) return {error: r.error, kind: r.kind};
      if (firstDecision === null) firstDecision = dt; else decide.push(dt);
      const k = Object.keys(r.action)[0];
      kinds[k] = (kinds[k] || 0) + 1;
      if (r.view.over || decide.length >= samples) break;
    }
  }
  return {hint, decide, tableLoad, firstDecision, games: game, kinds};
}"""


def pct(values, q):
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(q * (len(values) - 1))))
    return values[k]


def stats(values):
    if not values:
        return None
    return {"n": len(values), "median_ms": round(statistics.median(values), 1),
            "p95_ms": round(pct(values, 0.95), 1), "max_ms": round(max(values), 1)}


def run(base_url: str, variants, samples: int) -> dict:
    from playwright.sync_api import sync_playwright

    out = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
        page = browser.new_page()
        page.goto(base_url + "/")
        page.mouse.move(2, 2)  # a person arrives: the UI starts at the first input, if not by itself yet (ui-start.mjs)
        page.wait_for_selector("html[data-state=ready]", state="attached", timeout=120_000)
        for variant in variants:
            n = max(20, samples // 3) if variant == "double" else samples
            row = {}
            for label, level, nsides, with_hint in (("optimal", "optimal", 1, True),
                                                    ("expert", "expert", 2, False)):
                r = page.evaluate(MEASURE, {"variant": variant, "level": level, "nsides": nsides,
                                            "samples": n, "seed": 1000, "withHint": with_hint})
                if "error" in r:
                    row[label] = {"error": r["error"], "kind": r.get("kind")}
                    continue
                if with_hint:
                    row["hint"] = stats(r["hint"])
                    row["table_load_ms"] = round(r["tableLoad"], 1)
                row[label] = stats(r["decide"])
                row[label + "_first_ms"] = round(r["firstDecision"], 1)
                row[label + "_steps"] = r["kinds"]
            out[variant] = row
        browser.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dist", type=Path, help="an existing build (default: build into a temp dir)")
    ap.add_argument("--samples", type=int, default=100)
    ap.add_argument("--variants", default=",".join(VARIANTS))
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
        result = run(base_url, [v for v in args.variants.split(",") if v], args.samples)
    finally:
        stop()
    if args.json:
        print(json.dumps(result))
        return 0
    print("hint and computer decision in headless Chromium, through the engine worker "
          "(round trip included), value table loaded; ms")
    try:
        print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    except OSError:
        pass
    print(f"{'variant':<14}{'what':<20}{'n':>5}{'median':>9}{'p95':>9}{'max':>9}{'target':>8}  ok")
    for variant, row in result.items():
        target = TARGET_MS.get(variant, DEFAULT_TARGET_MS)
        for what in ("hint", "optimal", "expert"):
            s = row.get(what)
            if s is None:
                continue
            if "error" in s:
                note = ("value table not shipped (solved in the browser on demand)"
                        if s.get("kind") == "NeedTable" else s["error"])
                print(f"{variant:<14}{what:<20}  {note}")
                continue
            name = {"hint": "hint (top 5)", "optimal": "decision optimal", "expert": "decision expert"}[what]
            ok = "yes" if s["p95_ms"] <= target else "NO"
            print(f"{variant:<14}{name:<20}{s['n']:>5}{s['median_ms']:>9}{s['p95_ms']:>9}{s['max_ms']:>9}"
                  f"{target:>8}  {ok}")
        if "table_load_ms" in row:
            print(f"{variant:<14}{'table load (1st hint)':<20}{'':>5}{row['table_load_ms']:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
