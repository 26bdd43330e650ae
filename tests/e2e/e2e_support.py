"""Helpers for the end-to-end tests: the page guard, the boot helper, downloads.

The guard fails a test (at teardown) on anything that went wrong in the browser
that the test did not claim: a page error (uncaught exception, failed dynamic
import), a console error (Python tracebacks, the engine worker's console.error),
a CSP block, a boot error shown on the page (#boot-error), an HTTP error response, any request to a host
other than localhost / 127.0.0.1 / [::1], a line the engine worker's Python wrote
to stderr (the worker logs it as a console warning "[engine] ..."), and an engine
reply of kind "InternalError" (a bug in the engine; ENGINE_WATCH_SCRIPT logs it).

Each engine words a CSP block its own way, and both reach the guard:
- Chromium: a console error "Connecting to '...' violates the following Content
  Security Policy directive ..." (older releases: "Refused to connect ...").
- Firefox: a page error "The page’s settings blocked the loading of a resource
  (connect-src) at ... because it violates the following directive: ...".
Playwright's screenshots in Firefox inject an inline <style> that the site's
strict `style-src 'self'` blocks: take screenshots with `guard.screenshot(page)`,
which claims exactly that block for the screenshot's duration.
"""
from __future__ import annotations

import contextlib
import http.server
import re
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "[::1]"}
# Schemes that never leave the browser.
LOCAL_SCHEMES = {"data", "blob", "about", "chrome", "chrome-extension", "devtools"}

BOOT_TIMEOUT_MS = 90_000
READY = "html[data-state=ready]"
READY_OR_ERROR = "html[data-state=ready], html[data-state=error]"


def is_local_url(url: str) -> bool:
    """True when fetching `url` stays on this machine (loopback host or a
    browser-internal scheme)."""
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in LOCAL_SCHEMES:
        return True
    if scheme not in {"http", "https", "ws", "wss"}:
        return False
    host = (parts.hostname or "").lower()
    return host in LOCAL_HOSTS or host.endswith(".localhost")


@dataclass
class Guard:
    """Collects problems from every page of a browser context."""

    problems: list[str] = field(default_factory=list)
    allowed: list[re.Pattern] = field(default_factory=list)
    pages: list = field(default_factory=list)
    claimed: list[str] = field(default_factory=list)  # the problems an allow() took

    # -- claiming expected problems -------------------------------------------------
    def allow(self, pattern: str) -> None:
        """Claim problems matching this regex (e.g. an error a test provokes)."""
        self.allowed.append(re.compile(pattern))

    def record(self, problem: str) -> None:
        if any(p.search(problem) for p in self.allowed):
            self.claimed.append(problem)
        else:
            self.problems.append(problem)

    # -- event handlers (plain methods: unit-testable with fakes) --------------------
    def on_console(self, msg) -> None:
        if msg.type == "error":
            self.record(f"console error: {msg.text}")
        elif msg.type == "warning" and msg.text.startswith(ENGINE_STDERR_PREFIX):
            self.record(f"engine stderr: {msg.text[len(ENGINE_STDERR_PREFIX):]}")

    def on_pageerror(self, error) -> None:
        self.record(f"page error: {error}")

    def on_request(self, request) -> None:
        if not is_local_url(request.url):
            self.record(f"request to another host: {request.method} {request.url}")

    def on_response(self, response) -> None:
        if response.status >= 400:
            self.record(f"HTTP {response.status}: {response.url}")

    # -- wiring ------------------------------------------------------------------------
    def attach_page(self, page) -> None:
        self.pages.append(page)
        page.on("console", self.on_console)
        page.on("pageerror", self.on_pageerror)
        page.on("request", self.on_request)
        page.on("response", self.on_response)

    def attach_context(self, context) -> None:
        context.add_init_script(ENGINE_WATCH_SCRIPT)
        context.on("page", self.attach_page)
        for page in context.pages:
            self.attach_page(page)

    def screenshot(self, page, **kwargs) -> bytes:
        """page.screenshot(), claiming the one CSP block it causes in Firefox: the
        inline <style> Playwright injects (caret hiding), refused by `style-src 'self'`;
        there the claim lasts until that block has been reported. Any other problem
        during the screenshot is still reported. (Chromium reports no such block.)"""
        artefact = re.compile(r"^page error: The page’s settings blocked an inline style \(style-src-elem\)")
        self.allowed.append(artefact)
        seen = len(self.claimed)
        try:
            shot = page.screenshot(**kwargs)
            if page.context.browser.browser_type.name == "firefox":
                poll(page, lambda: any(artefact.search(c) for c in self.claimed[seen:]), 10,
                     "Firefox's report of the screenshot's inline style")
        finally:
            self.allowed.remove(artefact)
        return shot

    def collect_error_boxes(self) -> None:
        """The page's visible boot error (#boot-error, static/js/engine.mjs: the UI or the
        engine failed to start) in any open frame."""
        for page in self.pages:
            if page.is_closed():
                continue
            for frame in page.frames:
                try:
                    texts = frame.eval_on_selector_all("#boot-error:not([hidden])", "els => els.map(e => e.textContent)")
                except Exception:  # frame detached or navigating
                    continue
                for text in texts:
                    self.record(f"boot error shown: {text}")

    def report(self) -> str:
        return "\n".join(f"  - {p}" for p in self.problems)


