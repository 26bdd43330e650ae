#!/usr/bin/env python3
"""What PyScript costs the page's thread at start (not a test).

    python3 bench/pyscript_start.py [--dist DIR] [--before DIR] [--runs 5] [--cpu 4]

Loads, in a new profile each time and in alternating order, in headless Chromium with its
CPU slowed down --cpu times (CDP Emulation.setCPUThrottlingRate: the page's thread, as on
a phone; the engine's worker is not slowed):

  page    the game (index.html), until the UI has started and rehearsed the one-tap game
          in the background (<html data-first-game="rehearsed">): all the work a first
          visit's page does by itself;
  floor   PyScript's start on an empty page, as the page starts it: the same vendored
          PyScript and MicroPython, the same config without the UI's files (its own
          package as bytecode: pyscript.toml's {PYSCRIPT} files, first on sys.path as
          static/js/ui-start.mjs puts them, and its file system's misses thrown as plain
          objects, as ui-start.mjs has them), and a <script type="mpy"> that imports
          `pyscript` and marks the page (<html data-floor="done">). No page started by
          this PyScript can do less;
  stock   the same empty page with PyScript as it comes (its package written as source
          and compiled on the page): what the bytecode saves;
  before  (--before DIR) another build's page, the same way (e.g. one without PyScript).

For each: the main thread's long tasks (PerformanceObserver "longtask", buffered) from
the navigation until that mark, as Lighthouse counts them in its Total Blocking Time (the
sum of each task's time over 50 ms; here the CPU is really slowed, where Lighthouse
multiplies the tasks it sees by 4), the longest task and the time of the mark; the
median over --runs, and each run. The figures move with the machine's other load: run
it on a quiet machine, and compare figures of one run.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.serve import start_server  # noqa: E402

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 120_000

PROBE = """
window.__tasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__tasks.push([e.startTime, e.duration]);
}).observe({ type: "longtask", buffered: true });
"""
# The floor: PyScript's own start, nothing of the game's.
FLOOR_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>PyScript's floor</title>
<script type="mpy" config="./floor.json">
from pyscript import document
document.documentElement.dataset.floor = "done"
</script>
<script type="module" src="./floor.mjs"></script>
</head><body><p>PyScript on an empty page.</p><py-config src="./floor.json"></py-config></body></html>
"""
# As static/js/ui-start.mjs loads it: the worker hook cleared (no Function(), no
# 'unsafe-eval'), and (but for the stock page) PyScript's package as bytecode first on
# sys.path, the file system's misses as plain objects, and its start split where its
# hooks let it: a browser task ends after the onReady hook's fixes, after the import of
# its package (in that hook, before its bootstrap) and before its bootstrap.
FLOOR_MJS = """const core = await import("../{core}");
core.hooks.worker.onBeforeRunAsync.clear();
"""
BYTECODE_MJS = """const nextTask = () => scheduler.yield();
core.hooks.main.onReady.add(async (wrap) => {
  wrap.interpreter.FS.ErrnoError = class ErrnoError { constructor(errno) { this.name = "ErrnoError"; this.errno = errno; } };
  wrap.interpreter.runPython("import sys\\nsys.path.insert(0, '/pyscript-mpy')");
  await nextTask();
  wrap.interpreter.runPython("import pyscript");
  await nextTask();
});
core.hooks.main.onBeforeRunAsync.add(nextTask);
"""


def floor_folder(dist: Path, into: Path, stock: bool = False) -> None:
    """bench's floor page for this build: its config is the build's, less the UI's files
    (stock: less every file, PyScript's package then compiled from source)."""
    config = json.loads((dist / "pyscript.json").read_text())
    files = config.pop("files", {})
    own = {k: v for k, v in files.items() if k.startswith("{PYSCRIPT}")}
    if own and not stock:
        own["{PYSCRIPT}"] = "../" + own["{PYSCRIPT}"].removeprefix("./")
        config["files"] = own
    config["interpreter"] = "../" + config["interpreter"].removeprefix("./")
    [core] = sorted(p.relative_to(dist).as_posix() for p in (dist / "vendor" / "pyscript").glob("*/core.js"))
    (into / "floor.json").write_text(json.dumps(config))
    (into / "index.html").write_text(FLOOR_HTML)
    (into / "floor.mjs").write_text(FLOOR_MJS.format(core=core) + ("" if stock or not own else BYTECODE_MJS))


def load(browser, url: str, mark: str, cpu: float) -> dict:
    context = browser.new_context(viewport={"width": 412, "height": 860})
    try:
        context.add_init_script(PROBE)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
        page.goto(url)
        page.wait_for_selector(mark, state="attached", timeout=TIMEOUT_MS)
        at = page.evaluate("performance.now()")
        tasks = [(s, d) for s, d in page.evaluate("window.__tasks") if s < at]
        return {"blocking": sum(max(0.0, d - 50) for _, d in tasks), "longest": max([d for _, d in tasks] or [0.0]),
                "tasks": len(tasks), "done": at}
    finally:
        context.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dist", type=Path, default=ROOT / "dist", help="the build to measure (default: dist/)")
    ap.add_argument("--before", type=Path, help="another build's page, measured beside it")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cpu", type=float, default=4.0, help="CPU slow-down of the page's thread (default 4)")
    ap.add_argument("--lang", default="en")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="pyscript-floor-") as floor, \
            tempfile.TemporaryDirectory(prefix="pyscript-stock-") as stock:
        floor_folder(args.dist, Path(floor))
        floor_folder(args.dist, Path(stock), stock=True)
        base, stop = start_server(args.dist, overlays={"/bench-floor/": floor, "/bench-stock/": stock})
        servers = [stop]
        pages = {"page": (f"{base}/?lang={args.lang}", "html[data-first-game=rehearsed]"),
                 "floor": (f"{base}/bench-floor/", "html[data-floor=done]"),
                 "stock": (f"{base}/bench-stock/", "html[data-floor=done]")}
        if args.before:
            before, stop_before = start_server(args.before)
            servers.append(stop_before)
            pages["before"] = (f"{before}/?lang={args.lang}", "html[data-first-game=rehearsed]")
        samples: dict[str, list[dict]] = {name: [] for name in pages}
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
                for _ in range(args.runs):
                    for name, (url, mark) in pages.items():
                        samples[name].append(load(browser, url, mark, args.cpu))
                browser.close()
        finally:
            for stop_server in servers:
                stop_server()
    print(f"the page's long tasks until its start is done, CPU {args.cpu:g}x, median of {args.runs}"
          " (blocking: the sum of each task's time over 50 ms)")
    for name, runs in samples.items():
        med = {k: statistics.median(r[k] for r in runs) for k in ("blocking", "longest", "tasks", "done")}
        print(f"  {name:7} blocking {med['blocking']:6.0f} ms   longest task {med['longest']:5.0f} ms"
              f"   {med['tasks']:3.0f} long tasks   done at {med['done'] / 1000:5.2f} s")
        print("          blocking per run: " + ", ".join(f"{r['blocking']:.0f}" for r in runs))
    floor_b = statistics.median(r["blocking"] for r in samples["floor"])
    page_b = statistics.median(r["blocking"] for r in samples["page"])
    print(f"page - floor: {page_b - floor_b:+.0f} ms of blocking (target: within 100 ms of the floor)")


if __name__ == "__main__":
    main()
