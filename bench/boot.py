#!/usr/bin/env python3
"""Boot benchmark (not a test): the game page against a bare Pyodide page.

    python3 bench/boot.py [--runs 3] [--dist DIR] [--json FILE] [--turns 20] [--taps 5] [--only-taps]
                          [--second-visits]

From one run in headless Chromium (Debian's /usr/bin/chromium, or $CHROMIUM), for
the game page (index.html) and for bench/bare.html (Pyodide booted in a plain
module worker, nothing else), cold (a new browser context with a new, empty
profile on disk) and warm (a reload in the same context: HTTP cache on disk), and
for the game with its snapshot refused ("in full", cold only: the worker boots
Pyodide in full, as on a first visit over a slow link), the medians over --runs of:

  shell      first contentful paint (the page's shell painted)
  ui-ready   <html data-state="ui-ready">: the page answers input
  ready      <html data-state="ready">: the engine answers (the first roll is possible);
             the game's engine restores the build's memory snapshot (generala.snapshot.gz)
             where bare Pyodide boots Python in full: the report says how each load booted
  blocking   main-thread blocking time until ready: the sum over long tasks of
             (duration - 50 ms), from a buffered PerformanceObserver('longtask')
  sent       bytes of response bodies the server sent for that load (all requests,
             the worker's and, on a cold game load, the service worker's precache,
             which starts after `ready`: the load waits for it to finish; a warm load
             revalidates with 304s), and the same bodies counted at gzip (level 9) and
             brotli (quality 9) size, as a host that compresses would send them;
  to-ready   gzip bytes of the bodies sent before `ready` (what the first roll waits for)

then the same cold loads of the game and of bare Pyodide on an emulated slow link
(Chromium's network throttling through CDP: 10 Mbit/s down and up, 40 ms latency;
the service worker's own fetches are not throttled), the ratios ready(game) / ready(bare), click -> render on the same server
(bench/latency.py: a seeded game played with real clicks, --turns turns: the
board's answer to the click and the engine's reply drawn, median and p95), and
the boot targets. Also a first visit's first tap on "Play against the computer" made
0.5 s, 2 s and 5 s after the load event, at 1x and 4x CPU (CDP Emulation.setCPUThrottlingRate),
--taps times each (default 5): the tap -> the board drawn from the engine's reply with
Roll enabled, median (--only-taps: these alone).

--second-visits measures only the game's visits that its service worker serves: in a new
profile, a first visit (cold) whose precache is let finish, then a reload (warm: every
file answered by the service worker from its cache, each checked against the build's
hashes) and a reload with the browser offline (Chromium's offline mode: the page's
requests fail unless the service worker answers them), --runs times; the medians of
shell, ui-ready, ready (the first roll possible), blocking and cpu (the CPU time the
browser's processes used for the load, read from Linux's /proc: the machine's other load
moves it far less than the times) for each.

The site is built into a temporary folder (or --dist) and served by tools/serve.py
with the production headers; bench/ is served at /bench/. Request routing is used
only for the "in full" loads: Playwright's router disables the HTTP cache, which
would spoil the warm runs.
"""
from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools import build as site_build  # noqa: E402
from tools.serve import start_server  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
import latency  # noqa: E402  (bench/latency.py: click -> render)

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 120_000

# Injected before any page script: data-state timestamps and long tasks.
PROBE = """
(() => {
  const marks = {};
  const longtasks = [];
  Object.defineProperty(window, "__bench", { value: { marks, longtasks } });
  const record = () => {
    const el = document.documentElement;
    const s = el && el.getAttribute("data-state");
    if (s && !(s in marks)) marks[s] = performance.now();
  };
  new MutationObserver(record).observe(document, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"],
  });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longtasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (e) { /* no longtask support */ }
})();
"""

COLLECT = """
() => {
  const { marks, longtasks } = window.__bench;
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  const ready = marks.ready ?? marks.error ?? performance.now();
  const blocking = longtasks
    .filter(([start]) => start < ready)
    .reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0);
  return {
    state: document.documentElement.dataset.state,
    shell: fcp ? fcp.startTime : null,
    ui_ready: marks["ui-ready"] ?? null,
    ready: marks.ready ?? null,
    blocking,
    longtasks: longtasks.length,
    engine_boot: (window.generala?.engine?.timings.worker || {}).boot ?? null,
  };
}
"""

