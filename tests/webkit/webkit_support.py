"""Helpers of the WebKit suite: Selenium 4 drives Debian's WebKitGTK MiniBrowser
through WebKitWebDriver (no console, no network events over the driver).

- `REFUSING_PROXY`: MiniBrowser is started with --proxy pointing at a local server
  that refuses and records every request it gets; localhost and 127.0.0.1 bypass it.
  So any request leaving localhost (the page's or the browser's own) is recorded.
- `COLLECT_ERRORS`: injected after every load (the driver has no console): window
  errors, unhandled rejections, CSP violations, console.error, and engine replies of
  kind "InternalError" (every answer to generala.engine.send, the transport MicroPython's engine client
  sends its hot path through, heard with onReply; request and call wrapped)
  are kept in window.__wkErrors. Errors before the load show as <html data-state=error>.
"""
from __future__ import annotations

import http.server
import json
import threading
import time
import urllib.parse

from selenium.common.exceptions import (ElementClickInterceptedException, ElementNotInteractableException,
                                        JavascriptException, WebDriverException)
from selenium.webdriver.common.action_chains import ActionChains

COLLECT_ERRORS = r"""
// Run at each page's load and again once it is ready: the listeners are added once, the
// engine's watch once the page has made its engine (globalThis.generala.engine).
if (!window.__wkErrors) {
  const errs = [];
  Object.defineProperty(window, "__wkErrors", { value: errs });
  const text = (x) => { try { return x instanceof Error ? String(x) + (x.stack ? " @ " + x.stack : "") : String(x); } catch (e) { return "?"; } };
  addEventListener("error", (e) => errs.push("page error: " + (e.message || (e.target && (e.target.src || e.target.href)) || "?")), true);
  addEventListener("unhandledrejection", (e) => errs.push("unhandled rejection: " + text(e.reason)));
  document.addEventListener("securitypolicyviolation",
    (e) => errs.push(`CSP blocked ${e.effectiveDirective}: ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`));
  const error = console.error;
  console.error = function (...args) { errs.push("console error: " + args.map(text).join(" ")); return error.apply(this, args); };
}
{
  const errs = window.__wkErrors;
  const engine = (globalThis.generala || {}).engine;
  if (engine && typeof engine.request === "function" && !window.__wkEngineInner) {
    // The transport the page's engine client uses (request: {reply, save}) and the whole
    // reply's text (call, for tests), kept where a test can stand in for them.
    const inner = { call: engine.call, request: engine.request };
    Object.defineProperty(window, "__wkEngineInner", { value: inner });
    const watch = (text) => {
      if (typeof text === "string" && text.includes('"InternalError"')) {
        try { if (JSON.parse(text).kind === "InternalError") errs.push("engine InternalError reply: " + text.slice(0, 2000)); } catch (e) {}
      }
    };
    engine.request = (req) => { const request = inner.request; return request(req).then((parts) => {
      watch(parts && parts.reply);
      return parts;
    }); };
    engine.call = (req) => { const call = inner.call; return call(req).then((reply) => { watch(reply); return reply; }); };
    if (typeof engine.onReply === "function") engine.onReply((answer) => watch(answer && answer.reply));
  }
}
"""

# Drawn at least once more, and no engine reply still on its way.
RENDERED = ("const n = arguments[0]; const b = document.getElementById('board');"
            " return !!b && +(b.dataset.rendered || 0) > n && !b.hasAttribute('aria-busy');")
LOCAL_HOSTS = {"localhost", "127.0.0.1", "[::1]", "::1"}


