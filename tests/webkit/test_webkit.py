"""The game in WebKit (WebKitGTK MiniBrowser, Selenium): boot, a turn of each variant (and
the win chances after it),
a reload that resumes the same dice, an offline reload under the service worker, the
embed in a cross-site iframe, a save that fails to write, and the guard itself."""
from __future__ import annotations

import shutil
import sys
import urllib.parse
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from e2e_support import host_page  # noqa: E402
from gamepage import Mirror  # noqa: E402  (the CPython mirror of the engine)

from tools.serve import start_server  # noqa: E402
from webkit_support import COLLECT_ERRORS, reply  # noqa: E402

# No engine reply on its way and the last one's save written (saved_games.py marks the
# board data-save-pending until then).
SETTLED = ("const b = document.getElementById('board');"
           " return !b.hasAttribute('aria-busy') && !b.hasAttribute('data-save-pending');")
NOT_SAVED = ("return [...document.querySelectorAll('#messages .msg-error')]"
             ".filter(e => e.textContent.includes(\"The browser's storage is full\")).length")


def test_boots_to_ready_and_the_engine_answers(wk):
    wk.open("/")
    assert wk.js("return document.documentElement.dataset.state") == "ready"
    assert reply(wk, {"op": "ping"})["ok"] is True
    assert wk.js("return generala.engine.timings.worker.boot") == "snapshot"
    assert wk.js("return generala.storage.persistent") is True


def test_the_engine_workers_end_is_watched_by_its_web_lock(wk):
    """The engine worker holds a Web Lock of its own and the page waits for it (granted when
    the worker is gone: static/js/engine.mjs; measured in WebKitGTK 2.50 too)."""
    wk.open("/")
    assert wk.js("return generala.engine.lifeline") == "lock"
    # The worker of the last page this browser showed (the driver's session goes on from
    # test to test) may still hold its lock for a moment after that page is gone: one lock
    # is held once it is released.
    held, waiting = wk.async_js("""
        const deadline = performance.now() + 10000;
        for (;;) {
          const q = await navigator.locks.query();
          const mine = q.held.filter(l => l.name.startsWith("generala-engine-worker-"));
          if (mine.length <= 1 || performance.now() > deadline) return [q.held.map(l => l.name), q.pending.map(l => l.name)];
          await new Promise(resolve => requestAnimationFrame(resolve));
        }""")
    names = [n for n in held if n.startswith("generala-engine-worker-")]
    assert len(names) == 1, held
    assert waiting.count(names[0]) == 1, waiting


@pytest.mark.parametrize("variant,seed", [("argentine", 11), ("puerto-rican", 7), ("bulgarian", 5), ("double", 3)])
def test_a_turn_of_each_variant(wk, variant, seed):
    wk.open(f"/?variant={variant}")
    names = ("Ana", "Beto")
    wk.new_game(variant, names, seed=seed)
    m = Mirror(variant, names, seed)
    first = m.view["current"]  # the roll-off decides who starts
    assert wk.current() == first
    m.do({"op": "roll"})
    wk.roll()
    assert wk.dice() == m.view["dice"]
    m.do({"op": "toggle", "die": 0})
    wk.hold(0)
    assert wk.held() == m.view["held"] and wk.held()[0] is True
    m.do({"op": "roll"})
    wk.roll()
    assert wk.dice() == m.view["dice"]
    assert wk.dice()[0] == m.view["dice"][0]
    if m.view["boxes_per_turn"] == 2:
        pair = m.best_pair()
        a, b = pair["boxes"]
        wk.score_pair(a, b)
        proposal = m.do({"op": "split", "boxes": [a, b]})["split"]
        m.do(proposal["request"])  # what the page sends: the engine's request for this split
    else:
        box = m.best_box()
        wk.score(box)
        m.do(m.request(box))
    assert wk.totals() == [s["total"] for s in m.view["sides"]]
    assert m.view["current"] != first and wk.current() == m.view["current"]
    # the win chances under the sums: CPython's figures for the same game, after the box
    key = f"{m.view['round']}/{m.view['current']}"
    wk.wait("const r = document.getElementById('chances-row');"
            " return !!r && !r.hidden && !r.hasAttribute('aria-busy') && r.dataset.key === arguments[0];",
            key, timeout=30.0, what="the chances' row after the box")
    shown = wk.js("return [...document.querySelectorAll('#chances-row td')].map(t => t.dataset.chance)")
    assert [float(x) for x in shown] == m.do({"op": "chances"})["chances"]["sides"]