METRICS = ["shell", "ui_ready", "ready", "blocking", "sent", "gzip", "brotli", "to_ready"]
SLOW_LINK = {"offline": False, "latency": 40, "downloadThroughput": 10_000_000 / 8, "uploadThroughput": 10_000_000 / 8}
SW_DONE = "() => !!navigator.serviceWorker && navigator.serviceWorker.controller !== null"


class ByteCounter:
    """The server's log of one load: (path, body bytes) of every response."""

    def __init__(self, roots: dict[str, Path]) -> None:
        self.lock = threading.Lock()
        self.entries: list[tuple[str, int]] = []
        self.roots = roots  # URL prefix -> folder, longest first ("/" last)
        self._sizes: dict[str, tuple[int, int]] = {}

    def __call__(self, path: str, status: int, body_bytes: int) -> None:
        with self.lock:
            self.entries.append((path, body_bytes))

    def reset(self) -> None:
        with self.lock:
            self.entries = []

    @property
    def bytes(self) -> int:
        return sum(n for _, n in self.entries)

    @property
    def requests(self) -> int:
        return len(self.entries)

    def compressed(self, entries: list[tuple[str, int]]) -> tuple[int, int]:
        """The bodies' total at gzip (level 9) and brotli (quality 9) size."""
        gz = br = 0
        for path, n in entries:
            if n == 0:
                continue
            g, b = self._size(path.split("?", 1)[0], n)
            gz += g
            br += b
        return gz, br

    def _size(self, url_path: str, n: int) -> tuple[int, int]:
        if url_path not in self._sizes:
            data = None
            for prefix, folder in self.roots.items():
                if url_path.startswith(prefix):
                    rel = url_path[len(prefix):] or "index.html"
                    f = folder / rel
                    data = (f / "index.html" if f.is_dir() else f).read_bytes()
                    break
            if data is None or len(data) != n:  # not a file as served: count it as sent
                return n, n
            try:
                import brotli  # type: ignore
                b = len(brotli.compress(data, quality=9))
            except ImportError:
                b = None
            self._sizes[url_path] = (len(gzip.compress(data, 9, mtime=0)), b if b is not None else n)
        return self._sizes[url_path]


def wait_loaded(page) -> None:
    page.wait_for_selector("html[data-state=ready], html[data-state=error]", state="attached", timeout=TIMEOUT_MS)
    # Let in-flight responses finish (counted bytes) and long tasks be reported.
    page.wait_for_timeout(300)


def measure(page, counter: ByteCounter, url: str | None, service_worker: bool = False) -> dict:
    counter.reset()
    if url is None:
        page.reload()
    else:
        page.goto(url)
    # A player who acts at once: the pointer moves onto the page, and the UI starts then
    # (with nothing saved to show, ui-start.mjs would start it once the engine is ready and
    # the page is idle, or a second after the load).
    page.mouse.move(3, 3)
    page.mouse.move(2, 2)
    page.wait_for_selector("html[data-state=ready], html[data-state=error]", state="attached", timeout=TIMEOUT_MS)
    to_ready = list(counter.entries)
    if service_worker:  # the precache starts after ready: count it, it is part of the visit
        page.wait_for_function(SW_DONE, timeout=TIMEOUT_MS)
    wait_loaded(page)
    result = page.evaluate(COLLECT)
    if result["state"] != "ready":
        text = page.evaluate("document.body.innerText")
        raise RuntimeError(f"{page.url} ended in data-state={result['state']}: {' '.join(text.split())[:300]}")
    result["sent"] = counter.bytes
    result["requests"] = counter.requests
    result["gzip"], result["brotli"] = counter.compressed(counter.entries)
    result["to_ready"] = counter.compressed(to_ready)[0]
    return result


