"""The boot contract: <html data-state> goes loading -> ui-ready -> ready, and the
engine (Pyodide in a plain module worker) answers. A first visit's UI starts by itself
once the page is idle, and a tap on the one-tap choice after that opens a game the page
prepared meanwhile; the first screen's title is in the page's language before anything
has run, and the status line draws its own spinner (no emoji)."""
import gzip
import io
import json
import sys
import zipfile
from pathlib import Path

import pytest

from e2e_support import boot, emulate_a_3g_link, engine_round_trip, engine_version, poll, wake

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tools import ui_modules  # noqa: E402

sys.path[:0] = [str(ui_modules.UI)]
from words import words  # noqa: E402

# Before any page script: every person's input the page receives, and every `new`
# request sent to the engine's worker.
INPUT_AND_NEW_LOG = """
(() => {
  const log = { inputs: [], news: 0 };
  Object.defineProperty(window, "__firstVisit", { value: log });
  for (const type of ["pointerdown", "pointermove", "keydown", "touchstart", "focusin", "wheel", "click"]) {
    addEventListener(type, () => log.inputs.push(type), true);
  }
  const Plain = Worker;
  globalThis.Worker = class extends Plain {
    postMessage(message, ...rest) {
      if (message && typeof message.request === "string" && JSON.parse(message.request).op === "new") log.news += 1;
      return super.postMessage(message, ...rest);
    }
  };
  // The engine's state when the UI's own work is let go (<html data-ui-start>), and when.
  new MutationObserver(() => {
    if (log.uiStartedWith === undefined && document.documentElement.hasAttribute("data-ui-start")) {
      log.uiStartedWith = globalThis.generala?.engine?.state;
      log.uiStartedAfterLoad = performance.now() - performance.getEntriesByType("navigation")[0].loadEventEnd;
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ui-start"] });
})();
"""
BOARD_WITH_ROLL = "#board:not([hidden])[data-drawn=engine] #roll:enabled"


# Before any page script: what PyScript says of the page's <script type="mpy"> (PyScript
# dispatches mpy:ready before running it, mpy:done after, and py:all-done on window once
# every script is done).
PYSCRIPT_LOG = """
(() => {
  const log = [];
  Object.defineProperty(window, "__pyscript", { value: log });
  for (const type of ["mpy:ready", "mpy:done"]) {
    addEventListener(type, (e) => log.push([type, e.target.getAttribute("config")]), true);
  }
  addEventListener("py:all-done", () => log.push(["py:all-done", null]));
})();
"""


@pytest.mark.cross_engine
def test_pyscript_starts_the_page_with_its_config(page):
    # PyScript (vendored) runs index.html's mpy script with pyscript.json (pyscript.toml):
    # the script builds the page, the page's handlers (PyScript's) play a game, and the
    # site's CSP needs no 'unsafe-eval' for it (the guard fails the test on a CSP block).
    page.add_init_script(PYSCRIPT_LOG)
    response = boot(page)
    assert "'unsafe-eval'" not in response.headers["content-security-policy"]
    page.click("#play-computer")
    page.wait_for_selector(BOARD_WITH_ROLL, state="attached", timeout=60_000)
    page.click("#roll")
    page.wait_for_selector("#board[data-drawn=engine] [data-die][aria-pressed]", state="attached", timeout=30_000)
    page.wait_for_function("() => window.__pyscript.some(([type]) => type === 'py:all-done')", timeout=60_000)
    log = page.evaluate("window.__pyscript")
    assert log == [["mpy:ready", "./pyscript.json"], ["mpy:done", "./pyscript.json"], ["py:all-done", None]]
    plugins = page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('/vendor/pyscript/'))")
    assert any(n.endswith("/core.js") for n in plugins)
    assert not [n for n in plugins if any(k in n for k in ("py-editor", "py-terminal", "codemirror", "toml", "zip-"))]
    # PyScript's own package came from its bytecode (pyscript.toml's {PYSCRIPT} files,
    # first on sys.path), not from the source PyScript wrote and MicroPython compiled
    assert page.get_attribute("html", "data-pyscript") == "bytecode"
    # Every file of its [files] came from the one pack (ui-start.mjs answers PyScript's
    # requests for them): no bytecode file was fetched by itself
    fetched = page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")
    assert [n for n in fetched if n.endswith("/pyscript-files.gz")] != []
    assert [n for n in fetched if n.endswith(".mpy")] == []
    # PyScript's requests for its files were paced while it loaded them (ui-start.mjs);
    # once it has them, the page's fetch is the browser's own again
    assert page.evaluate("() => Function.prototype.toString.call(fetch).includes('[native code]')")