def test_a_reload_resumes_the_same_dice_and_holds(wk):
    wk.open("/")
    wk.new_game("argentine", ("Ana",), seed=21)
    wk.roll()
    wk.hold(1)
    wk.hold(3)
    before = wk.dice(), wk.held()
    wk.wait(SETTLED, what="the last move saved")  # written a task after the draw
    wk.reload()
    # the reloaded page's engine is watched for InternalError replies (it exists only once
    # the page has loaded its scripts)
    assert wk.js("return !!window.__wkEngineInner")
    wk.wait("const b = document.getElementById('board'); return b && b.offsetParent !== null", what="the board")
    assert (wk.dice(), wk.held()) == before
    m = Mirror("argentine", ("Ana",), 21)
    m.do({"op": "roll"})
    m.do({"op": "toggle", "die": 1})
    m.do({"op": "toggle", "die": 3})
    assert before == (m.view["dice"], m.view["held"])
    m.do({"op": "roll"})
    wk.roll()
    assert wk.dice() == m.view["dice"]


@pytest.fixture
def own_site(dist_dir, tmp_path, served):
    """A copy of the site on a server of its own (the test stops it)."""
    dist = tmp_path / "dist"
    shutil.copytree(dist_dir, dist)
    servers = {}
    url, servers["stop"] = start_server(dist, on_response=lambda path, status, n: served.append((path, status)))
    yield url, servers
    if servers.get("stop"):
        servers["stop"]()


def test_an_offline_reload_still_plays(wk, own_site):
    url, servers = own_site
    wk.open(url + "/")
    assert wk.js("return 'serviceWorker' in navigator")
    wk.wait("return navigator.serviceWorker.controller !== null", timeout=90, what="the service worker in control")
    version = wk.async_js("return (await (await fetch('./version.json')).json()).version;")
    cached = wk.async_js(
        "const c = await caches.open('generala-' + args[0]); return (await c.keys()).map(r => new URL(r.url).pathname);",
        version)
    assert "/generala.snapshot.gz" in cached and "/index.html" in cached, cached
    servers.pop("stop")()
    wk.reload()
    assert reply(wk, {"op": "ping"})["ok"] is True
    wk.new_game("argentine", ("Ana",), seed=3)
    wk.roll()
    assert len(wk.dice()) == 5


@pytest.fixture
def blog(base_url):
    """A blog page on another site ("localhost") framing the game ("127.0.0.1")."""
    port = urllib.parse.urlsplit(base_url).port
    game_url = f"http://127.0.0.1:{port}/?embed=1&variant=argentine&lang=es&seed=7"
    body = (
        '<!doctype html><html lang="en"><title>blog</title><main style="width:320px"><p>A post.</p>'
        f'<iframe id="generala" src="{game_url}" title="Generala" sandbox="allow-scripts allow-same-origin"'
        ' style="width:100%;max-width:480px;height:720px;border:0"></iframe></main>'
        '<script>window.heights = []; addEventListener("message", (e) => {'
        ' if (e.data && e.data.type === "generala:height") window.heights.push(e.data.height); });</script>'
    ).encode()

    with host_page(body) as url:
        yield url