# Injected before any page script of a first-tap load: the tap's time (the first
# pointer event on "Play against the computer": the pointer arriving on it, then the
# press) and the time of the frame that paints the board drawn from the engine's reply
# with Roll enabled. The one-tap game's roll-off is random, and when the computer wins it
# Roll waits for the computer's turn: the game's `new` request is given a seed whose
# roll-off the player wins (TAP_SEED), so every sample measures the same thing.
TAP_SEED = 1
TAP_PROBE = """
(() => {
  const tap = {};
  Object.defineProperty(window, "__tap", { value: tap });
  const Plain = Worker;
  globalThis.Worker = class extends Plain {
    postMessage(message, ...rest) {
      if (message && typeof message.request === "string") {
        const request = JSON.parse(message.request);
        if (request.op === "new" && request.seed === undefined) {
          request.seed = %d;
          message = { ...message, request: JSON.stringify(request) };
        }
      }
      return super.postMessage(message, ...rest);
    }
  };
  const done = () => {
    const board = document.getElementById("board");
    const roll = document.getElementById("roll");
    return board && !board.hidden && board.dataset.drawn === "engine" && roll && !roll.disabled && !roll.hidden;
  };
  const watch = () => {
    const seen = new MutationObserver(() => {
      if (!done()) return;
      seen.disconnect();
      tap.drawn = performance.now();
      requestAnimationFrame(() => { tap.painted = performance.now(); });
    });
    seen.observe(document, { subtree: true, childList: true, attributes: true });
  };
  for (const type of ["pointermove", "pointerdown"]) {
    addEventListener(type, (event) => {
      if (tap.at !== undefined || !(event.target instanceof Element) || !event.target.closest("#play-computer")) return;
      tap.at = event.timeStamp;
      tap.engine = globalThis.generala?.engine?.state;  // the engine's state at the tap
      tap.ui = document.documentElement.getAttribute("data-ui");
      watch();
    }, true);
  }
})();
""" % TAP_SEED
TAP_DELAYS = (0.5, 2.0, 5.0)  # seconds after the load event
TAP_CPU = (1, 4)  # CPU slow-down (CDP Emulation.setCPUThrottlingRate)


def first_tap(chromium, launch: dict, url: str, delay: float, cpu: int) -> float:
    """A first visit (a new context: empty cache, no storage, no service worker) whose
    player taps "Play against the computer" `delay` seconds after the page's load event,
    the page's CPU slowed down `cpu` times: ms from the tap (the pointer's arrival on the
    button, pressed at once) to the frame that paints the board drawn from the engine's
    reply with Roll enabled. A new browser each time, as a first visit."""
    browser = chromium.launch(**launch)
    context = browser.new_context(service_workers="block", viewport={"width": 412, "height": 860})
    context.set_default_timeout(TIMEOUT_MS)
    try:
        context.add_init_script(TAP_PROBE)
        page = context.new_page()
        if cpu != 1:
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": cpu})
        page.goto(url, wait_until="load")
        box = page.locator("#play-computer").bounding_box()
        loaded = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
        page.wait_for_function(f"() => performance.now() >= {loaded + delay * 1000}", polling=20, timeout=TIMEOUT_MS)
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        try:
            page.wait_for_function("() => window.__tap.painted !== undefined", polling=50, timeout=TIMEOUT_MS)
        except Exception:
            state = page.evaluate("""() => ({html: [...document.documentElement.attributes].map(a => a.name + '=' + a.value),
              board: document.getElementById('board').outerHTML.slice(0, 300), tap: window.__tap,
              status: document.getElementById('engine-status').textContent, messages: document.getElementById('messages').innerText})""")
            raise RuntimeError(f"no board after the tap ({delay} s, CPU {cpu}x): {state}") from None
        tap = page.evaluate("window.__tap")
        return tap["painted"] - tap["at"]
    finally:
        browser.close()


def first_taps(chromium, launch: dict, url: str, taps: int) -> dict[str, list[float]]:
    """first_tap `taps` times for each delay and CPU slow-down, interleaved."""
    samples = {tap_label(delay, cpu): [] for cpu in TAP_CPU for delay in TAP_DELAYS}
    for i in range(taps):
        for cpu in TAP_CPU:
            for delay in TAP_DELAYS:
                ms = first_tap(chromium, launch, url, delay, cpu)
                samples[tap_label(delay, cpu)].append(ms)
                print(f"tap {i + 1}/{taps} {tap_label(delay, cpu)}: {ms:.0f} ms", file=sys.stderr)
    return samples


def tap_label(delay: float, cpu: int) -> str:
    return f"{delay:g} s after load, CPU {cpu}x"