# The engine worker (static/js/engine-worker.mjs) logs Python's stderr as
# console.warn("[engine] " + line), and stdout as console.log.
ENGINE_STDERR_PREFIX = "[engine] "

# Every guarded context runs this first in each page: it watches the engine worker's
# replies where the page receives them (the worker's "message" events, before
# static/js/engine.mjs's own listener) and logs a reply of kind "InternalError" as a
# console error, which the guard records. The page's code is not touched. A reply
# comes as {id, reply, save, ok, kind, ...}: `kind` is a refusal's kind
# (generala.app.handle_parts), `reply` the JSON text of the reply without its save.
ENGINE_WATCH_SCRIPT = """
(() => {
  const Native = globalThis.Worker;
  if (!Native || Native.__generalaWatched) return;
  const check = (event) => {
    const data = event.data || {};
    if (data.kind === "InternalError") console.error("engine InternalError reply: " + String(data.reply).slice(0, 2000));
  };
  class Watched extends Native {
    constructor(url, options) {
      super(url, options);
      if (options && options.name === "generala-engine") this.addEventListener("message", check);
    }
  }
  Object.defineProperty(Watched, "__generalaWatched", { value: true });
  globalThis.Worker = Watched;
})();
"""

# Where the browser writes downloads (set by conftest's `downloads_dir` fixture;
# the same folder is given to the browser as `downloads_path`).
DOWNLOADS_DIR: Path | None = None


def download(page, click, timeout_s: float = 30.0) -> tuple[str, Path]:
    """Run `click()` (an action that makes the page download one file) and return
    (file name, path) of the file the browser really wrote. Chromium reports a
    download event; Firefox over WebDriver BiDi (Playwright 1.64) does not, and
    writes the file under its own name in the downloads folder: wait for it there."""
    if page.context.browser.browser_type.name == "chromium":
        with page.expect_download() as info:
            click()
        d = info.value
        path = Path(d.path())
        assert path.is_file(), path
        return d.suggested_filename, path
    folder = DOWNLOADS_DIR
    assert folder is not None, "no downloads folder (conftest's downloads_dir fixture)"
    for old in folder.iterdir():  # one download at a time: the new file is the only one
        if old.is_file():
            old.unlink()
    click()
    deadline = time.monotonic() + timeout_s
    last = None
    while time.monotonic() < deadline:
        files = [f for f in folder.iterdir() if f.is_file()]
        done = [f for f in files if not f.name.endswith(".part")]
        if done and len(files) == 1:
            f = done[0]
            size = f.stat().st_size
            if size > 0 and size == last:  # written and no longer growing
                return f.name, f
            last = size
        time.sleep(0.1)
    raise AssertionError(f"no downloaded file in {folder} after {timeout_s} s: {list(folder.iterdir())}")


def poll(page, condition, timeout_s: float = 60.0, what: str = "the condition") -> None:
    """Until `condition()` (a Python-side fact, e.g. a route handler's list) is true, or
    fail after `timeout_s`. Playwright runs route and event handlers only while one of
    its calls is under way: each check lets it run them for up to 50 ms."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not after {timeout_s} s"
        page.wait_for_timeout(50)


def boot(page, url: str = "/", timeout_ms: int = BOOT_TIMEOUT_MS):
    """Open the app and wait until the engine answers (<html data-state=ready>).
    Fails with the page's visible message if it reaches data-state=error.
    Returns the navigation response."""
    response = page.goto(url)
    wait_ready(page, timeout_ms)
    return response


def wake(page_or_frame) -> None:
    """A person's first input: the pointer moves onto the page. With nothing saved to
    show, the page's UI starts at the first input, if it has not started by itself yet
    (static/js/ui-start.mjs: once the engine is ready and the page is idle, or a
    second after the load)."""
    body = page_or_frame.locator("body")
    body.hover(position={"x": 3, "y": 3})  # two points: a move to where it already is is no move
    body.hover(position={"x": 2, "y": 2})


def wait_ready(page_or_frame, timeout_ms: int = BOOT_TIMEOUT_MS) -> float:
    """A person arrives (wake), then wait for ready (or error: then fail). Returns the
    seconds waited."""
    t0 = time.monotonic()
    wake(page_or_frame)
    page_or_frame.wait_for_selector(READY_OR_ERROR, state="attached", timeout=timeout_ms)
    state = page_or_frame.evaluate("document.documentElement.dataset.state")
    if state != "ready":
        message = page_or_frame.evaluate(
            "(document.getElementById('boot-error') || document.body).textContent"
        )
        raise AssertionError(f"the app reached data-state={state!r}: {' '.join(message.split())}")
    return time.monotonic() - t0


def cross_engine(*values, id: str | None = None):
    """One case of a parametrized test that the cross-engine subset (`-m cross_engine`,
    what `make test-firefox` runs) runs too; the other cases run in Chromium only."""
    import pytest
    return pytest.param(*values, marks=pytest.mark.cross_engine, id=id)


def first_game_prepared(page_or_frame, timeout_ms: int = 60_000) -> None:
    """Wait until the page has prepared its one-tap game in the engine
    (<html data-first-game>, static/ui/page/first_game.py). The page asks the engine for
    that game once it is idle, and only while nothing else took the engine; a test that
    drives the engine's game straight through ``generala.engine.call`` is not seen by the
    page, so it waits for this first: else the page's `new`, late on a loaded machine,
    replaces the test's game halfway."""
    page_or_frame.wait_for_selector("html[data-first-game]", state="attached", timeout=timeout_ms)


