"""A player's bot runs in a sandbox (static/js/bot-lab.mjs, static/bot-sandbox.html,
static/js/bot-worker.js): a worker in an opaque origin, in the Bot lab and in a seat at a
game. A hostile bot (Python, through Pyodide's `js`) tries each way out, one test each:
Cache Storage (open + put of a forged page), IndexedDB, fetch of this site (a relative and
an absolute URL), importScripts of this site's script, reading localStorage, a forged
results message to the page, and forged figures (its own count patched): each fails, the
bot says what it saw (through its error), and the player's saves (localStorage's
`generala.*` keys) and Cache Storage (the service worker's copies of the site) are byte
for byte as before. The same probes from a seat in a hot-seat game. After one online
visit, the lab and a seat work offline."""
from __future__ import annotations

import json
import time

import pytest
from gamepage import GamePage, open_botlab
from test_botlab import ana_plays_until, save_bot, start_hot_seat
from test_offline import CONTROLLED, own_site, sw_context  # noqa: F401 (fixtures)

from e2e_support import STATE_LOG_SCRIPT, Guard, wait_ready
from generala.modes import bots

# The dice land at once and a computer plays at once (the board's motion switch off: conftest
# STILL_DICE): what is under test here is not the motion (test_table_motion.py).
pytestmark = pytest.mark.still_dice

RUN_TIMEOUT = 300_000

# What the player keeps: every generala.* key of localStorage, and every entry of Cache
# Storage (URL, status, headers, SHA-256 of the body) but the service worker's own
# notes of which page runs which build (./__sw/client/..., written when any page or
# frame of the site opens: static/js/sw.js), and the names of IndexedDB's databases.
SAVES = """async () => {
  const keys = {};
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (k.startsWith("generala.")) keys[k] = localStorage.getItem(k);
  }
  const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
  const stored = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    const entries = [];
    for (const request of await cache.keys()) {
      if (new URL(request.url).pathname.includes("/__sw/client/")) continue;
      const response = await cache.match(request);
      const body = await crypto.subtle.digest("SHA-256", await response.arrayBuffer());
      entries.push([request.url, response.status, [...response.headers].map((h) => h.join(": ")).sort(), hex(body)]);
    }
    stored[name] = entries.sort();
  }
  const databases = indexedDB.databases ? (await indexedDB.databases()).map((d) => d.name).sort() : null;
  return { keys, caches: stored, databases };
}"""

# A probe: the bot tries ATTEMPT at its first move. A refusal raised at once, or a
# promise that rejects (settled between two slices of games: the worker yields), is
# "refused"; anything it got is "done". Once it knows, it raises with what it saw.
PROBE = '''import js

SITE = {site!r}
seen = []


def attempt():
{attempt}


def settle(result):
    if hasattr(result, "then"):
        result.then(lambda value: seen.append("done"), lambda error: seen.append("refused (rejected)"))
    else:
        seen.append("done")


started = False


def play(turn):
    global started
    if not started:
        started = True
        try:
            result = attempt()
        except Exception as exc:
            seen.append("refused (" + type(exc).__name__ + ")")
        else:
            settle(result)
    if seen:
        raise RuntimeError("probe: " + seen[0])
    return turn.best()
'''

ATTEMPTS = {
    "cache_storage": '''    forged = js.Response.new("<!doctype html><h1>owned</h1>")

    def put(cache):
        return cache.put(SITE + "/index.html", forged)
    return js.caches.keys().then(
        lambda names: js.caches.open(names[0] if names.length else "generala-forged")).then(put)''',
    "indexed_db": '''    return js.indexedDB.open("generala-forged")''',
    "fetch_relative": '''    return js.fetch("/")''',
    "fetch_absolute": '''    return js.fetch(SITE + "/index.html")''',
    "import_scripts": '''    return js.importScripts(SITE + "/static/js/page-lang.js")''',
    "local_storage": '''    return js.localStorage.getItem("generala.bots")''',
}

# What each refusal may say on the console (the browser's report of a policy block),
# claimed in the test that provokes it; nothing else is.
CONSOLE = {
    "fetch_absolute": r"(Content.Security.Policy|Refused to connect|blocked the loading|NetworkError|Failed to fetch)",
    "import_scripts": r"(Content.Security.Policy|Refused to load the script|blocked (the loading|a script))",
}