def run(dist: Path, runs: int, turns: int = 20, n_taps: int = 5, only_taps: bool = False) -> dict:
    from playwright.sync_api import sync_playwright

    version = json.loads((dist / "version.json").read_text())
    pyodide = version["runtimes"]["pyodide"]
    counter = ByteCounter({"/bench/pyodide/": ROOT / "node_modules" / "pyodide", "/bench/": ROOT / "bench", "/": dist})
    base, stop = start_server(dist, overlays={"/bench/pyodide/": str(ROOT / "node_modules" / "pyodide"), "/bench/": str(ROOT / "bench")}, on_response=counter)
    # "in full": the game with its snapshot refused (the worker boots Pyodide in full,
    # as on a first visit over a slow link), cold only: request routing would spoil
    # the HTTP cache of a warm reload.
    pages = {"game": f"{base}/", "bare": f"{base}/bench/bare.html?pyodide={pyodide}", "in full": f"{base}/",
             "game slow": f"{base}/", "bare slow": f"{base}/bench/bare.html?pyodide={pyodide}"}
    samples: dict[str, list[dict]] = {f"{name} {kind}": [] for name in pages for kind in ("cold", "warm")}
    for cold_only in ("in full", "game slow", "bare slow"):
        del samples[f"{cold_only} warm"]
    clicks = None
    exe = __import__("os").environ.get("CHROMIUM", "/usr/bin/chromium")
    try:
        with sync_playwright() as p:
            launch = {"args": CHROMIUM_FLAGS, "headless": True}
            if Path(exe).exists():
                launch["executable_path"] = exe
            for i in range(0 if only_taps else runs):
                order = list(pages.items()) if i % 2 == 0 else list(reversed(pages.items()))
                for name, url in order:
                    # A new profile on disk per cold load, like a first-time visitor: an
                    # off-the-record context's in-memory HTTP cache cannot hold the 9.6 MB
                    # wasm, which would make every "warm" reload download it again.
                    with tempfile.TemporaryDirectory(prefix="boot-bench-profile-") as profile:
                        context = p.chromium.launch_persistent_context(profile, **launch)
                        context.add_init_script(PROBE)
                        page = context.pages[0] if context.pages else context.new_page()
                        if name == "in full":
                            context.route("**/generala.snapshot.gz", lambda route: route.abort())
                        if name.endswith(" slow"):
                            cdp = context.new_cdp_session(page)
                            cdp.send("Network.enable")
                            cdp.send("Network.emulateNetworkConditions", SLOW_LINK)
                        samples[f"{name} cold"].append(measure(page, counter, url, service_worker=name == "game"))
                        if f"{name} warm" in samples:
                            samples[f"{name} warm"].append(measure(page, counter, None))
                        context.close()
                    print(f"run {i + 1}/{runs} {name}: " + ", ".join(
                        f"{kind} ready {samples[f'{name} {kind}'][-1]['ready']:.0f} ms"
                        for kind in ("cold", "warm") if f"{name} {kind}" in samples), file=sys.stderr)
            taps = first_taps(p.chromium, launch, f"{base}/", n_taps)
        # Click -> render on the same server: bench/latency.py's game, `turns` turns.
        if not only_taps:
            clicks = latency.run(base, turns)
    finally:
        stop()
    medians = {
        key: {m: statistics.median(s[m] for s in rows) if all(s[m] is not None for s in rows) else None for m in METRICS + ["requests"]}
        for key, rows in samples.items() if rows
    }
    return {"version": version["version"], "runs": runs, "samples": samples, "medians": medians, "clicks": clicks,
            "first_tap": {k: statistics.median(v) for k, v in taps.items()}, "taps": taps}


SECOND_VISITS = ("game cold", "game warm", "game offline")


def browser_cpu_ms(profile: str) -> float | None:
    """The CPU time (user + system, ms) that the browser started with the profile folder
    `profile` and every process under it have used so far (Linux /proc; None elsewhere).
    The machine's other load barely moves it, where it moves every wall-clock figure."""
    procs = Path("/proc")
    if not procs.is_dir():
        return None
    parents, ticks, roots = {}, {}, set()
    for entry in procs.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        parents[entry.name] = fields[1]
        ticks[entry.name] = int(fields[11]) + int(fields[12])
        if f"--user-data-dir={profile}".encode() in cmdline:
            roots.add(entry.name)
    tree = set(roots)
    grew = True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return sum(ticks[pid] for pid in tree) * 1000 / __import__("os").sysconf("SC_CLK_TCK")