def test_without_the_pack_pyscript_fetches_its_files_one_by_one(page, guard):
    # pyscript-files.gz unreadable (here: gone): ui-start.mjs says so on the console and
    # lets PyScript's requests through; PyScript fetches each file of [files] and the page
    # starts and plays as ever
    guard.allow(r"pyscript-files\.gz|Failed to load resource")
    warnings = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    page.context.route("**/pyscript-files.gz", lambda route: route.fulfill(status=404, body="gone"))
    boot(page)
    page.click("#play-computer")
    page.wait_for_selector(BOARD_WITH_ROLL, state="attached", timeout=60_000)
    fetched = page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")
    assert [n for n in fetched if n.endswith("/static/ui/main.mpy")]
    assert len([n for n in fetched if n.endswith(".mpy")]) > 60
    assert [w for w in warnings if "PyScript fetches them one by one" in w], warnings
    assert page.get_attribute("html", "data-pyscript") == "bytecode"


@pytest.mark.cross_engine
def test_boots_to_ready_with_the_engine_answering(page):
    response = boot(page)
    assert "frame-ancestors *" in response.headers["content-security-policy"]
    assert page.evaluate("window.__stateLog") == ["loading", "ui-ready", "ready"]
    # The engine version is shown as text.
    version = engine_version()
    assert page.text_content("#engine-version") == version
    # The engine answers more calls after boot, through the page's engine module.
    reply = page.evaluate("generala.engine.call(JSON.stringify({op: 'ping'}))")
    assert json.loads(reply) == {"ok": True, "version": version, "changed": False}
    assert page.evaluate("generala.engine.state") == "ready"


@pytest.mark.cross_engine
def test_the_engine_runs_in_a_worker_not_on_the_main_thread(app_page):
    # Pyodide is never loaded on the main thread: no pyodide global, and the
    # main thread's Python is MicroPython.
    assert app_page.evaluate("typeof globalThis.loadPyodide") == "undefined"
    assert app_page.evaluate("typeof globalThis.pyodide") == "undefined"
    entries = app_page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert not [u for u in entries if "pyodide.asm" in u], "the page itself fetched Pyodide"
    assert [u for u in entries if u.endswith("micropython.wasm")]


def test_a_request_the_engine_cannot_read_is_answered_not_a_crash(app_page):
    # Text that is not JSON: the engine answers InvalidInput, saying why; the call's
    # promise resolves (only a call the worker cannot answer rejects), the page stays
    # ready and the engine answers the next request.
    outcome = app_page.evaluate(
        """generala.engine.call("not json").then(r => "reply:" + r, e => "error:" + e.message)"""
    )
    kind, _, text = outcome.partition(":")
    assert kind == "reply", outcome
    reply = json.loads(text)
    assert reply["ok"] is False and reply["kind"] == "InvalidInput", reply
    assert "not JSON" in reply["error"], reply
    assert app_page.evaluate("document.documentElement.dataset.state") == "ready"
    ping = app_page.evaluate("generala.engine.call(JSON.stringify({op: 'ping'}))")
    assert json.loads(ping)["ok"] is True


