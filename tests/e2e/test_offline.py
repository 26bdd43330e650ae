"""Offline and install: the service worker precaches the site, the game
boots offline after one online visit, a new build is offered and replaces the old
cache only when the player asks, and Chromium finds the site installable.

Each test serves its own copy of the site on its own port (it stops that server
to go offline: Chromium's offline mode does not cover the service worker's own
fetches), in a context where service workers are allowed.
"""
from __future__ import annotations

import json
import shutil

import pytest

from e2e_support import Guard, emulate_a_3g_link, wait_ready
from tools import build as site_build
from tools.serve import start_server

CONTROLLED = "navigator.serviceWorker.controller !== null"


@pytest.fixture
def own_site(dist_dir, tmp_path):
    """A copy of the built site served on a port of its own: (dist, base_url, servers)."""
    dist = tmp_path / "dist"
    shutil.copytree(dist_dir, dist)
    servers = {}
    base_url, servers["stop"] = start_server(dist)
    yield dist, base_url, servers
    if servers.get("stop"):
        servers["stop"]()


@pytest.fixture
def sw_context(browser):
    """A context with service workers allowed, and a guard checked at teardown."""
    context = browser.new_context(service_workers="allow")
    guard = Guard()
    guard.attach_context(context)
    yield context, guard
    guard.collect_error_boxes()
    problems = guard.report()
    context.close()
    if problems:
        pytest.fail("the browser reported problems:\n" + problems, pytrace=False)


def first_visit(context, base_url):
    page = context.new_page()
    page.goto(base_url + "/")
    wait_ready(page)
    page.wait_for_function(CONTROLLED, timeout=90_000)
    return page


def cache_names(page):
    return page.evaluate("caches.keys()")


def ping(page):
    return json.loads(page.evaluate("generalaEngine.call(JSON.stringify({op: 'ping'}))"))


@pytest.mark.cross_engine
def test_boots_offline_after_one_visit_in_the_same_tab_and_a_new_one(own_site, sw_context):
    dist, base_url, servers = own_site
    context, guard = sw_context
    version = json.loads((dist / "version.json").read_text())["version"]
    page = first_visit(context, base_url)
    assert cache_names(page) == [f"generala-{version}"]
    cached = page.evaluate(
        "caches.open(`generala-${%s}`).then(c => c.keys()).then(ks => ks.map(r => new URL(r.url).pathname))"
        % json.dumps(version)
    )
    for path in ["/index.html", "/generala.zip", "/generala.snapshot.gz", "/catalog.json",
                 "/static/tables/argentine.gvt", "/static/tables/double.gvt"]:
        assert path in cached
    assert [p for p in cached if p.endswith("/pyodide.asm.wasm")], "the 9.6 MB wasm is precached"
    # The large table (1.3 MB) is fetched when a game first needs it, not precached;
    # the library a boot in full needs, when a boot in full needs it.
    assert "/static/tables/bulgarian.gvt" not in cached
    assert "/python_stdlib.zip" not in cached and "/python_stdlib.empty.zip" in cached

    # Network gone: the server stopped, and in Chromium the browser offline too.
    # (Firefox's offline mode refuses a reload with NS_ERROR_OFFLINE before the
    # service worker can answer it: the stopped server is the network gone there.)
    servers.pop("stop")()
    if context.browser.browser_type.name != "firefox":
        context.set_offline(True)
    page.reload()
    wait_ready(page)
    assert ping(page)["ok"] is True
    assert page.evaluate("generalaEngine.timings.worker.boot") == "snapshot"

    tab = context.new_page()
    tab.goto(base_url + "/?variant=argentine")
    wait_ready(tab)
    assert ping(tab)["ok"] is True


@pytest.mark.only_chromium("CDP network emulation and navigator.connection (Chromium only)")
def test_on_a_slow_link_the_cached_snapshot_is_used(own_site, sw_context):
    # A first visit on a 3G link boots in full (test_boot.py); once the service
    # worker holds the snapshot, it costs no download and the engine boots from it.
    _, base_url, _ = own_site
    context, _ = sw_context
    first_visit(context, base_url).close()
    tab = context.new_page()
    emulate_a_3g_link(tab)
    tab.goto(base_url + "/")
    wait_ready(tab)
    assert tab.evaluate("navigator.connection.effectiveType") == "3g"
    assert tab.evaluate("generalaEngine.timings.worker.boot") == "snapshot"


