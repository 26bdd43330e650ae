#!/usr/bin/env python3
"""Cold loads of two builds, alternating: the time to the first roll (not a test).

    python3 bench/cold_ready.py --dist dist --before /tmp/before/dist --runs 10
    python3 bench/cold_ready.py --dist dist --before /tmp/before/dist --engine-only
    python3 bench/cold_ready.py --dist dist --before /tmp/before/dist --slow --runs 5
    python3 bench/cold_ready.py --dist dist --before /tmp/before/dist --bare --runs 10

Each load is a new browser profile (nothing cached, no service worker yet), the pointer
moved onto the page at once (as bench/boot.py's loads: the UI starts then), until
<html data-state=ready> (the first roll possible). Alternating the two builds load by
load keeps a busy machine's drift out of the difference, which bench/boot.py's runs of
one build after the other do not. --engine-only blocks PyScript and waits for the
engine alone (its worker's boot, the UI not competing for the cores). --slow emulates
bench/boot.py's slow link (10 Mbit/s, 40 ms) for every load. --bare also loads
bench/bare.html (Pyodide booted in a plain worker: bench/boot.py's baseline) in the same
rotation, and prints each build's first roll against it: the two builds' ratios then
share their bare samples (bench/boot.py's runs of one build, then the other, do not).
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

SLOW_LINK = {"offline": False, "latency": 40, "downloadThroughput": 10_000_000 / 8, "uploadThroughput": 10_000_000 / 8}
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dist", type=Path, default=ROOT / "dist")
    ap.add_argument("--before", type=Path, required=True, help="the other build")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--engine-only", action="store_true")
    ap.add_argument("--slow", action="store_true", help="10 Mbit/s, 40 ms (bench/boot.py's slow link)")
    ap.add_argument("--bare", action="store_true", help="bare Pyodide's cold boot too, in the same rotation")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    builds = {"this build": args.dist, "before": args.before}
    servers = {name: start_server(str(path.resolve())) for name, path in builds.items()}
    urls = {name: servers[name][0] + "/" for name in builds}
    if args.bare:
        pyodide = json.loads((args.dist / "version.json").read_text())["runtimes"]["pyodide"]
        servers["bare"] = start_server(str(args.dist.resolve()), overlays={
            "/bench/pyodide/": str(ROOT / "node_modules" / "pyodide"), "/bench/": str(ROOT / "bench")})
        urls["bare"] = f"{servers['bare'][0]}/bench/bare.html?pyodide={pyodide}"
    times: dict[str, list[int]] = {name: [] for name in urls}
    with sync_playwright() as p:
        for run in range(args.runs):
            order = list(urls) if run % 2 == 0 else list(reversed(urls))
            for name in order:
                with tempfile.TemporaryDirectory(prefix="cold-ready-") as profile:
                    context = p.chromium.launch_persistent_context(
                        profile, executable_path="/usr/bin/chromium", headless=True, args=FLAGS,
                        viewport={"width": 412, "height": 860})
                    page = context.pages[0]
                    if args.slow:
                        cdp = context.new_cdp_session(page)
                        cdp.send("Network.enable")
                        cdp.send("Network.emulateNetworkConditions", SLOW_LINK)
                    if args.engine_only:
                        page.route("**/vendor/pyscript/**", lambda route: route.abort())
                    page.goto(urls[name])
                    if name == "bare":
                        page.wait_for_selector("html[data-state=ready]", state="attached", timeout=120_000)
                    elif args.engine_only:
                        page.wait_for_function("() => window.generala?.engine?.state === 'ready'",
                                               timeout=120_000, polling=5)
                    else:
                        page.mouse.move(3, 3)
                        page.mouse.move(2, 2)
                        page.wait_for_selector("html[data-state=ready]", state="attached", timeout=120_000)
                    times[name].append(round(page.evaluate("performance.now()")))
                    context.close()
    for _, stop in servers.values():
        stop()
    what = ("the engine ready" if args.engine_only else "data-state=ready") + (" on the slow link" if args.slow else "")
    print(f"cold loads to {what}, ms after navigation start, {args.runs} each, alternating:")
    for name, values in times.items():
        print(f"  {name:10s} median {statistics.median(values):7.0f}   {sorted(values)}")
    if args.bare:
        bare = statistics.median(times["bare"])
        print("  against bare Pyodide's median: " + ", ".join(
            f"{name} {statistics.median(times[name]) / bare:.2f}x" for name in builds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