@pytest.mark.cross_engine
def test_boot_failure_is_reported_visibly_and_calls_reject(page, guard):
    # Break the engine download: the page must end in data-state=error with a message,
    # and a call to the engine rejects with the boot's error instead of waiting forever.
    guard.allow(r"generala\.lazy\.zip|could not start|Failed to load resource")
    page.context.route("**/generala.lazy.zip", lambda route: route.fulfill(status=404, body="gone"))
    page.goto("/")
    page.wait_for_selector("html[data-state=error]", state="attached", timeout=90_000)
    message = page.text_content("#boot-error")
    assert message and "could not start" in message
    assert page.is_visible("#boot-error")
    outcome = page.evaluate(
        """generala.engine.call(JSON.stringify({op: 'ping'})).then(r => "reply:" + r, e => "error:" + e.message)"""
    )
    assert outcome == "error:" + page.evaluate("generala.engine.error"), outcome
    assert "cannot fetch the engine (404" in outcome


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_boot_failure_is_said_in_the_pages_language_and_its_reason_goes_to_the_console(page, guard, lang):
    # The error box is index.html's sentence in the page's language (the word tables'
    # own text), with none of the engine's English; the reason is on the console.
    guard.allow(r"generala\.lazy\.zip|could not start|Failed to load resource")
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.context.route("**/generala.lazy.zip", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(f"/?lang={lang}")
    page.wait_for_selector("html[data-state=error]", state="attached", timeout=90_000)
    assert page.is_visible("#boot-error")
    assert page.inner_text("#boot-error").strip() == words.table(lang)["boot.start_failed"]
    assert any("The game could not start: cannot fetch the engine (404" in e for e in errors), errors


@pytest.mark.cross_engine
def test_the_engine_boots_from_its_snapshot(app_page):
    # The build's memory snapshot (Pyodide started, the engine imported) is restored
    # instead of booting Python: tools/make_snapshot.mjs, static/js/engine-worker.mjs.
    worker = app_page.evaluate("generala.engine.timings.worker")
    assert worker["boot"] == "snapshot"
    entries = app_page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert not [u for u in entries if "snapshot.gz" in u], "the page itself fetched the snapshot"


def _zip_of_another_build(dist_dir) -> bytes:
    """generala.lazy.zip (what a restored worker reads of the engine's files) with another
    BUILD: the snapshot no longer matches it."""
    out = io.BytesIO()
    with zipfile.ZipFile(dist_dir / "generala.lazy.zip") as src, zipfile.ZipFile(out, "w") as dst:
        for name in src.namelist():
            dst.writestr(name, b"0000000000000000\n" if name == "generala/BUILD" else src.read(name))
    return out.getvalue()


def _snapshot_of_another_initial_memory(dist_dir) -> bytes:
    """The published snapshot, its record of Pyodide's initial memory (the SHA-256 of the
    image taken out of it: static/js/snapshot-memory.mjs) not this Pyodide's."""
    published = bytearray(gzip.decompress((dist_dir / "generala.snapshot.gz").read_bytes()))
    published[8] ^= 0xFF
    return gzip.compress(bytes(published), 1)


@pytest.mark.parametrize("broken", ["missing", "not a snapshot", "another engine build", "another initial memory"])
def test_without_a_usable_snapshot_the_engine_boots_pyodide_in_full(page, guard, dist_dir, broken):
    guard.allow(r"generala\.snapshot\.gz|Failed to load resource|engine stderr: booting Pyodide in full")
    warnings = []
    page.on("console", lambda msg: warnings.append(msg.text) if msg.type == "warning" else None)
    if broken == "missing":
        page.context.route("**/generala.snapshot.gz", lambda route: route.fulfill(status=404, body="gone"))
    elif broken == "not a snapshot":
        garbage = gzip.compress(b"\x00" * 4096)
        page.context.route("**/generala.snapshot.gz", lambda route: route.fulfill(status=200, body=garbage))
    elif broken == "another initial memory":
        other_memory = _snapshot_of_another_initial_memory(dist_dir)
        page.context.route("**/generala.snapshot.gz", lambda route: route.fulfill(status=200, body=other_memory))
    else:
        other = _zip_of_another_build(dist_dir)
        page.context.route("**/generala.lazy.zip", lambda route: route.fulfill(status=200, body=other))
    boot(page)
    assert page.evaluate("generala.engine.timings.worker.boot") == "full"
    assert [w for w in warnings if "booting Pyodide in full" in w], warnings
    if broken == "another initial memory":
        assert [w for w in warnings if "initial memory is not the one the snapshot was made against" in w], warnings
    reply = page.evaluate("generala.engine.call(JSON.stringify({op: 'ping'}))")
    assert json.loads(reply)["ok"] is True


@pytest.mark.only_chromium("CDP network emulation and navigator.connection (Chromium only)")
def test_on_a_slow_link_a_first_visit_boots_in_full_without_the_snapshot(page):
    # ~4 MB more to download costs more than restoring it saves at 3G speeds.
    asked = []
    page.context.route("**/generala.snapshot.gz", lambda route: (asked.append(route.request.url), route.continue_()))
    emulate_a_3g_link(page)
    boot(page)
    assert page.evaluate("navigator.connection.effectiveType") == "3g"
    assert page.evaluate("generala.engine.timings.worker.boot") == "full"
    assert asked == []


@pytest.mark.cross_engine
def test_a_first_visit_starts_its_ui_by_itself_and_a_tap_opens_the_game_prepared_meanwhile(context, guard):
    # Nothing saved, nothing in the address, no input at all: the UI starts once the
    # engine is ready and the page is idle, or a second after the load at the latest
    # (static/js/ui-start.mjs), then prepares the one-tap game while the page is idle
    # (static/ui/page/first_game.py) and builds the other screens (features.py). The tap
    # then opens that game: no new request.
    context.add_init_script(INPUT_AND_NEW_LOG)
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector("html[data-state=ready][data-ui-start=idle]", state="attached", timeout=90_000)
    page.wait_for_selector("html[data-first-game=rehearsed]", state="attached", timeout=60_000)
    assert page.evaluate("window.__firstVisit.inputs") == []
    started = page.evaluate("[window.__firstVisit.uiStartedWith, window.__firstVisit.uiStartedAfterLoad]")
    assert started[0] == "ready" or started[1] >= 1000, started  # the engine first, or a second passed
    page.wait_for_selector("html[data-screens=built]", state="attached", timeout=60_000)
    assert page.evaluate("window.__firstVisit.news") == 1  # the prepared game's
    assert page.locator(".rehearsal").count() == 0  # its board was laid out off screen, then dropped
    assert page.is_hidden("#board") and page.is_visible("#play-computer")
    page.click("#play-computer")
    page.wait_for_selector(BOARD_WITH_ROLL, timeout=60_000)  # the computer may roll first
    assert page.evaluate("window.__firstVisit.news") == 1
    assert page.evaluate("localStorage.getItem('generala.current')")  # the game is the player's: saved
    page.click("#roll")
    page.wait_for_function("() => [...document.querySelectorAll('#board [data-die]')].every(d => +d.dataset.face >= 1)")


def hold_idle(when: str) -> str:
    """An init script: the page's idle callbacks (generala.idle) held while ``when`` (a JS
    expression) is true and window.__holdIdle is set; the held ones wait in
    window.__heldIdle (each a function that lets one go)."""
    return """(() => {
  const held = window.__heldIdle = [];
  window.__holdIdle = true;
  let real = null;
  const wrapped = (timeout) => {
    if (window.__holdIdle && (%s)) return new Promise((resolve) => held.push(resolve));
    return real(timeout);
  };
  const generala = globalThis.generala = globalThis.generala || {};
  Object.defineProperty(generala, "idle", {configurable: true, get: () => wrapped, set: (f) => { real = f; }});
})();""" % when


# The page's idle callbacks held while the one-tap game is prepared (html[data-first-game=
# prepared]): the rehearsal of its board then waits at each step until the test lets it go.
HOLD_THE_REHEARSAL = hold_idle('document.documentElement.dataset.firstGame === "prepared"')


def test_a_game_started_while_its_board_is_rehearsed_plays_as_ever(context, guard):
    # The rehearsal builds its board off screen a part per idle task; the nodes a board
    # writes to are one list for the page, which the game's own board resets when it is
    # built. Another game started between two parts: the rehearsal stops (else its drawing
    # would write into the game's board), and the game plays.
    context.add_init_script(HOLD_THE_REHEARSAL)
    page = context.new_page()
    page.goto("/")
    wake(page)
    page.wait_for_selector("html[data-first-game=prepared]", state="attached", timeout=90_000)
    waiting = "() => window.__heldIdle.length > 0"  # the rehearsal waits for the page to be idle
    for step in range(3):  # into the rehearsal's building: its first parts made
        page.wait_for_function(waiting, timeout=30_000)
        page.evaluate("() => window.__heldIdle.shift()()")
    page.wait_for_function(waiting, timeout=30_000)
    page.select_option("#quick-game", "double")  # another game than the one rehearsed
    page.click("#play-computer")
    page.wait_for_selector("#board:not([hidden])[data-drawn=engine] .dice-10", state="attached", timeout=60_000)
    page.evaluate("() => { window.__holdIdle = false; window.__heldIdle.splice(0).forEach((go) => go()); }")
    # the other screens are built once the preparation has ended (page_boot.py)
    page.wait_for_selector("html[data-screens=built]", state="attached", timeout=60_000)
    page.wait_for_selector("#roll:enabled", timeout=60_000)  # the computer may roll first
    page.click("#roll")
    box = page.locator("#sheet button.box:visible:enabled:not(.refused)").first
    box.wait_for(timeout=30_000)
    assert page.get_attribute("html", "data-first-game") == "prepared"  # never rehearsed
    n = int(page.get_attribute("#board", "data-rendered"))
    box.click()
    page.wait_for_function("n => document.getElementById('confirm').open"
                           " || +document.getElementById('board').dataset.rendered > n", arg=n)


# The page's idle callbacks held once it is ready: the one-tap game's preparation waits at
# its first.
HOLD_IDLE_ONCE_READY = hold_idle('document.documentElement.dataset.state === "ready"')
# The reply of the page's first `new` held in JS (the worker has answered it: the game is
# the engine's; the page has not drawn it yet).
HOLD_THE_FIRST_NEW = """() => {
  const engine = generala.engine, request = engine.request.bind(engine);
  let held = false;
  engine.request = (text) => {
    const answer = request(text);
    if (held || JSON.parse(text).op !== "new") return answer;
    held = true;
    return new Promise((resolve, reject) => { window.__letNewGo = () => answer.then(resolve, reject); });
  };
}"""


def test_a_game_asked_for_before_the_one_tap_game_is_prepared_keeps_the_engine(context, guard):
    """The one-tap game is prepared in the engine when the page is idle, and only while the
    page has asked the engine for no game of its own: a custom game started just before
    (its reply still on its way, no board drawn yet) is the engine's game, and its first
    roll is its own."""
    context.add_init_script(HOLD_IDLE_ONCE_READY)
    page = context.new_page()
    page.goto("/")
    wake(page)
    page.wait_for_selector("html[data-state=ready]", state="attached", timeout=90_000)
    page.wait_for_function("() => window.__heldIdle.length > 0", timeout=30_000)  # the preparation waits
    page.evaluate(HOLD_THE_FIRST_NEW)
    page.click("#play-custom")
    page.wait_for_selector("#setup:not([hidden])")
    rows = page.locator("#sides > li")
    while rows.count() < 2:
        page.click("#add-side")
    rows.nth(0).locator(".side-name").fill("Ana")
    rows.nth(1).locator(".side-name").fill("Beto")
    page.click("#start")
    page.wait_for_function("() => typeof window.__letNewGo === 'function'")  # answered, not drawn
    page.evaluate("() => { window.__holdIdle = false; window.__heldIdle.splice(0).forEach((go) => go()); }")
    for _ in range(2):  # what the preparation sent, if anything, has reached the engine
        engine_round_trip(page)
    page.evaluate("() => window.__letNewGo()")
    page.wait_for_selector("#board:not([hidden]) #roll:enabled", timeout=30_000)
    n = int(page.get_attribute("#board", "data-rendered"))
    page.click("#roll")
    page.wait_for_function("n => +document.getElementById('board').dataset.rendered > n"
                           " && !document.getElementById('board').hasAttribute('aria-busy')", arg=n, timeout=30_000)
    view = json.loads(page.evaluate("generala.engine.call(JSON.stringify({op: 'view'}))"))["view"]
    assert [side["name"] for side in view["sides"]] == ["Ana", "Beto"]
    assert view["rolls"] == 1 and len(view["dice"]) == 5
    assert page.locator("#sheet button.box:visible:enabled:not(.refused)").count() > 0
    assert page.get_attribute("html", "data-first-game") is None  # never prepared


def test_the_screens_the_board_does_not_need_are_built_when_first_asked_for(context, guard):
    # A first visit imports and builds what the home screen and the board need; the setup
    # form is built when it first opens, the other screens once the page is ready
    # (static/ui/screens/features.py), or as soon as one is asked for. The engine is held
    # back here, so the page stays short of `ready` while they are asked for.
    from test_engine_transport import Held
    held = Held(context, "**/generala.snapshot.gz")
    page = context.new_page()
    page.goto("/")
    wake(page)
    page.wait_for_selector("html[data-state=ui-ready]", state="attached", timeout=90_000)
    assert held.seen == 1 and page.evaluate("generala.engine.state") == "starting"
    assert page.evaluate("document.documentElement.dataset.screens") is None
    assert page.locator("#game-choice label.game").count() == 0  # the setup form: not built yet
    page.click("#nav-records")
    page.wait_for_selector("#records", state="visible")
    assert page.evaluate("document.documentElement.dataset.screens") == "built"
    page.click("#records [data-records=back]")
    page.click("#play-custom")
    page.wait_for_selector("#setup", state="visible")
    assert page.locator("#game-choice label.game").count() == 4
    assert page.locator("#sides > li").count() == 2
    held.release()
    page.wait_for_selector("html[data-state=ready]", state="attached", timeout=90_000)


def test_a_one_tap_game_picked_otherwise_than_prepared_asks_the_engine(context, guard):
    # The prepared game is the home screen's pick at the time: another game picked before
    # the tap is asked of the engine as ever.
    context.add_init_script(INPUT_AND_NEW_LOG)
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector("html[data-first-game]", state="attached", timeout=90_000)
    page.select_option("#quick-game", "double")
    page.click("#play-computer")
    page.wait_for_selector("#board:not([hidden])[data-drawn=engine] .dice-10", state="attached", timeout=60_000)
    assert page.evaluate("window.__firstVisit.news") == 2


@pytest.mark.cross_engine
@pytest.mark.parametrize("lang", ["es"])
def test_the_title_is_in_the_page_language_before_anything_runs(page, lang):
    # ?lang=es on a first visit: the tab's title is Spanish from the first paint, before
    # the UI could run a line (its PyScript config is held back) and without any input.
    held, let_go = [], []
    page.route("**/pyscript.json", lambda route: route.continue_() if let_go else held.append(route))
    page.goto(f"/?lang={lang}", wait_until="domcontentloaded")
    assert page.title() == words.table(lang)["page.title"]
    assert page.get_attribute('meta[name="description"]', "content") == words.table(lang)["page.description"]
    assert page.get_attribute("html", "data-state") == "loading"
    poll(page, lambda: held, 60, "the page's PyScript config requested")  # the UI is on its way, held back
    assert page.title() == words.table(lang)["page.title"]
    let_go.append(True)  # PyScript asks for it once per type (mpy, py): the next one too
    for route in held:
        route.continue_()
    page.wait_for_selector("html[data-state=ready]", state="attached", timeout=90_000)
    assert page.title() == words.table(lang)["page.title"]  # the UI's own words agree


NO_HOURGLASS = """() => {
  const found = [];
  for (const node of document.querySelectorAll("body, body *")) {
    for (const pseudo of ["::before", "::after"]) {
      if (getComputedStyle(node, pseudo).content.includes("\u23f3")) found.push(node.id || node.className || node.tagName);
    }
  }
  if (document.body.innerText.includes("\u23f3")) found.push("text");
  return found;
}"""


def test_the_home_screen_draws_no_hourglass(page):
    # The status line's "still loading" mark is drawn by CSS (static/css/site.css): an
    # emoji is a blank box where no emoji font is installed.
    page.goto("/", wait_until="commit")
    page.wait_for_function("""() => {
      const status = document.getElementById('engine-status');
      return status && status.textContent.trim() !== '' && document.documentElement.dataset.state === 'loading'
        && getComputedStyle(status, '::after').animationName === 'status-turn';
    }""", timeout=30_000)
    assert page.evaluate("getComputedStyle(document.getElementById('engine-status'), '::after').content") == '""'
    assert page.evaluate(NO_HOURGLASS) == []