@pytest.mark.only_chromium("CDP network emulation and navigator.connection (Chromium only)")
def test_a_first_visit_booted_in_full_keeps_its_library_for_offline(own_site, sw_context):
    # On a 3G link the first visit boots in full: the library it fetched is cached
    # (on demand), and offline the game boots (from the precached snapshot) and plays.
    _, base_url, servers = own_site
    context, _ = sw_context
    page = context.new_page()
    emulate_a_3g_link(page)
    page.goto(base_url + "/")
    wait_ready(page)
    assert page.evaluate("generalaEngine.timings.worker.boot") == "full"
    page.wait_for_function(CONTROLLED, timeout=90_000)
    servers.pop("stop")()
    context.set_offline(True)
    page.reload()
    wait_ready(page)
    assert ping(page)["ok"] is True
    computer_moves(page, "argentine")


@pytest.mark.cross_engine
def test_a_new_version_is_offered_and_replaces_the_old_cache_on_request(own_site, sw_context):
    dist, base_url, servers = own_site
    context, guard = sw_context
    old_version = json.loads((dist / "version.json").read_text())["version"]
    page = first_visit(context, base_url)
    assert cache_names(page) == [f"generala-{old_version}"]

    # Release a new build on the same origin.
    manifest = json.loads((dist / "version.json").read_text())
    with open(dist / "static" / "css" / "site.css", "a", encoding="utf-8") as f:
        f.write("\n/* a new release */\n")
    new_version = site_build.finalize(dist, manifest["runtimes"])["version"]
    assert new_version != old_version

    page.evaluate("generalaServiceWorker.update()")
    # It installs beside the old one and waits: the page offers a reload, and the
    # page keeps running the old version until the player asks.
    page.wait_for_selector("#update-banner:not([hidden])", timeout=90_000)
    assert "new version" in page.text_content("#update-banner")
    assert page.evaluate("caches.keys()").count(f"generala-{old_version}") == 1
    assert page.evaluate("navigator.serviceWorker.controller !== null")

    with page.expect_navigation(timeout=90_000):
        page.click("#update-reload")
    wait_ready(page)
    page.wait_for_function(
        f"caches.keys().then(k => k.length === 1 && k[0] === 'generala-{new_version}')", timeout=60_000
    )
    # The new build is what runs now.
    assert page.evaluate(
        "fetch('./version.json').then(r => r.json()).then(j => j.version)"
    ) == new_version