@pytest.fixture(scope="module")
def sandboxed(browser, base_url):
    """One page of the site with its service worker in control (the site precached: Cache
    Storage holds the player's copy of the site), a saved bot, and the Bot lab open."""
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900},
                                  service_workers="allow")
    guard = Guard()
    guard.attach_context(context)
    context.add_init_script(STATE_LOG_SCRIPT)
    page = context.new_page()
    page.goto("/")
    wait_ready(page)
    page.wait_for_function(CONTROLLED, timeout=90_000)
    save_bot(page, "Kept", bots.example_source("lazy"))
    yield page, guard
    context.close()


@pytest.fixture
def page(sandboxed):
    page, guard = sandboxed
    guard.problems.clear()
    guard.allowed.clear()
    if not page.is_visible("#botlab"):
        open_botlab(page)
    yield page
    guard.collect_error_boxes()
    if guard.problems:
        pytest.fail("the browser reported problems:\n" + guard.report(), pytrace=False)


def run(page, code: str, games: int = 100) -> str:
    """Run ``code`` in the lab (the Argentine game); its end state: done, error or failed."""
    page.evaluate("t => window.generala.botlab.setCode(t)", code)
    page.select_option("#lab-game", "argentine")
    page.evaluate("n => { document.getElementById('lab-games').value = n; }", str(games))
    page.click("#lab-run")
    page.wait_for_function("() => ['done', 'error', 'failed', 'stopped']"
                           ".includes(document.getElementById('botlab').dataset.state)"
                           " && window.generala.botlab.state.phase !== 'running'", timeout=RUN_TIMEOUT)
    return page.get_attribute("#botlab", "data-state")


def saves(page) -> dict:
    found = page.evaluate(SAVES)
    assert found["keys"].get("generala.bots") and found["caches"], "nothing to keep: the test would prove nothing"
    return found


@pytest.mark.cross_engine
@pytest.mark.parametrize("capability", sorted(ATTEMPTS))
def test_a_bot_cannot_reach_storage_the_network_or_scripts_of_the_site(sandboxed, page, base_url, capability):
    _, guard = sandboxed
    if capability in CONSOLE:
        guard.allow(CONSOLE[capability])
    before = saves(page)
    code = PROBE.format(site=base_url, attempt=ATTEMPTS[capability])
    # enough games for a promise to settle (Firefox rejects a refused fetch ~0.8 s later)
    assert run(page, code, games=2000) == "error"
    said = page.text_content("#lab-error")
    assert "probe: refused" in said, said
    assert page.evaluate(SAVES) == before


@pytest.mark.cross_engine
def test_a_forged_results_message_is_refused_and_shows_no_figure(page):
    before = saves(page)
    forger = '''import js
from pyodide.ffi import to_js

sent = False


def play(turn):
    global sent
    if not sent:
        sent = True
        results = {"game": "argentine", "games": 100, "mean": 999.0, "stdev": 0.0, "se": 0.0, "min": 999,
                   "max": 999, "reference": None, "histogram": [{"from": 995, "to": 1000, "count": 100}],
                   "boxes": [], "seconds": 1.0, "bot_seconds": 1.0, "games_per_second": 100.0}
        js.postMessage(to_js({"type": "results", "results": results}, dict_converter=js.Object.fromEntries))
    return turn.best()
'''
    assert run(page, forger) == "error"
    assert page.text_content("#lab-error h3") == "The bot sent the page a message it does not take"
    assert "(results)" in page.text_content("#lab-error")
    assert page.locator("#lab-mean").count() == 0 and "999" not in page.text_content("#botlab")
    assert page.evaluate(SAVES) == before


@pytest.mark.cross_engine
def test_the_figures_are_the_engines_count_whatever_the_bot_does_to_its_own(page):
    """A bot that patches its sandbox's count to say 999 (the figures the lab once took from
    the bot's worker): the lab shows the engine's count of its games, the same as CPython's
    for the same moves."""
    before = saves(page)
    cheat = '''import generala.modes.bots as counted

honest = counted.summary


def summary(*args, **kwargs):
    out = honest(*args, **kwargs)
    out.update(mean=999.0, se=0.0, stdev=0.0, min=999, max=999)
    return out


counted.summary = summary


def play(turn):
    return turn.best()
'''
    assert run(page, cheat) == "done"
    mean = float(page.get_attribute("#lab-mean", "data-mean"))
    assert mean == bots.run("def play(turn):\n    return turn.best()\n", "argentine", 100, seed=0)["mean"]
    rows = page.locator("#lab-histogram table tbody tr td:last-child").all_text_contents()
    assert sum(int(r) for r in rows) == 100
    assert page.evaluate(SAVES) == before