def second_visits(dist: Path, runs: int) -> dict:
    """The game's first visit, then a warm and an offline reload served by its service
    worker, `runs` times (a new profile each): {"samples", "medians"}."""
    from playwright.sync_api import sync_playwright

    version = json.loads((dist / "version.json").read_text())
    counter = ByteCounter({"/": dist})
    base, stop = start_server(dist, on_response=counter)
    samples: dict[str, list[dict]] = {key: [] for key in SECOND_VISITS}
    exe = __import__("os").environ.get("CHROMIUM", "/usr/bin/chromium")
    try:
        with sync_playwright() as p:
            launch = {"args": CHROMIUM_FLAGS, "headless": True}
            if Path(exe).exists():
                launch["executable_path"] = exe
            for i in range(runs):
                with tempfile.TemporaryDirectory(prefix="boot-bench-profile-") as profile:
                    context = p.chromium.launch_persistent_context(profile, **launch)
                    context.add_init_script(PROBE)
                    page = context.pages[0] if context.pages else context.new_page()
                    for key in SECOND_VISITS:
                        if key == "game offline":
                            context.set_offline(True)
                        before = browser_cpu_ms(profile)
                        sample = measure(page, counter, f"{base}/" if key == "game cold" else None,
                                         service_worker=key == "game cold")
                        after = browser_cpu_ms(profile)
                        sample["cpu"] = None if before is None else after - before
                        samples[key].append(sample)
                    context.close()
                print(f"run {i + 1}/{runs}: " + ", ".join(
                    f"{key[5:]} ready {samples[key][-1]['ready']:.0f} ms" for key in SECOND_VISITS), file=sys.stderr)
    finally:
        stop()
    medians = {key: {m: statistics.median(s[m] for s in rows) if all(s[m] is not None for s in rows) else None
                     for m in ("shell", "ui_ready", "ready", "blocking", "sent", "cpu")}
               for key, rows in samples.items()}
    return {"version": version["version"], "runs": runs, "samples": samples, "medians": medians}


def report_second_visits(result: dict) -> None:
    print(f"\nsecond visits: site version {result['version']}, medians of {result['runs']} run(s), headless Chromium")
    head = f"{'page':<13} {'shell':>8} {'ui-ready':>8} {'ready':>8} {'blocking':>8} {'sent':>9} {'cpu':>8}"
    print(head)
    print("-" * len(head))
    for key, m in result["medians"].items():
        print(f"{key:<13} {fmt_ms(m['shell']):>8} {fmt_ms(m['ui_ready']):>8} {fmt_ms(m['ready']):>8} "
              f"{fmt_ms(m['blocking']):>8} {fmt_bytes(m['sent']):>9} {fmt_ms(m['cpu']):>8}")
    print("cpu: CPU time of the browser's processes from the load to ready (and the precache, cold)")
    for key in SECOND_VISITS[1:]:
        print(f"{key} ready, every run: " + ", ".join(fmt_ms(s["ready"]) for s in result["samples"][key]))
        print(f"{key} cpu, every run: " + ", ".join(fmt_ms(s["cpu"]) for s in result["samples"][key]))


def fmt_ms(v) -> str:
    return "—" if v is None else f"{v / 1000:.2f} s" if v >= 1000 else f"{v:.0f} ms"


def fmt_bytes(v) -> str:
    return "—" if v is None else f"{v / 1_000_000:.2f} MB" if v >= 1_000_000 else f"{v / 1000:.1f} kB"


def report_taps(result: dict) -> None:
    print(f"a first visit's first tap on \"Play against the computer\" → the board drawn from the engine's reply"
          f" with Roll enabled (median of {len(next(iter(result['taps'].values())))}; a new browser each, no"
          " service worker, 412×860):")
    for label, samples in result["taps"].items():
        print(f"  {label:<26} {fmt_ms(statistics.median(samples)):>8}   ({', '.join(fmt_ms(v) for v in samples)})")


def tap_checks(result: dict) -> list[tuple]:
    """A tap 2 s or more after the load reaches the board with Roll in 300 ms at most."""
    checks = []
    for delay in TAP_DELAYS[1:]:
        ms = result["first_tap"][tap_label(delay, TAP_CPU[-1])]
        checks.append((f"a tap {delay:g} s after the load → board with Roll ≤ 300 ms (CPU {TAP_CPU[-1]}x)", ms <= 300,
                       fmt_ms(ms)))
    return checks