@pytest.mark.only_chromium("CDP: Page.getInstallabilityErrors and Page.getAppManifest")
def test_chromium_finds_the_site_installable(own_site, sw_context):
    dist, base_url, servers = own_site
    context, guard = sw_context
    page = first_visit(context, base_url)
    cdp = context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    errors = [e for e in errors if e["errorId"] != "in-incognito"]
    assert errors == []
    manifest = cdp.send("Page.getAppManifest")
    assert not manifest.get("errors"), manifest.get("errors")
    data = json.loads(manifest["data"])
    assert data["display"] == "standalone"
    sizes = {(i["sizes"], i.get("purpose", "any")) for i in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")} <= sizes


def call(page, request):
    return json.loads(page.evaluate("(r) => generalaEngine.call(r)", json.dumps(request)))


def computer_moves(page, variant, steps=6):
    """A game of `variant` with one computer player: `steps` of its moves (they need the table)."""
    reply = call(page, {"op": "new", "variant": variant, "sides": [{"name": "Bot", "player": "ai:optimal"}], "seed": 3})
    assert reply["ok"], reply
    for _ in range(steps):
        reply = call(page, {"op": "ai"})
        assert reply["ok"], reply
    return reply


def cached_paths(page):
    return page.evaluate(
        "caches.keys().then(ns => Promise.all(ns.map(n => caches.open(n).then(c => c.keys()))))"
        ".then(all => all.flat().map(r => new URL(r.url).pathname))"
    )


def test_a_table_fetched_once_is_cached_and_works_offline(own_site, sw_context):
    _, base_url, servers = own_site
    context, _ = sw_context
    requests = []
    context.on("request", lambda r: requests.append(r.url))
    page = first_visit(context, base_url)
    assert "/static/tables/bulgarian.gvt" not in cached_paths(page)
    assert not [u for u in requests if u.endswith("bulgarian.gvt")], "precached although no game needed it"
    computer_moves(page, "bulgarian")
    assert [u for u in requests if u.endswith("bulgarian.gvt")]
    page.wait_for_function(
        "caches.keys().then(ns => caches.open(ns[0])).then(c => c.match('./static/tables/bulgarian.gvt'))"
        ".then(r => r !== undefined)", timeout=30_000)

    servers.pop("stop")()
    if context.browser.browser_type.name != "firefox":  # see the first test: Firefox offline
        context.set_offline(True)
    tab = context.new_page()
    tab.goto(base_url + "/")
    wait_ready(tab)
    reply = computer_moves(tab, "bulgarian")
    assert reply["view"]["variant"] == "bulgarian"
    # A precached small table works offline without having been fetched before.
    computer_moves(tab, "argentine")


@pytest.mark.cross_engine
def test_embed_mode_registers_no_service_worker(own_site, sw_context):
    _, base_url, _ = own_site
    context, _ = sw_context
    page = context.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    # Every call to register (sw-register.mjs makes it, when it does, in the task that
    # sets data-state=ready: the state's observer, then a microtask).
    page.add_init_script("""
      window.__swCalls = 0;
      if (navigator.serviceWorker) {
        const reg = navigator.serviceWorker.register.bind(navigator.serviceWorker);
        navigator.serviceWorker.register = (...args) => { window.__swCalls++; return reg(...args); };
      }
    """)
    page.goto(base_url + "/?embed=1")
    wait_ready(page)
    assert page.evaluate("window.__swCalls") == 0
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 0
    assert page.evaluate("caches.keys()") == []
    assert not [u for u in requests if u.endswith(("/sw.js", ".gvt"))]


def test_the_service_worker_registers_only_once_the_first_roll_is_possible(own_site, sw_context):
    _, base_url, _ = own_site
    context, _ = sw_context
    page = context.new_page()
    page.add_init_script("""
      // (Firefox also runs this in the first about:blank, which has no serviceWorker.)
      window.__swAt = null;
      if (navigator.serviceWorker) {
        const reg = navigator.serviceWorker.register.bind(navigator.serviceWorker);
        navigator.serviceWorker.register = (...args) => {
          window.__swAt = document.documentElement.dataset.state;
          return reg(...args);
        };
      }
    """)
    page.goto(base_url + "/")
    wait_ready(page)
    page.wait_for_function(CONTROLLED, timeout=90_000)
    assert page.evaluate("window.__swAt") == "ready"


def test_a_first_visit_without_input_registers_it_once_the_engine_is_ready(own_site, sw_context):
    # Nothing saved, no input yet: the page's UI waits for a person (ui-start.mjs), so the
    # service worker registers once the engine alone is ready, and its precache (the UI's
    # files included) is in place before the first tap.
    _, base_url, _ = own_site
    context, _ = sw_context
    page = context.new_page()
    page.add_init_script("""
      window.__swAt = null;
      if (navigator.serviceWorker) {
        const reg = navigator.serviceWorker.register.bind(navigator.serviceWorker);
        navigator.serviceWorker.register = (...args) => {
          window.__swAt = [document.documentElement.dataset.state, globalThis.generalaEngine.state];
          return reg(...args);
        };
      }
    """)
    page.goto(base_url + "/")
    page.wait_for_function(CONTROLLED, timeout=90_000)
    assert page.evaluate("window.__swAt") == ["loading", "ready"]
    assert page.evaluate("document.documentElement.getAttribute('data-ui')") is None
    page.click("#play-computer")  # the first input: the UI starts, the game with it
    page.wait_for_selector("html[data-state=ready]", state="attached", timeout=90_000)
    page.wait_for_selector("#board:not([hidden]) [data-die]")