SEAT_PROBES = '''import js

SITE = {site!r}
seen = {{}}


def settle(name, result):
    if hasattr(result, "then"):
        result.then(lambda value: seen.update({{name: "done"}}),
                    lambda error: seen.update({{name: "refused"}}))
    else:
        seen[name] = "done"


def attempts():
    return {{
        "caches": lambda: js.caches.open("generala-forged"),
        "indexeddb": lambda: js.indexedDB.open("generala-forged"),
        "fetch": lambda: js.fetch("/"),
        "fetch-site": lambda: js.fetch(SITE + "/index.html"),
        "importscripts": lambda: js.importScripts(SITE + "/static/js/page-lang.js"),
        "localstorage": lambda: js.localStorage.getItem("generala.bots"),
    }}


started = False


def play(turn):
    global started
    if not started:
        started = True
        for name, attempt in attempts().items():
            try:
                settle(name, attempt())
            except Exception:
                seen[name] = "refused"
    if len(seen) == len(attempts()):
        raise RuntimeError("probes " + " ".join(k + "=" + v for k, v in sorted(seen.items())))
    return turn.best()
'''


@pytest.mark.cross_engine
def test_a_seated_bot_cannot_reach_storage_the_network_or_scripts_either(sandboxed, page, base_url):
    """The same probes from a seat in a hot-seat game: the bot says what it saw through its
    error (the note under the dice), and the saves but the game's own are as before."""
    _, guard = sandboxed
    guard.allow(CONSOLE["fetch_absolute"])
    guard.allow(CONSOLE["import_scripts"])
    save_bot(page, "Prober", SEAT_PROBES.format(site=base_url))
    before = saves(page)
    gp = GamePage(page)
    start_hot_seat(page, "Prober")
    seen = lambda: "probes " in page.inner_text("#ai-note")  # noqa: E731
    ana_plays_until(page, gp, seen, time.monotonic() + 300)
    note = page.inner_text("#ai-note")
    assert seen(), note
    for name in ("caches", "indexeddb", "fetch", "fetch-site", "importscripts", "localstorage"):
        assert f"{name}=refused" in note, (name, note)
    after = page.evaluate(SAVES)
    game_keys = {k for k in after["keys"] if k.startswith("generala.save.") or k in ("generala.current",)}
    assert {k: v for k, v in after["keys"].items() if k not in game_keys} == \
        {k: v for k, v in before["keys"].items() if k not in game_keys}
    # the site's own worker keeps the QR encoder once a game is playing (qr-code.mjs),
    # and the value table and laws the win chances fetch (static/tables/): those may come;
    # nothing else changes
    assert site_kept(after["caches"]) == site_kept(before["caches"]) and after["databases"] == before["databases"]


def site_kept(caches):
    """The cached entries, without the files the site keeps once a game is playing."""
    return {name: [row for row in rows if "/vendor/qrcode-generator/" not in row[0] and "/static/tables/" not in row[0]]
            for name, rows in caches.items()}


def test_a_seated_bot_past_the_time_limit_is_stopped_and_the_game_goes_on(page):
    """A seat's move that never returns: its sandbox is removed after 1.5 s, the heuristic
    level finishes that turn, and a new sandbox plays the bot's next turns."""
    stuck = "def play(turn):\n    while turn.turn == 1:\n        pass\n    return turn.best()\n"
    save_bot(page, "Stuck", stuck)
    gp = GamePage(page)
    start_hot_seat(page, "Stuck")
    timed_out = lambda: "more than 1 s" in page.inner_text("#ai-note")  # noqa: E731
    deadline = time.monotonic() + 300
    ana_plays_until(page, gp, timed_out, deadline)
    assert page.inner_text("#ai-note") == (
        "The bot Stuck stopped (the move took more than 1 s); the computer finished its turn.")
    ana_plays_until(page, gp, lambda: False, deadline)
    gp.settled()
    assert page.is_visible("#over")