def engine_round_trip(page_or_frame) -> None:
    """A ping to the engine worker and back, straight through engine.mjs. The worker
    answers in request order and the page handles each reply in its own message task,
    so once the ping is answered every request the page sent before it has been
    answered and handled: a test that proves something did NOT happen (no request was
    sent, no board was drawn) checks after this instead of sleeping."""
    reply = page_or_frame.evaluate("generala.engine.call(JSON.stringify({op: 'ping'}))")
    assert '"ok": true' in reply, reply


# How far pause_clock moves the fake clock on: more than the few milliseconds between
# reading the page's time and the pause arriving, or Playwright refuses to go back.
PAUSE_MARGIN_MS = 100


def pause_clock(page) -> None:
    """Stop the page's fake clock (`context.clock.install()` before the page loaded;
    time flows as real time until this call) PAUSE_MARGIN_MS after the page's now:
    from here no timer fires until the test moves time on with `page.clock.run_for(ms)`
    (or lets it flow again with `page.clock.resume()`). The engine's replies are not
    timers: the board still answers clicks and draws replies."""
    now = page.evaluate("Date.now()")
    page.clock.pause_at((now + PAUSE_MARGIN_MS) / 1000)  # seconds (Playwright's time for a number)


# Records every value <html data-state> takes, from the first parse on.
STATE_LOG_SCRIPT = """
(() => {
  const log = [];
  Object.defineProperty(window, "__stateLog", { value: log });
  const record = () => {
    const el = document.documentElement;
    const s = el && el.getAttribute("data-state");
    if (s && log[log.length - 1] !== s) log.push(s);
  };
  new MutationObserver(record).observe(document, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"],
  });
  record();
})();
"""


ROOT_VERSION_RE = r'__version__\s*=\s*["\']([^"\']+)["\']'


def engine_version() -> str:
    """generala.__version__, read from the source (without importing the engine)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "generala" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(ROOT_VERSION_RE, text)
    assert match, "generala/__init__.py has no __version__"
    return match.group(1)


# Fill localStorage to the last character (halving the chunk whenever the browser refuses),
# and empty it again: the quota-exceeded tests.
FILL_STORAGE = """() => {
  let n = 0, size = 1 << 20;
  while (size >= 1) {
    try { localStorage.setItem("filler." + n, "x".repeat(size)); n++; } catch (e) { size >>= 1; }
  }
  return n;
}"""
EMPTY_FILLER = "() => { for (const k of Object.keys(localStorage)) if (k.startsWith('filler.')) localStorage.removeItem(k); }"


def emulate_a_3g_link(page):
    """Chromium's network emulation: a 400 ms round trip is effectiveType "3g"."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions",
             {"offline": False, "latency": 400, "downloadThroughput": 50_000_000, "uploadThroughput": 50_000_000})


@contextlib.contextmanager
def host_page(body: bytes):
    """Serve one HTML page from a loopback server of its own, on "localhost" (another site
    than the game's "127.0.0.1"): a blog page framing the game. Yields the page's URL.
    (A real server, not a routed page: Chromium's local network access checks block a
    routed page from framing a loopback URL.)"""

    class Host(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Host)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://localhost:{server.server_address[1]}/post.html"
    finally:
        server.shutdown()
        server.server_close()


# The board's motion switch off, as a player sets it (static/js/dice-motion.mjs: the dice
# land at once, a computer plays at once), unless the test's page has set it itself. A move
# made while the dice tumble waits for them to land (~0.6 s a roll); tests that are not
# about the motion (test_table_motion.py, a computer's pace) skip that wait. Works in every
# engine (Firefox over WebDriver BiDi ignores Playwright's reduced_motion emulation).
STILL_DICE = """try {
  if (localStorage.getItem('generala.motion') === null) localStorage.setItem('generala.motion', 'still');
} catch (e) { /* a document without storage (about:blank) */ }"""