def report(result: dict) -> None:
    if not result["medians"]:  # --only-taps
        report_taps(result)
        for label, ok, value in tap_checks(result):
            print(f"  [{'ok' if ok else 'MISS'}] {label}: {value}")
        return
    med = result["medians"]
    print(f"\nboot benchmark: site version {result['version']}, medians of {result['runs']} run(s), headless Chromium")
    head = (f"{'page':<15} {'shell':>8} {'ui-ready':>8} {'ready':>8} {'blocking':>8} {'sent':>9} "
            f"{'gzip':>9} {'brotli':>9} {'to-ready':>9} {'requests':>8}")
    print(head)
    print("-" * len(head))
    for key, m in med.items():
        print(
            f"{key:<15} {fmt_ms(m['shell']):>8} {fmt_ms(m['ui_ready']):>8} {fmt_ms(m['ready']):>8} "
            f"{fmt_ms(m['blocking']):>8} {fmt_bytes(m['sent']):>9} {fmt_bytes(m['gzip']):>9} "
            f"{fmt_bytes(m['brotli']):>9} {fmt_bytes(m['to_ready']):>9} {m['requests']:>8.0f}"
        )
    print("-" * len(head))
    print("sent: bodies as served (raw); gzip/brotli: the same bodies compressed; to-ready: gzip bytes"
          " before data-state=ready. game cold includes the service worker's precache; slow = 10 Mbit/s, 40 ms.")
    ratios = {}
    for kind, game, bare in (("cold", "game cold", "bare cold"), ("warm", "game warm", "bare warm"),
                             ("cold, booted in full", "in full cold", "bare cold"),
                             ("cold, slow link", "game slow cold", "bare slow cold")):
        g, b = med[game]["ready"], med[bare]["ready"]
        ratios[kind] = g / b if g and b else None
    print(
        "ready game / bare Pyodide: "
        + ", ".join(f"{k} {v:.2f}×" for k, v in ratios.items() if v is not None)
    )
    for prefix, wanted in (("game ", "snapshot"), ("in full", "full")):
        boots = [s["engine_boot"] for key, rows in result["samples"].items() if key.startswith(prefix) for s in rows]
        print(f"{prefix}: the engine booted {wanted!r} in {boots.count(wanted)} of {len(boots)} loads")
    clicks = result["clicks"]["all"]
    print(f"click → render ({clicks['n']} clicks; bench/latency.py for each action): the board's answer"
          f" median {clicks['dom_median_ms']} ms, p95 {clicks['dom_p95_ms']} ms; the engine's reply drawn"
          f" median {clicks['engine_median_ms']} ms, p95 {clicks['engine_p95_ms']} ms")
    report_taps(result)
    cold = med["game cold"]
    print("targets:")
    slow = ratios["cold, slow link"]
    checks = [
        ("a cold first visit ≤ 8 MB gzip (service worker included)", cold["gzip"] <= 8_000_000, fmt_bytes(cold["gzip"])),
        ("first roll ≤ 0.45 × bare Pyodide (cold)", ratios["cold"] is not None and ratios["cold"] <= 0.45,
         f"{ratios['cold']:.2f}×" if ratios["cold"] else "—"),
        ("first roll ≤ bare Pyodide on a slow link (cold)", slow is not None and slow <= 1.0,
         f"{slow:.2f}×" if slow else "—"),
        ("shell ≤ 1 s (cold)", cold["shell"] is not None and cold["shell"] <= 1000, fmt_ms(cold["shell"])),
        ("blocking ≤ 300 ms (cold)", cold["blocking"] is not None and cold["blocking"] <= 300, fmt_ms(cold["blocking"])),
        ("second visit 0 kB (warm)", med["game warm"]["sent"] == 0, fmt_bytes(med["game warm"]["sent"])),
        ("click → render p95 ≤ 16 ms", clicks["dom_p95_ms"] <= 16, f"{clicks['dom_p95_ms']} ms"),
        *tap_checks(result),
    ]
    for label, ok, value in checks:
        print(f"  [{'ok' if ok else 'MISS'}] {label}: {value}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dist", type=Path, help="serve this build instead of building into a temporary folder")
    ap.add_argument("--json", type=Path, help="also write every sample to this file")
    ap.add_argument("--turns", type=int, default=20, help="turns played for click -> render (default 20)")
    ap.add_argument("--taps", type=int, default=5, help="first taps measured for each delay and CPU (default 5)")
    ap.add_argument("--only-taps", action="store_true", help="measure the first taps only")
    ap.add_argument("--second-visits", action="store_true",
                    help="measure only the game's warm and offline second visits (its service worker's)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        dist = args.dist
        if dist is None:
            dist = Path(tmp) / "dist"
            site_build.build(dist, sizes=False)
        if args.second_visits:
            result = second_visits(dist.resolve(), args.runs)
        else:
            result = run(dist.resolve(), args.runs, args.turns, args.taps, args.only_taps)
    (report_second_visits if args.second_visits else report)(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