@pytest.mark.cross_engine
def test_the_lab_and_a_seat_work_offline_after_one_visit(own_site, sw_context):  # noqa: F811
    # A visit that opened the lab once: its editor, frame and worker are not precached (a
    # first game never needs them), but kept once fetched (static/js/sw.js, ON DEMAND).
    dist, base_url, servers = own_site
    context, guard = sw_context
    page = context.new_page()
    page.goto(base_url + "/")
    wait_ready(page)
    page.wait_for_function(CONTROLLED, timeout=90_000)
    open_botlab(page)
    page.wait_for_function(
        "() => caches.keys().then(ns => caches.open(ns[0])).then(c => c.keys())"
        ".then(ks => ks.some(r => r.url.endsWith('/code-editor.mjs')) && ks.some(r => r.url.endsWith('/bot-worker.js')))",
        timeout=30_000)
    servers.pop("stop")()  # the network is gone (Firefox: see test_offline.py)
    if context.browser.browser_type.name != "firefox":
        context.set_offline(True)
    page.reload()
    wait_ready(page)
    open_botlab(page)
    lazy = bots.example_source("lazy")
    assert run(page, lazy) == "done"
    assert float(page.get_attribute("#lab-mean", "data-mean")) == bots.run(lazy, "argentine", 100, seed=0)["mean"]
    # a seat's move, from a sandbox of its own
    state = {"game": "argentine", "options": {}, "dice": [6, 6, 6, 2, 1], "rolls": 3,
             "sheets": [{box: None for box in bots.lab_rules("argentine").categories}], "side": 0, "turn": 1}
    answer = json.loads(page.evaluate("([c, s]) => generala.botlab.choose(c, s, 'offline')", [lazy, json.dumps(state)]))
    assert answer == {"move": {"score": "sixes"}}, answer


# The URLs the page's own window fetches (the sandbox's frame has its own window).
FETCHES = """if (window === window.top) {
  const fetch = window.fetch.bind(window);
  window.__fetched = [];
  window.fetch = (url, options) => { window.__fetched.push(String(url)); return fetch(url, options); };
}"""


def lab_with_fetches(context):
    """A new page of the site with its fetches recorded (window.__fetched), the Bot lab open."""
    context.add_init_script(FETCHES)
    page = context.new_page()
    page.goto("/")
    wait_ready(page)
    open_botlab(page)
    return page


def test_the_sandbox_restores_the_snapshot_and_asks_for_no_library(context, guard):
    """The snapshot as published (static/js/snapshot-memory.mjs: Pyodide's initial memory
    taken out) is put back together in the sandbox's worker too: it boots from it, and the
    page never fetches the standard library a boot in full would need."""
    warnings = []
    context.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    page = lab_with_fetches(context)
    fetched = page.evaluate("window.__fetched")
    assert any(u.endswith("/generala.snapshot.gz") for u in fetched)
    assert any(u.endswith("/snapshot-memory.mjs") for u in fetched)
    assert not any(u.endswith("/python_stdlib.zip") for u in fetched), fetched
    assert not [w for w in warnings if "booting Pyodide in full" in w], warnings


def test_without_the_snapshot_the_sandbox_boots_in_full_with_the_library_the_page_hands_it(context, guard):
    """The snapshot cannot be had: the sandbox's worker boots Pyodide in full and asks the
    page for the standard library (need / file), and the bot plays as before."""
    context.route("**/generala.snapshot.gz", lambda route: route.abort())
    # the engine worker boots in full too, and says so
    guard.allow(r"generala\.snapshot\.gz|net::ERR_FAILED|NetworkError|booting Pyodide in full|Failed to fetch")
    page = lab_with_fetches(context)
    lazy = bots.example_source("lazy")
    assert run(page, lazy) == "done"
    assert float(page.get_attribute("#lab-mean", "data-mean")) == bots.run(lazy, "argentine", 100, seed=0)["mean"]
    fetched = page.evaluate("window.__fetched")  # by the page (static/js/bot-lab.mjs), for the sandbox
    assert any(u.endswith("/generala.snapshot.gz") for u in fetched)
    assert any(u.endswith("/python_stdlib.zip") for u in fetched), fetched