class RefusingProxy:
    """An HTTP proxy on 127.0.0.1 that answers 403 to everything and records it."""

    def __init__(self):
        self.requests: list[str] = []
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _refuse(self):
                owner.requests.append(f"{self.command} {self.path}")
                self.send_response(403)
                self.send_header("Content-Length", "0")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True

            do_GET = do_POST = do_HEAD = do_PUT = do_OPTIONS = do_CONNECT = _refuse

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class WebKitPage:
    """The current MiniBrowser page: open/reload with error collection, waits, clicks."""

    def __init__(self, driver, base_url: str):
        self.d = driver
        self.base_url = base_url
        self.errors: list[str] = []  # collected from pages already left
        self.script_clicks = False  # see click()

    # -- loading --------------------------------------------------------------------
    def js(self, script: str, *args):
        return self.d.execute_script(script, *args)

    def async_js(self, body: str, *args):
        """Run `body` (may use await; `args` is the arguments) and return its value."""
        return self.d.execute_async_script(
            "const done = arguments[arguments.length - 1]; const args = [...arguments].slice(0, -1);"
            f"(async () => {{ {body} }})().then(done, (e) => done({{__error: String(e && e.message || e)}}));", *args)

    def harvest(self) -> None:
        """Move the current page's collected errors into self.errors."""
        try:
            errs = self.js("return window.__wkErrors ? window.__wkErrors.splice(0) : []")
        except JavascriptException:
            errs = []
        self.errors += errs

    def open(self, path: str = "/", ready: bool = True) -> None:
        self.harvest()
        url = path if path.startswith("http") else self.base_url + path
        self.d.get(url)
        self.js(COLLECT_ERRORS)
        if ready:
            self.wait_ready()

    def reload(self, ready: bool = True) -> None:
        self.harvest()
        self.d.refresh()
        self.js(COLLECT_ERRORS)
        if ready:
            self.wait_ready()

    def wait(self, script: str, *args, timeout: float = 10.0, what: str = ""):
        """Poll `script` (a function body returning a value) until it is truthy."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.js(script, *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout} s waiting for {what or script}")
            time.sleep(0.05)

    def wake(self) -> None:
        """A person's first input, the pointer moving onto the page: with nothing saved to
        show, the page's UI starts at it if it has not started by itself yet
        (static/js/ui-start.mjs). A WebDriver pointer action; where the driver refuses one
        (inside a frame), the same event from script."""
        try:
            body = self.d.find_element("css selector", "body")
            # two points: a move to where the pointer already is is no move
            ActionChains(self.d).move_to_element_with_offset(body, 1, 1).move_to_element_with_offset(body, 0, 0).perform()
        except WebDriverException:
            self.js("document.body.dispatchEvent(new PointerEvent('pointermove', {bubbles: true}))")

    def wait_ready(self, timeout: float = 90.0) -> None:
        if self.js("return document.documentElement.dataset.state") == "loading":
            self.wake()
        state = self.wait("const s = document.documentElement.dataset.state;"
                          " return (s === 'ready' || s === 'error') ? s : null;", timeout=timeout, what="data-state=ready")
        self.js(COLLECT_ERRORS)  # again: generala.engine may not have existed at load
        if state != "ready":
            msg = self.js("return (document.getElementById('boot-error') || document.body).textContent")
            raise AssertionError(f"the app reached data-state={state!r}: {' '.join(msg.split())}")

    # -- acting ---------------------------------------------------------------------
    def click(self, css: str) -> None:
        """A real click (WebDriver); a control the driver calls not interactable
        (e.g. a styled radio) is clicked from script instead. Inside an iframe,
        WebKitWebDriver's clicks did not reach the page's buttons here (Start never
        started the game): tests in a frame set script_clicks."""
        el = self.d.find_element("css selector", css)
        if self.script_clicks:
            self.js("arguments[0].click()", el)
            return
        try:
            el.click()
        except ElementNotInteractableException:
            self.js("arguments[0].click()", el)
        except ElementClickInterceptedException:
            # WebKitWebDriver scrolls a control to the screen's bottom edge, under the setup
            # form's sticky Start row: a person scrolls it into sight first, as here.
            self.js("arguments[0].scrollIntoView({block: 'center'})", el)
            el.click()

    def fill(self, el, text: str) -> None:
        """Type into a field (WebDriver); when the driver calls it not interactable,
        set it from script with the input/change events a person's typing sends."""
        try:
            el.clear()
            el.send_keys(text)
        except ElementNotInteractableException:
            self.js("const e = arguments[0]; e.focus(); e.value = arguments[1];"
                    " e.dispatchEvent(new Event('input', {bubbles: true}));"
                    " e.dispatchEvent(new Event('change', {bubbles: true}));", el, text)

    def visible(self, css: str) -> bool:
        return bool(self.js("const e = document.querySelector(arguments[0]);"
                            " return !!e && !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length);", css))

    def renders(self) -> int:
        return int(self.js("const b = document.getElementById('board'); return +((b && b.dataset.rendered) || 0)"))

    def after(self, action) -> None:
        n = self.renders()
        action()
        self.wait(RENDERED, n, what="the board drawn with the engine's reply")

    # -- the game (README's test contract) --------------------------------------------
    def home(self):
        if self.visible("#board"):  # the board's menu leads home
            self.click("#board-menu-btn")
            self.click('#board-menu [data-action="home"]')
        elif self.visible("#nav-home"):
            self.click("#nav-home")
        self.wait("return !!document.querySelector('#home') && !document.querySelector('#home').hidden"
                  " && document.querySelector('#home').offsetParent !== null", what="#home")

    def new_game(self, variant: str, names=("Ana",), seed: int = 1):
        self.home()
        if self.js("return document.getElementById('home').dataset.panel") != "setup":
            self.click("#play-custom")  # the home screen's Custom game: the whole setup form
        self.click(f'input[data-variant="{variant}"]')
        assert self.js(f'return document.querySelector(\'input[data-variant="{variant}"]\').checked')
        while self.js("return document.querySelectorAll('#sides > li').length") > len(names):
            self.click("#sides > li:last-child .remove")
        while self.js("return document.querySelectorAll('#sides > li').length") < len(names):
            self.click("#add-side")
        for i, name in enumerate(names):
            self.fill(self.d.find_elements("css selector", "#sides > li .side-name")[i], name)
        if not self.visible("#seed"):
            self.click(".seed summary")
        self.fill(self.d.find_element("css selector", "#seed"), str(seed))
        self.after(lambda: self.click("#start"))
        self.wait("return document.getElementById('board').offsetParent !== null", what="#board visible")

    def roll(self):
        self.after(lambda: self.click("#roll"))
        # The dice tumble ~0.7 s (static/js/dice-motion.mjs): WebDriver clicks an element's
        # centre as it is at the click, which a moving die may have left. A person taps
        # the die where it is seen (the tumble itself: tests/e2e/test_table_motion.py).
        self.wait("return document.getAnimations().every(a => a.playState !== 'running')",
                  what="the dice landed")

    def hold(self, i: int):
        self.after(lambda: self.click(f'#board .dice [data-die="{i}"]'))

    def dice(self) -> list[int]:
        return self.js("return [...document.querySelectorAll('#board .tray [data-die]')].map(e => +e.dataset.face)")

    def held(self) -> list[bool]:
        return self.js("return [...document.querySelectorAll('#board .tray [data-die]')]"
                       ".map(e => e.getAttribute('aria-pressed') === 'true')")

    def totals(self) -> list[int]:
        return self.js("return [...document.querySelectorAll('#sheet tfoot tr[data-sum=\"total\"] td')]"
                       ".map(e => parseInt(e.textContent, 10))")

    def current(self) -> int:
        return int(self.js("return document.querySelector('#sheet th.side-h.current').dataset.side"))

    def confirm_if_asked(self):
        if self.visible("#confirm"):
            self.click("#confirm-ok")

    def score(self, box: str):
        def act():
            self.click(f'#sheet button.box[data-box="{box}"]')
            self.confirm_if_asked()
        self.after(act)

    def score_pair(self, a: str, b: str):
        self.click(f'#sheet button.box[data-box="{a}"]')
        self.click(f'#sheet button.box[data-box="{b}"]')
        self.wait("const b = document.getElementById('split-ok'); return !!b && !b.disabled", what="#split-ok enabled")

        def act():
            self.click("#split-ok")
            self.confirm_if_asked()
        self.after(act)


def non_local_resources(page: WebKitPage) -> list[str]:
    """Resources the page loaded from another host (Resource Timing)."""
    urls = page.js("return performance.getEntriesByType('resource').map(e => e.name)"
                   ".concat(performance.getEntriesByType('navigation').map(e => e.name))")
    out = []
    for url in urls:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme in {"data", "blob", "about"}:
            continue
        if (parts.hostname or "").lower() not in LOCAL_HOSTS:
            out.append(url)
    return out


def reply(page: WebKitPage, request: dict) -> dict:
    out = page.async_js("return await generala.engine.call(args[0]);", json.dumps(request))
    assert not (isinstance(out, dict) and "__error" in out), out
    return json.loads(out)