def test_the_embed_plays_in_a_cross_site_iframe(wk, blog):
    wk.open(blog, ready=False)
    frame = wk.d.find_element("css selector", "#generala")
    wk.d.switch_to.frame(frame)
    wk.script_clicks = True  # WebDriver clicks inside the frame miss (webkit_support.click)
    try:
        wk.js(COLLECT_ERRORS)
        wk.wait_ready()
        assert wk.js("return document.documentElement.classList.contains('embed')")
        # WebKit gives the cross-site frame storage of its own (partitioned) or none:
        # either way the page says so exactly when saves do not persist.
        persistent = wk.js("return generala.storage.persistent")
        assert wk.visible("#storage-note") is (not persistent)
        wk.new_game("argentine", ("Ana",), seed=7)
        wk.roll()
        assert len(wk.dice()) == 5
        box = wk.js("return [...document.querySelectorAll('#sheet button.box')].find(b => b.offsetParent).dataset.box")
        wk.score(box)
        wk.harvest()
    finally:
        wk.script_clicks = False
        wk.d.switch_to.default_content()
    assert wk.js("return window.heights.length") > 0


def test_a_save_that_fails_to_write_is_told_and_play_goes_on(wk):
    wk.open("/")
    wk.new_game("argentine", ("Ana", "Beto"), seed=5)
    m = Mirror("argentine", ("Ana", "Beto"), 5)
    wk.roll()
    m.do({"op": "roll"})
    saved = wk.js("return localStorage.getItem('generala.save.' + localStorage.getItem('generala.current'))")
    wk.js("""Storage.prototype.setItem = function () {
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError"); };""")
    wk.hold(0)
    m.do({"op": "toggle", "die": 0})
    wk.roll()
    m.do({"op": "roll"})
    wk.wait(NOT_SAVED, what="the storage-full message")
    assert wk.js(NOT_SAVED) == 1  # told once
    assert wk.dice() == m.view["dice"] and wk.held() == m.view["held"]
    box = m.best_box()
    wk.score(box)
    m.do({"op": "score", "box": box})
    assert wk.totals() == [s["total"] for s in m.view["sides"]]
    assert wk.js(NOT_SAVED) == 1
    # the last save that was written is intact
    assert wk.js("return localStorage.getItem('generala.save.' + localStorage.getItem('generala.current'))") == saved


def test_the_guard_sees_page_errors_csp_blocks_internal_errors_and_other_hosts(wk, proxy):
    wk.open("/")
    wk.js("setTimeout(() => { throw new Error('deliberate page error') }, 0);"
          "Promise.reject(new Error('deliberate rejection'));"
          "console.error('deliberate console error');"
          "fetch('http://external.test/x').catch(() => {});")
    # The engine answers every bad request with InvalidInput, so an InternalError reply
    # is crafted: a stand-in for the page's call answers one, through the guard's wrapper.
    wk.js("const inner = window.__wkEngineInner; inner.saved = inner.call;"
          " inner.call = async () => '{\"ok\": false, \"error\": \"deliberate\", \"kind\": \"InternalError\"}';")
    out = reply(wk, {"op": "ping"})
    wk.js("const inner = window.__wkEngineInner; inner.call = inner.saved;")
    assert out["kind"] == "InternalError"
    assert reply(wk, {"op": "nonsense"})["kind"] == "InvalidInput"
    wk.wait("const e = window.__wkErrors.join('\\n'); return ['deliberate page error', 'deliberate rejection',"
            " 'deliberate console error', 'CSP blocked connect-src'].every(w => e.includes(w))",
            what="the page's four reports")
    wk.harvest()
    text = "\n".join(wk.errors)
    assert "deliberate page error" in text
    assert "unhandled rejection: Error: deliberate rejection" in text
    assert "console error: deliberate console error" in text
    assert "CSP blocked connect-src: http://external.test" in text
    assert "engine InternalError reply:" in text
    wk.errors.clear()  # claimed: this test provoked them
    # A navigation to another host goes to the refusing proxy, which records it.
    wk.d.get("http://external.test/page.html")
    wk.wait("return true")
    assert any("external.test" in r for r in proxy.requests), proxy.requests
    proxy.requests.clear()
    wk.d.get(wk.base_url + "/version.json")
